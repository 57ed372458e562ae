import BetterSqlite3 from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate, schemaVersion } from '../database.ts';
import { MIGRATIONS } from './index.ts';

const indexes = (db: BetterSqlite3.Database) => db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name IN ('chunks', 'chunk_sentences') ORDER BY name").pluck().all() as string[];

describe('migration 019 (no index on chunks.embed_hash)', () => {
  it('drops the chunks’ embed-hash index, keeps the sentences’ one, and vectors are still found by primary keys', () => {
    const db = new BetterSqlite3(':memory:');
    migrate(db, MIGRATIONS.filter((m) => m.version <= 18));
    expect(indexes(db)).toContain('chunks_embed_hash');
    migrate(db, MIGRATIONS.filter((m) => m.version <= 19));
    expect(schemaVersion(db)).toBe(19);
    expect(indexes(db)).not.toContain('chunks_embed_hash');
    expect(indexes(db)).toContain('chunk_sentences_embed_hash');
    const plan = (db.prepare("EXPLAIN QUERY PLAN SELECT c.id, e.vector FROM chunks c CROSS JOIN embeddings e ON e.model_id = 'm' AND e.text_hash = c.embed_hash WHERE c.id > 0").all() as { detail: string }[]).map((p) => p.detail);
    expect(plan.join('\n')).toMatch(/SEARCH c USING INTEGER PRIMARY KEY/);
    expect(plan.join('\n')).toMatch(/SEARCH e USING PRIMARY KEY \(model_id=\? AND text_hash=\?\)/);
    db.close();
  });
});
