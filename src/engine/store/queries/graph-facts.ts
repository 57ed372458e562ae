/**
 * Writing a note's graph facts as the indexer finds them: entities (by type and folded name),
 * relations and mentions, the names a note answers to (note_names), and the lower-case writings of
 * single-word names (lower_writings, counted_words; migration 016). The graph is read in graph.ts.
 */
import type { Statement } from 'better-sqlite3';
import { mergeKey } from '../../graph/name-forms.ts';
import { lowerCaseForm, lowerCaseWord, noteNameKeys, normalizeName, refBaseKey, wordsKey, writtenWordsOf } from '../../graph/names.ts';
import { sqliteOf, type WriteConnection } from '../connection.ts';
import { storeDocumentsWriting } from './graph.ts';

/** Graph facts ready to store: entities by name and type, evidence as chunk ordinal and lines (and a PDF's locator fragment). */
export interface StoredGraph {
  relations: { src: { name: string; type: string } | null; dst: { name: string; type: string }; type: string; ordinal: number | null; line: number; endLine: number; fragment?: string | null; origin: 'rule' | 'llm' }[];
  mentions: { entity: { name: string; type: string }; line: number; ordinal: number | null; origin?: 'rule' | 'llm' }[];
}

/** Graph rows written per INSERT statement. */
const GRAPH_BATCH = 16;

/** The writer's graph facts, with the entity ids and counted words it remembers between documents. */
export class GraphFactWriter {
  private readonly db;
  private readonly stmts: {
    entityByKey: Statement;
    insertEntity: Statement;
    insertMention: Statement;
    deleteRelationsOfDoc: Statement;
    deleteNoteDegree: Statement;
    deleteMentionsOfDoc: Statement;
    deleteNoteNames: Statement;
    insertNoteName: Statement;
    deleteLowerWritings: Statement;
    insertLowerWriting: Statement;
  };
  /** Entity ids by type and name as written; cleared when entities are collected. */
  private entityIds = new Map<string, Map<string, number>>();

  constructor(private readonly connection: WriteConnection) {
    const db = (this.db = sqliteOf(connection));
    this.stmts = {
      // A look-up, then an insert, not one upsert: an upsert takes a statement journal, and with it
      // a savepoint at which FTS5 writes out the chunks it holds (queries/indexing.ts inOneTransaction);
      // so does RETURNING.
      entityByKey: db.prepare('SELECT id FROM entities WHERE key = ? AND type = ?').pluck(),
      insertEntity: db.prepare('INSERT INTO entities (key, type, name, words, base_key, node_key) VALUES (?, ?, ?, ?, ?, ?)'),
      insertMention: db.prepare('INSERT OR IGNORE INTO mentions (document_id, entity_id, ordinal, line, origin) VALUES (?, ?, ?, ?, ?)'),
      deleteRelationsOfDoc: db.prepare('DELETE FROM relations WHERE document_id = ?'),
      deleteNoteDegree: db.prepare('DELETE FROM note_degrees WHERE document_id = ?'),
      deleteMentionsOfDoc: db.prepare('DELETE FROM mentions WHERE document_id = ?'),
      deleteNoteNames: db.prepare('DELETE FROM note_names WHERE document_id = ?'),
      insertNoteName: db.prepare('INSERT INTO note_names (document_id, key, words) VALUES (?, ?, ?)'),
      deleteLowerWritings: db.prepare('DELETE FROM lower_writings WHERE document_id = ?'),
      insertLowerWriting: db.prepare('INSERT OR IGNORE INTO lower_writings (word, document_id) VALUES (?, ?)'),
    };
  }

  /** New content: the document's old graph facts (rules and model alike) go, and its degree is counted again after the run (graph/degrees.ts). */
  clearFactsOf(documentId: number): void {
    this.stmts.deleteRelationsOfDoc.run(documentId);
    this.stmts.deleteMentionsOfDoc.run(documentId);
    this.stmts.deleteNoteDegree.run(documentId);
  }

  /** A moved note's links may resolve otherwise: its degree is counted again after the run. */
  clearDegreeOf(documentId: number): void {
    this.stmts.deleteNoteDegree.run(documentId);
  }

  // Lower-case writings of names (migration 016) ------------------------------------------------

  /** The words whose lower-case writings are stored with each document written: counted_words, and those being counted. */
  private writtenWords: Set<string> | null = null;
  /** Whether this process has checked every stored name's word (after that, new names' words are enough). */
  private nameWordsChecked = false;
  /** The words of names created since, not yet counted. */
  private readonly newNameWords = new Set<string>();

  private trackedWords(): Set<string> {
    this.writtenWords ??= new Set(this.db.prepare('SELECT word FROM counted_words').pluck().all() as string[]);
    return this.writtenWords;
  }

  /** Replaces the document's lower-case writings of counted words with those its chunks write. */
  writeLowerWritings(documentId: number, chunks: readonly { text: string }[]): void {
    this.stmts.deleteLowerWritings.run(documentId);
    const tracked = this.trackedWords();
    if (tracked.size === 0 || chunks.length === 0) return;
    const found = new Set<string>();
    for (const c of chunks) writtenWordsOf(c.text, tracked, found);
    for (const word of found) this.stmts.insertLowerWriting.run(word, documentId);
  }

  /**
   * The words of single-word names (graph/names.ts lowerCaseWord) whose lower-case writings are not
   * counted yet: every stored name's, the first time in a process; then the names created since.
   */
  uncountedNameWords(): string[] {
    const tracked = this.trackedWords();
    const words = this.nameWordsChecked
      ? [...this.newNameWords]
      : (this.db.prepare("SELECT DISTINCT name FROM entities WHERE type = 'name'").pluck().all() as string[]).map(lowerCaseWord);
    this.nameWordsChecked = true;
    this.newNameWords.clear();
    return [...new Set(words.filter((w): w is string => w !== null && !tracked.has(w)))];
  }

  /**
   * Counts the lower-case writings of these words in every indexed document, each word through the
   * full-text index (a few words: each reads only the chunks its index term matches). The words are
   * counted from then on (counted_words).
   */
  countWordsByIndex(words: readonly string[]): void {
    this.db.transaction(() => {
      const mark = this.db.prepare('INSERT OR IGNORE INTO counted_words (word) VALUES (?)');
      for (const word of words) {
        storeDocumentsWriting(this.connection, lowerCaseForm(word)?.term ?? word, word);
        mark.run(word);
        this.trackedWords().add(word);
      }
    })();
  }

  /**
   * Counts the lower-case writings of many words in one pass over the chunks, a page at a time (each
   * a transaction): the chunks after `afterId`, at most `limit`. Returns the last chunk id read, or
   * null at the end, where the words are marked counted. The documents written meanwhile store their
   * writings of these words already (they are tracked from the first page on).
   */
  countWordsInChunks(words: ReadonlySet<string>, afterId: number, limit: number): number | null {
    return this.db.transaction(() => {
      for (const w of words) this.trackedWords().add(w);
      const rows = this.db
        .prepare("SELECT c.id, c.document_id, c.text FROM chunks c CROSS JOIN documents d ON d.id = c.document_id WHERE c.id > ? AND d.status = 'indexed' ORDER BY c.id LIMIT ?")
        .raw(true)
        .all(afterId, limit) as [number, number, string][];
      for (const [, doc, text] of rows) for (const word of writtenWordsOf(text, words)) this.stmts.insertLowerWriting.run(word, doc);
      if (rows.length < limit) {
        const mark = this.db.prepare('INSERT OR IGNORE INTO counted_words (word) VALUES (?)');
        for (const w of words) mark.run(w);
        return null;
      }
      return rows.at(-1)![0];
    })();
  }

  /**
   * The id of an entity, created on first use. Keys fold case, accents and spacing (normalizeName);
   * the node key also the number and case forms of capitalised words (graph/name-forms.ts mergeKey).
   */
  entityId(type: string, name: string): number {
    // Cached by the name as written: most names recur spelled the same way.
    let byName = this.entityIds.get(type);
    if (!byName) this.entityIds.set(type, (byName = new Map()));
    let id = byName.get(name);
    if (id === undefined) {
      const key = normalizeName(name);
      id = (this.stmts.entityByKey.get(key, type) as number | undefined) ?? Number(this.stmts.insertEntity.run(key, type, name, wordsKey(key), refBaseKey(type, name), mergeKey(type, name)).lastInsertRowid);
      byName.set(name, id);
      if (type === 'name') {
        const word = lowerCaseWord(name);
        if (word !== null && !this.trackedWords().has(word)) this.newNameWords.add(word);
      }
    }
    return id;
  }

  /** The names a note answers to (migration 010's note_names), replaced with its title, path or aliases. */
  writeNoteNames(documentId: number, notePath: string, title: string | null, metaJson: string): void {
    this.stmts.deleteNoteNames.run(documentId);
    for (const n of noteNameKeys(notePath, title, metaJson)) this.stmts.insertNoteName.run(documentId, n.key, n.words);
  }

  /**
   * Adds graph facts to a document (inside the caller's transaction), after the ones it has: a
   * mention in a chunk that one of its relations already cites is not stored twice.
   */
  insertGraph(documentId: number, graph: StoredGraph, firstSeq?: number): void {
    const idOf = (e: { name: string; type: string }) => this.entityId(e.type, e.name);
    let seq = firstSeq ?? (this.db.prepare('SELECT COALESCE(MAX(seq), -1) FROM relations WHERE document_id = ?').pluck().get(documentId) as number) + 1;
    const cited = new Set<number>();
    const COLS = 10;
    // Rows go in groups of GRAPH_BATCH per statement: one statement per row cost as much as extraction itself.
    let rows: unknown[] = [];
    for (const r of graph.relations) {
      const dst = idOf(r.dst);
      rows.push(documentId, seq++, r.src ? idOf(r.src) : null, dst, r.type, r.ordinal, r.line, r.endLine, r.fragment ?? null, r.origin);
      cited.add(dst * 100_000 + (r.ordinal ?? 99_999));
      if (rows.length === GRAPH_BATCH * COLS) {
        this.relationInsert(GRAPH_BATCH).run(rows);
        rows = [];
      }
    }
    if (rows.length > 0) this.relationInsert(rows.length / COLS).run(rows);
    for (const m of graph.mentions) {
      if (m.ordinal === null) continue;
      const id = idOf(m.entity);
      if (!cited.has(id * 100_000 + m.ordinal)) this.stmts.insertMention.run(documentId, id, m.ordinal, m.line, m.origin ?? 'rule');
    }
  }

  /** INSERT statements for 1..GRAPH_BATCH relation rows, prepared on first use. */
  private readonly relationInserts = new Map<number, Statement>();
  private relationInsert(rows: number): Statement {
    let stmt = this.relationInserts.get(rows);
    if (!stmt) {
      stmt = this.db.prepare(
        `INSERT INTO relations (document_id, seq, src_id, dst_id, type, ordinal, start_line, end_line, fragment, origin) VALUES ${Array(rows).fill('(?, ?, ?, ?, ?, ?, ?, ?, ?, ?)').join(', ')}`,
      );
      this.relationInserts.set(rows, stmt);
    }
    return stmt;
  }

  /** True when some document has graph facts stored. */
  hasGraphFacts(): boolean {
    return this.db.prepare('SELECT 1 FROM relations LIMIT 1').get() !== undefined;
  }

  /** Deletes entities no relation or mention refers to any more (one pass over both); returns how many went. */
  collectOrphanEntities(): number {
    const { changes } = this.db
      .prepare(
        `DELETE FROM entities WHERE id NOT IN (
           SELECT dst_id FROM relations UNION SELECT src_id FROM relations WHERE src_id IS NOT NULL UNION SELECT entity_id FROM mentions)`,
      )
      .run();
    if (changes > 0) this.entityIds.clear();
    return changes;
  }
}
