import { createRequire } from 'node:module';
import path from 'node:path';
import { normalizeLines } from '../normalize.ts';
import { baseName } from './text.ts';
import type { ParseInput, ParsedDocument, Parser } from './types.ts';

type PdfJs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');

/** The fields of a pdfjs text item this parser reads (marked-content items have no `str`). */
interface TextItemLike {
  str: string;
  transform: number[];
  width: number;
  height: number;
  hasEOL: boolean;
}

interface PdfLine {
  text: string;
  y: number;
}

export interface PdfPages {
  /** Normalised lines of each page's extracted text; a page without text has none. */
  pages: string[][];
  info: Record<string, unknown>;
}

// pdfjs takes about as long to import as to parse a small file: load it on the first PDF only.
let pdfjsModule: Promise<PdfJs> | undefined;
function loadPdfJs(): Promise<PdfJs> {
  pdfjsModule ??= import('pdfjs-dist/legacy/build/pdf.mjs').catch((error: unknown) => {
    pdfjsModule = undefined;
    throw error;
  });
  return pdfjsModule;
}

let fontsDir: string | undefined;
/** pdfjs reads the standard fonts with fs on Node: a folder path, with the trailing slash it requires. */
function standardFontDataUrl(): string {
  fontsDir ??= `${path.join(path.dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json')), 'standard_fonts')}/`;
  return fontsDir;
}

/**
 * Rebuilds a page's lines from its text items: a line ends at an item with `hasEOL` or where the
 * baseline moves; items on one line are joined with a space where there is a visible gap. A vertical
 * gap well above the page's usual line spacing becomes a blank line (a paragraph break).
 */
export function linesFromItems(items: readonly unknown[]): string[] {
  const lines: PdfLine[] = [];
  let text = '';
  let y = 0;
  let endX = 0;
  const flush = () => {
    if (text.trim() !== '') lines.push({ text, y });
    text = '';
  };
  for (const raw of items) {
    if (!raw || typeof raw !== 'object' || !('str' in raw)) continue;
    const item = raw as TextItemLike;
    const x = Number(item.transform[4] ?? 0);
    const itemY = Number(item.transform[5] ?? 0);
    const height = Math.abs(item.height) || Math.hypot(Number(item.transform[2] ?? 0), Number(item.transform[3] ?? 0)) || 1;
    if (item.str !== '') {
      // Empty EOL markers carry the next line's position, so only items with text move the baseline.
      if (text !== '' && Math.abs(itemY - y) > Math.max(1, height * 0.5)) flush();
      if (text === '') y = itemY;
      else if (!/\s$/.test(text) && !/^\s/.test(item.str) && x - endX > height * 0.15) text += ' ';
      text += item.str;
      endX = x + (Number.isFinite(item.width) ? item.width : 0);
    }
    if (item.hasEOL) flush();
  }
  flush();

  const gaps = lines.slice(1).map((line, i) => lines[i]!.y - line.y).filter((g) => g > 0).sort((a, b) => a - b);
  // The lower quartile, not the median: on a page of short paragraphs most gaps are paragraph gaps.
  const usual = gaps.length > 0 ? gaps[Math.floor((gaps.length - 1) / 4)]! : 0;
  const out: string[] = [];
  lines.forEach((line, i) => {
    if (i > 0 && usual > 0 && lines[i - 1]!.y - line.y > usual * 1.3) out.push('');
    out.push(line.text);
  });
  return out;
}

/** Opens a PDF and extracts every page's lines; always releases the document. Throws on encrypted or corrupt files. */
export async function extractPdfPages(bytes: Uint8Array): Promise<PdfPages> {
  const pdfjs = await loadPdfJs();
  const task = pdfjs.getDocument({
    // A plain Uint8Array copy: pdfjs 5 rejects a Node Buffer, and transfers (detaches) the buffer it is given.
    data: new Uint8Array(bytes),
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    verbosity: 0,
    standardFontDataUrl: standardFontDataUrl(),
  });
  try {
    let doc: Awaited<typeof task.promise>;
    try {
      doc = await task.promise;
    } catch (error) {
      if ((error as Error).name === 'PasswordException') throw new Error('PDF is password-protected');
      throw error;
    }
    const pages: string[][] = [];
    for (let n = 1; n <= doc.numPages; n++) {
      const page = await doc.getPage(n);
      const content = await page.getTextContent();
      const lines = linesFromItems(content.items);
      pages.push(lines.length > 0 ? normalizeLines(lines.join('\n')) : []);
      page.cleanup();
    }
    const info = await doc
      .getMetadata()
      .then((m) => (m.info && typeof m.info === 'object' ? (m.info as Record<string, unknown>) : {}))
      .catch(() => ({}));
    return { pages, info };
  } finally {
    await task.destroy();
  }
}

function infoString(info: Record<string, unknown>, key: string): string | null {
  const value = info[key];
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}

export const pdfParser: Parser = {
  types: ['pdf'],
  async parse(input: ParseInput): Promise<ParsedDocument> {
    const { pages, info } = await extractPdfPages(input.bytes);
    const lines: string[] = [];
    const starts: number[] = [];
    const pageOfLine: number[] = [];
    pages.forEach((pageLines, p) => {
      starts.push(lines.length);
      for (const line of pageLines) {
        lines.push(line);
        pageOfLine.push(p);
      }
    });

    const warnings: string[] = [];
    const empty = pages.flatMap((pageLines, p) => (pageLines.length === 0 ? [p + 1] : []));
    if (pages.length === 0 || empty.length === pages.length) warnings.push('no extractable text (scanned PDF?)');
    else if (empty.length > 0) {
      const listed = empty.slice(0, 10).join(', ') + (empty.length > 10 ? ', ...' : '');
      warnings.push(`no extractable text on page${empty.length > 1 ? 's' : ''} ${listed}`);
    }

    const meta: Record<string, unknown> = { pages: pages.length };
    const author = infoString(info, 'Author');
    const subject = infoString(info, 'Subject');
    if (author) meta.author = author;
    if (subject) meta.subject = subject;

    return {
      title: infoString(info, 'Title') ?? baseName(input.relPath),
      lines,
      from: 0,
      hardBreaks: starts.filter((s, p) => p > 0 && pages[p]!.length > 0),
      softBreaks: [],
      sectionAt(line: number) {
        const p = pageOfLine[line];
        return p === undefined ? null : { heading: `Page ${p + 1}`, id: `page-${p + 1}` };
      },
      tags: { type: 'pdf' },
      meta,
      warnings,
      locate(startLine: number, endLine: number) {
        const p = pageOfLine[startLine - 1] ?? pageOfLine[pageOfLine.length - 1] ?? 0;
        const start = starts[p] ?? 0;
        const last = start + (pages[p]?.length ?? 1);
        const a = startLine - start;
        // Chunks never cross a page (a hard break at every page), so this clamp is only a guard.
        const b = Math.max(a, Math.min(endLine, last) - start);
        return { fragment: `page=${p + 1}&L${a}-L${b}`, startLine: a, endLine: b };
      },
    };
  },
};
