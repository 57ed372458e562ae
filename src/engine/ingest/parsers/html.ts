import type { FormatCallback, HtmlToTextOptions } from 'html-to-text';
import { frontmatterWarning, readFrontmatter, slugify } from '../markdown.ts';
import { decodeUtf8, normalizeLines } from '../normalize.ts';
import { baseName } from './text.ts';
import type { ParseInput, ParsedDocument, Parser } from './types.ts';

type HtmlToText = typeof import('html-to-text');

export interface HtmlHeading {
  /** 0-based line index in the extracted text. */
  line: number;
  level: number;
  text: string;
  id: string;
}

export interface HtmlText {
  /** Normalised lines; headings are written `# Heading` .. `###### Heading`. */
  lines: string[];
  headings: HtmlHeading[];
}

/**
 * A private-use character that marks a heading's level in html-to-text's output; it is removed from
 * the input first, so no text of the document can pass for a heading.
 */
const MARK = '\uE000';
/** How much of an HTML file is read for front matter (a long one ends unclosed: its top is scanned). */
const FRONTMATTER_SCAN_CHARS = 64 * 1024;
const MARK_LINE = /^\s*\uE000([1-6])(.*)$/;
const STRAY_MARK = /\uE000[1-6]?/g;

const markHeading: FormatCallback = (elem, walk, builder) => {
  builder.openBlock({ leadingLineBreaks: 2 });
  builder.addLiteral(`${MARK}${String(elem.name).slice(1)}`);
  walk(elem.children, builder);
  builder.closeBlock({ trailingLineBreaks: 2 });
};

const OPTIONS: HtmlToTextOptions = {
  wordwrap: false,
  formatters: { markHeading },
  selectors: [
    ...['h1', 'h2', 'h3', 'h4', 'h5', 'h6'].map((selector) => ({ selector, format: 'markHeading' })),
    { selector: 'a', options: { ignoreHref: true } },
    { selector: 'img', format: 'skip' },
    { selector: 'head', format: 'skip' },
    { selector: 'title', format: 'skip' },
    { selector: 'script', format: 'skip' },
    { selector: 'style', format: 'skip' },
    { selector: 'noscript', format: 'skip' },
    { selector: 'template', format: 'skip' },
    { selector: 'svg', format: 'skip' },
    { selector: 'ul', options: { itemPrefix: '- ' } },
    { selector: 'table', format: 'dataTable', options: { uppercaseHeaderCells: false, maxColumnWidth: 10_000 } },
  ],
};

let htmlToTextModule: Promise<HtmlToText> | undefined;
function loadHtmlToText(): Promise<HtmlToText> {
  htmlToTextModule ??= import('html-to-text').catch((error: unknown) => {
    htmlToTextModule = undefined;
    throw error;
  });
  return htmlToTextModule;
}

/** Converts HTML (a web page, or mammoth's rendering of a DOCX) to lines with markdown-like headings. */
export async function htmlToLines(html: string): Promise<HtmlText> {
  const { convert } = await loadHtmlToText();
  const text = convert(html.replaceAll(MARK, ''), OPTIONS).replace(/\u00a0/g, ' ');
  const lines = normalizeLines(text);
  const headings: HtmlHeading[] = [];
  const usedIds = new Map<string, number>();
  lines.forEach((line, i) => {
    const m = MARK_LINE.exec(line);
    if (!m) {
      if (line.includes(MARK)) lines[i] = line.replace(STRAY_MARK, '');
      return;
    }
    const level = Number(m[1]);
    const heading = (m[2] ?? '').replace(STRAY_MARK, '').replace(/\s+/g, ' ').trim();
    if (!heading) {
      lines[i] = '';
      return;
    }
    lines[i] = `${'#'.repeat(level)} ${heading}`;
    const base = slugify(heading);
    const seen = usedIds.get(base) ?? 0;
    usedIds.set(base, seen + 1);
    headings.push({ line: i, level, text: heading, id: seen === 0 ? base : `${base}-${seen}` });
  });
  return { lines, headings };
}

/** The heading in force at a 0-based line: the last one at or before it. */
export function sectionFinder(headings: readonly HtmlHeading[]): (line: number) => { heading: string; id: string } | null {
  return (line: number) => {
    let lo = 0;
    let hi = headings.length - 1;
    let found: HtmlHeading | undefined;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const h = headings[mid]!;
      if (h.line <= line) {
        found = h;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return found ? { heading: found.text, id: found.id } : null;
  };
}

/** Decodes an HTML file: a BOM, else a `<meta charset>` in the first 2 KB, else UTF-8. */
export function decodeHtml(bytes: Uint8Array): { text: string; warnings: string[] } {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return { text: new TextDecoder('utf-16le').decode(bytes), warnings: [] };
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return { text: new TextDecoder('utf-16be').decode(bytes), warnings: [] };
  const warnings: string[] = [];
  const head = new TextDecoder('latin1').decode(bytes.subarray(0, 2048));
  const label = /<meta[^>]+charset\s*=\s*["']?\s*([\w:.-]+)/i.exec(head)?.[1]?.toLowerCase();
  if (label && label !== 'utf-8' && label !== 'utf8' && !(bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf)) {
    try {
      return { text: new TextDecoder(label).decode(bytes), warnings };
    } catch {
      warnings.push(`unknown charset ${label}, read as UTF-8`);
    }
  }
  const { text, invalid } = decodeUtf8(bytes);
  if (invalid) warnings.push('invalid UTF-8 replaced with U+FFFD');
  return { text, warnings };
}

/** The text of the first `<title>`, entities decoded and whitespace collapsed. */
async function titleOf(html: string): Promise<string | null> {
  const inner = /<title\b[^>]*>([\s\S]*?)<\/title\s*>/i.exec(html)?.[1];
  if (!inner) return null;
  const { convert } = await loadHtmlToText();
  const title = convert(inner, { wordwrap: false }).replace(/\s+/g, ' ').trim();
  return title || null;
}

export const htmlParser: Parser = {
  types: ['html'],
  async parse(input: ParseInput): Promise<ParsedDocument> {
    const { text: html, warnings } = decodeHtml(input.bytes);
    // Front matter above the markup (or a sensitivity key near the top) is honoured as in markdown, failing closed.
    const fm = readFrontmatter(normalizeLines(html.slice(0, FRONTMATTER_SCAN_CHARS)));
    const fmWarning = frontmatterWarning(fm);
    if (fmWarning) warnings.push(fmWarning);
    const { lines, headings } = await htmlToLines(html);
    const title = (await titleOf(html)) ?? headings.find((h) => h.level === 1)?.text ?? baseName(input.relPath);
    return {
      title,
      lines,
      from: 0,
      hardBreaks: headings.map((h) => h.line),
      softBreaks: [],
      sectionAt: sectionFinder(headings),
      tags: { type: 'html', language: input.language ?? 'html', ...(fm.sensitivity ? { sensitivity: fm.sensitivity } : {}) },
      meta: { headings: headings.length },
      warnings,
    };
  },
};
