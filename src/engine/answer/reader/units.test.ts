import { describe, expect, it } from 'vitest';
import { listsFiles } from './units.ts';

const block = (...lines: string[]) => ['```', ...lines, '```'];

describe('a code block that lists files and folders', () => {
  it.each([
    ['an importer\'s output, indented by tabs', block('Airtable/', '\tProjects/', '\t\tTasks.base', '\t\t\tWrite the proposal.md'), true],
    ['a tree drawn with box characters', block('vault/', '├── Daily/', '│   └── 2026-01-01.md', '└── .obsidian/'), true],
    ['commands', block('npm install', 'npm run build'), false],
    ['a command whose argument is a folder', block('cd notes/', 'git init'), false],
    ['files without a folder', block('README.md', 'notes.txt'), false],
    ['a single folder', block('Airtable/'), false],
    ['settings', block('filters:', '  and:', 'type: table'), false],
  ])('%s', (_what, lines, lists) => {
    expect(listsFiles(lines, 1)).toBe(lists);
  });
});
