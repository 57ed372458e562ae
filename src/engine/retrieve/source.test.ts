import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SAMPLE_VAULT, TempDirs } from '../../../test/helpers/tmp.ts';
import { createEngine } from '../engine.ts';
import { terminalLine } from '../../shared/terminal-safe.ts';
import { parseLocator } from './source.ts';

const temp = new TempDirs();
afterAll(() => temp.cleanup());

const noModels = { env: { SYN_EMBED_MODEL: '', SYN_CHAT_MODEL: '' } as NodeJS.ProcessEnv };

describe('parseLocator', () => {
  it('reads the forms results and editors print', () => {
    expect(parseLocator('notes/a.md#L3-L9')).toEqual({ path: 'notes/a.md', page: null, startLine: 3, endLine: 9 });
    expect(parseLocator('docs/x.pdf#page=2&L1-L4')).toEqual({ path: 'docs/x.pdf', page: 2, startLine: 1, endLine: 4 });
    expect(parseLocator('a b/c #1.md#L5')).toEqual({ path: 'a b/c #1.md', page: null, startLine: 5, endLine: 5 });
    expect(parseLocator('src/x.ts:10-12')).toEqual({ path: 'src/x.ts', page: null, startLine: 10, endLine: 12 });
    expect(parseLocator('notes/a.md')).toEqual({ path: 'notes/a.md', page: null, startLine: null, endLine: null });
  });

  it('names what is wrong with a bad locator', () => {
    expect(() => parseLocator('')).toThrow(/empty/);
    expect(() => parseLocator('a.md#L9-L3')).toThrow(/not a range/);
    expect(() => parseLocator('a.md#L0-L3')).toThrow(/not a range/);
    expect(() => parseLocator('a.md#section')).toThrow(/"#section" is not a line range/);
    expect(() => parseLocator('#L1-L2')).toThrow(/names no file/);
    expect(() => parseLocator('a\u0000.md#L1')).toThrow(/NUL/);
  });
});

describe('engine.source', () => {
  it('returns the exact lines of a text file, numbered as the locator says', async () => {
    const vault = temp.make('syn-src-', { 'notes/a.md': '# A\r\n\r\nline three\r\nline four  \r\nline five\r\n' });
    const engine = createEngine({ dataDir: temp.make(), ...noModels });
    try {
      await engine.index([vault]);
      const s = engine.source('notes/a.md#L3-L4');
      expect(s).toMatchObject({ path: 'notes/a.md', start_line: 3, end_line: 4, text: 'line three\nline four', stale: false, truncated: false, type: 'markdown' });
      expect(s.uri).toBe(`file://${path.join(fs.realpathSync(vault), 'notes', 'a.md')}`);
      expect(engine.source(`${fs.realpathSync(vault)}/notes/a.md:5`).text).toBe('line five');
      expect(() => engine.source('notes/a.md#L40-L41')).toThrow(/has 6 lines; line 40 does not exist/);
      expect(() => engine.source('notes/b.md#L1-L2')).toThrow(expect.objectContaining({ code: 'E_SYN_NOT_FOUND' }));
      expect(() => engine.source('notes/../../../etc/passwd')).toThrow(expect.objectContaining({ code: 'E_SYN_BAD_REQUEST' }));
    } finally {
      await engine.dispose();
    }
  });

  it('serves the lines as indexed, marked stale, when the file changed or vanished since indexing', async () => {
    const vault = temp.make('syn-src-stale-', { 'relay.md': '# Relay\n\nThe relay listens on port 7443.\n' });
    const engine = createEngine({ dataDir: temp.make(), ...noModels });
    try {
      await engine.index([vault]);
      fs.writeFileSync(path.join(vault, 'relay.md'), '# Relay\n\nThe relay moved to port 9000.\n');
      expect(engine.source('relay.md#L3-L3')).toMatchObject({ text: 'The relay listens on port 7443.', stale: true });
      fs.rmSync(path.join(vault, 'relay.md'));
      expect(engine.source('relay.md#L3-L3')).toMatchObject({ text: 'The relay listens on port 7443.', stale: true });
    } finally {
      await engine.dispose();
    }
  });

  it('reads extracted PDF lines from the index, hides restricted notes unless allowed, and cuts long ranges', async () => {
    const engine = createEngine({ dataDir: temp.make(), ...noModels });
    const denied: string[] = [];
    engine.on('syn.retrieve.denied', (e) => void denied.push(e.reason));
    try {
      await engine.index([SAMPLE_VAULT]);
      const pdf = engine.source('docs/Aurora architecture overview.pdf#page=1&L1-L3');
      expect(pdf.type).toBe('pdf');
      expect(pdf.stale).toBe(false);
      expect(pdf.text.length).toBeGreaterThan(20);
      expect(pdf.locator).toMatch(/^docs\/Aurora architecture overview\.pdf#page=1&L1-L3$/);
      // A hidden note reads exactly like a missing one; the engine's own listeners hear why.
      const hiddenError = (() => { try { engine.source('hr/Compensation review 2026.md#L1-L4'); } catch (error) { return error as Error & { code: string }; } return null; })();
      const missingError = (() => { try { engine.source('hr/Compensation review 2027.md#L1-L4'); } catch (error) { return error as Error & { code: string }; } return null; })();
      expect(hiddenError).toMatchObject({ code: 'E_SYN_NOT_FOUND' });
      expect(hiddenError!.message.replace('2026', 'YEAR')).toBe(missingError!.message.replace('2027', 'YEAR'));
      expect(denied[0]).toMatch(/restricted/);
      expect(engine.source('hr/Compensation review 2026.md#L1-L4', { allow_sensitivity: ['restricted'] }).text).toContain('sensitivity: restricted');
      const whole = engine.source('howto/Error codes.md', { max_lines: 5 });
      expect(whole).toMatchObject({ start_line: 1, end_line: 5, truncated: true });
      expect(engine.documents().some((d) => d.path.startsWith('hr/'))).toBe(false);
      expect(engine.documents({ allow_sensitivity: ['restricted'] }).some((d) => d.path.startsWith('hr/'))).toBe(true);
    } finally {
      await engine.dispose();
    }
  });

  it('opens a name with a backslash, a newline or a bidi override from the locator search printed, as is or as a terminal showed it', async () => {
    const vault = temp.make('syn-src-odd-', {
      'back\\slash.md': 'zebra one\nzebra two\n',
      'sub/plain.md': 'zebra plain\n',
      'new\nline.md': 'zebra newline\n',
      'photo\u202egpj.md': 'zebra bidi\n',
      'esc\u001b]0;x\u0007.md': 'zebra escape\n',
    });
    const engine = createEngine({ dataDir: temp.make(), ...noModels });
    try {
      const report = await engine.index([vault]);
      expect(report.indexed).toBe(5);
      const hits = await engine.retrieve('zebra', {}, 10);
      expect(hits.chunks.map((c) => c.path).sort()).toEqual(['back\\slash.md', 'esc\u001b]0;x\u0007.md', 'new\nline.md', 'photo\u202egpj.md', 'sub/plain.md']);
      for (const c of hits.chunks) {
        expect(engine.source(c.locator).path).toBe(c.path);
        expect(engine.source(terminalLine(c.locator)).path).toBe(c.path);
      }
      expect(engine.source('back\\slash.md#L1-L2')).toMatchObject({ path: 'back\\slash.md', text: 'zebra one\nzebra two', locator: 'back\\slash.md#L1-L2' });
      // Backslashes still read as separators when no file has the name as written.
      expect(engine.source('sub\\plain.md#L1').path).toBe('sub/plain.md');
      expect(() => engine.source('sub\\..\\..\\etc\\passwd#L1')).toThrow(expect.objectContaining({ code: 'E_SYN_BAD_REQUEST' }));
      expect(() => engine.source('back/slash.md#L1')).toThrow(expect.objectContaining({ code: 'E_SYN_NOT_FOUND' }));
    } finally {
      await engine.dispose();
    }
  });

  it('indexes UTF-16 files (LE and BE with a byte order mark, LE without) and serves their lines by number', async () => {
    const lines = 'first line\r\nthe quokka lives on Rottnest\r\nthird line ünï\r\n';
    const le = (s: string) => Buffer.from(s, 'utf16le');
    const vault = temp.make('syn-src-utf16-', {
      'le-bom.txt': le(`\ufeff${lines}`),
      'be-bom.md': le(`\ufeff# Notes\r\n${lines}`).swap16(),
      'le-plain.py': le(`# ${lines.replace(/\r\n/g, '\n# ')}`),
    });
    const engine = createEngine({ dataDir: temp.make(), ...noModels });
    try {
      const report = await engine.index([vault]);
      expect(report.issues).toEqual([]);
      expect(report.indexed).toBe(3);
      const hits = await engine.retrieve('quokka Rottnest', {}, 5);
      expect(hits.chunks.map((c) => c.path).sort()).toEqual(['be-bom.md', 'le-bom.txt', 'le-plain.py']);
      expect(engine.source('le-bom.txt#L2-L3').text).toBe('the quokka lives on Rottnest\nthird line ünï');
      expect(engine.source('be-bom.md#L3').text).toBe('the quokka lives on Rottnest');
      expect(engine.source('le-plain.py#L2').text).toBe('# the quokka lives on Rottnest');
      expect(engine.source('le-bom.txt#L2').stale).toBe(false);
    } finally {
      await engine.dispose();
    }
  });
});
