import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The map of the code (docs/architecture.md) and the design (docs/design.md) name files and folders
 * of the repository; these tests keep every name pointing at something that exists, every folder
 * of src/ on the map, and the design inside the repository.
 */
const repo = path.resolve(import.meta.dirname, '..');
const DOCS = ['docs/architecture.md', 'docs/design.md'] as const;
const read = (file: string) => fs.readFileSync(path.join(repo, file), 'utf8');

/** Repository paths a text names (src/…, test/…, scripts/…, docs/…), without a sentence's closing punctuation. */
export function repoPaths(text: string): string[] {
  const found = text.matchAll(/(?<![\w./<-])(?:src|test|scripts|docs)\/[\w./-]*/g);
  return [...new Set([...found].map((m) => m[0].replace(/[.]+$/, '')))];
}

/** Markdown links to other files (not web addresses), without their #fragment. */
export function fileLinks(text: string): string[] {
  return [...text.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)].map((m) => m[1]!).filter((target) => !/^[a-z]+:/i.test(target));
}

function foldersUnder(dir: string): string[] {
  return fs.readdirSync(path.join(repo, dir), { withFileTypes: true }).flatMap((entry) => {
    if (!entry.isDirectory()) return [];
    const sub = `${dir}/${entry.name}`;
    return [sub, ...foldersUnder(sub)];
  });
}

function filesUnder(dir: string): string[] {
  return fs.readdirSync(path.join(repo, dir), { withFileTypes: true }).flatMap((entry) => {
    const sub = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return entry.name === 'fixtures' || entry.name === 'node_modules' ? [] : filesUnder(sub);
    return /\.(?:ts|tsx|js|mjs|md|json)$/.test(entry.name) ? [sub] : [];
  });
}

describe('repoPaths', () => {
  it('finds paths in prose, code spans and diagrams, and leaves other words alone', () => {
    const text = 'See `src/engine/retrieve/hybrid.ts`, src/engine/vector/ and test/x.test.ts. Not out/src/y.ts, not a/src/z, not <src/q>.';
    expect(repoPaths(text)).toEqual(['src/engine/retrieve/hybrid.ts', 'src/engine/vector/', 'test/x.test.ts']);
  });

  it('finds links to files but not web addresses', () => {
    expect(fileLinks('[a](indexing.md#progress) [b](https://example.org/x.md) [c](../README.md)')).toEqual(['indexing.md', '../README.md']);
  });
});

describe('the map and the design name what exists', () => {
  it.each(DOCS)('every repository path %s names exists', (doc) => {
    const paths = repoPaths(read(doc));
    expect(paths.length).toBeGreaterThan(20);
    expect(paths.filter((p) => !fs.existsSync(path.join(repo, p)))).toEqual([]);
  });

  it.each(DOCS)('every file %s links to exists', (doc) => {
    const links = fileLinks(read(doc));
    expect(links.filter((l) => !fs.existsSync(path.join(repo, path.dirname(doc), l)))).toEqual([]);
  });

  it('docs/architecture.md names every folder under src/', () => {
    const named = new Set(repoPaths(read('docs/architecture.md')).map((p) => p.replace(/\/$/, '')));
    const folders = foldersUnder('src');
    expect(folders.length).toBeGreaterThan(20);
    expect(folders.filter((f) => !named.has(f))).toEqual([]);
  });

  it('docs/architecture.md names every file at the root of src/engine/', () => {
    const named = new Set(repoPaths(read('docs/architecture.md')));
    const root = fs.readdirSync(path.join(repo, 'src/engine')).filter((f) => /\.tsx?$/.test(f) && !/\.test\.tsx?$/.test(f));
    expect(root).toContain('engine.ts');
    expect(root.filter((f) => !named.has(`src/engine/${f}`))).toEqual([]);
  });

  it('the design is cited inside the repository: nothing names a design file outside it', () => {
    const own = path.relative(repo, import.meta.filename);
    const files = ['README.md', 'eslint.config.js', ...['src', 'test', 'scripts', 'docs'].flatMap(filesUnder)].filter((f) => f !== own);
    // A design file kept outside the repository: a clone alone does not have it.
    const outside = /shared\/DESIGN\.md|\bDESIGN\.md\b/;
    expect(files.filter((f) => outside.test(read(f)))).toEqual([]);
  });
});
