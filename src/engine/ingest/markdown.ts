import YAML from 'yaml';
import { sensitivityOf, sensitivityOfRaw } from './sensitivity.ts';

export interface MarkdownHeading {
  /** 0-based line index. */
  line: number;
  level: number;
  text: string;
  id: string;
}

export interface ParsedMarkdown {
  frontmatter: Record<string, unknown>;
  /** The front matter as read: its error (with line) and the sensitivity it names, failing closed. */
  fm: Frontmatter;
  /** First line index after the frontmatter block. */
  bodyStart: number;
  title: string | null;
  headings: MarkdownHeading[];
  tags: string[];
  wikilinks: string[];
}

/**
 * An ATX heading (`## Text ##`): level and text, or null. Written out by hand: the regex it replaces,
 * /^(#{1,6})\s+(.+?)\s*#*\s*$/, backtracked cubically over a run of spaces inside the text, and a
 * heading line of 40,000 spaces and a word hung indexing.
 */
export function parseHeading(line: string): { level: number; text: string } | null {
  let level = 0;
  while (level < line.length && line.charCodeAt(level) === 35 /* # */) level++;
  if (level < 1 || level > 6 || level === line.length || !/\s/.test(line[level]!)) return null;
  const rest = line.slice(level).trimStart();
  if (rest === '') return null;
  // As the regex did: the shortest text (at least one character) followed only by spaces and #s.
  const trimmed = rest.trimEnd();
  let end = trimmed.length;
  while (end > 0 && trimmed.charCodeAt(end - 1) === 35) end--;
  return { level, text: trimmed.slice(0, end).trimEnd() || rest[0]! };
}
/** A code fence, also inside a quote or a callout (`> ```css`). */
const FENCE = /^\s{0,3}(?:>\s?)*\s{0,3}(```|~~~)/;
/** Inline code spans (`#ff0000`): no tag or link is read inside them. */
const CODE_SPAN = /(`+)(?!`)[\s\S]*?(?<!`)\1(?!`)/g;
/** Obsidian's rule: a tag holds at least one character that is not a digit (#1984 is no tag, #y1984 is). */
export const isTag = (tag: string) => /[^\p{N}]/u.test(tag);
const HASHTAG = /(?:^|[\s(])#([\p{L}\p{N}_][\p{L}\p{N}_/-]*)/gu;
const WIKILINK = /\[\[([^\]|#\n]+)(?:#[^\]|\n]*)?(?:\|[^\]\n]*)?\]\]/g;

/** GitHub-style heading slug, unique within the document. */
export function slugify(text: string): string {
  return (
    text
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s-]/gu, '')
      .trim()
      .replace(/\s+/g, '-') || 'section'
  );
}

/** Lines searched for a sensitivity key when a note opens front matter and never closes it. */
const UNCLOSED_SCAN_LINES = 100;
/**
 * Lines searched for a sensitivity key when a note does not open with front matter: the top, where
 * a header that was not recognised sits (a public note with a `Sensitivity:` line this high is hidden
 * too, and the index run says why).
 */
const UNRECOGNISED_SCAN_LINES = 20;

export interface Frontmatter {
  frontmatter: Record<string, unknown>;
  /** Why the front matter was ignored, with its 1-based line in the file; null when it parsed. */
  error: { message: string; line: number } | null;
  bodyStart: number;
  /** The document's sensitivity, failing closed (see sensitivity.ts); null: none named. */
  sensitivity: string | null;
}

/**
 * YAML front matter between a first line `---` and the next `---` or `...`. Shared by markdown and
 * plain-text files: a `.txt` note can carry `sensitivity: restricted` too.
 */
export function readFrontmatter(lines: readonly string[]): Frontmatter {
  if (lines[0] !== '---') {
    // Not front matter as read here (TOML's +++, a blank line or a no-break space before ---, an HTML
    // file): a sensitivity key in the first lines is still honoured, failing closed as below.
    const claimed = sensitivityOfRaw(lines.slice(0, UNRECOGNISED_SCAN_LINES));
    return {
      frontmatter: {},
      error: claimed ? { message: 'front matter not recognised (it opens the file with a line of only ---)', line: claimed.line + 1 } : null,
      bodyStart: 0,
      sensitivity: claimed?.sensitivity ?? null,
    };
  }
  const end = lines.findIndex((line, i) => i > 0 && (line === '---' || line === '...'));
  if (end < 0) {
    // Never closed, so not front matter: the text is the body. A sensitivity key near the top is
    // still honoured (restricted unless it says public): a missing `---` must not publish a note.
    const claimed = sensitivityOfRaw(lines.slice(1, UNCLOSED_SCAN_LINES));
    return {
      frontmatter: {},
      error: claimed ? { message: 'front matter is never closed with ---', line: 1 } : null,
      bodyStart: 0,
      sensitivity: claimed?.sensitivity ?? null,
    };
  }
  const body = lines.slice(1, end);
  try {
    const parsed: unknown = YAML.parse(body.join('\n'), { maxAliasCount: 100 });
    const frontmatter = parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
    // The key at any depth, and in front matter that is a list or a scalar too (sensitivity.ts).
    return { frontmatter, error: null, bodyStart: end + 1, sensitivity: sensitivityOf(parsed) };
  } catch (error) {
    const message = (error as Error).message.split('\n')[0]?.replace(/ at line \d+, column \d+:?$/, '') || 'invalid YAML';
    const pos = (error as { linePos?: { line: number }[] }).linePos?.[0]?.line;
    const claimed = sensitivityOfRaw(body);
    return {
      frontmatter: {},
      error: { message, line: pos ? pos + 1 : 1 },
      bodyStart: end + 1,
      sensitivity: claimed?.sensitivity ?? null,
    };
  }
}

/** The warning an index run reports for front matter it could not read. */
export function frontmatterWarning(fm: Frontmatter): string | null {
  if (!fm.error) return null;
  const restricted = fm.sensitivity && fm.sensitivity !== 'public' ? `; it names a sensitivity, so the note is treated as ${fm.sensitivity}` : '';
  return `front matter ignored (line ${fm.error.line}): ${fm.error.message}${restricted}`;
}

export function parseMarkdown(lines: string[]): ParsedMarkdown {
  const fm = readFrontmatter(lines);
  const { frontmatter, bodyStart } = fm;

  const headings: MarkdownHeading[] = [];
  const tags = new Set<string>(frontmatterList(frontmatter.tags).filter((t) => isTag(t.replace(/^#/, ''))));
  const wikilinks = new Set<string>();
  const usedIds = new Map<string, number>();
  let inFence = false;
  for (let i = bodyStart; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (FENCE.test(line)) {
      inFence = !inFence;
      continue;
    }
    if (inFence) continue;
    const heading = parseHeading(line);
    if (heading) {
      const text = heading.text;
      const base = slugify(text);
      const seen = usedIds.get(base) ?? 0;
      usedIds.set(base, seen + 1);
      headings.push({ line: i, level: heading.level, text, id: seen === 0 ? base : `${base}-${seen}` });
      continue;
    }
    for (const m of line.replace(CODE_SPAN, ' ').matchAll(HASHTAG)) if (isTag(m[1]!)) tags.add(m[1]!);
    for (const m of line.matchAll(WIKILINK)) wikilinks.add(m[1]!.trim());
  }

  const fmTitle = typeof frontmatter.title === 'string' ? frontmatter.title.trim() : '';
  const h1 = headings.find((h) => h.level === 1);
  return {
    frontmatter,
    fm,
    bodyStart,
    title: fmTitle || h1?.text || null,
    headings,
    tags: [...tags],
    wikilinks: [...wikilinks],
  };
}

/** Frontmatter lists come as YAML arrays or comma-separated strings. */
export function frontmatterList(value: unknown): string[] {
  if (Array.isArray(value)) return value.map((v) => String(v).trim().replace(/^#/, '')).filter(Boolean);
  if (typeof value === 'string') return value.split(',').map((v) => v.trim().replace(/^#/, '')).filter(Boolean);
  return [];
}
