// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import type { NoteEmbed } from '../../shared/contract.ts';
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
      ['Project Aurora > Goals', 'projects/Project Aurora.md', '#Goals'],
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
    expect(lines('table.md-properties')).toEqual(['1', '3']);
    expect(root.querySelector('table.md-properties')?.textContent).toBe('titleX');
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

describe('Obsidian markdown', () => {
  const image = (target: string, path: string): [string, NoteEmbed] => [target, { target, kind: 'image', path, title: path, locator: null, text: null, start_line: null, mime: 'image/png', data: 'iVBORw0KGgo=' }];
  const note = (target: string, path: string, text: string): [string, NoteEmbed] => [target, { target, kind: 'note', path, title: path, locator: `${path}#L1-L2`, text, start_line: 1, mime: null, data: null }];

  it('renders callouts, foldable ones as details open or closed, with their title and body', () => {
    const root = dom(renderNote('> [!tip] Use **links**\n> Body text.\n\n> [!warning]- Careful\n> Hidden until opened.\n\n> [!faq]+\n> Open.\n\n> A plain quote.\n'));
    const callouts = [...root.querySelectorAll('.callout')] as HTMLElement[];
    expect(callouts.map((c) => [c.tagName, c.dataset.callout, c.querySelector('.callout__title')?.textContent])).toEqual([
      ['DIV', 'tip', 'Use links'],
      ['DETAILS', 'warning', 'Careful'],
      ['DETAILS', 'faq', 'Faq'],
    ]);
    expect(callouts[0]!.querySelector('.callout__title strong')?.textContent).toBe('links');
    expect(callouts[0]!.querySelector('.callout__body')?.textContent?.trim()).toBe('Body text.');
    expect(callouts[1]!.hasAttribute('open')).toBe(false);
    expect(callouts[2]!.hasAttribute('open')).toBe(true);
    expect(callouts[2]!.classList.contains('callout--question')).toBe(true);
    expect(root.querySelectorAll('blockquote')).toHaveLength(1);
    expect(root.textContent).not.toContain('[!');
  });

  it('shows front matter as properties, tags as tag links; YAML that is not a map stays as written', () => {
    const root = dom(renderNote('---\ntitle: Plan\ntags: [alpha, beta/one]\naliases:\n  - P\n---\n# Plan\n'));
    const rows = [...root.querySelectorAll('table.md-properties tr')].map((r) => [r.querySelector('th')?.textContent, r.querySelector('td')?.textContent]);
    expect(rows).toEqual([
      ['title', 'Plan'],
      ['tags', '#alpha #beta/one'],
      ['aliases', 'P'],
    ]);
    expect([...root.querySelectorAll('a.md-tag')].map((a) => (a as HTMLElement).dataset.tag)).toEqual(['alpha', 'beta/one']);
    expect(root.textContent).not.toContain('---');
    expect(dom(renderNote('---\n- a list\n---\nx\n')).querySelector('pre.md-frontmatter')?.textContent).toBe('- a list');
  });

  it('makes #tags links, never a number, a heading mark or a tag in code', () => {
    const root = dom(renderNote('Filed under #project/aurora and #todo, not #1984, C# or `#ff0000`.\n\n```css\na { color: #ff0000 }\n```\n'));
    expect([...root.querySelectorAll('a.md-tag')].map((a) => (a as HTMLElement).dataset.tag)).toEqual(['project/aurora', 'todo']);
    expect(root.querySelector('p code')?.textContent).toBe('#ff0000');
    expect(root.querySelector('p')?.textContent).not.toContain('`');
  });

  it('links [[#Heading]] and [[#^block]] within the note, and gives blocks their ids, hiding the ^id', () => {
    const root = dom(renderNote('# Top\n\nSee [[#Details]] and [[#^fact]].\n\n## Details\n\nA fact. ^fact\n\n- item ^item-1\n\n| a |\n|---|\n| 1 |\n\n^table\n'));
    const here = [...root.querySelectorAll('a.wikilink--here')] as HTMLElement[];
    expect(here.map((a) => [a.textContent, a.dataset.anchor])).toEqual([
      ['Details', '#Details'],
      ['fact', '#^fact'],
    ]);
    expect(root.querySelector('[id="^fact"]')?.textContent).toBe('A fact.');
    expect(root.querySelector('[id="^item-1"]')?.tagName).toBe('LI');
    expect(root.querySelector('[id="^table"]')?.tagName).toBe('TABLE');
    expect(root.textContent).not.toContain('^');
  });

  it('embeds notes inline (a heading, a block), pictures inside the folder, and stops at itself and at depth', () => {
    const embeds = new Map([
      note('Plan#Goals', 'Plan.md', '## Goals\n\nShip it, see ![[Loop]].'),
      note('Loop', 'Loop.md', 'Loop embeds ![[Self]]'),
      note('Self', 'Me.md', 'never shown'),
      image('pic.png', 'assets/pic.png'),
      image('assets/pic.png', 'assets/pic.png'),
    ]);
    const root = dom(renderNote('Before.\n\n![[Plan#Goals]]\n\n![[pic.png|120]] and ![alt](assets/pic.png) and ![[Nothing]] and ![web](https://x.test/a.png)\n', { embeds, chain: ['Me.md'] }));
    const embed = root.querySelector('section.md-embed') as HTMLElement;
    expect(embed.dataset.embed).toBe('Plan#Goals');
    expect(embed.querySelector('.md-embed__body h2')?.textContent).toBe('Goals');
    // Nested: Loop is embedded inside Plan; Self (Me.md, the note itself) is a link, not embedded again.
    expect(embed.querySelector('section.md-embed')?.getAttribute('data-embed')).toBe('Loop');
    expect(root.textContent).not.toContain('never shown');
    expect((root.querySelector('a.wikilink[data-note="Me.md"]') as HTMLElement).textContent).toBe('Self');
    const imgs = [...root.querySelectorAll('img')] as HTMLImageElement[];
    expect(imgs.map((i) => [i.getAttribute('src')!.slice(0, 22), i.getAttribute('width'), i.alt])).toEqual([
      ['data:image/png;base64,', '120', 'assets/pic.png'],
      ['data:image/png;base64,', null, 'alt'],
    ]);
    expect(root.querySelector('.md-embed--missing')?.textContent).toBe('![[Nothing]]');
    expect(root.querySelector('.md-image')?.textContent).toBe('[image: web]');
    // Not in a paragraph: a note's block is not inline text.
    expect(embed.closest('p')).toBeNull();
  });

  it('escapes what an embedded note carries', () => {
    const root = dom(renderNote('![[X]]', { embeds: new Map([note('X', 'x.md', '<script>alert(1)</script> <img src=x onerror=alert(2)>')]) }));
    expect(root.querySelector('script')).toBeNull();
    expect(root.querySelector('img')).toBeNull();
    expect(root.textContent).toContain('<script>alert(1)</script>');
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
