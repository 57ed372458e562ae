import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { SAMPLE_VAULT, TempDirs } from '../../../../test/helpers/tmp.ts';
import { createEngine, type Engine } from '../../engine.ts';
import { chunkLines } from '../chunk.ts';
import { parseDocument } from './index.ts';
import { extractPdfPages, linesFromItems } from './pdf.ts';

const REL = 'docs/Aurora architecture overview.pdf';
const SAMPLE = fs.readFileSync(path.join(SAMPLE_VAULT, REL));
const temp = new TempDirs();
const engines: Engine[] = [];
afterEach(async () => {
  for (const e of engines.splice(0)) await e.dispose();
});
afterAll(() => temp.cleanup());

const parsePdf = (bytes: Uint8Array, relPath = REL) => parseDocument({ relPath, bytes, type: 'pdf', language: null });

/** A minimal PDF with a correct cross-reference table: `objects[i]` is object i + 1. */
function buildPdf(objects: string[], trailerExtra = ''): Buffer {
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((obj, i) => {
    offsets.push(Buffer.byteLength(body, 'latin1'));
    body += `${i + 1} 0 obj\n${obj}\nendobj\n`;
  });
  const xref = Buffer.byteLength(body, 'latin1');
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const o of offsets) body += `${String(o).padStart(10, '0')} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R ${trailerExtra}>>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

/** One page, no content stream: what a scan without an OCR layer looks like to a text extractor. */
const imageOnlyPdf = () =>
  buildPdf(['<< /Type /Catalog /Pages 2 0 R >>', '<< /Type /Pages /Kids [3 0 R] /Count 1 >>', '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>']);

/** Standard security handler, revision 2, with a U entry no empty user password matches. */
const encryptedPdf = () =>
  buildPdf(
    [
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>',
      `<< /Filter /Standard /V 1 /R 2 /Length 40 /P -4 /O <${'ab'.repeat(32)}> /U <${'cd'.repeat(32)}> >>`,
    ],
    `/Encrypt 4 0 R /ID [<${'01'.repeat(16)}> <${'01'.repeat(16)}>] `,
  );

describe('pdf parser', () => {
  it('extracts the three pages, the metadata title and one section per page', async () => {
    const doc = await parsePdf(SAMPLE);
    expect(doc.meta).toMatchObject({ pages: 3, author: 'Maya Chen' });
    expect(doc.title).toBe('Aurora architecture overview');
    expect(doc.tags).toEqual({ type: 'pdf' });
    expect(doc.warnings).toEqual([]);
    const merkle = doc.lines.indexOf('The Merkle tree uses a fan-out of 16.');
    expect(merkle).toBeGreaterThan(0);
    expect(doc.sectionAt(merkle)).toEqual({ heading: 'Page 2', id: 'page-2' });
    expect(doc.sectionAt(0)).toEqual({ heading: 'Page 1', id: 'page-1' });
    // A hard break at the first line of pages 2 and 3, each starting with the running header.
    expect(doc.hardBreaks).toHaveLength(2);
    for (const b of doc.hardBreaks) expect(doc.lines[b]).toBe('Aurora architecture overview');
    expect(doc.lines).toContain('Lumen Labs - internal - page 3 of 3');
    // Wider vertical gaps become blank lines between paragraphs.
    expect(doc.lines.slice(0, 5)).toEqual(['Aurora architecture overview', '', 'Lumen Labs - internal - page 1 of 3', '', '1. Overview']);
  });

  it('gives chunk locators whose page and line range hold the chunk text', async () => {
    const doc = await parsePdf(SAMPLE);
    const { pages } = await extractPdfPages(SAMPLE);
    for (const size of [1200, 160]) {
      const { chunks } = chunkLines(doc, { size, overlap: Math.floor(size / 6), maxChunks: 1000 });
      const seen = new Set<number>();
      for (const chunk of chunks) {
        const place = doc.locate!(chunk.startLine, chunk.endLine);
        const m = /^page=(\d+)&L(\d+)-L(\d+)$/.exec(place.fragment);
        expect(m, place.fragment).not.toBeNull();
        const [page, a, b] = [Number(m![1]), Number(m![2]), Number(m![3])];
        expect([place.startLine, place.endLine]).toEqual([a, b]);
        expect(doc.sectionAt(chunk.startLine - 1)?.id).toBe(`page-${page}`);
        expect(pages[page - 1]!.slice(a - 1, b).join('\n')).toContain(chunk.text);
        seen.add(page);
      }
      expect([...seen].sort()).toEqual([1, 2, 3]);
    }
    expect(doc.locate!(1, 3).fragment).toBe('page=1&L1-L3');
  });

  it('yields no lines and a warning for a PDF without a text layer', async () => {
    const doc = await parsePdf(imageOnlyPdf(), 'scans/receipt.pdf');
    expect(doc.lines).toEqual([]);
    expect(doc.meta).toMatchObject({ pages: 1 });
    expect(doc.title).toBe('receipt');
    expect(doc.warnings).toEqual(['no extractable text (scanned PDF?)']);
  });

  it('rejects truncated, fake and password-protected PDFs with E_SYN_CHUNK_PARSE_FAILED', async () => {
    const dir = temp.make('syn-pdf-bad-', {
      'truncated.pdf': SAMPLE.subarray(0, 300),
      'fake.pdf': 'just some text in a file named .pdf\n',
      'empty.pdf': '',
      'locked.pdf': encryptedPdf(),
    });
    for (const name of ['truncated.pdf', 'fake.pdf', 'empty.pdf', 'locked.pdf']) {
      const bytes = fs.readFileSync(path.join(dir, name));
      await expect(parsePdf(bytes, name), name).rejects.toMatchObject({ code: 'E_SYN_CHUNK_PARSE_FAILED' });
    }
    await expect(parsePdf(fs.readFileSync(path.join(dir, 'locked.pdf')), 'locked.pdf')).rejects.toThrow(/password-protected/);
  });

  it('does not detach or change the caller\'s bytes', async () => {
    const bytes = new Uint8Array(SAMPLE);
    await parsePdf(bytes);
    expect(bytes.byteLength).toBe(SAMPLE.byteLength);
    expect(Buffer.from(bytes).equals(SAMPLE)).toBe(true);
  });
});

describe('pdf line rebuilding', () => {
  const item = (str: string, x: number, y: number, hasEOL = false, width = str.length * 5) => ({
    str,
    transform: [10, 0, 0, 10, x, y],
    width,
    height: 10,
    hasEOL,
    dir: 'ltr',
    fontName: 'f1',
  });

  it('joins items of one baseline, with a space only across a visible gap', () => {
    const lines = linesFromItems([item('Hello', 0, 700), item('world', 30, 700), item('!', 55, 700), item('', 0, 688, true), item('next', 0, 688)]);
    expect(lines).toEqual(['Hello world!', 'next']);
  });

  it('breaks lines where the baseline moves, skips marked content and marks wide gaps as paragraphs', () => {
    const lines = linesFromItems([
      { type: 'beginMarkedContent', id: 'x' },
      item('one', 0, 700),
      item('two', 0, 688),
      item('three', 0, 676),
      item('four', 0, 640),
      item('sup', 25, 643),
    ]);
    expect(lines).toEqual(['one', 'two', 'three', '', 'four sup']);
  });
});

describe('pdf indexing', () => {
  it('indexes the good files next to a broken PDF, records the PDF as failed and finds PDF facts by page', async () => {
    const root = temp.make('syn-pdf-root-', {
      'notes/relay.md': '# Relay\n\nThe relay fans out encrypted batches.\n',
      'notes/plain.txt': 'A plain note about kestrel birds.\n',
      'broken.pdf': SAMPLE.subarray(0, 300),
      [REL]: SAMPLE,
    });
    const engine = createEngine({ dataDir: temp.make('syn-pdf-data-'), env: {} });
    engines.push(engine);
    const report = await engine.index([root]);
    expect(report).toMatchObject({ files_seen: 4, indexed: 3, failed: 1 });
    const issue = report.issues.find((i) => i.path.endsWith('broken.pdf'));
    expect(issue).toMatchObject({ status: 'failed', code: 'E_SYN_CHUNK_PARSE_FAILED' });
    expect(issue?.reason).toMatch(/broken\.pdf/);

    const health = await engine.health();
    expect(health.documents).toMatchObject({ total: 4, indexed: 3, failed: 1 });
    expect(health.issues).toEqual([expect.objectContaining({ path: path.join(fs.realpathSync(root), 'broken.pdf'), status: 'failed', code: 'E_SYN_CHUNK_PARSE_FAILED' })]);
    expect(health.issues[0]?.reason).toBeTruthy();

    const hit = (await engine.retrieve('Merkle tree fan-out')).chunks[0];
    expect(hit?.locator).toMatch(/^docs\/Aurora architecture overview\.pdf#page=2&L\d+-L\d+$/);
    expect(hit?.text).toContain('The Merkle tree uses a fan-out of 16.');
    expect(hit?.tags).toMatchObject({ type: 'pdf' });
  });
});
