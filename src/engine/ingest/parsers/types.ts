import type { DocumentType } from '../file-types.ts';

/** What every parser produces: normalised lines plus structure the chunker and the store use. */
export interface ParsedDocument {
  title: string;
  lines: string[];
  /** 0-based first line of content (after frontmatter). */
  from: number;
  hardBreaks: number[];
  softBreaks: number[];
  /** Heading in force at a 0-based line, if any. */
  sectionAt(line: number): { heading: string; id: string } | null;
  /** Document-level tags copied to every chunk (type, language, sensitivity, tags). */
  tags: Record<string, string>;
  meta: Record<string, unknown>;
  warnings: string[];
  /**
   * Maps a chunk's 1-based line range in `lines` to its locator fragment and the line numbers the
   * citation shows. Absent: `L<start>-L<end>` of the file itself (text, markdown, code). PDFs answer
   * `page=<n>&L<a>-L<b>` with lines counted within that page's extracted text.
   */
  locate?(startLine: number, endLine: number): { fragment: string; startLine: number; endLine: number };
}

export interface ParseInput {
  relPath: string;
  bytes: Uint8Array;
  type: DocumentType;
  language: string | null;
}

export interface Parser {
  readonly types: readonly DocumentType[];
  parse(input: ParseInput): ParsedDocument | Promise<ParsedDocument>;
}
