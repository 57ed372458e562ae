/**
 * Conversations (migration 011): threads and their turns. A turn keeps the answer as it was given;
 * whether a caller may read it is decided when it is read, with the sensitivity policy
 * (visibility.ts): the labels of the notes it used as they were then, and as the documents it used
 * are marked now.
 */
import { randomBytes } from 'node:crypto';
import { storedLimits } from '../../../shared/contract.ts';
import { sqliteOf, type ReadConnection, type WriteConnection } from '../connection.ts';
import { statements } from '../statements.ts';
import { FAIL_CLOSED } from '../../ingest/sensitivity.ts';
import { allowedParam, hiddenSql, visibleTo, type VisibilityPolicy } from '../visibility.ts';

export interface ThreadRow {
  id: string;
  title: string;
  created_at: string;
  updated_at: string;
  turns: number;
}

export interface TurnWrite {
  question: string;
  searched_as: string | null;
  carried: readonly string[];
  asked_at: string;
  /** The answer envelope as stored (JSON), given the turn's ordinal. */
  envelope: (ordinal: number) => unknown;
  /** The documents (doc_id) the answer's snippets come from. */
  doc_ids: readonly string[];
  /** Paths the envelope names besides its snippets (what was searched: the top results), relative to their root or absolute. */
  paths: readonly string[];
  /** The lines the answer's snippets quote: their chunks' text hashes are kept, to find them again in a moved note. */
  passages?: readonly { doc_id: string; start_line: number; end_line: number }[];
}

export interface TurnRow {
  id: number;
  ordinal: number;
  question: string;
  searched_as: string | null;
  carried: string[];
  asked_at: string;
  /** Null when the policy hides a note the answer used (searched_as is null and carried empty then too). */
  envelope: unknown;
  hidden: boolean;
  /** The answer used notes marked with a sensitivity other than public. */
  restricted: boolean;
}

const SUMMARY = `SELECT t.id, t.title, t.created_at, t.updated_at, (SELECT COUNT(*) FROM thread_turns u WHERE u.thread_id = t.id) AS turns FROM threads t`;

export function listThreads(connection: ReadConnection, limit: number): ThreadRow[] {
  return statements(sqliteOf(connection)).prepare(`${SUMMARY} ORDER BY t.updated_at DESC, t.rowid DESC LIMIT ?`).all(limit) as ThreadRow[];
}

export function threadById(connection: ReadConnection, id: string): ThreadRow | null {
  return (statements(sqliteOf(connection)).prepare(`${SUMMARY} WHERE t.id = ?`).get(id) as ThreadRow | undefined) ?? null;
}

export function createThread(connection: WriteConnection, title: string, now: string): ThreadRow {
  const id = `t_${randomBytes(8).toString('hex')}`;
  statements(sqliteOf(connection)).prepare('INSERT INTO threads (id, title, created_at, updated_at) VALUES (?, ?, ?, ?)').run(id, title, now, now);
  return { id, title, created_at: now, updated_at: now, turns: 0 };
}

/** False when there is no such thread. */
export function renameThread(connection: WriteConnection, id: string, title: string): boolean {
  return statements(sqliteOf(connection)).prepare('UPDATE threads SET title = ? WHERE id = ?').run(title, id).changes > 0;
}

/** Deletes the thread and its turns; false when there was none. */
export function deleteThread(connection: WriteConnection, id: string): boolean {
  const db = sqliteOf(connection);
  return db.transaction(() => {
    statements(db).prepare('DELETE FROM thread_turns WHERE thread_id = ?').run(id);
    return statements(db).prepare('DELETE FROM threads WHERE id = ?').run(id).changes > 0;
  })();
}

/**
 * Appends a turn to the thread (its next ordinal) with the sensitivity labels of the documents the
 * answer used, as they are marked now; returns the ordinal.
 */
export function appendTurn(connection: WriteConnection, threadId: string, turn: TurnWrite): number {
  const db = sqliteOf(connection);
  return db.transaction(() => {
    const ordinal = (statements(db).prepare('SELECT COALESCE(MAX(ordinal), 0) + 1 FROM thread_turns WHERE thread_id = ?').pluck().get(threadId) as number) ?? 1;
    const { labels, docIds } = usedLabels(db, turn);
    const passages = turnPassages(db, turn);
    statements(db)
      .prepare(
        `INSERT INTO thread_turns (thread_id, ordinal, question, searched_as, carried_json, asked_at, envelope_json, sensitivity_json, doc_ids_json, passages_json)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        threadId, ordinal, turn.question, turn.searched_as, JSON.stringify(turn.carried), turn.asked_at, JSON.stringify(turn.envelope(ordinal)), JSON.stringify(labels),
        JSON.stringify(docIds), JSON.stringify(passages),
      );
    statements(db).prepare('UPDATE threads SET updated_at = ? WHERE id = ?').run(turn.asked_at, threadId);
    return ordinal;
  })();
}

/**
 * Replaces a turn's answer (a saved question's quote, then its finished answer), with the labels of
 * the documents it uses now; false when there is no such turn.
 */
export function updateTurn(connection: WriteConnection, threadId: string, ordinal: number, turn: Omit<TurnWrite, 'question' | 'asked_at'>): boolean {
  const db = sqliteOf(connection);
  return db.transaction(() => {
    const { labels, docIds } = usedLabels(db, turn);
    const passages = turnPassages(db, turn);
    return (
      statements(db)
        .prepare('UPDATE thread_turns SET searched_as = ?, carried_json = ?, envelope_json = ?, sensitivity_json = ?, doc_ids_json = ?, passages_json = ? WHERE thread_id = ? AND ordinal = ?')
        .run(turn.searched_as, JSON.stringify(turn.carried), JSON.stringify(turn.envelope(ordinal)), JSON.stringify(labels), JSON.stringify(docIds), JSON.stringify(passages), threadId, ordinal).changes > 0
    );
  })();
}

/** What a turn stores while its answer is not finished: the reader's quote once read (see isInterrupted). */
export interface InterruptedAnswer {
  state: 'interrupted';
  quote: string | null;
  sources: { locator: string; title: string }[];
}

/** A stored answer as this version reads it: the limits older versions stored as text become `{ code, detail }`. */
export function storedEnvelope(envelope: unknown): unknown {
  if (typeof envelope !== 'object' || envelope === null || !('limits' in envelope)) return envelope;
  return { ...envelope, limits: storedLimits(envelope.limits) };
}

export const isInterrupted = (envelope: unknown): envelope is InterruptedAnswer => typeof envelope === 'object' && envelope !== null && (envelope as { state?: unknown }).state === 'interrupted';

/** The text hashes of the chunks under the passages a turn quoted, per document: how a moved note is found again. */
function turnPassages(db: ReturnType<typeof sqliteOf>, turn: Pick<TurnWrite, 'passages'>): [string, string][] {
  const chunksUnder = statements(db).prepare(
    `SELECT DISTINCT c.text_hash FROM chunks c JOIN documents d ON d.id = c.document_id
      WHERE d.doc_id = ? AND c.start_line <= ? AND c.end_line >= ? ORDER BY c.start_line`,
  );
  const passages: [string, string][] = [];
  for (const p of turn.passages ?? []) {
    for (const hash of chunksUnder.pluck().all(p.doc_id, p.end_line, p.start_line) as string[]) {
      if (!passages.some(([d, h]) => d === p.doc_id && h === hash)) passages.push([p.doc_id, hash]);
    }
  }
  return passages;
}

/** The documents a turn uses (its own and those behind the paths it names) and their sensitivity labels (lower case, public left out). */
function usedLabels(db: ReturnType<typeof sqliteOf>, turn: Pick<TurnWrite, 'doc_ids' | 'paths'>): { labels: string[]; docIds: string[] } {
  // The documents behind the named paths count as used: a restricted note's name is itself restricted.
  const named = statements(db)
    .prepare(
      `SELECT d.doc_id FROM documents d JOIN roots r ON r.id = d.root_id
        WHERE d.path IN (SELECT value FROM json_each(@paths)) OR (r.path || '/' || d.path) IN (SELECT value FROM json_each(@paths))`,
    )
    .pluck()
    .all({ paths: JSON.stringify(turn.paths) }) as string[];
  const docIds = [...new Set([...turn.doc_ids, ...named])];
  const labels = statements(db)
    .prepare(
      `SELECT DISTINCT lower(sensitivity) FROM documents
        WHERE doc_id IN (SELECT value FROM json_each(?)) AND sensitivity IS NOT NULL AND lower(sensitivity) != 'public' ORDER BY 1`,
    )
    .pluck()
    .all(JSON.stringify(docIds)) as string[];
  return { labels, docIds };
}

/**
 * The thread's turns in order, as this caller may read them: a turn whose answer used a note the
 * policy hides (by the label it had when the answer was saved, or as it is marked now), or that
 * carried terms from a hidden turn, comes back without its answer, what it was searched as and what
 * it carried.
 */
export function threadTurns(connection: ReadConnection, threadId: string, policy: VisibilityPolicy): TurnRow[] {
  const db = sqliteOf(connection);
  const rows = statements(db)
    .prepare(
      'SELECT id, ordinal, question, searched_as, carried_json, asked_at, envelope_json, sensitivity_json, doc_ids_json, passages_json FROM thread_turns WHERE thread_id = ? ORDER BY ordinal',
    )
    .all(threadId) as {
    id: number;
    ordinal: number;
    question: string;
    searched_as: string | null;
    carried_json: string;
    asked_at: string;
    envelope_json: string;
    sensitivity_json: string;
    doc_ids_json: string;
    passages_json: string;
  }[];
  const visible = visibleTo(policy);
  const present = statements(db).prepare('SELECT doc_id FROM documents WHERE doc_id IN (SELECT value FROM json_each(?))').pluck();
  const holders = statements(db).prepare('SELECT DISTINCT d.sensitivity FROM chunks c JOIN documents d ON d.id = c.document_id WHERE c.text_hash = ?').pluck();
  /**
   * The labels the turn's vanished documents (moved or deleted since) have now: those of the
   * documents that hold their quoted passages, found by content; FAIL_CLOSED for one whose passages
   * are not all found (or were never recorded: a note only named, or a turn saved before they were).
   */
  const vanishedLabels = (docIdsJson: string, passagesJson: string): string[] => {
    const docIds = JSON.parse(docIdsJson) as string[];
    const here = new Set(present.all(docIdsJson) as string[]);
    const gone = docIds.filter((d) => !here.has(d));
    if (gone.length === 0) return [];
    const passages = JSON.parse(passagesJson) as [string, string][];
    const labels: string[] = [];
    for (const doc of gone) {
      const hashes = passages.filter(([d]) => d === doc).map(([, h]) => h);
      if (hashes.length === 0) {
        labels.push(FAIL_CLOSED);
        continue;
      }
      for (const hash of hashes) {
        const found = holders.all(hash) as (string | null)[];
        if (found.length === 0) labels.push(FAIL_CLOSED);
        for (const l of found) if (l && l.toLowerCase() !== 'public') labels.push(l.toLowerCase());
      }
    }
    return labels;
  };
  const hiddenNow = policy.sensitivityEnable
    ? statements(db).prepare(`SELECT 1 FROM documents d WHERE d.doc_id IN (SELECT value FROM json_each(@docs)) AND ${hiddenSql('d')} LIMIT 1`)
    : null;
  const markedNow = statements(db).prepare(
    "SELECT 1 FROM documents d WHERE d.doc_id IN (SELECT value FROM json_each(?)) AND d.sensitivity IS NOT NULL AND lower(d.sensitivity) != 'public' LIMIT 1",
  );
  // A follow-up is searched with terms carried from the turn before it (what that was searched as and
  // the titles of the notes it cited): a turn that carried terms from a hidden turn is hidden with it,
  // and no hidden turn shows what it was searched as.
  let previousHidden = false;
  return rows.map((r) => {
    const labels = JSON.parse(r.sensitivity_json) as string[];
    const vanished = vanishedLabels(r.doc_ids_json, r.passages_json);
    const ownHidden =
      !labels.every((l) => visible(l)) ||
      !vanished.every((l) => visible(l)) ||
      (hiddenNow !== null && hiddenNow.get({ docs: r.doc_ids_json, allowed: allowedParam(policy) }) !== undefined);
    const hidden = ownHidden || (previousHidden && r.searched_as !== null);
    previousHidden = hidden;
    return {
      id: r.id,
      ordinal: r.ordinal,
      question: r.question,
      searched_as: hidden ? null : r.searched_as,
      carried: hidden ? [] : (JSON.parse(r.carried_json) as string[]),
      asked_at: r.asked_at,
      envelope: hidden ? null : storedEnvelope(JSON.parse(r.envelope_json)),
      hidden,
      restricted: labels.length > 0 || vanished.length > 0 || markedNow.get(r.doc_ids_json) !== undefined,
    };
  });
}

