/**
 * Rebuilding a damaged or lost store (`synapsis repair`). The store is the source of truth, but
 * everything in it except the embeddings is derived from the files in the roots, so a new store
 * is written from them: this module sets the old file aside (synapsis.db.damaged-<time>), starts a
 * new store with the roots it can still read (else the ones recorded beside it, else the folders
 * named) and every embedding it can still read, and drops the saved vector indexes (keyed by the
 * old chunk ids). An index run over the roots then re-chunks the files and embeds only the texts
 * whose vectors were lost.
 */
import fs from 'node:fs';
import path from 'node:path';
import BetterSqlite3, { type Database, type Statement } from 'better-sqlite3';
import { createError } from '../../shared/errors.ts';
import { DB_FILE } from './database.ts';
import { lockDataDir } from './data-dir-lock.ts';
import { clearDamage, isStoreCorrupt, recordedRoots, recordRoots, type RootRecord } from './integrity.ts';
import { sqliteOf } from './connection.ts';
import { Store } from './store.ts';
import { DATA_FILE, META_FILE } from '../vector/common.ts';

export interface StoreRebuild {
  /** Where the old store went (null: there was none). */
  set_aside: string | null;
  roots: RootRecord[];
  /** Where the roots came from. */
  roots_from: 'store' | 'recorded' | 'arguments';
  /** Roots whose folder no longer exists: left out. */
  missing_roots: string[];
  /** Embeddings read from the old store and kept. */
  embeddings: number;
  /** Places where reading the embeddings hit a damaged page and skipped ahead. */
  unreadable_ranges: number;
  /** Saved vector index files removed (rebuilt from the kept embeddings on the next run). */
  vector_files_removed: number;
  /** Conversations (threads) and their turns read from the old store and kept. */
  threads: number;
  turns: number;
}

function openOld(file: string): Database | null {
  try {
    if (!fs.existsSync(file) || fs.statSync(file).size === 0) return null;
    return new BetterSqlite3(file, { readonly: true, fileMustExist: true });
  } catch {
    return null;
  }
}

function rootsOf(db: Database | null): RootRecord[] | null {
  if (!db) return null;
  try {
    const rows = db.prepare('SELECT path, include_json, exclude_json FROM roots ORDER BY path').all() as { path: string; include_json: string; exclude_json: string }[];
    return rows.map((r) => ({ path: r.path, include: JSON.parse(r.include_json) as string[], exclude: JSON.parse(r.exclude_json) as string[] }));
  } catch {
    return null;
  }
}

/** Moves the store and its -wal and -shm files aside together (so the set still opens as one database). */
function setAside(file: string): string | null {
  if (!fs.existsSync(file)) return null;
  const aside = `${file}.damaged-${new Date().toISOString().replace(/[:.]/g, '-')}`;
  for (const suffix of ['-wal', '-shm', '']) {
    if (fs.existsSync(file + suffix)) fs.renameSync(file + suffix, aside + suffix);
  }
  return aside;
}

/** Removes every saved vector index under index/ (each is keyed by the old store's chunk ids). */
function removeVectorFiles(dir: string): number {
  let removed = 0;
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return 0;
  }
  for (const e of entries) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) removed += removeVectorFiles(p);
    else if ([META_FILE, DATA_FILE, `${META_FILE}.tmp`, `${DATA_FILE}.tmp`].includes(e.name)) {
      fs.rmSync(p, { force: true });
      removed++;
    }
  }
  return removed;
}

/**
 * The conversations of the old store, carried into the new one as they were (they are not derived
 * from the files). Each thread goes over with the turns that can be read; a damaged page loses
 * what it holds, not the rest. A store from before threads existed has none.
 */
function copyThreads(old: Database, store: Store): { threads: number; turns: number } {
  let threads: Record<string, unknown>[];
  try {
    threads = old.prepare('SELECT id, title, created_at, updated_at FROM threads').all() as Record<string, unknown>[];
  } catch {
    return { threads: 0, turns: 0 };
  }
  const db = sqliteOf(store.db);
  const addThread = db.prepare('INSERT OR IGNORE INTO threads (id, title, created_at, updated_at) VALUES (@id, @title, @created_at, @updated_at)');
  const addTurn = db.prepare(
    `INSERT OR IGNORE INTO thread_turns (thread_id, ordinal, question, searched_as, carried_json, asked_at, envelope_json, sensitivity_json, doc_ids_json, passages_json)
     VALUES (@thread_id, @ordinal, @question, @searched_as, @carried_json, @asked_at, @envelope_json, @sensitivity_json, @doc_ids_json, @passages_json)`,
  );
  // A store from before migration 015 has no passages: its turns go over without them.
  const hasPassages = (old.prepare("SELECT 1 FROM pragma_table_info('thread_turns') WHERE name = 'passages_json'").get() as unknown) !== undefined;
  const readTurns = hasPassages
    ? old.prepare(
        'SELECT thread_id, ordinal, question, searched_as, carried_json, asked_at, envelope_json, sensitivity_json, doc_ids_json, passages_json FROM thread_turns WHERE thread_id = ? ORDER BY ordinal',
      )
    : old.prepare(
        "SELECT thread_id, ordinal, question, searched_as, carried_json, asked_at, envelope_json, sensitivity_json, doc_ids_json, '[]' AS passages_json FROM thread_turns WHERE thread_id = ? ORDER BY ordinal",
      );
  let turns = 0;
  db.transaction(() => {
    for (const t of threads) {
      addThread.run(t);
      let rows: Record<string, unknown>[] = [];
      try {
        rows = readTurns.all(t.id) as Record<string, unknown>[];
      } catch (error) {
        if (!isStoreCorrupt(error)) throw error;
      }
      for (const r of rows) turns += addTurn.run(r).changes;
    }
  })();
  return { threads: threads.length, turns };
}

/** Text hashes are lowercase hex: a damaged page is skipped 1/65,536 of the hashes at a time (a page holds about 1/1,000 of 16,000 vectors). */
const PREFIX = 4;
const prefixOf = (hash: string) => parseInt(hash.slice(0, PREFIX), 16) || 0;

/**
 * Every embedding row of the old store that can be read, in key order, handed over in pages. A
 * damaged page stops the cursor: reading goes on after the last key read, 1/65,536 of the hash
 * space further each time (a failed seek costs microseconds), until a read succeeds; past the last
 * prefix, with the next model.
 */
function copyEmbeddings(old: Database, write: (modelId: string, rows: { hash: string; vector: Float32Array }[]) => void): { copied: number; skips: number } {
  let first: Statement<[]>;
  let after: Statement<[string, string]>;
  try {
    first = old.prepare('SELECT model_id, text_hash, dim, vector FROM embeddings ORDER BY model_id, text_hash');
    after = old.prepare('SELECT model_id, text_hash, dim, vector FROM embeddings WHERE (model_id, text_hash) > (?, ?) ORDER BY model_id, text_hash');
  } catch {
    // The schema itself is unreadable (a damaged sqlite_schema page): nothing can be salvaged, everything is embedded again.
    return { copied: 0, skips: 1 };
  }
  let copied = 0;
  let skips = 0;
  let last: { model: string; hash: string } | null = null;
  let resume: [string, string] | null = null;
  /** The hash prefix tried after the last failure; null once a row was read after it. */
  let skipTo: number | null = null;
  let nextModel = false;
  let page: { hash: string; vector: Float32Array }[] = [];
  let pageModel = '';
  const flush = () => {
    if (page.length > 0) write(pageModel, page);
    copied += page.length;
    page = [];
  };
  for (;;) {
    try {
      const rows = (resume ? after.iterate(...resume) : first.iterate()) as IterableIterator<{ model_id: string; text_hash: string; dim: number; vector: Buffer }>;
      for (const r of rows) {
        last = { model: r.model_id, hash: r.text_hash };
        skipTo = null;
        nextModel = false;
        if (!Buffer.isBuffer(r.vector) || !(r.dim > 0) || r.vector.byteLength !== r.dim * 4 || typeof r.text_hash !== 'string') continue;
        if (r.model_id !== pageModel || page.length >= 1000) {
          flush();
          pageModel = r.model_id;
        }
        page.push({ hash: r.text_hash, vector: new Float32Array(r.vector.buffer.slice(r.vector.byteOffset, r.vector.byteOffset + r.vector.byteLength)) });
      }
      break;
    } catch (error) {
      if (!isStoreCorrupt(error)) throw error;
      skips++;
      if (!last || nextModel) break; // the table cannot be entered, or nothing after a model can be read
      skipTo = (skipTo ?? prefixOf(last.hash)) + 1;
      if (skipTo < 16 ** PREFIX) resume = [last.model, skipTo.toString(16).padStart(PREFIX, '0')];
      else {
        resume = [last.model, 'z'];
        nextModel = true;
      }
    }
  }
  flush();
  return { copied, skips };
}

/**
 * Sets the store of `dataDir` aside and starts a new one with the roots and embeddings that can be
 * read; the caller then runs an index over the roots. `folders`: roots to use when the old store's
 * cannot be read (added to the recorded ones). Takes the data dir's lock while it works.
 */
export function rebuildStore(dataDir: string, options: { folders?: readonly string[] } = {}): StoreRebuild {
  const file = path.join(dataDir, DB_FILE);
  const lock = lockDataDir(dataDir);
  try {
    let old = openOld(file);
    let roots = rootsOf(old);
    let from: StoreRebuild['roots_from'] = 'store';
    if (!roots || roots.length === 0) {
      roots = recordedRoots(dataDir);
      from = 'recorded';
    }
    const named = (options.folders ?? []).map((f) => path.resolve(f)).filter((f) => !roots!.some((r) => r.path === f));
    if (named.length > 0) {
      roots = [...roots, ...named.map((p) => ({ path: p, include: [], exclude: [] }))];
      if (from === 'recorded' && roots.length === named.length) from = 'arguments';
    }
    if (roots.length === 0) {
      old?.close();
      throw createError(
        'E_SYN_BAD_REQUEST',
        `The store in ${dataDir} does not say which folders it indexed (and no roots were recorded beside it): name them, synapsis repair <folder>... --data-dir ${dataDir}`,
        { data_dir: dataDir },
      );
    }
    old?.close();
    const aside = setAside(file);
    // The damage recorded beside the store was the old file's (which it names): the new one starts whole.
    clearDamage(dataDir);
    old = aside ? openOld(aside) : null;
    const missing = roots.filter((r) => !fs.existsSync(r.path)).map((r) => r.path);
    const kept = roots.filter((r) => !missing.includes(r.path));
    const vectorFiles = removeVectorFiles(path.join(dataDir, 'index'));
    const store = new Store(dataDir);
    let salvage = { copied: 0, skips: 0 };
    let conversations = { threads: 0, turns: 0 };
    try {
      for (const r of kept) store.addRoot(r.path, r.include, r.exclude);
      if (old) salvage = copyEmbeddings(old, (model, rows) => store.writeEmbeddings(model, rows));
      if (old) conversations = copyThreads(old, store);
    } finally {
      old?.close();
      store.dispose();
    }
    recordRoots(dataDir, kept);
    return {
      set_aside: aside,
      roots: kept,
      roots_from: from,
      missing_roots: missing,
      embeddings: salvage.copied,
      unreadable_ranges: salvage.skips,
      vector_files_removed: vectorFiles,
      threads: conversations.threads,
      turns: conversations.turns,
    };
  } finally {
    void lock.dispose();
  }
}
