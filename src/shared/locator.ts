/**
 * The locator grammar (docs/design.md §3), written once for the engine and the UI:
 *
 * - `path` (the whole file), `path#L5`, `path#L5-L9`: lines of a text or code file;
 * - `path#page=2&L5-L9`: lines of a PDF page's extracted text;
 * - `path:5-9`, `path:5`: the form editors and compilers print;
 * - `/abs/root/path#L5-L9`: the path with its root folder in front, when two roots hold the same
 *   relative path (a relative path alone would open whichever root came first).
 *
 * The last `#` starts the fragment, so a `#` inside a file name survives.
 */
import { createError } from './errors.ts';

export interface ParsedLocator {
  path: string;
  page: number | null;
  startLine: number | null;
  endLine: number | null;
}

/** Reads a locator; a malformed one throws E_SYN_BAD_REQUEST saying what is wrong with it. */
export function parseLocator(locator: string): ParsedLocator {
  const bad = (why: string) => createError('E_SYN_BAD_REQUEST', `Invalid locator "${locator.slice(0, 200)}": ${why}. Expected path#L<start>-L<end>, as search results print it.`);
  if (typeof locator !== 'string' || locator.trim() === '') throw bad('it is empty');
  if (locator.length > 4096) throw bad('it is longer than 4096 characters');
  if (locator.includes('\u0000')) throw bad('it contains a NUL character');
  const hash = locator.lastIndexOf('#');
  let file = hash >= 0 ? locator.slice(0, hash) : locator;
  let fragment = hash >= 0 ? locator.slice(hash + 1) : '';
  if (hash < 0) {
    const colon = /^(.*):(\d+)(?:-(\d+))?$/.exec(locator);
    if (colon) {
      file = colon[1]!;
      fragment = `L${colon[2]}${colon[3] ? `-L${colon[3]}` : ''}`;
    }
  }
  if (file === '') throw bad('it names no file');
  if (fragment === '') return { path: file, page: null, startLine: null, endLine: null };
  const m = /^(?:page=(\d+)&)?L(\d+)(?:-L?(\d+))?$/.exec(fragment);
  if (!m) throw bad(`"#${fragment}" is not a line range`);
  const start = Number(m[2]);
  const end = m[3] ? Number(m[3]) : start;
  if (start < 1 || end < start) throw bad(`lines ${start}-${end} are not a range (1-based, start <= end)`);
  return { path: file, page: m[1] ? Number(m[1]) : null, startLine: start, endLine: end };
}

/** Writes a locator in the form results print: `path#L5-L9`, `path#page=2&L5-L9`, or the bare path. */
export function formatLocator(locator: { path: string; page?: number | null; startLine?: number | null; endLine?: number | null }): string {
  const { path, page = null, startLine = null } = locator;
  if (startLine === null) return path;
  return `${path}#${page !== null ? `page=${page}&` : ''}L${startLine}-L${locator.endLine ?? startLine}`;
}
