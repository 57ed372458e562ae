import { spawn } from 'node:child_process';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { CHILD_TEST_LIMIT_MS } from '../../test/helpers/limits.ts';
import { TempDirs } from '../../test/helpers/tmp.ts';
import { createEngine } from '../engine/engine.ts';

const temp = new TempDirs();
afterEach(() => temp.cleanup());
const BIN = path.resolve(import.meta.dirname, '..', '..', 'bin', 'synapsis.js');

describe('synapsis web on a store of an older analyzer', () => {
  it('serves at once and rebuilds the word index, saying how far it has come, then opens the rebuilt store', async () => {
    const vault = temp.make('web-upgrade-vault-', { 'relay.md': '# Relay\n\nThe relay listens on port 7443.\n', 'kestrel.md': '# Kestrel\n\nKestrel ships in May.\n' });
    const dataDir = temp.make('web-upgrade-data-');
    const engine = createEngine({ dataDir, env: {} });
    await engine.index([vault]);
    await engine.dispose();
    const db = new Database(path.join(dataDir, 'synapsis.db'));
    db.prepare("UPDATE settings SET value_json = ? WHERE key = 'lexical_analyzer'").run(JSON.stringify('an-older-analyzer'));
    db.close();
    const ui = temp.make('web-upgrade-ui-', { 'index.html': '<!doctype html>' });
    const child = spawn(process.execPath, [BIN, '--data-dir', dataDir, 'web', '--port', '0', '--json', '--no-watch', '--ui-dir', ui], {
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', SYN_EMBED_MODEL: '', SYN_CHAT_MODEL: '' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    // The address is printed before the rebuild ends: the page can show its progress.
    const order: string[] = [];
    await new Promise<void>((resolve, reject) => {
      const check = () => {
        if (out.includes('\n') && !order.includes('address')) order.push('address');
        if (err.includes(', done') && !order.includes('rebuilt')) order.push('rebuilt');
        if (order.length === 2) resolve();
      };
      child.stdout.on('data', (d: Buffer) => ((out += d.toString()), check()));
      child.stderr.on('data', (d: Buffer) => ((err += d.toString()), check()));
      child.on('error', reject);
      child.on('exit', () => resolve());
    });
    // The last progress line is written inside the rebuild's transaction: the store says it is current once it commits.
    const analyzer = () => {
      const reader = new Database(path.join(dataDir, 'synapsis.db'), { readonly: true });
      try {
        return JSON.parse((reader.prepare("SELECT value_json FROM settings WHERE key = 'lexical_analyzer'").get() as { value_json: string }).value_json) as string;
      } finally {
        reader.close();
      }
    };
    for (let i = 0; i < 200 && analyzer() === 'an-older-analyzer'; i++) await new Promise((r) => setTimeout(r, 50));
    child.kill('SIGTERM');
    expect(order).toEqual(['address', 'rebuilt']);
    expect(err).toContain('upgrading the word index to this version of Synapsis: 2 of 2 notes re-read, done');
    expect(JSON.parse(out.split('\n')[0]!)).toMatchObject({ data_dir: dataDir });
    expect(analyzer()).not.toBe('an-older-analyzer');
  }, CHILD_TEST_LIMIT_MS);
});
