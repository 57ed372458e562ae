import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const repo = path.resolve(import.meta.dirname, '..');
const eslint = new ESLint({ cwd: repo });

async function restrictedImports(file: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(source, { filePath: path.join(repo, file) });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

/** Each row of docs/design.md §1's folder table, as (file, import, allowed?). */
const CASES: [string, string, boolean][] = [
  ['src/shared/x.ts', "import { z } from 'zod';", true],
  ['src/shared/x.ts', "import { a } from './contract.ts';", true],
  ['src/shared/x.ts', "import fs from 'node:fs';", false],
  ['src/shared/x.ts', "import { createEngine } from '../engine/index.ts';", false],
  ['src/engine/x.ts', "import { app } from 'electron';", false],
  ['src/engine/store/x.ts', "import { runCli } from '../../cli/main.ts';", false],
  ['src/engine/x.ts', "import { App } from '../renderer/src/App.tsx';", false],
  ['src/engine/x.ts', "import fs from 'node:fs'; import { z } from 'zod'; import { a } from '../shared/contract.ts';", true],
  ['src/cli/x.ts', "import { createEngine } from '../engine/index.ts';", true],
  ['src/cli/x.ts', "import { BrowserWindow } from 'electron';", false],
  ['src/cli/x.ts', "import '../main/index.ts';", false],
  ['src/main/x.ts', "import { app } from 'electron'; import { createEngine } from '../engine/index.ts';", true],
  ['src/main/x.ts', "import { Store } from '../engine/store/store.ts';", false],
  ['src/main/x.ts', "import { App } from '../renderer/src/App.tsx';", false],
  ['src/preload/x.ts', "import { contextBridge } from 'electron'; import { METHODS } from '../shared/contract.ts';", true],
  ['src/preload/x.ts', "import fs from 'node:fs';", false],
  ['src/preload/x.ts', "import { createEngine } from '../engine/index.ts';", false],
  ['src/renderer/src/x.tsx', "import { useState } from 'react'; import { METHODS } from '../../shared/contract.ts';", true],
  ['src/renderer/src/x.tsx', "import { ipcRenderer } from 'electron';", false],
  ['src/renderer/src/x.tsx', "import { createEngine } from '../../engine/index.ts';", false],
  ['src/renderer/src/x.tsx', "import fs from 'fs';", false],
  ['src/renderer/src/x.tsx', "import Database from 'better-sqlite3';", false],
  // docs/design.md §3, one owner for SQL: better-sqlite3 and the raw connection stay inside src/engine/store.
  ['src/engine/store/x.ts', "import BetterSqlite3 from 'better-sqlite3';", true],
  ['src/engine/store/queries/x.ts', "import type { Database } from 'better-sqlite3'; import { sqliteOf } from '../connection.ts';", true],
  ['src/engine/search/x.ts', "import BetterSqlite3 from 'better-sqlite3';", false],
  ['src/engine/search/x.ts', "import type { Database } from 'better-sqlite3';", false],
  ['src/engine/x.ts', "import { sqliteOf } from './store/connection.ts';", false],
  ['src/engine/graph/x.ts', "import { asReadConnection } from '../store/connection';", false],
  ['src/engine/search/x.ts', "import { openReadConnection, type ReadConnection } from '../store/connection.ts';", true],
  ['src/engine/retrieve/x.ts', "import { visibleDocuments } from '../store/queries/documents.ts';", true],
  ['src/cli/x.ts', "import Database from 'better-sqlite3';", false],
  ['src/cli/x.ts', "import { sqliteOf } from '../engine/store/connection.ts';", false],
  ['src/cli/bench/x.ts', "import Database from 'better-sqlite3';", true],
  ['src/cli/doctor.ts', "import Database from 'better-sqlite3';", true],
  ['src/main/x.ts', "import Database from 'better-sqlite3';", false],
];

describe('import boundaries (docs/design.md §1)', () => {
  it.each(CASES)('%s: %s -> allowed=%s', async (file, source, allowed) => {
    const errors = await restrictedImports(file, `${source}\nexport {};\n`);
    if (allowed) expect(errors).toEqual([]);
    else expect(errors.length).toBeGreaterThan(0);
  });

  it('each refusal names the section of docs/design.md that states the rule', async () => {
    expect(await restrictedImports('src/engine/x.ts', "import { app } from 'electron';\nexport {};\n")).toEqual([expect.stringContaining('(docs/design.md §1)')]);
    expect(await restrictedImports('src/engine/search/x.ts', "import Database from 'better-sqlite3';\nexport {};\n")).toEqual([expect.stringContaining('(docs/design.md §3)')]);
  });

  it('the real source tree has no boundary violation', async () => {
    const results = await eslint.lintFiles(['src']);
    const violations = results.flatMap((r) => r.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => `${r.filePath}: ${m.message}`));
    expect(violations).toEqual([]);
  });
});

/** The size rules' messages for `source` linted as `file`: [rule, severity] (1 warning, 2 error). */
async function sizeMessages(file: string, source: string): Promise<[string, number][]> {
  const [result] = await eslint.lintText(source, { filePath: path.join(repo, file) });
  return (result?.messages ?? []).filter((m) => ['max-lines', 'max-lines-per-function', 'complexity'].includes(m.ruleId ?? '')).map((m) => [m.ruleId!, m.severity]);
}

const lines = (n: number, line: (i: number) => string) => Array.from({ length: n }, (_, i) => line(i)).join('\n') + '\n';
/** A function `n` lines long (its braces included). */
const functionOf = (n: number) => `export function f(): void {\n${lines(n - 2, () => '  void 0;')}}\n`;
/** A function whose cyclomatic complexity is `n` (one path plus n - 1 branches). */
const complexityOf = (n: number) => `export function g(x: number): number {\n${lines(n - 1, (i) => `  if (x === ${i}) return ${i};`)}  return -1;\n}\n`;

describe('size guards (docs/architecture.md, "Size")', () => {
  it('warn, without failing lint, on a file over 600 lines, a function over 150 lines and a complexity over 30', async () => {
    expect(await sizeMessages('src/engine/x.ts', lines(601, (i) => `export const a${i} = ${i};`))).toEqual([['max-lines', 1]]);
    expect(await sizeMessages('src/engine/x.ts', functionOf(151))).toEqual([['max-lines-per-function', 1]]);
    expect(await sizeMessages('src/renderer/src/components/X.tsx', complexityOf(31))).toEqual([['complexity', 1]]);
  });

  it('stay quiet at the limits', async () => {
    expect(await sizeMessages('src/engine/x.ts', lines(600, (i) => `export const a${i} = ${i};`))).toEqual([]);
    expect(await sizeMessages('src/engine/x.ts', functionOf(150))).toEqual([]);
    expect(await sizeMessages('src/engine/x.ts', complexityOf(30))).toEqual([]);
  });

  it('leave tests and code outside src/ alone', async () => {
    expect(await sizeMessages('src/engine/x.test.ts', lines(601, (i) => `export const a${i} = ${i};`))).toEqual([]);
    expect(await sizeMessages('test/x.test.ts', functionOf(151))).toEqual([]);
  });
});
