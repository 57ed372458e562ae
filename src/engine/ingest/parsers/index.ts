import { createError } from '../../../shared/errors.ts';
import type { DocumentType } from '../file-types.ts';
import { docxParser } from './docx.ts';
import { htmlParser } from './html.ts';
import { markdownParser } from './markdown.ts';
import { pdfParser } from './pdf.ts';
import { textParser } from './text.ts';
import type { ParseInput, ParsedDocument, Parser } from './types.ts';

const PARSERS: readonly Parser[] = [markdownParser, textParser, pdfParser, docxParser, htmlParser];

export function parserFor(type: DocumentType): Parser | null {
  return PARSERS.find((p) => p.types.includes(type)) ?? null;
}

/** Runs the parser for a file; any failure is E_SYN_CHUNK_PARSE_FAILED for that file alone. */
export async function parseDocument(input: ParseInput): Promise<ParsedDocument> {
  const parser = parserFor(input.type);
  if (!parser) throw createError('E_SYN_CHUNK_PARSE_FAILED', `no parser for ${input.type} files yet`, { path: input.relPath });
  try {
    return await parser.parse(input);
  } catch (error) {
    throw createError('E_SYN_CHUNK_PARSE_FAILED', `cannot parse ${input.relPath}: ${(error as Error).message}`, { path: input.relPath }, error);
  }
}

export type { ParsedDocument, ParseInput, Parser } from './types.ts';
