/**
 * Vectors: the embeddings table (one vector per model and embedding input hash), what is left to
 * embed, the embedded mark, and reading vectors back for a vector index (vector/sync.ts).
 */
import { sqliteOf, type ReadConnection, type WriteConnection } from '../connection.ts';
import { getSetting } from './settings.ts';

/**
 * What a vector stands for: a chunk (keyed by chunks.id) or one sentence of a chunk (keyed by
 * chunk_sentences.id). Both tables key their vectors by embed_hash in the embeddings table.
 */
export type VectorUnit = 'chunk' | 'sentence';
const UNIT_TABLE: Record<VectorUnit, string> = { chunk: 'chunks', sentence: 'chunk_sentences' };

/**
 * Vectors of chunks, by id list and by id range. CROSS JOIN fixes the join order: the ids (or the id
 * range), their chunks, then each vector by primary key. Left to itself SQLite read every stored
 * vector of the model for each page: 80 s per 5,000 ids at 100k chunks, instead of 0.35 s.
 */
const vectorsByIdSql = (table: string) =>
  `SELECT c.id, e.vector FROM json_each(?) j CROSS JOIN ${table} c ON c.id = j.value CROSS JOIN embeddings e ON e.model_id = ? AND e.text_hash = c.embed_hash`;
const vectorsPageSql = (table: string) =>
  `SELECT c.id, e.vector FROM ${table} c CROSS JOIN embeddings e ON e.model_id = ? AND e.text_hash = c.embed_hash WHERE c.id > ? ORDER BY c.id LIMIT 5000`;
/**
 * Rows above the embedded mark (embeddedThrough) that have a vector of the model. CROSS JOIN keeps
 * the order: the few rows above the mark, then each one's vector by key; left to itself SQLite
 * scanned every stored vector of the model and looked each row up by hash (store.test.ts checks the plan).
 */
export const embeddedAboveSql = (table: string, select: 'c.id' | 'COUNT(*)') =>
  `SELECT ${select} FROM ${table} c CROSS JOIN embeddings e ON e.model_id = ? AND e.text_hash = c.embed_hash WHERE c.id > ?`;
export const CHUNK_VECTORS_BY_ID_SQL = vectorsByIdSql('chunks');
export const CHUNK_VECTORS_PAGE_SQL = vectorsPageSql('chunks');

type PendingEmbedding = { id: number; hash: string; title: string | null; heading: string | null; text: string };

/**
 * Chunks after `afterId` (and above embeddedThrough) whose embedding input has no vector for this
 * model yet, in id order (the caller pages with the last id and skips hashes it has already taken). A page costs its own rows:
 * grouping the whole table by hash on every batch made embedding 100k chunks quadratic (0.85 s of
 * query per batch of 32 at 100k chunks).
 */
export function pendingEmbeddings(connection: ReadConnection, modelId: string, limit: number, afterId = 0, unit: VectorUnit = 'chunk'): PendingEmbedding[] {
  const db = sqliteOf(connection);
  afterId = Math.max(afterId, embeddedThrough(connection, modelId, unit));
  if (unit === 'sentence') {
    const rows = db
      .prepare(
        `SELECT s.id, s.embed_hash AS hash, d.title, c.heading, c.text, s.start, s.end
           FROM chunk_sentences s JOIN chunks c ON c.id = s.chunk_id JOIN documents d ON d.id = c.document_id
          WHERE s.id > @after
            AND NOT EXISTS (SELECT 1 FROM embeddings e WHERE e.model_id = @model AND e.text_hash = s.embed_hash)
          ORDER BY s.id LIMIT @limit`,
      )
      .all({ model: modelId, limit, after: afterId }) as (PendingEmbedding & { start: number; end: number })[];
    return rows.map((r) => ({ id: r.id, hash: r.hash, title: r.title, heading: r.heading, text: r.text.slice(r.start, r.end) }));
  }
  return db
    .prepare(
      `SELECT c.id, c.embed_hash AS hash, d.title, c.heading, c.text
         FROM chunks c JOIN documents d ON d.id = c.document_id
        WHERE c.id > @after AND c.embed_hash IS NOT NULL
          AND NOT EXISTS (SELECT 1 FROM embeddings e WHERE e.model_id = @model AND e.text_hash = c.embed_hash)
        ORDER BY c.id LIMIT @limit`,
    )
    .all({ model: modelId, limit, after: afterId }) as PendingEmbedding[];
}

export function countPendingEmbeddings(connection: ReadConnection, modelId: string, unit: VectorUnit = 'chunk'): number {
  return (
    sqliteOf(connection)
      .prepare(
        `SELECT COUNT(DISTINCT c.embed_hash) AS n FROM ${UNIT_TABLE[unit]} c
          WHERE c.id > ? AND c.embed_hash IS NOT NULL
            AND NOT EXISTS (SELECT 1 FROM embeddings e WHERE e.model_id = ? AND e.text_hash = c.embed_hash)`,
      )
      .get(embeddedThrough(connection, modelId, unit), modelId) as { n: number }
  ).n;
}

/** countPendingEmbeddings per root id (a text shared by two roots counts in each). */
export function pendingEmbeddingsByRoot(connection: ReadConnection, modelId: string, unit: VectorUnit = 'chunk'): Map<number, number> {
  const rows = sqliteOf(connection)
    .prepare(
      unit === 'chunk'
        ? `SELECT d.root_id AS root, COUNT(DISTINCT c.embed_hash) AS n FROM chunks c JOIN documents d ON d.id = c.document_id
            WHERE c.id > ? AND c.embed_hash IS NOT NULL
              AND NOT EXISTS (SELECT 1 FROM embeddings e WHERE e.model_id = ? AND e.text_hash = c.embed_hash)
            GROUP BY d.root_id`
        : `SELECT d.root_id AS root, COUNT(DISTINCT s.embed_hash) AS n FROM chunk_sentences s JOIN chunks c ON c.id = s.chunk_id JOIN documents d ON d.id = c.document_id
            WHERE s.id > ? AND s.embed_hash IS NOT NULL
              AND NOT EXISTS (SELECT 1 FROM embeddings e WHERE e.model_id = ? AND e.text_hash = s.embed_hash)
            GROUP BY d.root_id`,
    )
    .all(embeddedThrough(connection, modelId, unit), modelId) as { root: number; n: number }[];
  return new Map(rows.map((r) => [r.root, r.n]));
}

/** The settings key of the embedded mark of a model and unit. */
export const embeddedThroughKey = (modelId: string, unit: VectorUnit) => `embedded_through:${unit}:${modelId}`;

/**
 * Every row of the unit's table (chunks or sentences) up to this id has a vector of the model. Rows
 * are never rewritten (an edit writes new rows, with ids above every id used before) and vectors
 * are never deleted, so once the embed stage has found every row up to an id embedded, that stays
 * true, and the pending and embedded queries only look up the rows above it. Without it each
 * index run looked up the vector of every row, several times: a run that changed nothing took
 * 56 s at 117k chunks with 740k sentences, 32 s of it counting pending sentences. A change that
 * breaks either premise (a migration that recreates chunks or chunk_sentences so ids start again,
 * or deleting vectors) must delete the `embedded_through:` settings with it.
 */
export function embeddedThrough(connection: ReadConnection, modelId: string, unit: VectorUnit): number {
  return getSetting<number>(connection, embeddedThroughKey(modelId, unit)) ?? 0;
}

/** The highest id in the unit's table now (0 when empty). */
export function maxUnitId(connection: ReadConnection, unit: VectorUnit): number {
  return (sqliteOf(connection).prepare(`SELECT MAX(id) FROM ${UNIT_TABLE[unit]}`).pluck().get() as number | null) ?? 0;
}

export function writeEmbeddings(connection: WriteConnection, modelId: string, rows: readonly { hash: string; vector: Float32Array }[]): void {
  const db = sqliteOf(connection);
  const insert = db.prepare('INSERT OR REPLACE INTO embeddings (model_id, text_hash, dim, vector, created_at) VALUES (?, ?, ?, ?, ?)');
  const now = new Date().toISOString();
  db.transaction(() => {
    for (const r of rows) insert.run(modelId, r.hash, r.vector.length, Buffer.from(r.vector.buffer, r.vector.byteOffset, r.vector.byteLength), now);
  })();
}

/**
 * The dimension of the model's stored vectors, null before the first. One row answers: every
 * write goes through the embed stage's dimension check (SemanticIndex), so a model's vectors share
 * one dimension; reading them all to be sure took 3 s at 850k vectors.
 */
export function embeddingDimension(connection: ReadConnection, modelId: string): number | null {
  return (sqliteOf(connection).prepare('SELECT dim FROM embeddings WHERE model_id = ? LIMIT 1').pluck().get(modelId) as number | undefined) ?? null;
}

/** How many chunks (or sentences) have a vector for this model (health counts them without loading the ids). */
export function countEmbeddedChunks(connection: ReadConnection, modelId: string, unit: VectorUnit = 'chunk'): number {
  const db = sqliteOf(connection);
  const through = embeddedThrough(connection, modelId, unit);
  const below = db.prepare(`SELECT COUNT(*) FROM ${UNIT_TABLE[unit]} WHERE id <= ? AND embed_hash IS NOT NULL`).pluck().get(through) as number;
  const above = db
    .prepare(embeddedAboveSql(UNIT_TABLE[unit], 'COUNT(*)'))
    .pluck()
    .get(modelId, through) as number;
  return below + above;
}

/** Ids of chunks (or sentences) that have a vector for this model. */
export function embeddedChunkIds(connection: ReadConnection, modelId: string, unit: VectorUnit = 'chunk'): Set<number> {
  const db = sqliteOf(connection);
  const through = embeddedThrough(connection, modelId, unit);
  const ids = new Set(db.prepare(`SELECT id FROM ${UNIT_TABLE[unit]} WHERE id <= ? AND embed_hash IS NOT NULL`).pluck().all(through) as number[]);
  const above = db
    .prepare(embeddedAboveSql(UNIT_TABLE[unit], 'c.id'))
    .pluck()
    .all(modelId, through) as number[];
  for (const id of above) ids.add(id);
  return ids;
}

/** (chunk id, vector) for the given chunks, or for every embedded chunk, in pages (sentences: by sentence id). */
export function* chunkVectors(connection: ReadConnection, modelId: string, ids?: readonly number[], unit: VectorUnit = 'chunk'): Generator<{ id: number; vector: Float32Array }[]> {
  const db = sqliteOf(connection);
  const toVector = (b: Buffer) => new Float32Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength));
  if (ids) {
    const stmt = db.prepare(unit === 'chunk' ? CHUNK_VECTORS_BY_ID_SQL : vectorsByIdSql(UNIT_TABLE[unit]));
    for (let i = 0; i < ids.length; i += 5000) {
      const rows = stmt.all(JSON.stringify(ids.slice(i, i + 5000)), modelId) as { id: number; vector: Buffer }[];
      yield rows.map((r) => ({ id: r.id, vector: toVector(r.vector) }));
    }
    return;
  }
  const page = db.prepare(unit === 'chunk' ? CHUNK_VECTORS_PAGE_SQL : vectorsPageSql(UNIT_TABLE[unit]));
  let last = 0;
  for (;;) {
    const rows = page.all(modelId, last) as { id: number; vector: Buffer }[];
    if (rows.length === 0) return;
    yield rows.map((r) => ({ id: r.id, vector: toVector(r.vector) }));
    last = rows[rows.length - 1]!.id;
  }
}

/** Fills embed_hash for chunks written before migration 004 (paged; nothing is re-read from disk). */
export function backfillEmbedHashes(connection: WriteConnection, hashOf: (title: string | null, heading: string | null, text: string) => string): number {
  const db = sqliteOf(connection);
  const page = db.prepare(
    'SELECT c.id, c.text, c.heading, d.title FROM chunks c JOIN documents d ON d.id = c.document_id WHERE c.embed_hash IS NULL ORDER BY c.id LIMIT 2000',
  );
  const update = db.prepare('UPDATE chunks SET embed_hash = ? WHERE id = ?');
  let n = 0;
  for (;;) {
    const rows = page.all() as { id: number; text: string; heading: string | null; title: string | null }[];
    if (rows.length === 0) return n;
    db.transaction(() => {
      for (const r of rows) update.run(hashOf(r.title, r.heading, r.text), r.id);
    })();
    n += rows.length;
  }
}
