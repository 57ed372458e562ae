import YAML from 'yaml';

export interface MarkdownHeading {
  /** 0-based line index. */
  line: number;
  level: number;
  text: string;
  id: string;
}

export interface ParsedMarkdown {
  frontmatter: Record<string, unknown>;
  frontmatterError: string | null;
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
const FENCE = /^\s{0,3}(```|~~~)/;
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

export function parseMarkdown(lines: string[]): ParsedMarkdown {
  let frontmatter: Record<string, unknown> = {};
  let frontmatterError: string | null = null;
  let bodyStart = 0;
  if (lines[0] === '---') {
    const end = lines.findIndex((line, i) => i > 0 && (line === '---' || line === '...'));
    if (end > 0) {
      bodyStart = end + 1;
      try {
        const parsed: unknown = YAML.parse(lines.slice(1, end).join('\n'), { maxAliasCount: 100 });
        if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) frontmatter = parsed as Record<string, unknown>;
      } catch (error) {
        frontmatterError = (error as Error).message.split('\n')[0] ?? 'invalid YAML';
      }
    }
  }

  const headings: MarkdownHeading[] = [];
  const tags = new Set<string>(frontmatterList(frontmatter.tags));
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
    for (const m of line.matchAll(HASHTAG)) tags.add(m[1]!);
    for (const m of line.matchAll(WIKILINK)) wikilinks.add(m[1]!.trim());
  }

  const fmTitle = typeof frontmatter.title === 'string' ? frontmatter.title.trim() : '';
  const h1 = headings.find((h) => h.level === 1);
  return {
    frontmatter,
    frontmatterError,
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
