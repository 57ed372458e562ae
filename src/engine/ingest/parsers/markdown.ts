import { frontmatterList, parseMarkdown } from '../markdown.ts';
import { baseName, decodeToLines } from './text.ts';
import type { ParseInput, ParsedDocument, Parser } from './types.ts';

export const markdownParser: Parser = {
  types: ['markdown'],
  parse(input: ParseInput): ParsedDocument {
    const { lines, warnings } = decodeToLines(input.bytes);
    const md = parseMarkdown(lines);
    if (md.frontmatterError) warnings.push(`frontmatter ignored: ${md.frontmatterError}`);
    const fm = md.frontmatter;
    const tags: Record<string, string> = { type: 'markdown', language: 'markdown' };
    if (typeof fm.sensitivity === 'string' && fm.sensitivity.trim()) tags.sensitivity = fm.sensitivity.trim().toLowerCase();
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
