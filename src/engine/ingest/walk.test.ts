import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { TempDirs } from '../../../test/helpers/tmp.ts';
import { createPathFilter, walkRoot } from './walk.ts';

const temp = new TempDirs();
afterEach(() => temp.cleanup());

describe('walkRoot', () => {
  it('honours .gitignore and .synapsisignore, nested, with negation, and user globs', () => {
    const root = temp.make('syn-walk-', {
      '.gitignore': 'build/\n*.log\n',
      'notes/.synapsisignore': 'private-*.md\n!private-ok.md\n',
      'notes/a.md': 'a',
      'notes/private-x.md': 'x',
      'notes/private-ok.md': 'ok',
      'build/out.md': 'b',
      'debug.log': 'l',
      'drafts/d.md': 'd',
      '.git/config': 'g',
      'node_modules/m/index.js': 'm',
    });
    const list = (opts = { include: [] as string[], exclude: [] as string[] }) => walkRoot(root, opts).files.map((f) => f.relPath);
    expect(list()).toEqual(['drafts/d.md', 'notes/a.md', 'notes/private-ok.md']);
    expect(list({ include: ['notes/**'], exclude: ['**/a.md'] })).toEqual(['notes/private-ok.md']);
    const allowed = createPathFilter(root, { include: [], exclude: [] });
    expect(['notes/a.md', 'notes/private-x.md', 'build/out.md', 'debug.log', 'node_modules/m/index.js', '../escape.md'].map(allowed)).toEqual([
      true, false, false, false, false, false,
    ]);
  });

  it('follows symlinks but reports loops instead of recursing forever', () => {
    const root = temp.make('syn-walk-', { 'a/note.md': 'n' });
    fs.symlinkSync(root, path.join(root, 'a', 'loop'));
    fs.symlinkSync(path.join(root, 'missing'), path.join(root, 'dangling.md'));
    const { files, issues } = walkRoot(root, { include: [], exclude: [] });
    expect(files.map((f) => f.relPath)).toEqual(['a/note.md']);
    expect(issues).toEqual(
      expect.arrayContaining([
        { relPath: 'a/loop', reason: expect.stringMatching(/symlink loop/) },
        { relPath: 'dangling.md', reason: 'broken symlink' },
      ]),
    );
  });
});
