import fs from 'node:fs';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { listSourceFiles } from '../../../test/security/sql-scan.ts';
import { allowedParam, hiddenSql, visibleSql, visibleTo, type VisibilityPolicy } from './visibility.ts';

const ROOT = path.resolve(import.meta.dirname, '..', '..', '..');

/** Sensitivities as the indexer stores them (ingest/sensitivity.ts): none, or one lower-case word. */
const stored = fc.oneof(fc.constant(null), fc.constantFrom('public', 'restricted', 'hr', 'secret', 'team-a', 'x_1'));
/** Labels a request may allow, in any case (the policy lower-cases them). */
const allowedLabel = fc.constantFrom('public', 'restricted', 'RESTRICTED', 'Hr', 'secret', 'team-a', 'other', '');

describe('the sensitivity policy (visibility.ts)', () => {
  const db = new BetterSqlite3(':memory:');
  db.exec('CREATE TABLE documents (id INTEGER PRIMARY KEY, sensitivity TEXT)');
  afterAll(() => db.close());

  it('selects in SQL exactly the documents the predicate shows, and hides the rest', () => {
    fc.assert(
      fc.property(fc.array(stored, { maxLength: 12 }), fc.array(allowedLabel, { maxLength: 4 }), fc.boolean(), (sensitivities, allowSensitivity, sensitivityEnable) => {
        db.exec('DELETE FROM documents');
        const insert = db.prepare('INSERT INTO documents (id, sensitivity) VALUES (?, ?)');
        sensitivities.forEach((s, i) => insert.run(i + 1, s));
        const policy: VisibilityPolicy = { allowSensitivity, sensitivityEnable };
        const ids = (where: string) => db.prepare(`SELECT id FROM documents d WHERE ${where} ORDER BY id`).pluck().all({ allowed: allowedParam(policy) }) as number[];
        const isVisible = visibleTo(policy);
        const expected = sensitivities.flatMap((s, i) => (isVisible(s) ? [i + 1] : []));
        expect(ids(visibleSql(policy, 'd'))).toEqual(expected);
        if (sensitivityEnable) {
          expect(ids(hiddenSql('d'))).toEqual(sensitivities.flatMap((s, i) => (isVisible(s) ? [] : [i + 1])));
          expect(db.prepare(`SELECT id FROM documents WHERE ${hiddenSql('')} ORDER BY id`).pluck().all({ allowed: allowedParam(policy) })).toEqual(ids(hiddenSql('d')));
        }
      }),
      { numRuns: 300 },
    );
  });

  it('shows everything when enforcement is off', () => {
    expect(visibleSql({ sensitivityEnable: false })).toBe('1');
    expect(visibleTo({ allowSensitivity: [], sensitivityEnable: false })('restricted')).toBe(true);
  });

  /**
   * The policy written a second time is how a restricted-term oracle happens: one query forgets a
   * case the others handle. Outside visibility.ts no shipped module compares a sensitivity with
   * 'public' or binds the allowed list itself; they call visibleSql, hiddenSql or visibleTo.
   */
  it('is written once: no other module restates it', () => {
    const POLICY = /\bsensitivity\b\s*(?:=|!=|===|!==|<>)\s*'public'|json_each\(@allowed\)|\bsensitivity\s+(?:NOT\s+)?IN\s*\(/i;
    const EXCEPTIONS: Record<string, string> = {
      'src/engine/ingest/markdown.ts': "a front-matter warning says a note that names a sensitivity other than 'public' is treated as restricted; no caller's visibility is decided there",
      'src/engine/ingest/sensitivity.ts': "reads a note's label from its front matter (the most restrictive of several wins over 'public'); no caller's visibility is decided there",
    };
    const files = ['engine', 'cli', 'main'].flatMap((dir) => listSourceFiles(path.join(ROOT, 'src', dir)));
    const restating = files
      .map((f) => path.relative(ROOT, f).split(path.sep).join('/'))
      .filter((rel) => rel !== 'src/engine/store/visibility.ts' && !(rel in EXCEPTIONS))
      .filter((rel) => POLICY.test(fs.readFileSync(path.join(ROOT, rel), 'utf8')));
    expect(restating).toEqual([]);
    expect(files.length).toBeGreaterThan(50);
  });

  it('is used by every store query that reads documents for a caller', () => {
    // A query module that reads the sensitivity column decides what a caller sees: it takes the policy from visibility.ts.
    const dir = path.join(ROOT, 'src', 'engine', 'store', 'queries');
    const readers = listSourceFiles(dir).filter((f) => /\bsensitivity\b/.test(fs.readFileSync(f, 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '')));
    expect(readers.length).toBeGreaterThan(0);
    // graph.ts returns each document's sensitivity: the graph and the model stage filter those rows with
    // the visibleTo predicate their callers build (graph/cache.ts, ingest/queue.ts).
    // indexing.ts writes each document's sensitivity as its front matter marks it; it reads none for a caller.
    const PREDICATE_CALLERS = new Set(['graph.ts', 'indexing.ts']);
    for (const f of readers.filter((r) => !PREDICATE_CALLERS.has(path.basename(r)))) {
      expect([path.basename(f), /from '\.\.\/visibility\.ts'|from '\.\/filters\.ts'/.test(fs.readFileSync(f, 'utf8'))]).toEqual([path.basename(f), true]);
    }
  });
});
