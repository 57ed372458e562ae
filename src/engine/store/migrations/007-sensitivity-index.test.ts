import BetterSqlite3 from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate, schemaVersion } from '../database.ts';
import { hiddenSql } from '../visibility.ts';
import { MIGRATIONS } from './index.ts';

describe('migration 007 (sensitivity index)', () => {
  it('finds the documents that carry a sensitivity through an index, not a scan of all documents', () => {
    const db = new BetterSqlite3(':memory:');
    migrate(db, MIGRATIONS.filter((m) => m.version <= 7));
    expect(schemaVersion(db)).toBe(7);
    // The statement the lexical search runs on every query (hiddenChunkIds).
    const plan = db
      .prepare(`EXPLAIN QUERY PLAN SELECT c.id FROM documents d JOIN chunks c ON c.document_id = d.id WHERE ${hiddenSql('d')}`)
      .all({ allowed: '[]' }) as { detail: string }[];
    expect(plan.map((p) => p.detail).join('\n')).toMatch(/SEARCH d USING (COVERING )?INDEX documents_sensitivity/);
    db.close();
  });
});
