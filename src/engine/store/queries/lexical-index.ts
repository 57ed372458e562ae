/**
 * Keeping the two lexical indexes (chunks_fts for BM25, chunks_tri for substrings) in shape: their
 * segments, their totals, compacting, and refilling them after an analyzer change. Searching them
 * is fts.ts.
 */
import { sqliteOf, type ReadConnection, type WriteConnection } from '../connection.ts';
import { settleFtsTotals } from '../fts-totals.ts';
import type { LexicalRowInserts } from './indexing.ts';

/** B-trees (segments) the BM25 index is stored in: every batch commit adds one, automerge keeps a few levels of them. */
export function lexicalSegments(connection: ReadConnection): number {
  return (sqliteOf(connection).prepare('SELECT count(DISTINCT segid) AS n FROM chunks_fts_idx').get() as { n: number }).n;
}

/**
 * Puts right the row count and token totals BM25 reads (FTS5's "averages" record) of both lexical
 * indexes when they count deleted chunks. A contentless-delete FTS5 table never subtracts a deleted
 * row from them: every re-indexed note and removed folder added to the count for good, the idf of
 * every word drifted up, and a store re-filled from another copy of the same folder ranked and
 * answered otherwise than a fresh one. The live rows' sizes are summed from the table's docsize
 * table and written back. Outside a transaction only: FTS5 re-reads the record in the next one.
 * Returns the tables it put right.
 */
export function settleLexicalTotals(connection: WriteConnection): string[] {
  const db = sqliteOf(connection);
  if (db.inTransaction) return [];
  const settled: string[] = [];
  if (settleFtsTotals(db, 'chunks_fts', 3)) settled.push('chunks_fts');
  if (settleFtsTotals(db, 'chunks_tri', 1)) settled.push('chunks_tri');
  return settled;
}

/**
 * One step of compacting the BM25 index into a single b-tree (FTS5's incremental form of
 * 'optimize': a negative 'merge' writes about `pages` pages, each step its own transaction).
 * Returns false once there was nothing left to merge. A query then walks one doclist per term
 * instead of one per segment.
 */
export function compactLexicalStep(connection: WriteConnection, pages = 500): boolean {
  const db = sqliteOf(connection);
  const before = db.prepare('SELECT total_changes() AS t').pluck();
  const t = before.get() as number;
  db.prepare("INSERT INTO chunks_fts (chunks_fts, rank) VALUES ('merge', ?)").run(-Math.abs(pages));
  // FTS5's documented test: fewer than two changes means the index is one b-tree.
  return (before.get() as number) - t >= 2;
}

/**
 * Refills both lexical indexes from the chunks table with `analyze` (after an analyzer change);
 * nothing is re-read from disk. With `languages` (the note's and each chunk's, in order), each
 * note's chunks are analyzed in their language, which is stored with them as the indexer would.
 */
export function rebuildLexicalIndex(
  connection: WriteConnection,
  lexical: LexicalRowInserts,
  analyze: (text: string, lang?: string) => string,
  languages: (texts: readonly string[]) => { doc: string; chunks: string[] },
  onProgress?: (notes: { done: number; total: number }) => void,
): number {
  const db = sqliteOf(connection);
  return db.transaction(() => {
    const total = (db.prepare('SELECT COUNT(*) AS n FROM documents').get() as { n: number }).n;
    let done = 0;
    db.exec("INSERT INTO chunks_fts (chunks_fts) VALUES ('delete-all'); INSERT INTO chunks_tri (chunks_tri) VALUES ('delete-all');");
    // Paged by note: a statement that is being iterated cannot share the connection with writes.
    const page = db.prepare('SELECT id, title FROM documents WHERE id > ? ORDER BY id LIMIT 500');
    const chunksOf = db.prepare('SELECT id, text, heading, lang FROM chunks WHERE document_id = ? ORDER BY ordinal');
    const setLang = db.prepare('UPDATE chunks SET lang = ? WHERE id = ?');
    let n = 0;
    let last = 0;
    for (;;) {
      const docs = page.all(last) as { id: number; title: string | null }[];
      if (docs.length === 0) break;
      for (const d of docs) {
        const rows = chunksOf.all(d.id) as { id: number; text: string; heading: string | null; lang: string | null }[];
        if (rows.length === 0) continue;
        const langs = languages(rows.map((r) => r.text));
        const title = analyze(d.title ?? '', langs.doc);
        rows.forEach((r, i) => {
          const lang = langs.chunks[i];
          if (lang !== undefined && lang !== r.lang) setLang.run(lang, r.id);
          lexical.insertFts.run(r.id, title, analyze(r.heading ?? '', lang), analyze(r.text, lang));
          lexical.insertTri.run(r.id, r.text);
          n++;
        });
      }
      last = docs[docs.length - 1]!.id;
      done += docs.length;
      onProgress?.({ done, total });
    }
    return n;
  })();
}
