/**
 * The exact lines behind a locator (`notes/a.md#L3-L9`, `paper.pdf#page=2&L1-L4`), for citations
 * that open where they point and for the MCP `get_source` tool. Only indexed documents are served,
 * looked up in the store by path (never a path joined from the request), and the sensitivity policy
 * applies as it does to search.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { DocumentEntry, SourceLines } from '../../shared/contract.ts';
import { createError } from '../../shared/errors.ts';
import { parseLocator } from '../../shared/locator.ts';
import { fromTerminalLine } from '../../shared/terminal-safe.ts';
import { sha256 } from '../core/hash.ts';
import { decodeText, normalizeLines } from '../ingest/normalize.ts';
import { isInside } from '../ingest/walk.ts';
import type { ReadConnection } from '../store/connection.ts';
import { chunkLinesOf, documentsAtPath, rootCount, visibleDocuments, visiblePathsByRoot, type LocatedDocument } from '../store/queries/documents.ts';
import { visibleTo } from '../store/visibility.ts';

/** The longest range served at once; a longer one is cut and says so. */
export const MAX_SOURCE_LINES = 500;
const TEXT_TYPES = new Set(['markdown', 'text', 'code']);

// The grammar lives in src/shared/locator.ts (the UI reads locators too); re-exported for this module's callers.
export { parseLocator, type ParsedLocator } from '../../shared/locator.ts';

export interface SourceOptions {
  allowSensitivity: readonly string[];
  sensitivityEnable: boolean;
  onDenied?: (reason: string) => void;
  /** Lines served at most (default MAX_SOURCE_LINES). */
  maxLines?: number;
  /** Read a file that resolves outside its root through a symlink (config followExternalSymlinks). */
  followExternalSymlinks?: boolean;
}

// The sensitivity policy is the store layer's (store/visibility.ts); re-exported for this module's callers.
export { visibleTo };

/**
 * The relative paths among `paths` that more than one root holds (documents this caller may see).
 * Their locators name the root (`/abs/root/notes/x.md#L1-L3`): `notes/x.md#L1-L3` alone would
 * open whichever root came first.
 */
export function pathsInSeveralRoots(db: ReadConnection, paths: readonly string[], options: Pick<SourceOptions, 'allowSensitivity' | 'sensitivityEnable'>): Set<string> {
  const several = new Set<string>();
  if (paths.length === 0 || rootCount(db) < 2) return several;
  const seen = new Set<string>();
  for (const p of visiblePathsByRoot(db, paths, options)) {
    if (seen.has(p)) several.add(p);
    seen.add(p);
  }
  return several;
}

/** A locator that names its root: the root's absolute path joined to the relative locator. */
export function rootedLocator(root: string, locator: string): string {
  return `${root.replace(/\/+$/, '')}/${locator}`;
}

/** Indexed documents the policy lets this caller see, in path order. */
export function listDocuments(db: ReadConnection, options: Pick<SourceOptions, 'allowSensitivity' | 'sensitivityEnable'>): DocumentEntry[] {
  return visibleDocuments(db, options).map((r) => ({ ...r, uri: fileUri(path.join(r.root, r.path)) }));
}

export function readSource(db: ReadConnection, locator: string, options: SourceOptions): SourceLines {
  const parsed = parseLocator(locator);
  if (parsed.path.split(/[\\/]/).includes('..')) {
    throw createError('E_SYN_BAD_REQUEST', `Invalid locator "${locator.slice(0, 200)}": ".." is not allowed; locators name indexed files relative to their folder`);
  }
  // The name as written first: a backslash is an ordinary character in a POSIX file name
  // (`back\slash.md`). Then with backslashes read as Windows separators, then with the control
  // characters a terminal showed as pictures (terminal-safe.ts) read back. Only indexed paths match.
  const names = [...new Set([parsed.path, parsed.path.replace(/\\/g, '/'), fromTerminalLine(parsed.path)])];
  let found: { all: LocatedDocument[]; visible: LocatedDocument[] } = { all: [], visible: [] };
  for (const rel of names) {
    found = documentsAtPath(db, rel, options);
    if (found.all.length > 0) break;
  }
  const { all: candidates, visible } = found;
  // A hidden document answers exactly like a missing one: the error must not tell that it exists.
  const notFound = () =>
    createError(
      'E_SYN_NOT_FOUND',
      `No indexed document at "${parsed.path.slice(0, 300)}" that this request may read (locators come from search results: path#L<start>-L<end>; notes marked with a sensitivity are served only when it is allowed)`,
    );
  if (candidates.length === 0) throw notFound();
  if (visible.length === 0) {
    options.onDenied?.(`${parsed.path} is marked ${candidates[0]!.sensitivity}; it is not served unless that sensitivity is allowed`);
    throw notFound();
  }
  if (visible.length > 1) {
    // The same relative path in two roots: which file is meant must be said, never guessed.
    const fragment = locator.includes('#') ? locator.slice(locator.indexOf('#')) : '';
    throw createError(
      'E_SYN_BAD_REQUEST',
      `"${parsed.path.slice(0, 300)}" is indexed in ${visible.length} folders; name the one meant: ${visible.map((d) => rootedLocator(d.root, d.path) + fragment).join(' or ')}`,
      { candidates: visible.map((d) => rootedLocator(d.root, d.path) + fragment) },
    );
  }
  const doc = visible[0]!;
  const rooted = pathsInSeveralRoots(db, [doc.path], options).has(doc.path);
  const absPath = path.join(doc.root, doc.path);
  let current: Buffer | null = null;
  try {
    // A file replaced by a symlink out of its root since indexing is not read: the indexed lines are served, marked stale.
    if (options.followExternalSymlinks || isInside(fs.realpathSync(doc.root), fs.realpathSync(absPath))) current = fs.readFileSync(absPath);
  } catch {
    current = null;
  }
  const stale = current === null || doc.content_hash === null || sha256(current) !== doc.content_hash;

  const chunks = chunkLinesOf(db, doc.id);
  const lastLine = chunks.reduce((m, c) => Math.max(m, c.end_line), 0);

  let lines: string[];
  let from = parsed.startLine ?? 1;
  if (!stale && current !== null && TEXT_TYPES.has(doc.type)) {
    // The file is what was indexed: its own lines, normalised as the indexer read them.
    const all = normalizeLines(decodeText(current).text);
    const to = Math.min(parsed.endLine ?? all.length, all.length);
    if (from > all.length) throw createError('E_SYN_NOT_FOUND', `${doc.path} has ${all.length} lines; line ${from} does not exist`);
    lines = all.slice(from - 1, to);
  } else {
    // Extracted text (PDF, DOCX, HTML) or a file changed since indexing: the lines as indexed.
    const to = Math.min(parsed.endLine ?? lastLine, lastLine);
    if (from > lastLine) throw createError('E_SYN_NOT_FOUND', `${doc.path} has ${lastLine} indexed lines; line ${from} does not exist`);
    const byLine = new Map<number, string>();
    for (const c of chunks) {
      const parts = c.text.split('\n');
      if (parts.length !== c.end_line - c.start_line + 1) continue;
      parts.forEach((t, i) => byLine.has(c.start_line + i) || byLine.set(c.start_line + i, t));
    }
    lines = [];
    for (let n = from; n <= to; n++) lines.push(byLine.get(n) ?? '');
    if (lines.every((l) => l === '')) {
      const overlapping = chunks.filter((c) => c.end_line >= from && c.start_line <= to);
      lines = overlapping.map((c) => c.text).join('\n').split('\n');
      from = overlapping[0]?.start_line ?? from;
    }
  }
  const maxLines = options.maxLines ?? MAX_SOURCE_LINES;
  const truncated = lines.length > maxLines;
  if (truncated) lines = lines.slice(0, maxLines);
  const end = from + Math.max(lines.length, 1) - 1;
  return {
    locator: ((rel: string) => (rooted ? rootedLocator(doc.root, rel) : rel))(`${doc.path}#${parsed.page ? `page=${parsed.page}&` : ''}L${from}-L${end}`),
    doc_id: doc.doc_id,
    path: doc.path,
    root: doc.root,
    uri: fileUri(absPath),
    type: doc.type,
    language: doc.language,
    start_line: from,
    end_line: end,
    text: lines.join('\n'),
    stale,
    truncated,
  };
}

export function fileUri(absPath: string): string {
  return pathToFileURL(absPath).href;
}
