import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { TempDirs } from '../../../test/helpers/tmp.ts';
import { obsidianUrl, obsidianVaultOf, withVaults } from './obsidian.ts';

const temp = new TempDirs();
afterAll(() => temp.cleanup());

describe('Obsidian vaults', () => {
  it('finds the vault a root is or lies in, and none for a plain folder', () => {
    const vault = temp.make('syn-vault-', { '.obsidian/app.json': '{}', 'Projects/Plan.md': '# Plan\n' });
    const plain = temp.make('syn-plain-', { 'a.md': '# A\n' });
    expect(obsidianVaultOf(vault)).toBe(vault);
    expect(obsidianVaultOf(path.join(vault, 'Projects'))).toBe(vault);
    expect(obsidianVaultOf(plain)).toBeNull();
    expect(withVaults([{ path: vault }, { path: plain }]).map((r) => r.obsidian_vault)).toEqual([vault, null]);
  });

  it('writes the obsidian://open address: the vault by its folder name, the file by its path in the vault', () => {
    expect(obsidianUrl('/home/me/My Vault', '/home/me/My Vault/Projects/Plan & more.md')).toBe('obsidian://open?vault=My%20Vault&file=Projects%2FPlan%20%26%20more');
    expect(obsidianUrl('/v', '/v/data.csv')).toBe('obsidian://open?vault=v&file=data.csv');
  });
});
