/**
 * What a note embeds, for the reading pane: Obsidian's `![[Note]]`, `![[Note#Heading]]` and
 * `![[Note#^block]]` as the embedded note's text (the whole note, the heading's section, or the
 * block), and `![[picture.png]]` / `![alt](pictures/x.png)` as the picture's bytes. Notes are read
 * through readSource (indexed documents only, the caller's sensitivity policy applied: a restricted
 * note is never embedded into a view that may not see it, and answers like a missing one);
 * pictures only from inside the note's own folder tree (its root), by extension and size. Embeds
 * inside embedded notes are resolved too, a few levels deep.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { NoteEmbed } from '../../shared/contract.ts';
import { isInside } from '../ingest/walk.ts';
import type { LinkGraph } from '../graph/stored.ts';
import { documentsAtPath } from '../store/queries/documents.ts';
import { notePathNamed } from './related.ts';
import { parseLocator, readSource, type SourceOptions } from './source.ts';

/** Levels of embeds inside embeds resolved (the pane stops at the same depth). */
export const EMBED_DEPTH = 3;
/** Embeds resolved for one note, all levels together. */
const MAX_EMBEDS = 40;
/** Lines of an embedded note shown. */
const MAX_EMBED_LINES = 200;
/** A picture larger than this is named, not shown. */
const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
/** Pictures' bytes for one note, all together. */
const MAX_IMAGE_TOTAL = 20 * 1024 * 1024;
/** Entries a search for a picture by name reads in a root before giving up. */
const MAX_WALK_ENTRIES = 20_000;

const IMAGE_TYPES: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.bmp': 'image/bmp',
  '.avif': 'image/avif',
  '.svg': 'image/svg+xml',
};

/** `![[target]]` (with an optional `|size or alias`) and `![alt](address)`, as written. */
const WIKI_EMBED = /!\[\[([^\]|\n]+)(?:\|[^\]\n]*)?\]\]/g;
const MD_IMAGE = /!\[[^\]\n]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"\n]*")?\s*\)/g;

/** The embed targets a note's text writes, in order, once each: `Note#Heading`, `x.png`, `pictures/x.png`. */
export function embedTargets(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(WIKI_EMBED)) out.push(m[1]!.trim());
  for (const m of text.matchAll(MD_IMAGE)) {
    if (!/^[a-z][a-z0-9+.-]*:/i.test(m[1]!) && !m[1]!.startsWith('#')) out.push(decodeTarget(m[1]!));
  }
  return [...new Set(out.filter(Boolean))];
}

function decodeTarget(href: string): string {
  try {
    return decodeURIComponent(href);
  } catch {
    return href;
  }
}

export const isImageName = (name: string) => path.extname(name.split('#')[0]!).toLowerCase() in IMAGE_TYPES;

/** The lines of a heading's section: from the heading to the next heading of its level or above. */
export function headingSection(lines: readonly string[], heading: string): { from: number; to: number } | null {
  const key = (s: string) => s.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');
  const want = key(heading);
  let fence = false;
  let start = -1;
  let level = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (/^\s*(```|~~~)/.test(line)) fence = !fence;
    if (fence) continue;
    const m = /^(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line);
    if (!m) continue;
    if (start >= 0 && m[1]!.length <= level) return { from: start, to: i - 1 };
    if (start < 0 && key(m[2]!) === want) {
      start = i;
      level = m[1]!.length;
    }
  }
  return start >= 0 ? { from: start, to: lines.length - 1 } : null;
}

/**
 * The lines of the block a `^id` marks: the paragraph or list item it ends, or, when the id stands
 * on a line of its own, the block just above it (a table, a quote, a list).
 */
export function blockLines(lines: readonly string[], id: string): { from: number; to: number } | null {
  const mark = new RegExp(`(^|\\s)\\^${id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*$`);
  const at = lines.findIndex((l) => mark.test(l));
  if (at < 0) return null;
  const blank = (i: number) => (lines[i] ?? '').trim() === '';
  const own = lines[at]!.trim().startsWith('^');
  let end = own ? at - 1 : at;
  while (own && end >= 0 && blank(end)) end--;
  if (end < 0) return null;
  if (/^\s*([-*+]|\d+[.)])\s/.test(lines[end]!) && !own) return { from: end, to: end };
  let from = end;
  while (from > 0 && !blank(from - 1) && !/^#{1,6}\s/.test(lines[from]!)) from--;
  let to = end;
  if (!own) while (to + 1 < lines.length && !blank(to + 1)) to++;
  return { from, to };
}

export interface EmbedContext {
  db: Parameters<typeof readSource>[0];
  graph: LinkGraph;
  policy: SourceOptions;
}

/** One embed resolved: a note's text (whole, section or block), a picture, or missing (not found, or not visible). */
function resolveOne(ctx: EmbedContext, from: { path: string; root: string }, target: string, budget: { bytes: number }): NoteEmbed {
  const [name = '', ...rest] = target.split('#');
  const fragment = rest.join('#');
  if (isImageName(name)) return resolveImage(from, target, name, budget);
  if (!name) return { target, kind: 'missing', path: null, title: null, locator: null, text: null, start_line: null, mime: null, data: null };
  const notePath = notePathNamed(ctx.graph, name);
  const missing: NoteEmbed = { target, kind: 'missing', path: null, title: null, locator: null, text: null, start_line: null, mime: null, data: null };
  if (!notePath) return missing;
  let source;
  try {
    // readSource applies the policy again: only a note this caller may read is embedded.
    source = readSource(ctx.db, notePath, { ...ctx.policy, maxLines: 5000 });
  } catch {
    return missing;
  }
  const lines = source.text.split('\n');
  let range = { from: 0, to: lines.length - 1 };
  if (fragment.startsWith('^')) {
    const found = blockLines(lines, fragment.slice(1));
    if (!found) return { ...missing, path: source.path };
    range = found;
  } else if (fragment) {
    const found = headingSection(lines, fragment);
    if (!found) return { ...missing, path: source.path };
    range = found;
  } else if (lines[0] === '---') {
    // A whole note embeds without its front matter, as Obsidian shows it.
    const close = lines.findIndex((l, i) => i > 0 && (l === '---' || l === '...'));
    if (close > 0) range = { from: close + 1, to: lines.length - 1 };
  }
  const to = Math.min(range.to, range.from + MAX_EMBED_LINES - 1);
  const start = source.start_line + range.from;
  return {
    target,
    kind: 'note',
    path: source.path,
    title: path.posix.basename(source.path).replace(/\.[^.]+$/, ''),
    locator: `${source.path}#L${start}-L${source.start_line + to}`,
    text: lines
      .slice(range.from, to + 1)
      .join('\n')
      .replace(/\s\^[\w-]+\s*$/gm, ''),
    start_line: start,
    mime: null,
    data: null,
  };
}

/** A picture inside the embedding note's root: beside the note, from the root, or found by its name (Obsidian's shortest form). */
function resolveImage(from: { path: string; root: string }, target: string, name: string, budget: { bytes: number }): NoteEmbed {
  const missing: NoteEmbed = { target, kind: 'missing', path: null, title: null, locator: null, text: null, start_line: null, mime: null, data: null };
  let rootReal: string;
  try {
    rootReal = fs.realpathSync(from.root);
  } catch {
    return missing;
  }
  const noteDir = path.posix.dirname(from.path);
  const candidates = [path.posix.join(noteDir, name), path.posix.normalize(name)].filter((p) => !p.startsWith('..') && !path.isAbsolute(p));
  let found: string | null = null;
  for (const rel of candidates) {
    if (isFileInside(rootReal, path.join(from.root, rel))) {
      found = rel;
      break;
    }
  }
  if (!found && !name.includes('/')) found = findByName(from.root, rootReal, name);
  if (!found) return missing;
  const abs = path.join(from.root, found);
  const size = fs.statSync(abs).size;
  const shown: NoteEmbed = { ...missing, kind: 'image', path: found.split(path.sep).join('/'), title: path.posix.basename(found) };
  if (size > MAX_IMAGE_BYTES || budget.bytes + size > MAX_IMAGE_TOTAL) return shown;
  budget.bytes += size;
  return { ...shown, mime: IMAGE_TYPES[path.extname(found).toLowerCase()]!, data: fs.readFileSync(abs).toString('base64') };
}

/** A regular file whose real path lies inside the root (no symlink out of it). */
function isFileInside(rootReal: string, abs: string): boolean {
  try {
    const real = fs.realpathSync(abs);
    return isInside(rootReal, real) && fs.statSync(real).isFile();
  } catch {
    return false;
  }
}

/** The first file of this name under the root, breadth first (shallowest wins), skipping hidden folders. */
function findByName(root: string, rootReal: string, name: string): string | null {
  const queue = [''];
  let read = 0;
  while (queue.length > 0 && read < MAX_WALK_ENTRIES) {
    const rel = queue.shift()!;
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(path.join(root, rel), { withFileTypes: true });
    } catch {
      continue;
    }
    read += entries.length;
    const hit = entries.find((e) => e.name === name && !e.isDirectory());
    if (hit && isFileInside(rootReal, path.join(root, rel, hit.name))) return path.join(rel, hit.name);
    for (const e of entries) if (e.isDirectory() && !e.name.startsWith('.') && e.name !== 'node_modules') queue.push(path.join(rel, e.name));
  }
  return null;
}

/**
 * Every embed of the note at `locator`, and the embeds of the notes it embeds, EMBED_DEPTH levels
 * deep, each target once. The note itself must be visible to the caller (else: not found).
 */
export function noteEmbeds(ctx: EmbedContext, locator: string): NoteEmbed[] {
  const note = readSource(ctx.db, parseLocator(locator).path, { ...ctx.policy, maxLines: 5000 });
  const out = new Map<string, NoteEmbed>();
  const budget = { bytes: 0 };
  let level: { path: string; root: string; text: string }[] = [{ path: note.path, root: note.root, text: note.text }];
  for (let depth = 0; depth < EMBED_DEPTH && level.length > 0 && out.size < MAX_EMBEDS; depth++) {
    const next: typeof level = [];
    for (const from of level) {
      for (const target of embedTargets(from.text)) {
        if (out.has(target) || out.size >= MAX_EMBEDS) continue;
        const embed = resolveOne(ctx, from, target, budget);
        out.set(target, embed);
        if (embed.kind === 'note' && embed.text) {
          const doc = documentsAtPath(ctx.db, embed.path!, ctx.policy).visible[0];
          if (doc) next.push({ path: doc.path, root: doc.root, text: embed.text });
        }
      }
    }
    level = next;
  }
  return [...out.values()];
}
