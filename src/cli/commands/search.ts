import path from 'node:path';
import { Option } from 'commander';
import { buildContext, type BuiltContext } from '../../engine/retrieve/context.ts';
import type { MatchExplanation, RetrievalResult } from '../../shared/contract.ts';
import { terminalLine } from '../../shared/terminal-safe.ts';
import { argument, methodCommand, modeOption, nonNegativeNumber, option, positiveInt, repeatable, scopeOptions } from '../command.ts';

interface SearchOptions {
  k?: number;
  include: string[];
  exclude: string[];
  type: string[];
  lang: string[];
  tag: string[];
  root: string[];
  allow: string[];
  minScore?: number;
  explain?: boolean;
  mode?: 'bm25' | 'dense' | 'hybrid';
  retrievalMode: 'doc_first' | 'section_first' | 'chunk_priority' | 'hybrid_only';
  rerank?: boolean;
  graph?: boolean;
  context?: number;
}

export const search = methodCommand<'search/query', SearchOptions>({
  name: 'search',
  description: 'hybrid search (BM25 + embeddings, fused) over the indexed chunks, with file:line locators',
  method: 'search/query',
  arguments: [argument('<query>', 'what to look for; "quoted phrases" and prefix* work')],
  options: [
    option('-k, --k <n>', 'number of results', positiveInt),
    ...scopeOptions('results'),
    repeatable('--type <type>', 'only these document types: markdown, text, code, pdf, docx, html (repeatable)'),
    repeatable('--lang <language>', 'only this language: a code language (python) or a note\'s lang (ru) (repeatable)'),
    repeatable('--tag <tag>', 'only documents carrying this tag (repeatable)'),
    repeatable('--root <folder>', 'only this root folder (repeatable)'),
    option('--min-score <score>', 'drop results scoring below this', nonNegativeNumber),
    option('--explain', 'say why each result matched: fields, missing terms, BM25 or trigram'),
    modeOption(),
    new Option('--retrieval-mode <mode>', 'group results by document, section or chunk').choices(['doc_first', 'section_first', 'chunk_priority', 'hybrid_only']).default('hybrid_only'),
    option('--no-rerank', 'skip reranking even when a rerank model is configured'),
    option('--no-graph', 'leave linked notes (the graph list) out of a hybrid search'),
    option('--context <tokens>', 'print the context an answer would get: the results packed into this many tokens (merged, diverse, in file order)', positiveInt),
  ],
  examples: ['synapsis search "storage decision" --k 5', 'synapsis search "relay*" --include "howto/**" --explain', 'synapsis search "настроить синхронизацию" --lang ru', 'synapsis search "salary bands" --allow restricted --json'],
  toRequest: ([query], o) => ({
    query: query!,
    ...(o.k ? { k: o.k } : {}),
    context: {
      include_globs: o.include,
      exclude_globs: o.exclude,
      types: o.type,
      languages: o.lang,
      tags: o.tag,
      roots: o.root.map((r) => path.resolve(r)),
      allow_sensitivity: o.allow,
      ...(o.minScore !== undefined ? { min_score: o.minScore } : {}),
      explain: o.explain === true,
      retrieval_mode: o.retrievalMode,
      enable_rerank: o.rerank !== false,
      use_graph: o.graph !== false,
    },
    ...(o.mode ? { mode: o.mode } : {}),
  }),
  format: (result, { opts }) => {
    if (!opts.context) return formatResults(result);
    const built = buildContext(result.chunks, { budgetTokens: opts.context });
    return { json: { ...result, context: built }, human: formatContext(built) };
  },
});

export function formatContext(built: BuiltContext): string {
  if (built.blocks.length === 0) return `No context fits ${built.budget} tokens.`;
  const blocks = built.blocks.map(
    (b) => `── ${terminalLine(b.path)}:${b.start_line}-${b.end_line}${b.trimmed ? ' (trimmed)' : ''}  [${b.tokens} tokens, ${b.locators.length} chunk${b.locators.length === 1 ? '' : 's'}]\n${b.text}`,
  );
  const dropped = built.dropped.length > 0 ? `\n${built.dropped.length} more results did not fit.` : '';
  return `${blocks.join('\n\n')}\n\n${built.tokens}/${built.budget} tokens in ${built.blocks.length} blocks.${dropped}`;
}

export function formatResults(result: RetrievalResult): string {
  if (result.chunks.length === 0) return `no results for ${JSON.stringify(result.query)}`;
  return result.chunks
    .map((c, i) => {
      const snippet = c.snippet.replace(/\s+/g, ' ').trim();
      const lines = [`${i + 1}. ${terminalLine(c.locator)}  (score ${c.score.toFixed(3)})`, `   ${snippet}`];
      if (c.explain) lines.push(`   why: ${formatExplanation(c.explain)}`);
      return lines.join('\n');
    })
    .join('\n');
}

function formatExplanation(e: MatchExplanation): string {
  const parts = [e.via === 'bm25' ? 'BM25 on stemmed terms' : 'trigram substring fallback (BM25 found too few)'];
  for (const field of ['title', 'heading', 'body'] as const) {
    if (e.fields[field].length > 0) parts.push(`${field}: ${e.fields[field].join(' ')}`);
  }
  if (e.missing.length > 0) parts.push(`missing: ${e.missing.join(' ')}`);
  return parts.join('; ');
}
