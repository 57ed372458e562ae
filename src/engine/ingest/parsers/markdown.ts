import { frontmatterList, frontmatterWarning, parseMarkdown } from '../markdown.ts';
import { baseName, decodeToLines } from './text.ts';
import type { ParseInput, ParsedDocument, Parser } from './types.ts';

export const markdownParser: Parser = {
  types: ['markdown'],
  parse(input: ParseInput): ParsedDocument {
    const { lines, warnings } = decodeToLines(input.bytes);
    const md = parseMarkdown(lines);
    const fmWarning = frontmatterWarning(md.fm);
    if (fmWarning) warnings.push(fmWarning);
    const fm = md.frontmatter;
    const tags: Record<string, string> = { type: 'markdown', language: 'markdown' };
    if (md.fm.sensitivity) tags.sensitivity = md.fm.sensitivity;
    if (md.tags.length > 0) tags.tags = [...md.tags].sort().join(',');
    if (typeof fm.lang === 'string') tags.lang = fm.lang;
    const headings = md.headings;
    return {
      title: md.title ?? baseName(input.relPath),
      lines,
      from: md.bodyStart,
      hardBreaks: headings.map((h) => h.line),
      softBreaks: [],
      sectionAt(line: number) {
        let found: (typeof headings)[number] | undefined;
        for (const h of headings) {
          if (h.line > line) break;
          found = h;
        }
        return found ? { heading: found.text, id: found.id } : null;
      },
      tags,
      meta: {
        frontmatter: fm,
        wikilinks: md.wikilinks,
        tags: md.tags,
        aliases: frontmatterList(fm.aliases),
      },
      warnings,
    };
  },
};
