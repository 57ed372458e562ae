import BetterSqlite3 from 'better-sqlite3';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildFtsQuery } from './fts-query.ts';

describe('buildFtsQuery', () => {
  it('ORs quoted terms and keeps phrases and prefixes', () => {
    expect(buildFtsQuery('storage decision').match).toBe('"storage" OR "decision"');
    expect(buildFtsQuery('"offline sync" engine').match).toBe('"offline sync" OR "engine"');
    expect(buildFtsQuery('synap*').match).toBe('"synap"*');
  });

  it('neutralises FTS5 syntax and drops duplicates', () => {
    expect(buildFtsQuery('title:x AND (y OR NOT z) NEAR/3 x').match).toBe('"title" OR "x" OR "and" OR "y" OR "or" OR "not" OR "z" OR "near" OR "3"');
    expect(buildFtsQuery('"unbalanced quote').match).toBe('"unbalanced" OR "quote"');
  });

  it('folds ё to е and returns null when nothing is searchable', () => {
    expect(buildFtsQuery('ёлка').terms).toEqual(['елка']);
    expect(buildFtsQuery('  ?!"" -- ').match).toBeNull();
  });

  it('never produces an expression FTS5 rejects, whatever the input', () => {
    const db = new BetterSqlite3(':memory:');
    db.exec("CREATE VIRTUAL TABLE t USING fts5(body, tokenize = 'porter unicode61 remove_diacritics 2')");
    db.prepare('INSERT INTO t (body) VALUES (?)').run('some text to match against');
    const stmt = db.prepare('SELECT COUNT(*) FROM t WHERE t MATCH ?');
    const syntax = fc.constantFrom('"', '*', '(', ')', ':', '^', '-', '+', 'AND', 'OR', 'NOT', 'NEAR', '{', '}', '\u0000', 'ё', '🙂', '\u202e');
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.string(), syntax, fc.string({ unit: "binary" })), { maxLength: 12 }), (parts) => {
        const q = buildFtsQuery(parts.join(' '));
        if (q.match !== null) expect(() => stmt.get(q.match)).not.toThrow();
      }),
      { numRuns: 500 },
    );
    db.close();
  });
});
