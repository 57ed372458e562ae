import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { TempDirs } from '../../../test/helpers/tmp.ts';
import { createEngine } from '../engine.ts';
import { blockLines, embedTargets, headingSection } from './embeds.ts';

const temp = new TempDirs();
afterAll(() => temp.cleanup());

const noModels = { env: { SYN_EMBED_MODEL: '', SYN_CHAT_MODEL: '' } as NodeJS.ProcessEnv };
/** A 1×1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==', 'base64');

describe('embed parsing', () => {
  it('lists the targets a note embeds, once each, addresses left out', () => {
    expect(embedTargets('![[A]] ![[B#Head|alias]] ![[A]] ![x](pics/a%20b.png) ![y](https://e.test/y.png) [[not embed]]')).toEqual(['A', 'B#Head', 'pics/a b.png']);
  });

  it('finds a heading\'s section and a block\'s lines', () => {
    const lines = ['# Top', 'intro', '## Goals', 'ship', '### Sub', 'more', '## Next', 'later', '```', '## not a heading', '```'];
    expect(headingSection(lines, 'Goals')).toEqual({ from: 2, to: 5 });
    expect(headingSection(lines, 'next')).toEqual({ from: 6, to: 10 });
    expect(headingSection(lines, 'not a heading')).toBeNull();
    const blocks = ['Para one', 'goes on ^p1', '', '- a', '- b ^li', '', '| x |', '|---|', '', '^tbl'];
    expect(blockLines(blocks, 'p1')).toEqual({ from: 0, to: 1 });
    expect(blockLines(blocks, 'li')).toEqual({ from: 4, to: 4 });
    expect(blockLines(blocks, 'tbl')).toEqual({ from: 6, to: 7 });
    expect(blockLines(blocks, 'none')).toBeNull();
  });
});

describe('source/embeds', () => {
  it('resolves notes (whole, heading, block, nested), pictures inside the folder, never a hidden note or a file outside', async () => {
    const outside = temp.make('syn-embeds-outside-', { 'secret.png': PNG });
    const vault = temp.make('syn-embeds-', {
      'Home.md': '---\ntags: [home]\n---\n# Home\n\n![[Plan#Goals]]\n\n![[Plan#^key]]\n\n![[Review]]\n\n![[logo.png]] ![alt](assets/logo.png) ![[leak.png]] ![[Nowhere]]\n',
      'Plan.md': '---\ntitle: Plan\n---\n# Plan\n\n## Goals\n\nShip the relay. ![[Deep]]\n\n## Later\n\nThe key fact. ^key\n',
      'Deep.md': '# Deep\n\nDeepest words, see [[Plan]].\n',
      'hr/Review.md': '---\nsensitivity: restricted\n---\n# Review\n\nSalary bands.\n',
      'assets/logo.png': PNG,
    });
    fs.symlinkSync(path.join(outside, 'secret.png'), path.join(vault, 'leak.png'));
    const engine = createEngine({ dataDir: temp.make(), ...noModels });
    try {
      await engine.index([vault]);
      const r = await engine.call('source/embeds', { locator: 'Home.md' });
      const by = new Map(r.embeds.map((e) => [e.target, e]));
      expect(by.get('Plan#Goals')).toMatchObject({ kind: 'note', path: 'Plan.md', start_line: 6, locator: 'Plan.md#L6-L9' });
      expect(by.get('Plan#Goals')!.text).toContain('Ship the relay.');
      expect(by.get('Plan#Goals')!.text).not.toContain('key fact');
      expect(by.get('Plan#^key')).toMatchObject({ kind: 'note', text: 'The key fact.' });
      // Nested: what Plan's section embeds is resolved too, with its [[links]].
      expect(by.get('Deep')).toMatchObject({ kind: 'note', path: 'Deep.md' });
      expect(r.links).toContainEqual({ name: 'Plan', path: 'Plan.md' });
      // A restricted note answers like a missing one unless allowed.
      expect(by.get('Review')).toMatchObject({ kind: 'missing', path: null, text: null });
      expect(JSON.stringify(r)).not.toContain('Salary');
      const allowed = await engine.call('source/embeds', { locator: 'Home.md', allow_sensitivity: ['restricted'] });
      expect(allowed.embeds.find((e) => e.target === 'Review')).toMatchObject({ kind: 'note', path: 'hr/Review.md' });
      // Pictures: by name anywhere in the folder, or by path; a symlink out of the folder is not read.
      expect(by.get('logo.png')).toMatchObject({ kind: 'image', path: 'assets/logo.png', mime: 'image/png', data: PNG.toString('base64') });
      expect(by.get('assets/logo.png')).toMatchObject({ kind: 'image', path: 'assets/logo.png' });
      expect(by.get('leak.png')).toMatchObject({ kind: 'missing', data: null });
      expect(by.get('Nowhere')).toMatchObject({ kind: 'missing' });
      // A hidden note embeds nothing: it is not found.
      await expect(engine.call('source/embeds', { locator: 'hr/Review.md' })).rejects.toMatchObject({ code: 'E_SYN_NOT_FOUND' });
    } finally {
      await engine.dispose();
    }
  });
});
