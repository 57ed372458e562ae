/** Sentences of chunks (chunk_sentences): splitting chunks into them, and reading them back. */
import { sqliteOf, type ReadConnection, type WriteConnection } from '../connection.ts';
import { statements } from '../statements.ts';

/**
 * Splits up to `limit` chunks that have not been split into sentences yet (chunks.sentences IS
 * NULL), in id order: prose through `split`, code documents into none. Returns how many chunks
 * it split (0: none left). Each page is one transaction.
 */
export function splitSentences(
  connection: WriteConnection,
  split: (text: string) => readonly { start: number; end: number }[],
  hashOf: (title: string | null, heading: string | null, text: string) => string,
  limit = 2000,
): number {
  const db = sqliteOf(connection);
  const rows = db
    .prepare(
      `SELECT c.id, c.text, c.heading, d.title, d.type FROM chunks c JOIN documents d ON d.id = c.document_id
        WHERE c.sentences IS NULL ORDER BY c.id LIMIT ?`,
    )
    .all(limit) as { id: number; text: string; heading: string | null; title: string | null; type: string }[];
  const insert = db.prepare('INSERT INTO chunk_sentences (chunk_id, ordinal, start, end, embed_hash) VALUES (?, ?, ?, ?, ?)');
  const mark = db.prepare('UPDATE chunks SET sentences = ? WHERE id = ?');
  db.transaction(() => {
    for (const r of rows) {
      const spans = r.type === 'code' ? [] : split(r.text);
      spans.forEach((s, i) => insert.run(r.id, i, s.start, s.end, hashOf(r.title, r.heading, r.text.slice(s.start, s.end))));
      mark.run(spans.length, r.id);
    }
  })();
  return rows.length;
}

/** Chunks not split into sentences yet. */
export function countUnsplitChunks(connection: ReadConnection): number {
  return sqliteOf(connection).prepare('SELECT COUNT(*) FROM chunks WHERE sentences IS NULL').pluck().get() as number;
}

/** countUnsplitChunks per root id. */
export function unsplitChunksByRoot(connection: ReadConnection): Map<number, number> {
  const rows = sqliteOf(connection)
    .prepare('SELECT d.root_id AS root, COUNT(*) AS n FROM chunks c JOIN documents d ON d.id = c.document_id WHERE c.sentences IS NULL GROUP BY d.root_id')
    .all() as { root: number; n: number }[];
  return new Map(rows.map((r) => [r.root, r.n]));
}

/** The chunk of each sentence id (ids not found are left out). */
export function sentenceChunks(connection: ReadConnection, ids: readonly number[]): Map<number, number> {
  const rows = statements(sqliteOf(connection))
    .prepare('SELECT s.id, s.chunk_id FROM json_each(?) j CROSS JOIN chunk_sentences s ON s.id = j.value')
    .all(JSON.stringify(ids)) as { id: number; chunk_id: number }[];
  return new Map(rows.map((r) => [r.id, r.chunk_id]));
}

/** The given chunks that have sentence vectors of their own (split into two sentences or more). */
export function splitChunks(connection: ReadConnection, ids: readonly number[]): Set<number> {
  const rows = statements(sqliteOf(connection))
    .prepare('SELECT c.id FROM json_each(?) j CROSS JOIN chunks c ON c.id = j.value WHERE c.sentences > 0')
    .pluck()
    .all(JSON.stringify(ids)) as number[];
  return new Set(rows);
}

/** The sentences of the given chunks with their text (the chunk's text at the sentence's span), in order. */
export function sentenceTexts(connection: ReadConnection, chunkIds: readonly number[]): { id: number; chunk_id: number; text: string }[] {
  const rows = statements(sqliteOf(connection))
    .prepare('SELECT s.id, s.chunk_id, s.start, s.end, c.text FROM json_each(?) j CROSS JOIN chunk_sentences s ON s.chunk_id = j.value JOIN chunks c ON c.id = s.chunk_id ORDER BY s.id')
    .all(JSON.stringify(chunkIds)) as { id: number; chunk_id: number; start: number; end: number; text: string }[];
  return rows.map((r) => ({ id: r.id, chunk_id: r.chunk_id, text: r.text.slice(r.start, r.end) }));
}

/**
 * How many sentences of the given chunks still wait for a vector of the model: one for each chunk not
 * split yet (about one sentence until it is), and each split sentence without its vector.
 */
export function sentencesWaiting(connection: ReadConnection, modelId: string, chunkIds: readonly number[]): number {
  const ids = JSON.stringify(chunkIds);
  const unsplit = sqliteOf(connection).prepare('SELECT COUNT(*) FROM json_each(?) j CROSS JOIN chunks c ON c.id = j.value WHERE c.sentences IS NULL').pluck().get(ids) as number;
  const unembedded = sqliteOf(connection)
    .prepare('SELECT COUNT(*) FROM json_each(?) j CROSS JOIN chunk_sentences s ON s.chunk_id = j.value WHERE s.embed_hash IS NOT NULL AND NOT EXISTS (SELECT 1 FROM embeddings e WHERE e.model_id = ? AND e.text_hash = s.embed_hash)')
    .pluck()
    .get(ids, modelId) as number;
  return unsplit + unembedded;
}

/** Sentence ids of the given chunks. */
export function sentencesOfChunks(connection: ReadConnection, chunkIds: readonly number[]): number[] {
  return sqliteOf(connection)
    .prepare('SELECT s.id FROM json_each(?) j CROSS JOIN chunk_sentences s ON s.chunk_id = j.value')
    .pluck()
    .all(JSON.stringify(chunkIds)) as number[];
}
