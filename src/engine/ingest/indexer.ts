import fs from 'node:fs';
import path from 'node:path';
import type { FileIssue, IndexReport, Root } from '../../shared/contract.ts';
import { isSynapsisError } from '../../shared/errors.ts';
import type { Config } from '../config.ts';
import type { EventBus } from '../events.ts';
import { chunkHash, sha256, stableStringify } from '../hash.ts';
import type { ChunkWrite, DocumentRow, Store } from '../store/store.ts';
import { chunkLines, estimateTokens, type ChunkParams } from './chunk.ts';
import { detectFileKind, looksBinary, type FileKind } from './file-types.ts';
import { parseDocument } from './parsers/index.ts';
import { walkRoot, type WalkEntry } from './walk.ts';

export interface IndexerDeps {
  store: Store;
  config: Config;
  events: EventBus;
  paramsHash: string;
}

type FileOutcome = 'indexed' | 'unchanged' | 'skipped' | 'failed' | 'vanished';

function formatBytes(n: number): string {
  return n >= 1024 * 1024 ? `${(n / (1024 * 1024)).toFixed(1)} MB` : `${Math.ceil(n / 1024)} KB`;
}

/** Indexes the given roots incrementally: an unchanged file costs a stat, a deleted one leaves every index. */
export async function indexRoots(deps: IndexerDeps, roots: readonly Root[]): Promise<IndexReport> {
  const started = performance.now();
  const report: IndexReport = {
    roots: roots.map((r) => r.path),
    files_seen: 0,
    indexed: 0,
    unchanged: 0,
    removed: 0,
    skipped: 0,
    failed: 0,
    chunks_added: 0,
    chunks_total: 0,
    duration_ms: 0,
    issues: [],
  };
  const walks = roots.map((root) => ({ root, ...walkRoot(root.path, { include: root.include, exclude: root.exclude }) }));
  const total = walks.reduce((n, w) => n + w.files.length, 0);
  let done = 0;
  let lastEmit = 0;
  const progress = (stage: 'scan' | 'parse' | 'done', current?: string) => {
    const now = performance.now();
    if (stage === 'parse' && now - lastEmit < 100 && done < total) return;
    lastEmit = now;
    const elapsed = (now - started) / 1000;
    const rate = elapsed > 0 ? done / elapsed : 0;
    deps.events.emit('index/progress', {
      stage,
      files_done: done,
      files_total: total,
      ...(current ? { path: current } : {}),
      rate_per_s: Math.round(rate * 10) / 10,
      eta_s: rate > 0 ? Math.round((total - done) / rate) : null,
    });
  };
  progress('scan');

  for (const { root, files, issues } of walks) {
    deps.store.setSetting(`walk_issues:${root.id}`, issues);
    for (const w of issues) report.issues.push({ path: path.join(root.path, w.relPath), status: 'skipped', reason: w.reason });
    const known = deps.store.documentsOfRoot(root.id);
    const seen = new Set<string>();
    for (const entry of files) {
      seen.add(entry.relPath);
      report.files_seen++;
      const { outcome, chunks, issue } = await indexFile(deps, root, entry, known.get(entry.relPath));
      if (outcome === 'vanished') seen.delete(entry.relPath);
      else if (outcome === 'indexed') report.indexed++;
      else if (outcome === 'unchanged') report.unchanged++;
      else if (outcome === 'skipped') report.skipped++;
      else report.failed++;
      report.chunks_added += chunks;
      if (issue) report.issues.push(issue);
      done++;
      progress('parse', entry.relPath);
      // Yield to the event loop so queries interleave with a long indexing run.
      if (done % 25 === 0) await new Promise<void>((resolve) => setImmediate(resolve));
    }
    const gone = [...known.values()].filter((d) => !seen.has(d.path)).map((d) => d.id);
    deps.store.deleteDocuments(gone);
    report.removed += gone.length;
  }
  report.chunks_total = deps.store.chunkCount();
  report.duration_ms = Math.round(performance.now() - started);
  progress('done');
  return report;
}

async function indexFile(
  deps: IndexerDeps,
  root: Root,
  entry: WalkEntry,
  existing: DocumentRow | undefined,
): Promise<{ outcome: FileOutcome; chunks: number; issue?: FileIssue }> {
  const { store, config } = deps;
  const absPath = path.join(root.path, entry.relPath);
  if (existing && existing.mtime_ms === entry.mtimeMs && existing.size === entry.size) {
    return { outcome: 'unchanged', chunks: 0 };
  }
  const kind: FileKind = detectFileKind(entry.relPath) ?? { type: 'text', language: null };
  const base = {
    rootId: root.id,
    path: entry.relPath,
    docId: entry.relPath,
    type: kind.type,
    language: kind.language,
    title: null,
    mtimeMs: entry.mtimeMs,
    size: entry.size,
  };
  const skip = (reason: string, contentHash: string | null = null) => {
    store.writeDocument({ ...base, contentHash, status: 'skipped', error: reason }, []);
    return { outcome: 'skipped' as const, chunks: 0, issue: { path: absPath, status: 'skipped' as const, reason } };
  };

  if (entry.size > config.maxFileBytes) {
    return skip(`file is ${formatBytes(entry.size)}, over the ${formatBytes(config.maxFileBytes)} size cap`);
  }
  let bytes: Buffer;
  try {
    bytes = await fs.promises.readFile(absPath);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') {
      // Deleted between the scan and the read: it is simply gone.
      if (existing) store.deleteDocuments([existing.id]);
      return { outcome: 'vanished', chunks: 0 };
    }
    const reason = `cannot read file: ${(error as Error).message}`;
    store.writeDocument({ ...base, contentHash: null, status: 'failed', errorCode: 'E_SYN_INDEX_FAILED', error: reason }, []);
    return { outcome: 'failed', chunks: 0, issue: { path: absPath, status: 'failed', reason, code: 'E_SYN_INDEX_FAILED' } };
  }
  const contentHash = sha256(bytes);
  if (existing && existing.content_hash === contentHash && existing.status === 'indexed') {
    store.touchDocument(existing.id, entry.mtimeMs, entry.size);
    return { outcome: 'unchanged', chunks: 0 };
  }
  if (kind.type !== 'pdf' && kind.type !== 'docx' && looksBinary(bytes.subarray(0, 8192))) {
    return skip('binary content', contentHash);
  }
  if (kind.type === 'pdf' || kind.type === 'docx' || kind.type === 'html') {
    return skip(`${kind.type.toUpperCase()} parsing is not available yet`, contentHash);
  }

  try {
    const parsed = await parseDocument({ relPath: entry.relPath, bytes, type: kind.type, language: kind.language });
    const params: ChunkParams = { size: config.chunkSize, overlap: config.chunkOverlap, maxChunks: config.maxChunksPerFile };
    const { chunks, truncated } = chunkLines(
      { lines: parsed.lines, from: parsed.from, hardBreaks: parsed.hardBreaks, softBreaks: parsed.softBreaks },
      params,
    );
    const tags = parsed.tags;
    const rows: ChunkWrite[] = chunks.map((c, ordinal) => {
      const place = parsed.locate?.(c.startLine, c.endLine) ?? { fragment: `L${c.startLine}-L${c.endLine}`, startLine: c.startLine, endLine: c.endLine };
      const locator = `${entry.relPath}#${place.fragment}`;
      const section = parsed.sectionAt(c.startLine - 1);
      return {
        ordinal,
        locator,
        sectionId: section?.id ?? null,
        heading: section?.heading ?? null,
        startLine: place.startLine,
        endLine: place.endLine,
        text: c.text,
        chunkHash: chunkHash(entry.relPath, locator, c.text, tags, deps.paramsHash),
        textHash: sha256(c.text),
        tags,
        tokenCount: estimateTokens(c.text),
        fts: { title: parsed.title, heading: section?.heading ?? '', body: c.text },
      };
    });
    const warnings = [...parsed.warnings];
    if (truncated) warnings.push(`only the first ${config.maxChunksPerFile} chunks were indexed`);
    store.writeDocument(
      {
        ...base,
        title: parsed.title,
        contentHash,
        status: 'indexed',
        sensitivity: tags.sensitivity ?? null,
        tags,
        meta: { ...parsed.meta, ...(warnings.length ? { warnings } : {}) },
        error: warnings.length ? warnings.join('; ') : null,
      },
      rows,
    );
    return { outcome: 'indexed', chunks: rows.length };
  } catch (error) {
    const code = isSynapsisError(error) ? error.code : 'E_SYN_CHUNK_PARSE_FAILED';
    const reason = (error as Error).message;
    store.writeDocument({ ...base, contentHash, status: 'failed', errorCode: code, error: reason }, []);
    return { outcome: 'failed', chunks: 0, issue: { path: absPath, status: 'failed', reason, code } };
  }
}

/** Hash of the chunking parameters; part of every chunk_hash and of the index_version. */
export function paramsHashOf(params: Record<string, unknown>): string {
  return sha256(stableStringify(params)).slice(0, 16);
}
