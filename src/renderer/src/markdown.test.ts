// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { isMarkdownPath, renderNote, resolveNoteLink } from './markdown.ts';

/** The rendered note as a DOM, to assert what a reader sees rather than the HTML's spelling. */
function dom(html: string): HTMLElement {
  const div = document.createElement('div');
  div.innerHTML = html;
  return div;
}

describe('renderNote', () => {
  it('renders a note\'s <script> and raw HTML as text, never as markup', () => {
    const root = dom(renderNote('# Hi\n\n<script>alert(1)</script>\n\nText <img src=x onerror=alert(2)> and <b>bold</b>.\n'));
    expect(root.querySelector('script')).toBeNull();
    expect(root.querySelector('img')).toBeNull();
    expect(root.querySelector('b')).toBeNull();
    expect(root.textContent).toContain('<script>alert(1)</script>');
    expect(root.textContent).toContain('<img src=x onerror=alert(2)>');
  });

  it('renders headings, lists, code and tables', () => {
    const root = dom(renderNote('# Title\n\n- one\n- two\n\n```go\nfunc main() {}\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |\n'));
    expect(root.querySelector('h1')?.textContent).toBe('Title');
    expect([...root.querySelectorAll('li')].map((l) => l.textContent)).toEqual(['one', 'two']);
    expect(root.querySelector('pre code')?.textContent).toBe('func main() {}\n');
    expect([...root.querySelectorAll('td')].map((c) => c.textContent)).toEqual(['1', '2']);
  });

  it('links [[wikilinks]] to the notes they name, and marks the ones that name none', () => {
    const links = new Map([
      ['Project Aurora', 'projects/Project Aurora.md'],
      ['Secret', null],
    ]);
    const root = dom(renderNote('See [[Project Aurora|the project]], [[Project Aurora#Goals]], [[Secret]] and [[Nowhere]].', { links }));
    const anchors = [...root.querySelectorAll('a.wikilink')] as HTMLAnchorElement[];
    expect(anchors.map((a) => [a.textContent, a.dataset.note, a.dataset.anchor])).toEqual([
      ['the project', 'projects/Project Aurora.md', ''],
      ['Project Aurora#Goals', 'projects/Project Aurora.md', '#Goals'],
    ]);
    expect([...root.querySelectorAll('.wikilink--missing')].map((s) => s.textContent)).toEqual(['Secret', 'Nowhere']);
    // A hidden note's path is never written into the page.
    expect(root.innerHTML).not.toContain('Secret.md');
  });

  it('escapes what a wikilink carries', () => {
    const root = dom(renderNote('[[<img src=x onerror=alert(1)>]]', { links: new Map([['<img src=x onerror=alert(1)>', 'a"b.md']]) }));
    expect(root.querySelector('img')).toBeNull();
    expect((root.querySelector('a.wikilink') as HTMLAnchorElement).dataset.note).toBe('a"b.md');
  });

  it('tags each block with its source lines, offset by where the text starts', () => {
    const root = dom(renderNote('---\ntitle: X\n---\n# Head\n\nPara one\ncontinues\n\n- item\n', { firstLine: 1 }));
    const lines = (sel: string) => {
      const el = root.querySelector(sel) as HTMLElement;
      return [el.dataset.lineStart, el.dataset.lineEnd];
    };
    expect(lines('pre.md-frontmatter')).toEqual(['1', '3']);
    expect(root.querySelector('pre.md-frontmatter')?.textContent).toBe('title: X');
    expect(lines('h1')).toEqual(['4', '4']);
    expect(lines('p')).toEqual(['6', '7']);
    expect(lines('li')).toEqual(['9', '9']);
    const shifted = dom(renderNote('# Head\n', { firstLine: 40 }));
    expect((shifted.querySelector('h1') as HTMLElement).dataset.lineStart).toBe('40');
  });

  it('marks the blocks that hold the cited lines, and only those', () => {
    const root = dom(renderNote('# Head\n\nFirst para.\n\nSecond para.\n\n| a | b |\n|---|---|\n| 1 | 2 |\n| 3 | 4 |\n', { cited: { start: 5, end: 5 } }));
    expect([...root.querySelectorAll('[data-cited]')].map((e) => e.textContent)).toEqual(['Second para.']);
    const row = dom(renderNote('| a | b |\n|---|---|\n| 1 | 2 |\n| 3 | 4 |\n', { firstLine: 10, cited: { start: 13, end: 13 } }));
    expect([...row.querySelectorAll('[data-cited]')].map((e) => e.textContent?.trim().replace(/\s+/g, ' '))).toEqual(['3 4']);
  });

  it('loads no image and follows no address: images become their alt text, links keep the address aside', () => {
    const root = dom(renderNote('![diagram](https://example.com/x.png) and [site](https://example.com) and [x](javascript:alert(1))'));
    expect(root.querySelector('img')).toBeNull();
    expect(root.querySelector('.md-image')?.textContent).toBe('[image: diagram]');
    const a = root.querySelector('a') as HTMLAnchorElement;
    expect(a.getAttribute('href')).toBe('#');
    expect(a.dataset.href).toBe('https://example.com');
    // markdown-it refuses a javascript: address: that link stays text.
    expect(root.querySelectorAll('a')).toHaveLength(1);
    expect(root.textContent).toContain('[x](javascript:alert(1))');
  });
});

describe('resolveNoteLink', () => {
  it('reads a relative link beside the note, and refuses addresses and climbing out', () => {
    expect(resolveNoteLink('projects/Relay.md', '../people/Maya%20Chen.md#role')).toBe('people/Maya Chen.md');
    expect(resolveNoteLink('projects/Relay.md', 'Gateway.md')).toBe('projects/Gateway.md');
    expect(resolveNoteLink('a.md', '../../etc/passwd')).toBeNull();
    expect(resolveNoteLink('a.md', 'https://example.com')).toBeNull();
    expect(resolveNoteLink('a.md', '#top')).toBeNull();
    expect(resolveNoteLink('a.md', '/etc/passwd')).toBeNull();
  });

  it('tells markdown files by name', () => {
    expect(isMarkdownPath('notes/A.md')).toBe(true);
    expect(isMarkdownPath('code/x.ts')).toBe(false);
  });
});
