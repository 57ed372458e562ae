import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { SAMPLE_VAULT, TempDirs } from '../../../../test/helpers/tmp.ts';
import { createEngine, type Engine } from '../../engine.ts';
import { chunkLines } from '../chunk.ts';
import { parseDocument } from './index.ts';

const REL = 'docs/Onboarding checklist.docx';
const SAMPLE = fs.readFileSync(path.join(SAMPLE_VAULT, REL));
const temp = new TempDirs();
const engines: Engine[] = [];
afterEach(async () => {
  for (const e of engines.splice(0)) await e.dispose();
});
afterAll(() => temp.cleanup());

const parseDocx = (bytes: Uint8Array, relPath = REL) => parseDocument({ relPath, bytes, type: 'docx', language: null });

describe('docx parser', () => {
  it('turns the document into lines with markdown-like headings, list items and table rows', async () => {
    const doc = await parseDocx(SAMPLE);
    expect(doc.title).toBe('Onboarding checklist');
    expect(doc.tags).toEqual({ type: 'docx' });
    expect(doc.warnings).toEqual([]);
    expect(doc.locate).toBeUndefined();
    expect(doc.lines.slice(0, 5)).toEqual(['# Onboarding checklist', '', 'Lumen Labs - engineering onboarding, version 2026-03', '', '# Before your first day']);
    expect(doc.lines).toContain('- Collect your laptop and your YubiKey 5C NFC hardware key from the IT shelf.');
    expect(doc.lines.some((l) => /^Laptop, YubiKey, accounts\s+Lukas Becker$/.test(l))).toBe(true);
    expect(doc.lines.at(-1)).toBe('Questions about this checklist: ask in #aurora-dev.');
  });

  it('makes every heading a hard break and the section in force below it', async () => {
    const doc = await parseDocx(SAMPLE);
    expect(doc.hardBreaks.map((line) => doc.sectionAt(line)?.heading)).toEqual([
      'Onboarding checklist',
      'Before your first day',
      'Day one',
      'First week',
      'First month',
      'Who to ask',
    ]);
    const yubikey = doc.lines.findIndex((l) => l.includes('YubiKey 5C NFC'));
    expect(doc.sectionAt(yubikey)).toEqual({ heading: 'Day one', id: 'day-one' });
    const sec101 = doc.lines.findIndex((l) => l.includes('SEC-101'));
    expect(doc.sectionAt(sec101)).toEqual({ heading: 'First week', id: 'first-week' });

    const { chunks } = chunkLines(doc, { size: 1200, overlap: 200, maxChunks: 100 });
    expect(chunks).toHaveLength(6);
    for (const c of chunks) expect(doc.sectionAt(c.endLine - 1)).toEqual(doc.sectionAt(c.startLine - 1));
  });

  it('rejects a file that is not a DOCX with E_SYN_CHUNK_PARSE_FAILED', async () => {
    const dir = temp.make('syn-docx-bad-', {
      'text.docx': 'plain text saved with a .docx name\n',
      'truncated.docx': SAMPLE.subarray(0, 400),
      'empty.docx': '',
    });
    for (const name of ['text.docx', 'truncated.docx', 'empty.docx']) {
      const bytes = fs.readFileSync(path.join(dir, name));
      await expect(parseDocx(bytes, name), name).rejects.toMatchObject({ code: 'E_SYN_CHUNK_PARSE_FAILED' });
    }
    await expect(parseDocx(fs.readFileSync(path.join(dir, 'text.docx')), 'text.docx')).rejects.toThrow(/not a DOCX file/);
  });

  it('is indexed by the engine with line locators, next to a corrupt DOCX that fails alone', async () => {
    const root = temp.make('syn-docx-root-', { [REL]: SAMPLE, 'corrupt.docx': 'not a zip', 'note.md': '# Note\n\nHello.\n' });
    const engine = createEngine({ dataDir: temp.make('syn-docx-data-'), env: {} });
    engines.push(engine);
    const report = await engine.index([root]);
    expect(report).toMatchObject({ indexed: 2, failed: 1 });
    expect(report.issues).toEqual([expect.objectContaining({ status: 'failed', code: 'E_SYN_CHUNK_PARSE_FAILED' })]);
    const hit = (await engine.retrieve('SEC-101 security training')).chunks[0];
    expect(hit?.locator).toMatch(/^docs\/Onboarding checklist\.docx#L\d+-L\d+$/);
    expect(hit?.text).toContain('SEC-101');
  });
});
