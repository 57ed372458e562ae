/**
 * What indexing a file computes before it touches the store: the file read and hashed, parsed,
 * chunked, each chunk's language detected and its text analyzed into index terms, and its graph
 * facts extracted. Pure (the file system aside) and its result plain data, so that it can run on a
 * thread of its own while the indexer writes the files before it (prepare-pool.ts); the indexer
 * decides what the result means for the store (indexer.ts indexFile).
 */
import fs from 'node:fs';
import { isSynapsisError } from '../../shared/errors.ts';
import { chunkHash, sha256 } from '../core/hash.ts';
import { extractGraphFacts, type FactMention, type FactRelation } from '../graph/extract.ts';
import { embeddingInput } from '../llm/embedding-input.ts';
import { analyzeForIndex, detectChunkLanguages } from '../search/analyzer.ts';
import type { ChunkWrite, StoredGraph } from '../store/store.ts';
import { chunkLines, estimateTokens, type ChunkParams } from './chunk.ts';
import { looksBinary, type FileKind } from './file-types.ts';
import { parseDocument, type ParsedDocument } from './parsers/index.ts';

/** One file to prepare. */
export interface PrepareRequest {
  absPath: string;
  relPath: string;
  kind: FileKind;
  /** The content hash the store holds for this path, when an unchanged file needs nothing more: it is then not parsed. */
  unchangedHash: string | null;
  chunk: ChunkParams;
  graphExtract: boolean;
  paramsHash: string;
}

/** A parsed file, as the indexer writes it. */
export interface PreparedDocument {
  title: string | null;
  tags: ChunkWrite['tags'];
  meta: Record<string, unknown>;
  warnings: string[];
  /** The part of the file past the chunk cap, described (indexer.ts unsearchablePart); null when all of it is indexed. */
  unsearchable: string | null;
  rows: ChunkWrite[];
  graph?: StoredGraph;
}

export type Prepared =
  /** The file is gone (deleted since the scan). */
  | { status: 'gone' }
  | { status: 'unreadable'; reason: string }
  | { status: 'unchanged'; contentHash: string }
  | { status: 'binary'; contentHash: string }
  | { status: 'parsed'; contentHash: string; doc: PreparedDocument }
  | { status: 'failed'; contentHash: string; code: string; reason: string };

/** The document meta key naming the part of a file cut at SYN_MAX_CHUNKS_PER_FILE (store/queries/documents.ts partlySearchable reads it). */
export const UNSEARCHABLE_META = 'unsearchable';

const count = (n: number) => n.toLocaleString('en-US');

/** The part of a file a cut leaves out, in words: the rest of a line by its characters, then whole lines. */
export function unsearchablePart(lines: readonly string[], cut: { line: number; char: number }): string | null {
  const last = lines.length;
  if (cut.char > 1) {
    const length = lines[cut.line - 1]?.length ?? 0;
    const rest = `line ${cut.line} from character ${count(cut.char)} on (${count(length - cut.char + 1)} of ${count(length)} characters)`;
    if (cut.line >= last) return `${rest} is not searchable`;
    return `${rest} and ${cut.line + 1 === last ? `line ${last}` : `lines ${cut.line + 1}-${last}`} are not searchable`;
  }
  if (cut.line > last) return null;
  return cut.line === last ? `line ${last} is not searchable` : `lines ${cut.line}-${last} are not searchable`;
}

/**
 * Reads, parses and analyzes one file. Never throws: what went wrong is the result (a parser's
 * error keeps its code, any other is E_SYN_CHUNK_PARSE_FAILED).
 */
export async function prepareFile(req: PrepareRequest): Promise<Prepared> {
  let bytes: Buffer;
  try {
    // Synchronous on purpose: fs.promises.readFile costs ~3 ms a file here (thread-pool hop), 70x a sync read.
    bytes = fs.readFileSync(req.absPath);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { status: 'gone' };
    return { status: 'unreadable', reason: `cannot read file: ${(error as Error).message}` };
  }
  const contentHash = sha256(bytes);
  if (req.unchangedHash === contentHash) return { status: 'unchanged', contentHash };
  if (req.kind.type !== 'pdf' && req.kind.type !== 'docx' && looksBinary(bytes.subarray(0, 8192))) return { status: 'binary', contentHash };
  try {
    return { status: 'parsed', contentHash, doc: await parsedDocument(req, bytes) };
  } catch (error) {
    return { status: 'failed', contentHash, code: isSynapsisError(error) ? error.code : 'E_SYN_CHUNK_PARSE_FAILED', reason: (error as Error).message };
  }
}

async function parsedDocument(req: PrepareRequest, bytes: Buffer): Promise<PreparedDocument> {
  const { relPath, kind } = req;
  const parsed = await parseDocument({ relPath, bytes, type: kind.type, language: kind.language });
  const { chunks, truncated, cut } = chunkLines({ lines: parsed.lines, from: parsed.from, hardBreaks: parsed.hardBreaks, softBreaks: parsed.softBreaks }, req.chunk);
  const tags = parsed.tags;
  // Per chunk, not per file: a note can switch language (an English summary over Russian minutes);
  // a short chunk of a German note is German (detectChunkLanguages).
  const languages = detectChunkLanguages(chunks.map((c) => c.text));
  const analyzedTitle = analyzeForIndex(parsed.title, languages.doc);
  const rows: ChunkWrite[] = chunks.map((c, ordinal) => {
    const place = parsed.locate?.(c.startLine, c.endLine) ?? { fragment: `L${c.startLine}-L${c.endLine}`, startLine: c.startLine, endLine: c.endLine };
    const locator = `${relPath}#${place.fragment}`;
    const section = parsed.sectionAt(c.startLine - 1);
    return {
      ordinal,
      locator,
      sectionId: section?.id ?? null,
      heading: section?.heading ?? null,
      startLine: place.startLine,
      endLine: place.endLine,
      text: c.text,
      chunkHash: chunkHash(relPath, locator, c.text, tags, req.paramsHash),
      textHash: sha256(c.text),
      embedHash: sha256(embeddingInput(parsed.title, section?.heading ?? null, c.text)),
      tags,
      tokenCount: estimateTokens(c.text),
      lang: languages.chunks[ordinal]!,
      fts: { title: analyzedTitle, heading: analyzeForIndex(section?.heading ?? '', languages.chunks[ordinal]), body: analyzeForIndex(c.text, languages.chunks[ordinal]) },
    };
  });
  const graph = req.graphExtract ? graphOf(relPath, kind.type, parsed, chunks) : undefined;
  const unsearchable = truncated && cut ? unsearchablePart(parsed.lines, cut) : null;
  return { title: parsed.title, tags, meta: parsed.meta, warnings: [...parsed.warnings], unsearchable, rows, ...(graph ? { graph } : {}) };
}

/** The document's graph facts, each placed on the chunk that holds its line and cited by locator fragment. */
function graphOf(relPath: string, type: FileKind['type'], parsed: ParsedDocument, chunks: readonly { startLine: number; endLine: number }[]): StoredGraph {
  // Chunks overlap: a line belongs to the first chunk that holds it; front matter to the first chunk.
  const ordinalOf = (line: number): number | null => {
    if (chunks.length === 0) return null;
    let lo = 0;
    let hi = chunks.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (chunks[mid]!.endLine < line) lo = mid + 1;
      else hi = mid;
    }
    return chunks[lo]!.startLine <= line && line <= chunks[lo]!.endLine ? lo : line < chunks[0]!.startLine ? 0 : null;
  };
  const facts = extractGraphFacts({
    relPath,
    type,
    lines: parsed.lines,
    from: parsed.from,
    frontmatter: (parsed.meta.frontmatter as Record<string, unknown> | undefined) ?? {},
    chunkOf: ordinalOf,
  });
  // The facts are stored as they are, with their chunk (and a PDF's page locator) added.
  const relations = facts.relations as (FactRelation & StoredGraph['relations'][number])[];
  for (const r of relations) {
    r.ordinal = ordinalOf(r.line);
    if (parsed.locate) r.fragment = parsed.locate(r.line, r.endLine).fragment;
  }
  const mentions = facts.mentions as (FactMention & StoredGraph['mentions'][number])[];
  for (const m of mentions) m.ordinal = ordinalOf(m.line);
  return { relations, mentions };
}
