import { describe, expect, it } from 'vitest';
import { parseMarkdown, slugify } from './markdown.ts';
import { normalizeLines } from './normalize.ts';

describe('parseMarkdown', () => {
  const doc = normalizeLines(`---
title: Storage decision
tags: [aurora, decision]
sensitivity: restricted
---
# Storage decision

We chose SQLite. See [[Maya Chen]] and [[Project Aurora|Aurora]]. #database

\`\`\`md
# not a heading
#notatag
\`\`\`

## Why
## Why
`);

  it('reads frontmatter, title, tags, wikilinks and headings outside code fences', () => {
    const md = parseMarkdown(doc);
    expect(md.bodyStart).toBe(5);
    expect(md.title).toBe('Storage decision');
    expect(md.frontmatter.sensitivity).toBe('restricted');
    expect(md.tags.sort()).toEqual(['aurora', 'database', 'decision']);
    expect(md.wikilinks).toEqual(['Maya Chen', 'Project Aurora']);
    expect(md.headings.map((h) => [h.line, h.level, h.id])).toEqual([[5, 1, 'storage-decision'], [14, 2, 'why'], [15, 2, 'why-1']]);
  });

  it("reads tags by Obsidian's rules: no number alone, none in inline code or in a fence inside a quote", () => {
    const md = parseMarkdown(['---', 'tags: [1984, y1984]', '---', 'Tags #project/aurora and #2024-q1, not #1984, `#camelCase` or ``#x``.', '> [!example]', '> ```css', '> a { color: #ff0000 }', '> ```', 'After #done']);
    expect(md.tags.sort()).toEqual(['2024-q1', 'done', 'project/aurora', 'y1984']);
  });

  it('survives broken frontmatter and reports it', () => {
    const md = parseMarkdown(['---', 'title: [unclosed', '---', '# Real title']);
    expect(md.fm.error).toBeTruthy();
    expect(md.title).toBe('Real title');
  });

  it('treats an unterminated frontmatter fence as body text', () => {
    const md = parseMarkdown(['---', 'no end', '# Heading']);
    expect(md.bodyStart).toBe(0);
  });

  it('slugs Cyrillic headings', () => {
    expect(slugify('Настройка синхронизации!')).toBe('настройка-синхронизации');
  });
});

describe('normalizeLines', () => {
  it('normalises CRLF and CR, strips trailing whitespace, BOM and NUL, keeping the line count', () => {
    expect(normalizeLines('\uFEFFa  \r\nb\t\rc\u0000d \n')).toEqual(['a', 'b', 'cd', '']);
  });
});
