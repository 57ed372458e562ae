import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { TempDirs } from '../../../../test/helpers/tmp.ts';
import { chunkLines } from '../chunk.ts';
import { parseDocument } from './index.ts';

const temp = new TempDirs();
afterAll(() => temp.cleanup());

const PAGE = `<!DOCTYPE html>
<html lang="ru">
<head>
  <meta charset="utf-8">
  <title>Relay &amp; sync   notes</title>
  <style>body { color: red } .secretStyleToken { display: none }</style>
  <script>var secretScriptToken = "<h1>not a heading</h1>";</script>
</head>
<body>
  <h1>Привет, мир</h1>
  <p>Caf&eacute; &mdash; &lt;relay&gt; uses&nbsp;TLS&nbsp;1.3 &#8212; see <a href="https://example.com/very/long/url">the runbook</a>.</p>
  <p>Синхронизация работает офлайн.</p>
  <h2>Notes <em>and</em> caveats</h2>
  <ul><li>first item</li><li>second item</li></ul>
  <p># a paragraph that starts with a hash</p>
  <h2>Notes and caveats</h2>
  <p>Second section with the same heading.</p>
  <script>document.write('secretScriptToken')</script>
  <noscript>Please enable JavaScript</noscript>
  <h3>   </h3>
  <h3>Last words</h3>
  <p>Done.</p>
</body>
</html>
`;

async function parseFile(name: string, content: string | Uint8Array) {
  const dir = temp.make('syn-html-', { [name]: content });
  return parseDocument({ relPath: name, bytes: fs.readFileSync(path.join(dir, name)), type: 'html', language: 'html' });
}

describe('html parser', () => {
  it('keeps text, headings in their case and decoded entities, and drops scripts, styles and URLs', async () => {
    const doc = await parseFile('page.html', PAGE);
    const text = doc.lines.join('\n');
    expect(doc.title).toBe('Relay & sync notes');
    expect(doc.tags).toEqual({ type: 'html', language: 'html' });
    expect(doc.warnings).toEqual([]);
    expect(doc.locate).toBeUndefined();
    expect(doc.lines).toContain('# Привет, мир');
    expect(doc.lines).toContain('## Notes and caveats');
    expect(doc.lines).toContain('### Last words');
    expect(doc.lines).toContain('Café — <relay> uses TLS 1.3 — see the runbook.');
    expect(doc.lines).toContain('Синхронизация работает офлайн.');
    expect(doc.lines).toContain('- first item');
    expect(doc.lines).toContain('# a paragraph that starts with a hash');
    expect(text).not.toMatch(/secret|color: red|example\.com|JavaScript|Relay &amp;/);
    expect(text).not.toContain('\uE000');
  });

  it('turns headings into hard breaks and sections with unique ids', async () => {
    const doc = await parseFile('page.html', PAGE);
    const sections = doc.hardBreaks.map((line) => doc.sectionAt(line));
    expect(sections).toEqual([
      { heading: 'Привет, мир', id: 'привет-мир' },
      { heading: 'Notes and caveats', id: 'notes-and-caveats' },
      { heading: 'Notes and caveats', id: 'notes-and-caveats-1' },
      { heading: 'Last words', id: 'last-words' },
    ]);
    expect(doc.meta).toEqual({ headings: 4 });
    // A paragraph that only looks like a heading is not one.
    const hashLine = doc.lines.indexOf('# a paragraph that starts with a hash');
    expect(doc.hardBreaks).not.toContain(hashLine);
    expect(doc.sectionAt(hashLine)?.id).toBe('notes-and-caveats');
    expect(doc.sectionAt(doc.lines.indexOf('Done.'))?.id).toBe('last-words');

    const { chunks } = chunkLines(doc, { size: 60, overlap: 10, maxChunks: 100 });
    for (const c of chunks) expect(doc.sectionAt(c.endLine - 1)).toEqual(doc.sectionAt(c.startLine - 1));
  });

  it('takes the title from the first h1, then from the file name', async () => {
    expect((await parseFile('a.htm', '<h2>Intro</h2><h1>Main topic</h1><p>x</p>')).title).toBe('Main topic');
    expect((await parseFile('plain page.html', '<p>no headings here</p>')).title).toBe('plain page');
    expect((await parseFile('b.html', '<title>  </title><h1>Fallback</h1>')).title).toBe('Fallback');
  });

  it('decodes a legacy charset declared in a meta tag', async () => {
    // "Привет" in windows-1251: А..я are 0xC0..0xFF.
    const cp1251 = [...'Привет'].map((ch) => ch.codePointAt(0)! - 0x410 + 0xc0);
    const bytes = Buffer.concat([Buffer.from('<html><head><meta http-equiv="Content-Type" content="text/html; charset=windows-1251"></head><body><p>'), Buffer.from(cp1251), Buffer.from('</p></body></html>')]);
    const doc = await parseFile('legacy.html', bytes);
    expect(doc.lines).toEqual(['Привет']);
    expect(doc.warnings).toEqual([]);
  });

  it('notes invalid UTF-8 instead of failing', async () => {
    const doc = await parseFile('bad.html', Buffer.concat([Buffer.from('<p>ok '), Buffer.from([0xff, 0xfe]), Buffer.from('</p>')]));
    expect(doc.lines[0]).toContain('ok');
    expect(doc.warnings).toEqual(['invalid UTF-8 replaced with U+FFFD']);
  });
});
