import { decodeText, normalizeLines } from '../normalize.ts';
import { frontmatterWarning, readFrontmatter } from '../markdown.ts';
import type { ParseInput, ParsedDocument, Parser } from './types.ts';

/** Definitions that start a new unit in most languages, at the left margin or one indent level in. */
const CODE_UNIT = /^(?:\s{0,4})(?:export\s+)?(?:default\s+)?(?:pub(?:\([^)]*\))?\s+)?(?:async\s+)?(?:abstract\s+)?(?:def|class|function|func|fn|interface|struct|impl|enum|trait|type|module|namespace|public|private|protected|static)\b|^@\w+/;

export function baseName(relPath: string): string {
  const name = relPath.slice(relPath.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(0, dot) : name;
}

export function decodeToLines(bytes: Uint8Array): { lines: string[]; warnings: string[] } {
  const { text, warning } = decodeText(bytes);
  return { lines: normalizeLines(text), warnings: warning ? [warning] : [] };
}

export const textParser: Parser = {
  types: ['text', 'code'],
  parse(input: ParseInput): ParsedDocument {
    const { lines, warnings } = decodeToLines(input.bytes);
    const softBreaks: number[] = [];
    if (input.type === 'code') {
      lines.forEach((line, i) => {
        if (i > 0 && CODE_UNIT.test(line)) softBreaks.push(i);
      });
    }
    const tags: Record<string, string> = { type: input.type };
    if (input.language) tags.language = input.language;
    // Plain-text notes may open with front matter too; only its sensitivity is honoured (failing closed).
    const fm = input.type === 'text' ? readFrontmatter(lines) : null;
    if (fm?.sensitivity) tags.sensitivity = fm.sensitivity;
    const fmWarning = fm ? frontmatterWarning(fm) : null;
    if (fmWarning) warnings.push(fmWarning);
    return {
      title: baseName(input.relPath),
      lines,
      from: 0,
      hardBreaks: [],
      softBreaks,
      sectionAt: () => null,
      tags,
      meta: {},
      warnings,
    };
  },
};
