import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { createEngine, defaultDataDir, defaultDemoDir, EngineHost, loadConfig, openUrl, type Engine } from '../engine/index.ts';
import { startWebServer } from './web.ts';
import { formatDoctor, runDoctor } from './doctor.ts';
import { cliDataDir, formatRepair, repairWorkspace } from './repair.ts';
import { STORE_DAMAGED, storeDamage } from '../engine/store/integrity.ts';
import { MAX_SOURCE_LINES } from '../engine/retrieve/source.ts';
import { runMcp } from './mcp.ts';
import type { AnswerEnvelope, HealthReport, IndexReport, MatchExplanation, RetrievalResult } from '../shared/contract.ts';
import { createError, isSynapsisError, serializeError } from '../shared/errors.ts';
import { benchIngest } from './bench/ingest.ts';
import { benchDemo } from './bench/demo.ts';
import { benchExtractionOverhead, benchMultiHop } from './bench/graph.ts';
import { benchHybrid, formatSuite, runSuite } from './bench/suite.ts';
import { benchSearch, generateZipfCorpus } from './bench/search.ts';
import { benchVectors } from './bench/vectors.ts';
import { buildContext, type BuiltContext } from '../engine/retrieve/context.ts';
import { EVAL_MODES, runEval, type EvalMode } from './eval/run.ts';
import { type AnswerEvalReport, runAnswerEval } from './eval/answers.ts';
import { loadProfile } from '../engine/retrieve/profile.ts';
import { createProgressReporter } from './progress.ts';
import { terminalJson, terminalLine, terminalText } from '../shared/terminal-safe.ts';

export const EXIT_OK = 0;
export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const SAMPLE_VAULT = path.join(REPO_ROOT, 'resources', 'sample-vault');
export const SAMPLE_QUESTIONS = path.join(REPO_ROOT, 'resources', 'sample-vault.questions.json');
/** The demo's models: the workplace's shared GGUF files beside the checkout (never downloaded). */
const DEMO_MODELS_DIR =
  process.env.SYNAPSIS_DEMO_MODELS ?? [path.join(REPO_ROOT, 'models'), path.join(REPO_ROOT, '..', 'shared', 'models')].find((d) => fs.existsSync(d)) ?? path.join(REPO_ROOT, '..', 'shared', 'models');
export const DEMO_TOUR = path.join(REPO_ROOT, 'resources', 'demo-tour.json');
const DEMO_EMBED_MODEL = path.join(DEMO_MODELS_DIR, 'all-MiniLM-L6-v2.Q8_0.gguf');
const DEMO_CHAT_MODEL = path.join(DEMO_MODELS_DIR, 'SmolLM2-135M-Instruct.Q4_1.gguf');

interface GlobalOptions {
  dataDir?: string;
  modelsDir?: string;
  json?: boolean;
}

interface Io {
  out: (text: string) => void;
  err: (text: string) => void;
}

function positiveInt(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1) throw new InvalidArgumentError('expected a positive integer');
  return Number(value);
}

function nonNegativeInt(value: string): number {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError('expected an integer >= 0');
  return Number(value);
}

function nonNegativeNumber(value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n < 0) throw new InvalidArgumentError('expected a number >= 0');
  return n;
}

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

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

async function withEngine<T>(opts: GlobalOptions, fn: (engine: Engine) => Promise<T>, readOnly = false): Promise<T> {
  const engine = createEngine({ ...(opts.dataDir ? { dataDir: opts.dataDir } : {}), ...(opts.modelsDir ? { modelsDir: opts.modelsDir } : {}), ...(readOnly ? { readOnly } : {}) });
  try {
    return await fn(engine);
  } finally {
    await engine.dispose();
  }
}

/** Commands that only read open the data dir as a reader: they work beside the app or `synapsis watch` indexing it. */
function withReader<T>(opts: GlobalOptions, fn: (engine: Engine) => Promise<T>): Promise<T> {
  return withEngine(opts, fn, true);
}

const PACKAGE_VERSION = (JSON.parse(fs.readFileSync(path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'package.json'), 'utf8')) as { version: string }).version;

function parsePort(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new InvalidArgumentError('a port is a whole number from 0 to 65535');
  return n;
}

function formatIndexReport(r: IndexReport): string {
  const lines = [
    `indexed ${r.indexed}, unchanged ${r.unchanged}, removed ${r.removed}, skipped ${r.skipped}, failed ${r.failed} ` +
      `of ${r.files_seen} files in ${(r.duration_ms / 1000).toFixed(2)} s; ${r.chunks_total} chunks in the index`,
  ];
  const warned = r.issues.filter((i) => i.status === 'warning').length;
  if (warned > 0) lines.push(`${warned} indexed with warnings (not all of the file as written; see below)`);
  for (const issue of r.issues.slice(0, 20)) lines.push(`  ${issue.status}: ${terminalLine(issue.path)} — ${issue.reason}`);
  if (r.issues.length > 20) lines.push(`  … and ${r.issues.length - 20} more (synapsis health lists them all)`);
  return lines.join('\n');
}

export function formatAnswer(a: AnswerEnvelope): string {
  const lines = [a.answer, ''];
  if (a.citations.length > 0) {
    lines.push('Sources:');
    for (const c of a.citations) lines.push(`  [${c.n}] ${terminalLine(c.path)}:${c.start_line}-${c.end_line}${c.stale ? '  (changed since indexing)' : ''}`);
  }
  if (a.answer_mode === 'abstained') {
    lines.push(`Searched for: ${a.searched.terms.join(' ') || a.query} (${a.searched.results} passages)`);
    if (a.searched.closest.length > 0) {
      lines.push('Closest sentences in your files (not an answer):');
      for (const c of a.searched.closest) lines.push(`  "${c.text}" (${terminalLine(c.locator)})`);
    } else {
      for (const l of a.searched.top) lines.push(`  ${terminalLine(l)}`);
    }
  }
  const kind = a.answer_mode === 'extractive' ? 'quoted (the sentences of your files that answer)' : a.answer_mode;
  const outcome = a.outcome === 'answered' ? 'Answered' : a.outcome === 'partial' ? `Partly answered (not found: ${a.missing_parts.join('; ') || a.missing_terms.join(', ')})` : 'Not in your notes';
  lines.push(a.cancelled ? 'Stopped' : outcome);
  lines.push(`${kind}; verdict ${a.verdict ?? 'none'} (${a.critic.decided_by}${a.critic.retried ? ', revised once' : ''}); confidence ${a.confidence.toFixed(2)}${a.low_confidence ? ' LOW' : ''}`);
  if (a.cancelled) lines.push('cancelled');
  for (const l of a.limits) lines.push(`note: ${l}`);
  return lines.join('\n');
}

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

function formatHealth(h: HealthReport): string {
  const types = Object.entries(h.documents.by_type)
    .map(([t, n]) => `${t} ${n}`)
    .join(', ');
  const lines = [
    `status: ${h.status}${h.degradations.length ? ` (${h.degradations.join('; ')})` : ''}`,
    `data dir: ${h.data_dir} (schema v${h.schema_version}, index ${h.index_version})`,
    `roots: ${h.roots.length === 0 ? 'none' : h.roots.map((r) => terminalLine(r.path)).join(', ')}`,
    `documents: ${h.documents.indexed} indexed${types ? ` (${types})` : ''}, ${h.documents.skipped} skipped, ${h.documents.failed} failed`,
    `chunks: ${h.chunks}`,
  ];
  const embed = h.models?.embed;
  const vectors = h.vectors;
  lines.push(
    `embedding model: ${embed ? `${embed.name} (${embed.id})` : 'none (lexical retrieval only; synapsis models add <file.gguf>)'}`,
    `rerank model: ${h.models?.rerank ? `${h.models.rerank.name} (${h.models.rerank.id})` : 'none (results are not reranked)'}`,
  );
  if (embed && vectors) {
    lines.push(`vectors: ${vectors.count}${vectors.backend ? ` in ${vectors.backend}` : ''}${vectors.dimension ? `, dim ${vectors.dimension}` : ''}${vectors.pending ? `, ${vectors.pending} waiting` : ''}`);
  }
  if (h.models) lines.push(`llm runtime: ${h.models.gpu ? `GPU (${h.models.gpu})` : 'CPU'}, ${h.models.threads} threads`);
  if (h.pending_jobs > 0) lines.push(`pending: ${h.pending_jobs} files from an interrupted run (synapsis index finishes them)`);
  if (h.issues.length > 0) {
    lines.push('files skipped, failed or read with warnings:');
    for (const i of h.issues) lines.push(`  ${i.status}: ${terminalLine(i.path)} — ${i.reason}`);
  }
  return lines.join('\n');
}

export function buildProgram(io: Io): Command {
  const program = new Command();
  program
    .name('synapsis')
    .description('Synapsis: an air-gapped second brain. Index your folders, search them, ask with citations.')
    .option('--data-dir <dir>', 'workspace data directory (default: $SYNAPSIS_DATA_DIR or the OS app-data folder)')
    .option('--models-dir <dir>', 'where imported GGUF models live (default: <data-dir>/models)')
    .option('--json', 'print machine-readable JSON on stdout')
    .showHelpAfterError('(run synapsis --help for usage)')
    .configureOutput({ writeOut: io.out, writeErr: io.err })
    .exitOverride()
    .addHelpText(
      'after',
      `
Examples:
  synapsis index ~/notes --data-dir ~/.synapsis-work     index a folder (incremental on re-run)
  synapsis search "storage decision" --k 5              ranked passages with file:line locators
  synapsis search "quarterly budget" --json             the same as JSON
  synapsis health                                       what is indexed, skipped or failed, and why
  synapsis demo                                         index the sample vault and run its questions

Exit codes: 0 success, 1 failure, 2 bad usage or input.`,
    );

  const globals = (cmd: Command): GlobalOptions => cmd.optsWithGlobals() as GlobalOptions;
  const print = (opts: GlobalOptions, value: unknown, human: string) => io.out(opts.json ? `${JSON.stringify(value, null, 2)}\n` : `${human}\n`);

  program
    .command('index')
    .description('index folders (each becomes a root of this workspace); no folder: re-index every root')
    .argument('[paths...]', 'folders to index')
    .option('--include <glob>', 'only index files matching this glob (repeatable)', collect, [])
    .option('--exclude <glob>', 'skip files matching this glob (repeatable)', collect, [])
    .option('--quiet', 'no progress output')
    .action(async (paths: string[], cmdOpts: { include: string[]; exclude: string[]; quiet?: boolean }, cmd: Command) => {
      const opts = globals(cmd);
      await withEngine(opts, async (engine) => {
        if (cmdOpts.include.length > 0 || cmdOpts.exclude.length > 0) {
          if (paths.length === 0) throw createError('E_SYN_BAD_REQUEST', '--include and --exclude need at least one folder');
          for (const p of paths) engine.addRoot(p, { include: cmdOpts.include, exclude: cmdOpts.exclude });
        }
        const progress = createProgressReporter(process.stderr, cmdOpts.quiet === true);
        const sub = engine.on('index/progress', (e) => progress.update(e));
        try {
          const report = await engine.index(paths);
          progress.stop();
          print(opts, report, formatIndexReport(report));
        } finally {
          progress.stop();
          sub.dispose();
        }
      });
    });

  program
    .command('search')
    .description('hybrid search (BM25 + embeddings, fused) over the indexed chunks, with file:line locators')
    .argument('<query>', 'what to look for; "quoted phrases" and prefix* work')
    .option('-k, --k <n>', 'number of results', positiveInt)
    .option('--include <glob>', 'only results whose path matches (repeatable)', collect, [])
    .option('--exclude <glob>', 'drop results whose path matches (repeatable)', collect, [])
    .option('--type <type>', 'only these document types: markdown, text, code, pdf, docx, html (repeatable)', collect, [])
    .option('--lang <language>', 'only this language: a code language (python) or a note\'s lang (ru) (repeatable)', collect, [])
    .option('--tag <tag>', 'only documents carrying this tag (repeatable)', collect, [])
    .option('--root <folder>', 'only this root folder (repeatable)', collect, [])
    .option('--allow <sensitivity>', 'also show chunks with this sensitivity, e.g. restricted (repeatable)', collect, [])
    .option('--min-score <score>', 'drop results scoring below this', nonNegativeNumber)
    .option('--explain', 'say why each result matched: fields, missing terms, BM25 or trigram')
    .addOption(new Option('--mode <mode>', 'lists to use (default: hybrid with an embedding model, else bm25)').choices(['bm25', 'dense', 'hybrid']))
    .addOption(new Option('--retrieval-mode <mode>', 'group results by document, section or chunk').choices(['doc_first', 'section_first', 'chunk_priority', 'hybrid_only']).default('hybrid_only'))
    .option('--no-rerank', 'skip reranking even when a rerank model is configured')
    .option('--no-graph', 'leave linked notes (the graph list) out of a hybrid search')
    .option('--context <tokens>', 'print the context an answer would get: the results packed into this many tokens (merged, diverse, in file order)', positiveInt)
    .action(async (query: string, cmdOpts: SearchOptions, cmd: Command) => {
      const opts = globals(cmd);
      await withReader(opts, async (engine) => {
        const result = await engine.call('search/query', {
          query,
          ...(cmdOpts.k ? { k: cmdOpts.k } : {}),
          context: {
            include_globs: cmdOpts.include,
            exclude_globs: cmdOpts.exclude,
            types: cmdOpts.type,
            languages: cmdOpts.lang,
            tags: cmdOpts.tag,
            roots: cmdOpts.root.map((r) => path.resolve(r)),
            allow_sensitivity: cmdOpts.allow,
            ...(cmdOpts.minScore !== undefined ? { min_score: cmdOpts.minScore } : {}),
            explain: cmdOpts.explain === true,
            retrieval_mode: cmdOpts.retrievalMode,
            enable_rerank: cmdOpts.rerank !== false,
            use_graph: cmdOpts.graph !== false,
          },
          ...(cmdOpts.mode ? { mode: cmdOpts.mode } : {}),
        });
        if (cmdOpts.context) {
          const built = buildContext(result.chunks, { budgetTokens: cmdOpts.context });
          print(opts, { ...result, context: built }, formatContext(built));
          return;
        }
        print(opts, result, formatResults(result));
      });
    });

  program
    .command('ask')
    .description('answer a question from your files, streamed, with file:line citations checked by a critic')
    .argument('<question>', 'what you want to know')
    .option('-k, --k <n>', 'passages to retrieve before packing the context', positiveInt)
    .option('--include <glob>', 'only sources whose path matches (repeatable)', collect, [])
    .option('--exclude <glob>', 'leave out sources whose path matches (repeatable)', collect, [])
    .option('--allow <sensitivity>', 'also use chunks with this sensitivity, e.g. restricted (repeatable)', collect, [])
    .addOption(new Option('--mode <mode>', 'retrieval lists to use').choices(['bm25', 'dense', 'hybrid']))
    .option('--no-critic', 'skip the model critic (deterministic citation checks still run)')
    .action(async (question: string, cmdOpts: { k?: number; include: string[]; exclude: string[]; allow: string[]; mode?: 'bm25' | 'dense' | 'hybrid'; critic: boolean }, cmd: Command) => {
      const opts = globals(cmd);
      await withReader(opts, async (engine) => {
        const controller = new AbortController();
        const cancel = () => controller.abort();
        process.once('SIGINT', cancel);
        let attemptShown = 0;
        try {
          const envelope = await engine.answer(question, {
            ...(cmdOpts.k ? { k: cmdOpts.k } : {}),
            ...(cmdOpts.mode ? { mode: cmdOpts.mode } : {}),
            context: { include_globs: cmdOpts.include, exclude_globs: cmdOpts.exclude, allow_sensitivity: cmdOpts.allow },
            critic: cmdOpts.critic !== false,
            signal: controller.signal,
            onToken: (text, attempt) => {
              if (opts.json) return;
              if (attempt !== attemptShown) {
                if (attemptShown > 0) io.err('\n(the critic asked for a revision)\n');
                attemptShown = attempt;
              }
              io.err(text);
            },
          });
          if (!opts.json && attemptShown > 0) io.err('\n\n');
          print(opts, envelope, formatAnswer(envelope));
        } finally {
          process.off('SIGINT', cancel);
        }
      });
    });

  program
    .command('source')
    .description('print the exact lines behind a locator from search or ask (path#L3-L9, or path:3-9)')
    .argument('<locator>', 'as results print it, e.g. "decisions/2026-03-14 Storage decision.md#L12-L20"')
    .option('--allow <sensitivity>', 'also open documents with this sensitivity, e.g. restricted (repeatable)', collect, [])
    .action(async (locator: string, cmdOpts: { allow: string[] }, cmd: Command) => {
      const opts = globals(cmd);
      await withReader(opts, async (engine) => {
        const s = engine.source(locator, { allow_sensitivity: cmdOpts.allow });
        const width = String(s.end_line).length;
        const body = s.text
          .split('\n')
          .map((line, i) => `${String(s.start_line + i).padStart(width)}  ${line}`)
          .join('\n');
        const notes = [s.stale ? '(the file changed since indexing: these are the lines as indexed; synapsis index refreshes them)' : '', s.truncated ? `(cut at ${MAX_SOURCE_LINES} lines)` : ''].filter(Boolean);
        print(opts, s, [`── ${terminalLine(path.join(s.root, s.path))}  lines ${s.start_line}-${s.end_line}`, body, ...notes].join('\n'));
      });
    });

  program
    .command('graph')
    .description(
      'the knowledge graph: what links to an entity (notes, people, projects, tags, names; each link with the lines that state it), ' +
        'the shortest path between two entities (--path), or, with no entity, the central entities and communities',
    )
    .argument('[entity]', 'a note title, alias, person, project, name or #tag')
    .option('--hops <n>', 'how far to follow links (1-3)', positiveInt, 1)
    .option('--path <to>', 'the shortest chain of links from the entity to this one')
    .option('--limit <n>', 'central entities and communities to list (without an entity)', positiveInt, 10)
    .option('--extract', 'let the chat model read notes it has not read yet and add the people, projects and relations it finds')
    .option('--budget <seconds>', 'time --extract may take (the next run continues)', positiveInt, 60)
    .option('--allow <sensitivity>', 'also follow links in documents with this sensitivity (repeatable)', collect, [])
    .action(async (entity: string | undefined, cmdOpts: { hops: number; path?: string; limit: number; extract?: boolean; budget: number; allow: string[] }, cmd: Command) => {
      const opts = globals(cmd);
      // --extract writes what the model finds into the graph: a writer; the rest reads.
      await withEngine(opts, async (engine) => {
        if (cmdOpts.extract) {
          if (entity !== undefined || cmdOpts.path) throw createError('E_SYN_BAD_REQUEST', '--extract takes no entity: synapsis graph --extract [--budget <seconds>]');
          const r = await engine.extractGraphWithModel({ budget_ms: cmdOpts.budget * 1000 });
          const human = [
            `model read ${r.chunks_read} chunks of ${r.documents_done} notes in ${(r.elapsed_ms / 1000).toFixed(1)} s: ${r.entities_found} entities, ${r.relations_found} relations kept (names the text holds)`,
            r.documents_pending > 0 ? `${r.documents_pending} notes still to read${r.stopped_by_budget ? ' (budget reached)' : ''}: run it again to continue` : 'every note has been read',
          ];
          print(opts, r, human.join('\n'));
          return;
        }
        const notFound = (names: string[], suggestions: string[]) =>
          createError('E_SYN_NOT_FOUND', `No entity ${names.map((n) => `"${n}"`).join(' or ')} in the graph${suggestions.length ? `; did you mean ${suggestions.map((s) => `"${s}"`).join(', ')}?` : ''}`);
        if (entity === undefined) {
          if (cmdOpts.path) throw createError('E_SYN_BAD_REQUEST', '--path needs the entity to start from: synapsis graph <from> --path <to>');
          const o = engine.graphOverview({ limit: cmdOpts.limit, allow_sensitivity: cmdOpts.allow });
          const human = [
            `${o.notes} notes, ${o.entities} entities, ${o.tags} tags, ${o.edges} links`,
            'central (PageRank):',
            ...o.central.map((n, i) => `  ${i + 1}. ${n.label}  [${n.type}, ${n.degree} links]`),
            'communities (Louvain):',
            ...o.communities.map((c) => `  ${c.id}. ${c.size} nodes, ${c.notes} notes: ${c.members.join(', ')}`),
          ];
          print(opts, o, human.map(terminalLine).join('\n'));
          return;
        }
        if (cmdOpts.path) {
          const p = engine.graphPath(entity, cmdOpts.path, { allow_sensitivity: cmdOpts.allow });
          if (p.missing.length > 0) throw notFound(p.missing, p.suggestions);
          if (!p.found) throw createError('E_SYN_NOT_FOUND', `Nothing links "${p.from}" to "${p.to}" in the graph`);
          const human = [
            `${p.nodes.map((n) => n.label).join(' → ')}  (${p.nodes.length - 1} hop${p.nodes.length === 2 ? '' : 's'})`,
            'evidence:',
            ...p.edges.map((e) => `  ${e.source} -${e.relation}-> ${e.target}  (${e.locator})`),
          ];
          print(opts, p, human.map(terminalLine).join('\n'));
          return;
        }
        const g = engine.graphNeighbors(entity, cmdOpts.hops, { allow_sensitivity: cmdOpts.allow });
        if (!g.found) throw notFound([entity], g.suggestions);
        const human = [
          `${g.entity}: ${g.nodes.length - 1} linked within ${cmdOpts.hops} hop${cmdOpts.hops === 1 ? '' : 's'}`,
          ...g.nodes.filter((n) => n.hops > 0).map((n) => `  ${'  '.repeat(n.hops - 1)}${n.label}  [${n.kind === 'entity' ? n.type : n.kind}${n.hops > 1 ? `, ${n.hops} hops` : ''}]`),
          'links:',
          ...g.edges.map((e) => `  ${e.source} -${e.relation}-> ${e.target}  (${e.locator})`),
          ...(g.mentioned_in.length > 0 ? ['mentioned in:', ...g.mentioned_in.map((m) => `  ${m.locator}`)] : []),
        ];
        print(opts, g, human.map(terminalLine).join('\n'));
      }, !cmdOpts.extract);
    });

  program
    .command('documents')
    .description('list the indexed documents (restricted ones only with --allow)')
    .option('--allow <sensitivity>', 'also list documents with this sensitivity (repeatable)', collect, [])
    .action(async (cmdOpts: { allow: string[] }, cmd: Command) => {
      const opts = globals(cmd);
      await withReader(opts, async (engine) => {
        const docs = engine.documents({ allow_sensitivity: cmdOpts.allow });
        print(opts, docs, docs.length ? docs.map((d) => `${terminalLine(d.path)}  (${d.type}${d.language && d.language !== d.type ? `, ${d.language}` : ''})`).join('\n') : 'no documents indexed (synapsis index <folder>)');
      });
    });

  program
    .command('mcp')
    .description('serve this workspace to MCP clients over stdio: tools search, answer_query, get_source, graph_neighbors; documents as resources')
    .action(async (_o: unknown, cmd: Command) => {
      const opts = globals(cmd);
      await runMcp(() => createEngine({ ...(opts.dataDir ? { dataDir: opts.dataDir } : {}), ...(opts.modelsDir ? { modelsDir: opts.modelsDir } : {}), readOnly: true }), (text) => io.err(text));
    });

  program
    .command('doctor')
    .description('check the installation: Node, native modules, GPU detection, models, store and disk space, with a fix for each problem')
    .option('--no-llm', 'skip starting node-llama-cpp')
    .action(async (cmdOpts: { llm: boolean }, cmd: Command) => {
      const opts = globals(cmd);
      const config = loadConfig({}, process.env);
      const dataDir = path.resolve(opts.dataDir ?? (process.env.SYNAPSIS_DATA_DIR || config.indexPath || defaultDataDir(process.env)));
      const checks = await runDoctor({
        dataDir,
        modelsDir: path.resolve(opts.modelsDir ?? path.join(dataDir, 'models')),
        skipLlm: !cmdOpts.llm,
        configuredModels: [
          ...(config.embedModel ? [{ role: 'embed', ref: config.embedModel }] : []),
          ...(config.chatModel ? [{ role: 'chat', ref: config.chatModel }] : []),
          ...(config.rerankModel ? [{ role: 'rerank', ref: config.rerankModel }] : []),
        ],
      });
      print(opts, { ok: checks.every((c) => c.status !== 'fail'), checks }, formatDoctor(checks));
      if (checks.some((c) => c.status === 'fail')) throw new DoctorFailed();
    });

  program
    .command('traces')
    .description('one row per answer: latencies, retrieved passages, tokens, verdict, confidence, limits')
    .option('--limit <n>', 'newest N traces', positiveInt, 100)
    .option('--allow <sensitivity>', 'also list passages of documents with this sensitivity (repeatable)', collect, [])
    .action(async (cmdOpts: { limit: number; allow: string[] }, cmd: Command) => {
      const opts = globals(cmd);
      await withReader(opts, async (engine) => {
        const traces = engine.traces(cmdOpts.limit, { allow_sensitivity: cmdOpts.allow });
        const text = traces
          .map((t) => `${t.started_at}  ${t.answer_mode.padEnd(10)} ${(t.verdict ?? '-').padEnd(7)} conf ${t.confidence.toFixed(2)}  ${Math.round(t.latencies_ms.total_ms ?? 0)} ms  ${t.query}`)
          .join('\n');
        print(opts, traces, text || 'No answers yet (synapsis ask "<question>").');
      });
    });

  program
    .command('eval')
    .description('retrieval quality on a dataset in BEIR layout: nDCG@10, Recall@1/5/10/100, MRR@10, latency, indexing time; with --answers, answer quality (facts stated, abstentions)')
    .option('--dataset <dir>', 'folder with corpus.jsonl, queries.jsonl and qrels/<split>.tsv (with --answers: and answers.jsonl)')
    .option('--answers', 'answer quality instead of retrieval: fact recall, fully correct, fact in the first sentence, abstention on unanswerable questions, answer length and time')
    .option('--vault <dir>', 'with --answers: a folder of notes to ask (with --questions)')
    .option('--questions <file>', 'with --answers: questions in the sample fixture\'s format (question, kind, sources, answer_contains)')
    .option('--no-unanswerable', 'with --answers on a BEIR set: skip the variant that leaves each gold passage out')
    .option('--details', 'with --answers --json: each question\'s answer and scores too')
    .option('--split <name>', 'qrels split to evaluate', 'test')
    .addOption(new Option('--mode <mode>', 'retrieval mode').choices([...EVAL_MODES]).default('bm25'))
    .option('--limit <n>', 'evaluate only the first N judged queries', positiveInt)
    .option('--depth <n>', 'chunks retrieved per query (default 150; 10 measures the interactive case)', positiveInt)
    .option('--embed-model <file>', 'GGUF embedding model for dense and hybrid modes (or a registry id with --models-dir); repeat it to fuse several', collect, [])
    .option('--rerank-model <file>', 'GGUF rerank model for hybrid+rerank')
    .option('--chat-model <file>', 'without a rerank model: the chat model judges the top passages in hybrid+rerank')
    .option('--rerank-top <n>', 'passages reranked per query (default 50 with a rerank model, 10 with the chat judge)', positiveInt)
    .addOption(new Option('--fusion <kind>', 'fusion of the hybrid modes: reciprocal rank or weighted normalised scores (default: the profile\'s)').choices(['rrf', 'weighted']))
    .option('--profile <name>', 'retrieval profile: default, one saved by synapsis tune in the work dir\'s data, or a .json file')
    .option('--work-dir <dir>', 'keep the generated corpus and index here (re-runs re-index incrementally)')
    .action(async (cmdOpts: { dataset?: string; split: string; mode: EvalMode; limit?: number; depth?: number; workDir?: string; embedModel: string[]; rerankModel?: string; chatModel?: string; rerankTop?: number; fusion?: 'rrf' | 'weighted'; profile?: string; answers?: boolean; vault?: string; questions?: string; unanswerable: boolean; details?: boolean }, cmd: Command) => {
      const opts = globals(cmd);
      if (cmdOpts.answers) {
        const report = await runAnswerEval({
          ...(cmdOpts.dataset ? { dataset: cmdOpts.dataset, split: cmdOpts.split } : {}),
          ...(cmdOpts.vault ? { vault: cmdOpts.vault } : {}),
          ...(cmdOpts.questions ? { questions: cmdOpts.questions } : {}),
          embedModels: cmdOpts.embedModel,
          ...(cmdOpts.chatModel ? { chatModel: cmdOpts.chatModel } : {}),
          ...(cmdOpts.limit ? { limit: cmdOpts.limit } : {}),
          ...(cmdOpts.workDir ? { workDir: cmdOpts.workDir } : {}),
          ...(opts.modelsDir ? { modelsDir: opts.modelsDir } : {}),
          unanswerable: cmdOpts.unanswerable,
          details: cmdOpts.details === true,
          log: (line) => io.err(`${line}\n`),
        });
        print(opts, report, formatAnswerReport(report));
        return;
      }
      if (!cmdOpts.dataset) throw createError('E_SYN_BAD_REQUEST', 'synapsis eval needs --dataset <dir> (or --answers with --vault and --questions)');
      const { embedModel, profile, rerankTop, answers: _a, vault: _v, questions: _q, unanswerable: _u, details: _d, ...rest } = cmdOpts;
      // A profile name is one saved by synapsis tune in this workspace (the eval's own data dir is throwaway).
      const userDataDir = path.resolve(opts.dataDir ?? (process.env.SYNAPSIS_DATA_DIR || defaultDataDir(process.env)));
      const report = await runEval({ ...rest, dataset: cmdOpts.dataset, embedModels: embedModel, ...(rerankTop ? { rerankTopN: rerankTop } : {}), ...(profile ? { profile: loadProfile(profile, userDataDir) } : {}), ...(opts.modelsDir ? { modelsDir: opts.modelsDir } : {}), log: (line) => io.err(`${line}\n`) });
      const rows = Object.entries(report)
        .map(([key, value]) => `| ${key} | ${value} |`)
        .join('\n');
      print(opts, report, `| metric | value |\n|---|---|\n${rows}`);
    });

  program
    .command('tune')
    .description('fit a retrieval profile (fusion weights, RRF k, expansion, document scoring) on the training queries of a BEIR dataset and save it by name')
    .requiredOption('--dataset <dir>', 'folder with corpus.jsonl, queries.jsonl and qrels/<split>.tsv (repeat it to fit on several datasets together, each counting equally)', collect, [])
    .option('--split <name>', 'training split (test splits are refused); one for every --dataset, or one per --dataset in the same order', collect, [])
    .requiredOption('--name <name>', 'name of the profile to save (letters, digits, _ . -)')
    .option('--embed-model <file>', 'GGUF embedding model (repeat it for several); none: lexical lists only', collect, [])
    .option('--limit <n>', 'fit on the first N training queries only', positiveInt)
    .option('--min-gain <x>', 'least nDCG@10 gain on the training queries for a parameter to move (default 0.001)', (v) => {
      const n = Number(v);
      if (!Number.isFinite(n) || n < 0 || n > 1) throw new InvalidArgumentError('expected a number from 0 to 1');
      return n;
    })
    .option('--work-dir <dir>', 'keep the generated corpus and index here (shared with synapsis eval --work-dir)')
    .action(async (cmdOpts: { dataset: string[]; split: string[]; name: string; embedModel: string[]; limit?: number; minGain?: number; workDir?: string }, cmd: Command) => {
      const opts = globals(cmd);
      const splits = cmdOpts.split.length > 0 ? cmdOpts.split : ['train'];
      if (splits.length !== 1 && splits.length !== cmdOpts.dataset.length) {
        throw createError('E_SYN_BAD_REQUEST', `${cmdOpts.dataset.length} --dataset but ${splits.length} --split: give one --split for all, or one per --dataset in the same order`);
      }
      const { runTune } = await import('./eval/tune.ts');
      // Saved in this workspace: the engine (SYN_PROFILE=<name>) and synapsis eval --profile <name> find it there.
      const saveDir = path.resolve(opts.dataDir ?? (process.env.SYNAPSIS_DATA_DIR || defaultDataDir(process.env)));
      const report = await runTune({
        sets: cmdOpts.dataset.map((dataset, i) => ({ dataset, split: splits[splits.length === 1 ? 0 : i]! })),
        name: cmdOpts.name,
        embedModels: cmdOpts.embedModel,
        saveDir,
        ...(cmdOpts.limit ? { limit: cmdOpts.limit } : {}),
        ...(cmdOpts.minGain !== undefined ? { minGain: cmdOpts.minGain } : {}),
        ...(cmdOpts.workDir ? { workDir: cmdOpts.workDir } : {}),
        ...(opts.modelsDir ? { modelsDir: opts.modelsDir } : {}),
        log: (line) => io.err(`${line}\n`),
      });
      print(opts, report, `saved ${report.file}\nnDCG@10 on ${report.queries} training queries: default profile ${report.ndcg_default}, fitted ${report.ndcg_fitted}\nuse it: SYN_PROFILE=${report.profile.name} (or --profile ${report.profile.name} with synapsis eval)`);
    });

  program
    .command('quality')
    .description('the ablation table of docs/quality.md: BM25, each embedder, plain RRF, the default profile and each technique switched, on BEIR datasets (test splits)')
    .requiredOption('--dataset <dir>', 'a BEIR dataset (repeat it for several)', collect, [])
    .option('--embed-model <file>', 'GGUF embedding model (repeat it for several)', collect, [])
    .requiredOption('--work-dir <dir>', 'a folder per dataset is kept here: corpus, index and embeddings (reruns cost the queries only)')
    .option('--limit <n>', 'only the first N judged queries of each dataset', positiveInt)
    .action(async (cmdOpts: { dataset: string[]; embedModel: string[]; workDir: string; limit?: number }, cmd: Command) => {
      const opts = globals(cmd);
      const { runAblation, ablationTable } = await import('./eval/ablation.ts');
      const rows = await runAblation({
        datasets: cmdOpts.dataset,
        embedModels: cmdOpts.embedModel,
        workRoot: path.resolve(cmdOpts.workDir),
        ...(cmdOpts.limit ? { limit: cmdOpts.limit } : {}),
        ...(opts.modelsDir ? { modelsDir: opts.modelsDir } : {}),
        log: (line) => io.err(`${line}\n`),
      });
      print(opts, rows, ablationTable(rows));
    });

  program
    .command('health')
    .description('what is indexed, what was skipped or failed and why, and what is degraded')
    .option('--metrics', 'print answer counters and per-stage latency histograms in Prometheus text format')
    .action(async (cmdOpts: { metrics?: boolean }, cmd: Command) => {
      const opts = globals(cmd);
      await withReader(opts, async (engine) => {
        if (cmdOpts.metrics) {
          io.out(engine.metrics());
          return;
        }
        const report = await engine.health();
        print(opts, report, formatHealth(report));
        if (report.degradations.some((d) => d.startsWith(STORE_DAMAGED))) throw new DoctorFailed();
      });
    });

  program
    .command('repair')
    .description('rebuild a damaged or lost store from the indexed folders, re-using the embeddings it can still read (the old file is kept aside)')
    .argument('[folders...]', 'folders to index when the store no longer says which')
    .action(async (folders: string[], _o: unknown, cmd: Command) => {
      const opts = globals(cmd);
      const result = await repairWorkspace(cliDataDir(opts.dataDir), folders, (fn) => withEngine(opts, fn));
      print(opts, result, formatRepair(result));
    });

  const roots = program.command('roots').description('list, add or remove the folders of this workspace');
  roots
    .command('list')
    .description('list the roots')
    .action(async (_o: unknown, cmd: Command) => {
      const opts = globals(cmd);
      await withReader(opts, async (engine) => {
        const list = engine.listRoots();
        print(opts, list, list.length ? list.map((r) => terminalLine(r.path)).join('\n') : 'no roots');
      });
    });
  roots
    .command('add')
    .argument('<path>', 'folder to add')
    .option('--include <glob>', 'only index files matching this glob (repeatable)', collect, [])
    .option('--exclude <glob>', 'skip files matching this glob (repeatable)', collect, [])
    .action(async (p: string, cmdOpts: { include: string[]; exclude: string[] }, cmd: Command) => {
      const opts = globals(cmd);
      await withEngine(opts, async (engine) => {
        const root = engine.addRoot(p, cmdOpts);
        print(opts, root, `added ${root.path} (run synapsis index to index it)`);
      });
    });
  roots
    .command('remove')
    .argument('<path>', 'folder to remove, with everything indexed from it')
    .action(async (p: string, _o: unknown, cmd: Command) => {
      const opts = globals(cmd);
      await withEngine(opts, async (engine) => {
        const result = engine.removeRoot(p);
        if (!result.removed) throw createError('E_SYN_BAD_REQUEST', `Not a root of this workspace: ${path.resolve(p)}`);
        print(opts, result, `removed ${path.resolve(p)} and its ${result.documents_removed} documents`);
      });
    });

  const models = program.command('models').description('the GGUF models this workspace uses (embedding, chat, rerank)');
  models
    .command('list')
    .description('list imported models with their role, architecture and dimension')
    .action(async (_o: unknown, cmd: Command) => {
      const opts = globals(cmd);
      await withReader(opts, async (engine) => {
        const list = engine.listModels();
        const human = list.length
          ? list.map((m) => `${m.id}  ${m.role.padEnd(6)}  ${m.architecture}  dim ${m.dimension}  ctx ${m.context_length}  ${m.file}  (${m.name})${m.languages ? `  languages ${m.languages.join(',')}` : ''}`).join('\n')
          : `no models in ${engine.modelsDir} (synapsis models add <file.gguf>)`;
        print(opts, list, human);
      });
    });
  models
    .command('add')
    .description('import a GGUF file into the models dir (copied; its id is the hash of its content)')
    .argument('<file>', 'path to a .gguf file')
    .addOption(new Option('--role <role>', 'what the model is for (default: guessed from its header)').choices(['embed', 'chat', 'rerank']))
    .option('--languages <codes>', 'languages an embedding model covers, comma separated: en,ru or * for all (default: from its header and name)')
    .action(async (file: string, cmdOpts: { role?: 'embed' | 'chat' | 'rerank'; languages?: string }, cmd: Command) => {
      const opts = globals(cmd);
      await withEngine(opts, async (engine) => {
        // The registry checks the codes (E_SYN_BAD_REQUEST naming a bad one); the engine hands the options over as they are.
        const options: { role?: 'embed' | 'chat' | 'rerank'; languages?: string[] } = {
          ...(cmdOpts.role ? { role: cmdOpts.role } : {}),
          ...(cmdOpts.languages !== undefined ? { languages: cmdOpts.languages.split(',').map((l) => l.trim()).filter(Boolean) } : {}),
        };
        const info = await engine.addModel(file, options);
        print(opts, info, `added ${info.file} as ${info.role} model ${info.id} (${info.architecture}, dim ${info.dimension}${info.languages ? `, languages ${info.languages.join(',')}` : ''}); the next synapsis index embeds your notes with it`);
      });
    });
  models
    .command('remove')
    .description('forget a model (its file stays in the models dir)')
    .argument('<ref>', 'model id, file name or name')
    .action(async (ref: string, _o: unknown, cmd: Command) => {
      const opts = globals(cmd);
      await withEngine(opts, async (engine) => {
        const removed = engine.removeModel(ref);
        if (!removed) throw createError('E_SYN_BAD_REQUEST', `No model "${ref}"; synapsis models list shows them`);
        print(opts, removed, `removed ${removed.file} (${removed.id})`);
      });
    });

  program
    .command('web')
    .description('serve the desktop UI in your browser on 127.0.0.1 (a per-run secret token guards the engine); Ctrl+C stops')
    .option('--port <n>', 'port on 127.0.0.1 (0: any free port)', parsePort, 4747)
    .option('--ui-dir <dir>', 'the built renderer (default: out/renderer of this installation; npm run build makes it)')
    .option('--no-watch', 'do not watch the roots for changes')
    .option('--demo', 'start in the demo: the sample vault in a throwaway data dir (never --data-dir), with a guided tour')
    .option('--demo-dir <dir>', 'the demo data dir (default: synapsis-demo-<user> in the OS temp folder)')
    .option('--demo-models <dir>', 'models for the demo (default: models/ of a demo bundle, or ../shared/models)')
    .option('--open', 'open the address in the default browser')
    .action(async (cmdOpts: { port: number; uiDir?: string; watch: boolean; demo?: boolean; demoDir?: string; demoModels?: string; open?: boolean }, cmd: Command) => {
      const opts = globals(cmd);
      const staticDir = path.resolve(cmdOpts.uiDir ?? path.join(REPO_ROOT, 'out', 'renderer'));
      const host = new EngineHost({
        create: () => createEngine({ ...(opts.dataDir ? { dataDir: opts.dataDir } : {}), ...(opts.modelsDir ? { modelsDir: opts.modelsDir } : {}) }),
        watch: cmdOpts.watch,
        onError: (error) => io.err(`synapsis web: ${(error as Error).message}\n`),
        demo: {
          vault: SAMPLE_VAULT,
          questionsFile: SAMPLE_QUESTIONS,
          tourFile: DEMO_TOUR,
          dataDir: path.resolve(cmdOpts.demoDir ?? defaultDemoDir()),
          modelsDir: cmdOpts.demoModels ?? DEMO_MODELS_DIR,
        },
        startInDemo: cmdOpts.demo ?? false,
      });
      try {
        const engine = await host.engine();
        const server = await startWebServer({ host, staticDir, port: cmdOpts.port, version: PACKAGE_VERSION });
        const what = cmdOpts.demo ? `the demo (${engine.dataDir})` : engine.dataDir;
        if (opts.json) io.out(`${JSON.stringify({ url: server.openUrl, port: server.port, data_dir: engine.dataDir, demo: cmdOpts.demo ?? false })}\n`);
        else io.out(`Synapsis web mode, ${what}: open ${server.openUrl}\nOnly this machine can connect, and only with the token in that address. Ctrl+C stops.\n`);
        if (cmdOpts.open) await openUrl(server.openUrl).catch((error: Error) => io.err(`synapsis web: could not open a browser (${error.message}); open the address above\n`));
        await new Promise<void>((resolve) => {
          process.once('SIGINT', () => resolve());
          process.once('SIGTERM', () => resolve());
        });
        await server.close();
      } finally {
        await host.dispose();
      }
    });

  program
    .command('watch')
    .description('keep the index current: finish interrupted work, then re-index files as they change (Ctrl+C stops)')
    .argument('[paths...]', 'folders to add before watching (default: every root)')
    .action(async (paths: string[], _o: unknown, cmd: Command) => {
      const opts = globals(cmd);
      await withEngine(opts, async (engine) => {
        for (const p of paths) engine.addRoot(p);
        const sub = engine.on('syn.index.completed', (r) => {
          if (r.indexed + r.removed + r.failed + r.skipped === 0) return;
          print(opts, r, `updated: ${formatIndexReport(r)}`);
        });
        const watcher = await engine.watch();
        io.err(`watching ${engine.listRoots().map((r) => r.path).join(', ')} (Ctrl+C to stop)\n`);
        await new Promise<void>((resolve) => {
          const stop = () => resolve();
          process.once('SIGINT', stop);
          process.once('SIGTERM', stop);
        });
        await watcher.dispose();
        sub.dispose();
      });
    });

  const bench = program.command('bench').description('benchmarks that print reproducible numbers (alone: the whole suite, every speed target in one table)');
  bench
    .command('all', { isDefault: true })
    .description('every speed target (indexing, latency, recall, memory, cold start, incremental) and the comparisons with MiniSearch, Orama, LanceDB and sqlite-vec, in one table')
    .option('--chunks <n>', 'chunks of the generated corpus', positiveInt, 100_000)
    .option('--queries <n>', 'queries per latency measurement', positiveInt, 300)
    .option('--full', 'also measure at 1M chunks (about 25 more minutes on 2 cores)')
    .option('--scifact <dir>', 'BEIR folder for the indexing-time row and the BM25 comparison', path.join(REPO_ROOT, '..', 'shared', 'data', 'scifact'))
    .option('--work-dir <dir>', 'keep the generated corpora and indexes here')
    .option('--out <file>', 'also write the tables (markdown) to this file')
    .action(async (cmdOpts: { chunks: number; queries: number; full?: boolean; scifact: string; workDir?: string; out?: string }, cmd: Command) => {
      const opts = globals(cmd);
      if (!fs.existsSync(path.join(cmdOpts.scifact, 'corpus.jsonl'))) throw createError('E_SYN_BAD_REQUEST', `--scifact: no corpus.jsonl in ${cmdOpts.scifact}`);
      const report = await runSuite({
        chunks: cmdOpts.chunks,
        queries: cmdOpts.queries,
        full: cmdOpts.full === true,
        scifact: path.resolve(cmdOpts.scifact),
        ...(cmdOpts.workDir ? { workDir: cmdOpts.workDir } : {}),
        log: (line) => io.err(`${line}\n`),
      });
      const text = formatSuite(report);
      if (cmdOpts.out) fs.writeFileSync(cmdOpts.out, `${text}\n`);
      print(opts, report, text);
    });
  bench
    .command('ingest')
    .description('first index, no-change re-index, watcher edit latency and manifest determinism on a generated markdown folder')
    .option('--files <n>', 'number of generated notes', positiveInt, 5000)
    .action(async (cmdOpts: { files: number }, cmd: Command) => {
      const opts = globals(cmd);
      const result = await benchIngest(cmdOpts.files, (line) => io.err(`${line}\n`));
      const table = Object.entries(result)
        .map(([k, v]) => `| ${k} | ${v} |`)
        .join('\n');
      print(opts, result, `| metric | value |\n|---|---|\n${table}`);
    });

  bench
    .command('search')
    .description('lexical search latency (p50/p95 at k = 10 and 100) over a generated Zipf-distributed index')
    .option('--chunks <n>', 'approximate number of chunks to index', positiveInt, 100_000)
    .option('--queries <n>', 'number of queries', positiveInt, 300)
    .option('--work-dir <dir>', 'keep the generated notes and index here (re-runs re-index incrementally)')
    .action(async (cmdOpts: { chunks: number; queries: number; workDir?: string }, cmd: Command) => {
      const opts = globals(cmd);
      const result = await benchSearch(cmdOpts.chunks, cmdOpts.queries, (line) => io.err(`${line}\n`), cmdOpts.workDir);
      const table = Object.entries(result)
        .map(([k, v]) => `| ${k} | ${v} |`)
        .join('\n');
      print(opts, result, `| metric | value |\n|---|---|\n${table}`);
    });

  bench
    .command('hybrid')
    .description('hybrid query latency (lexical, dense with sentence vectors, fusion, graph) over the generated notes with the synthetic embedder, with each stage\'s p50/p95; a kept --work-dir is measured again without building it again')
    .option('--chunks <n>', 'approximate number of chunks of the generated notes', positiveInt, 100_000)
    .option('--queries <n>', 'number of queries', positiveInt, 300)
    .option('--work-dir <dir>', 'keep the notes (corpus/) and the hybrid index (data-hybrid/) here; `synapsis bench --work-dir D` leaves them in D/search-<chunks>')
    .option('--no-sentence-vectors', 'search chunk vectors only (what sentence vectors cost; a kept sentence index is left as it is)')
    .option('--no-lexical-thread', 'compute the lexical list on the main thread, after the vector searches (what the lexical thread saves)')
    .option('--include <glob>', 'filter every query to these paths (repeatable; the notes are in folders d000/ to d039/ of 500 each)', collect, [])
    .option('--exclude <glob>', 'leave these paths out of every query (repeatable)', collect, [])
    .option('--profile <name|file.json>', 'retrieval profile to query with (default: the shipped one), e.g. docs/profiles/default-chunk-max.json')
    .action(async (cmdOpts: { chunks: number; queries: number; workDir?: string; sentenceVectors: boolean; lexicalThread: boolean; include: string[]; exclude: string[]; profile?: string }, cmd: Command) => {
      const opts = globals(cmd);
      const log = (line: string) => io.err(`${line}\n`);
      const work = cmdOpts.workDir ? path.resolve(cmdOpts.workDir) : fs.mkdtempSync(path.join(os.tmpdir(), 'synapsis-bench-hybrid-'));
      try {
        if (!fs.existsSync(path.join(work, 'corpus'))) {
          log(`generating notes for about ${cmdOpts.chunks} chunks…`);
          generateZipfCorpus(path.join(work, 'corpus'), cmdOpts.chunks);
        }
        const r = await benchHybrid(work, cmdOpts.chunks, cmdOpts.queries, log, { sentenceVectors: cmdOpts.sentenceVectors, lexicalThread: cmdOpts.lexicalThread, includeGlobs: cmdOpts.include, excludeGlobs: cmdOpts.exclude, ...(cmdOpts.profile ? { profile: cmdOpts.profile } : {}) });
        const { queries: _queries, ...result } = r;
        const round = (v: number) => Math.round(v * 100) / 100;
        const human = [
          `hybrid query${cmdOpts.profile ? ` (profile ${cmdOpts.profile})` : ''}${cmdOpts.sentenceVectors ? '' : ' (chunk vectors only)'}${cmdOpts.lexicalThread ? '' : ' (lexical list on the main thread)'}${cmdOpts.include.length + cmdOpts.exclude.length > 0 ? ` (filtered: ${[...cmdOpts.include.map((g) => `in ${g}`), ...cmdOpts.exclude.map((g) => `not in ${g}`)].join(', ')})` : ''}, ${r.chunks} chunks, k = 10, ${r.queries.length} queries (warm, ${r.results_mean} results each on average): p50 ${round(r.p50)} ms, p95 ${round(r.p95)} ms (target p95 < 30 ms: ${r.p95 < 30 ? 'met' : 'NOT met'})`,
          '',
          '| stage | p50 ms | p95 ms |',
          '|---|---|---|',
          ...Object.entries(r.stages).map(([stage, v]) => `| ${stage} | ${v.p50} | ${v.p95} |`),
        ];
        print(opts, { ...result, p50: round(r.p50), p95: round(r.p95) }, human.join('\n'));
      } finally {
        if (!cmdOpts.workDir) fs.rmSync(work, { recursive: true, force: true });
      }
    });

  bench
    .command('demo')
    .description('how long the demo takes to be ready: the first start (index the sample vault) and later starts (open, check, first answer; target under 10 s)')
    .option('--starts <n>', 'later starts to time (the median is reported)', positiveInt, 3)
    .option('--demo-models <dir>', 'models for the demo (default: models/ of a demo bundle, or ../shared/models)')
    .action(async (cmdOpts: { starts: number; demoModels?: string }, cmd: Command) => {
      const opts = globals(cmd);
      const r = await benchDemo(
        { vault: SAMPLE_VAULT, questionsFile: SAMPLE_QUESTIONS, tourFile: DEMO_TOUR, modelsDir: cmdOpts.demoModels ?? DEMO_MODELS_DIR },
        cmdOpts.starts,
        (line) => io.err(`${line}\n`),
      );
      print(
        opts,
        r,
        [
          `demo models: ${r.models.join(', ') || 'none (lexical)'}`,
          `| measure | seconds |`,
          `|---|---|`,
          `| first start: sample vault indexed${r.models.length ? ' and embedded' : ''} | ${r.first_start_s} |`,
          `| later start: open to first search | ${r.later_first_search_s} |`,
          `| later start: open, incremental check, first answer (median of ${r.later_starts_s.length}) | ${r.later_start_s} |`,
          `| target for a later start | < ${r.target_s} (${r.later_start_s < r.target_s ? 'met' : 'NOT met'}) |`,
        ].join('\n'),
      );
    });

  bench
    .command('graph')
    .description('multi-hop retrieval with and without the graph list (sample vault), and what graph extraction adds to lexical indexing')
    .option('--mode <mode>', 'retrieval mode: bm25 or hybrid (needs --embed-model)', 'bm25')
    .option('--embed-model <file>', 'GGUF embedding model for --mode hybrid')
    .option('--k <n>', 'results per question', positiveInt, 8)
    .option('--vault <dir>', 'folder to use instead of the sample vault', SAMPLE_VAULT)
    .option('--questions <file>', 'question file (kind "multi-hop" entries with their sources)', SAMPLE_QUESTIONS)
    .option('--notes <n>', 'generated notes for the extraction-overhead run (0: skip it)', nonNegativeInt, 5000)
    .option('--rounds <n>', 'index runs per setting for the overhead (best is kept)', positiveInt, 2)
    .action(async (cmdOpts: { mode: string; embedModel?: string; k: number; vault: string; questions: string; notes: number; rounds: number }, cmd: Command) => {
      const opts = globals(cmd);
      if (cmdOpts.mode !== 'bm25' && cmdOpts.mode !== 'hybrid') throw createError('E_SYN_BAD_REQUEST', `--mode must be bm25 or hybrid (got "${cmdOpts.mode}")`);
      const log = (line: string) => io.err(`${line}\n`);
      const multi = await benchMultiHop(
        { vault: path.resolve(cmdOpts.vault), questions: path.resolve(cmdOpts.questions), mode: cmdOpts.mode, k: cmdOpts.k, ...(cmdOpts.embedModel ? { embedModel: cmdOpts.embedModel } : {}), ...(opts.modelsDir ? { modelsDir: opts.modelsDir } : {}) },
        log,
      );
      const overhead = cmdOpts.notes > 0 ? await benchExtractionOverhead(cmdOpts.notes, cmdOpts.rounds, log) : null;
      const rank = (r: (number | null)[]) => r.map((x) => x ?? '–').join(', ');
      const human = [
        `multi-hop questions with both sources in the top ${multi.k} (${multi.mode}): ${multi.both_without_graph}/${multi.questions} without the graph, ${multi.both_with_graph}/${multi.questions} with it`,
        '',
        '| question | ranks without graph | ranks with graph |',
        '|---|---|---|',
        ...multi.rows.map((r) => `| ${r.id} | ${rank(r.without_graph)} | ${rank(r.with_graph)} |`),
        ...(overhead
          ? [
              '',
              `graph extraction on ${overhead.notes} notes (${overhead.chunks} chunks): lexical ${overhead.lexical_only_s} s, with graph ${overhead.with_graph_s} s, overhead ${overhead.overhead_pct}%`,
              `stored: ${overhead.entities} entities, ${overhead.relations} relations, ${overhead.mentions} mentions; graph ${overhead.graph_nodes} nodes, ${overhead.graph_edges} links, loaded in ${overhead.graph_load_ms} ms`,
            ]
          : []),
      ];
      print(opts, { multi_hop: multi, extraction: overhead }, human.join('\n'));
    });

  bench
    .command('vectors')
    .description('vector backends: build time, memory, p50/p95 query latency and recall@10 against exact search')
    .option('--sizes <list>', 'corpus sizes, comma-separated', '10000,100000,1000000')
    .option('--dims <list>', 'vector dimensions, comma-separated', '384,768')
    .option('--backends <list>', 'usearch, faiss, usearch-exact (usearch forced to exact search)', 'usearch,faiss')
    .option('--queries <n>', 'queries per configuration', positiveInt, 200)
    .action(async (cmdOpts: { sizes: string; dims: string; backends: string; queries: number }, cmd: Command) => {
      const opts = globals(cmd);
      const list = (value: string, what: string) =>
        value.split(',').map((v) => {
          const n = Number(v.trim());
          if (!Number.isInteger(n) || n < 1) throw createError('E_SYN_BAD_REQUEST', `--${what} expects positive integers separated by commas, got "${v}"`);
          return n;
        });
      const backends = cmdOpts.backends.split(',').map((b) => b.trim());
      for (const b of backends) {
        if (!['usearch', 'faiss', 'usearch-exact'].includes(b)) throw createError('E_SYN_BAD_REQUEST', `--backends: unknown backend "${b}" (usearch, faiss, usearch-exact)`);
      }
      const rows = await benchVectors(
        { sizes: list(cmdOpts.sizes, 'sizes'), dimensions: list(cmdOpts.dims, 'dims'), backends: backends as ('usearch' | 'faiss' | 'usearch-exact')[], queries: cmdOpts.queries },
        (line) => io.err(`${line}\n`),
      );
      const header = '| backend | kind | dim | vectors | build s | memory MiB | p50 ms | p95 ms | recall@10 |\n|---|---|---|---|---|---|---|---|---|';
      const table = rows.map((r) => `| ${r.backend} | ${r.kind} | ${r.dimension} | ${r.vectors} | ${r.build_s} | ${r.memory_mib} | ${r.p50_ms} | ${r.p95_ms} | ${r.recall_at_10} |`).join('\n');
      print(opts, rows, `${header}\n${table}`);
    });

  program
    .command('demo')
    .description('index the sample vault into a throwaway data dir and answer one question of each kind, with citations and verdicts')
    .option('--vault <dir>', 'folder to use instead of the sample vault', SAMPLE_VAULT)
    .option('--questions <file>', 'questions fixture (JSON)', SAMPLE_QUESTIONS)
    .option('--all', 'answer every question of the fixture, not one of each kind')
    .option('--embed-model <file>', `GGUF embedding model (default: ${path.relative(process.cwd(), DEMO_EMBED_MODEL)} when present)`)
    .option('--chat-model <file>', `GGUF chat model for generated answers (e.g. ${path.relative(process.cwd(), DEMO_CHAT_MODEL)}); default: extractive answers`)
    .option('--no-models', 'use no models: lexical retrieval and extractive answers')
    .action(async (cmdOpts: { vault: string; questions: string; all?: boolean; embedModel?: string; chatModel?: string; models: boolean }, cmd: Command) => {
      const opts = globals(cmd);
      const all = readQuestions(cmdOpts.questions);
      const questions = cmdOpts.all ? all : all.filter((q, i) => all.findIndex((o) => o.kind === q.kind) === i);
      const pick = (given: string | undefined, fallback: string) => given ?? (cmdOpts.models && fs.existsSync(fallback) ? fallback : undefined);
      const embedModel = cmdOpts.models ? pick(cmdOpts.embedModel, DEMO_EMBED_MODEL) : undefined;
      // The shared chat model (SmolLM2-135M) is too small to write good answers: the demo answers
      // extractively unless a chat model is named, and the critic's checks judge either way.
      const chatModel = cmdOpts.models ? cmdOpts.chatModel : undefined;
      const dataDir = opts.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'synapsis-demo-'));
      const engine = createEngine({
        dataDir,
        ...(opts.modelsDir ? { modelsDir: opts.modelsDir } : {}),
        config: { ...(embedModel ? { embedModel } : {}), ...(chatModel ? { chatModel, synthTokens: 160, contextTokens: 1200 } : {}) },
      });
      try {
        const progress = opts.json ? null : createProgressReporter();
        const sub = progress ? engine.on('index/progress', (e) => progress.update(e)) : null;
        const report = await engine.index([cmdOpts.vault]);
        sub?.dispose();
        progress?.stop();
        if (!opts.json) {
          io.out(`Sample vault: ${formatIndexReport(report)}\n`);
          io.out(`Models: embeddings ${embedModel ? path.basename(embedModel) : 'none (lexical only)'}, chat ${chatModel ? path.basename(chatModel) : 'none (extractive answers)'}\n\n`);
        }
        const answers = [];
        for (const q of questions) {
          if (!opts.json) io.out(`Q ${q.id} [${q.kind}] ${q.question}\n`);
          const envelope = await engine.answer(q.question);
          answers.push({ ...q, envelope });
          if (!opts.json) io.out(`${indent(formatAnswer(envelope))}\n\n`);
        }
        if (opts.json) print(opts, { index: report, answers }, '');
      } finally {
        await engine.dispose();
        if (!opts.dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
      }
    });

  program
    .command('manifest')
    .description('the manifest of the current index: index version, embedding model, chunking parameters, chunk hashes')
    .action(async (_o: unknown, cmd: Command) => {
      const opts = globals(cmd);
      await withReader(opts, async (engine) => {
        const manifest = engine.manifest();
        if (!manifest) throw createError('E_SYN_NOT_FOUND', 'No manifest yet: it is written after the first indexing run (synapsis index <folder>)');
        const { hashes: _hashes, ...summary } = manifest as typeof manifest & { hashes?: unknown };
        print(opts, manifest, Object.entries(summary).map(([k, v]) => `${k}: ${typeof v === 'object' ? JSON.stringify(v) : String(v)}`).join('\n'));
      });
    });

  for (const [name, lines] of Object.entries(COMMAND_EXAMPLES)) {
    const command = findCommand(program, name.split(' '));
    command?.addHelpText('after', `\nExamples:\n${lines.map((l) => `  ${l}`).join('\n')}\n`);
  }
  return program;
}

function findCommand(root: Command, names: string[]): Command | undefined {
  let current: Command | undefined = root;
  for (const n of names) current = current?.commands.find((c) => c.name() === n);
  return current;
}

/** `synapsis <command> --help` ends with these; each runs as written against an indexed workspace. */
const COMMAND_EXAMPLES: Record<string, string[]> = {
  index: ['synapsis index ~/notes ~/code                        index two folders (re-run: only changes)', 'synapsis index ~/notes --exclude "archive/**"         skip a subfolder', 'synapsis index --json                                 re-index every root, report as JSON'],
  search: ['synapsis search "storage decision" --k 5', 'synapsis search "relay*" --include "howto/**" --explain', 'synapsis search "настроить синхронизацию" --lang ru', 'synapsis search "salary bands" --allow restricted --json'],
  ask: ['synapsis ask "Why did we postpone QUIC?"', 'synapsis ask "Who owns the relay?" --include "people/**" --json'],
  source: ['synapsis source "howto/Error codes.md#L5-L12"', 'synapsis source src/sync_engine.ts:40-60 --json'],
  graph: ['synapsis graph "Maya Chen"', 'synapsis graph "#decision" --hops 2 --json', 'synapsis graph "Lukas Becker" --path "Project Aurora"', 'synapsis graph --limit 5', 'synapsis graph --extract --budget 120'],
  documents: ['synapsis documents', 'synapsis documents --allow restricted --json'],
  mcp: ['synapsis mcp --data-dir ~/.synapsis-work     (register this command in the MCP client; see the README)'],
  doctor: ['synapsis doctor', 'synapsis doctor --no-llm --json'],
  repair: ['synapsis repair', 'synapsis repair ~/notes ~/code --data-dir ~/.synapsis-work'],
  health: ['synapsis health', 'synapsis health --json', 'synapsis health --metrics'],
  traces: ['synapsis traces --limit 20', 'synapsis traces --json'],
  web: ['synapsis web                 serve the UI on http://127.0.0.1:4747 (the printed address carries the token)', 'synapsis web --port 0 --json   any free port; prints {url, port, data_dir, demo}', 'synapsis web --demo --open     the guided demo on the sample vault, in your browser'],
  watch: ['synapsis watch                 keep every root current until Ctrl+C', 'synapsis watch ~/notes         add a folder, then watch'],
  eval: [
    'synapsis eval --dataset ../shared/data/scifact',
    'synapsis eval --dataset ../shared/data/scifact --mode hybrid --embed-model all-MiniLM-L6-v2.Q8_0.gguf --json',
    'synapsis eval --dataset ../shared/data/scifact --mode hybrid --embed-model all-MiniLM-L6-v2.Q8_0.gguf --embed-model multilingual-e5-small.Q4_0.gguf --profile my-fit --work-dir /tmp/sf',
  ],
  quality: ['synapsis quality --dataset ../shared/data/scifact --dataset ../shared/data/cosqa --embed-model all-MiniLM-L6-v2.Q8_0.gguf --embed-model multilingual-e5-small.Q4_0.gguf --work-dir /tmp/quality'],
  tune: ['synapsis tune --dataset ../shared/data/scifact --split train --name my-fit --embed-model all-MiniLM-L6-v2.Q8_0.gguf --embed-model multilingual-e5-small.Q4_0.gguf --work-dir /tmp/sf'],
  demo: ['synapsis demo', 'synapsis demo --all --no-models'],
  manifest: ['synapsis manifest', 'synapsis manifest --json'],
  'roots list': ['synapsis roots list --json'],
  'roots add': ['synapsis roots add ~/notes --exclude "drafts/**"'],
  'roots remove': ['synapsis roots remove ~/old-notes'],
  'models list': ['synapsis models list --json'],
  'models add': ['synapsis models add ~/Downloads/all-MiniLM-L6-v2.Q8_0.gguf', 'synapsis models add ~/models/qwen2.5-1.5b-instruct-q4_k_m.gguf --role chat'],
  'models remove': ['synapsis models remove all-MiniLM-L6-v2.Q8_0.gguf'],
  'bench all': ['synapsis bench all --chunks 20000 --queries 100', 'synapsis bench   # the same as bench all, at 100k chunks', 'synapsis bench --full --out /tmp/bench.md'],
  'bench ingest': ['synapsis bench ingest --files 5000'],
  'bench search': ['synapsis bench search --chunks 100000 --work-dir /tmp/bench'],
  'bench hybrid': ['synapsis bench hybrid --chunks 20000', 'synapsis bench hybrid --work-dir /tmp/bench/search-100000   # a suite run\'s kept notes and index'],
  'bench vectors': ['synapsis bench vectors --sizes 10000,100000 --dims 384'],
  'bench demo': ['synapsis bench demo', 'synapsis bench demo --starts 5 --json'],
  'bench graph': ['synapsis bench graph', 'synapsis bench graph --mode hybrid --embed-model ../shared/models/all-MiniLM-L6-v2.Q8_0.gguf --notes 0'],
};

function indent(text: string): string {
  return text
    .split('\n')
    .map((l) => `   ${l}`)
    .join('\n');
}

/** The answer-quality report as a table a person reads, one row per kind after it. */
export function formatAnswerReport(r: AnswerEvalReport): string {
  const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
  const rows: [string, string][] = [
    ['set', r.set],
    ['models', `embeddings ${r.embed_models.join(', ') || 'none'}; chat ${r.chat_model ?? 'none (answer reader)'}`],
    ['questions', `${r.questions} (${r.answerable} answerable, ${r.unanswerable} unanswerable)`],
    ['fact recall', pct(r.fact_recall)],
    ['fully correct', pct(r.fully_correct)],
    ['fact in the first sentence', pct(r.fact_in_first_sentence)],
    ['source cited', pct(r.source_cited)],
    ['abstained on unanswerable', pct(r.abstained_unanswerable)],
    ['false abstentions on answerable', pct(r.false_abstentions)],
    ['partly answered (of answers)', pct(r.partial)],
    ...(r.restricted_leaked === null ? [] : [['restricted answers leaked', String(r.restricted_leaked)] as [string, string]]),
    ['median answer length', `${r.median_words} words`],
    ['time to answer p50 / p95', `${r.latency_p50_ms} / ${r.latency_p95_ms} ms`],
    ['confidence AUROC (answerable vs not)', r.confidence_auroc === null ? 'n/a' : r.confidence_auroc.toFixed(3)],
  ];
  const kinds = r.by_kind.map((k) => `| ${k.kind} | ${k.questions} | ${pct(k.fully_correct)} | ${pct(k.abstained)} |`).join('\n');
  return `| metric | value |\n|---|---|\n${rows.map(([a, b]) => `| ${a} | ${b} |`).join('\n')}\n\n| kind | questions | fully correct | abstained |\n|---|---:|---:|---:|\n${kinds}`;
}

export interface FixtureQuestion {
  id: string;
  question: string;
  kind: string;
  sources: string[];
  answer_contains: string[];
}

export function readQuestions(file: string): FixtureQuestion[] {
  let raw: string;
  try {
    raw = fs.readFileSync(file, 'utf8');
  } catch (error) {
    throw createError('E_SYN_BAD_REQUEST', `Cannot read questions file ${file}: ${(error as Error).message}`);
  }
  try {
    const parsed: unknown = JSON.parse(raw);
    if (!Array.isArray(parsed)) throw new Error('expected a JSON array');
    return parsed as FixtureQuestion[];
  } catch (error) {
    throw createError('E_SYN_BAD_REQUEST', `Questions file ${file} is not valid: ${(error as Error).message}`);
  }
}

/** Doctor found problems: it has printed them; the exit code says so. */
class DoctorFailed extends Error {}

/** Runs the CLI and returns the exit code instead of exiting, so tests can call it in process. */
export async function runCli(argv: string[], rawIo: Io = { out: (t) => process.stdout.write(t), err: (t) => process.stderr.write(t) }): Promise<number> {
  const json = argv.includes('--json');
  // Names and lines from the user's files reach the terminal shown, never obeyed (escape sequences, bidi overrides).
  const io: Io = { out: (t) => rawIo.out(json ? terminalJson(t) : terminalText(t)), err: (t) => rawIo.err(terminalText(t)) };
  const program = buildProgram(io);
  try {
    await program.parseAsync(argv, { from: 'user' });
    return EXIT_OK;
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version' || error.code === 'commander.help') return EXIT_OK;
      return EXIT_USAGE;
    }
    if (error instanceof DoctorFailed) return EXIT_FAILURE;
    // SQLite reading a damaged page, wherever it surfaced: the coded error naming the repair, no stack.
    const failure = storeDamage(cliDataDir(program.opts<GlobalOptions>().dataDir), error) ?? error;
    const serialized = serializeError(failure);
    if (json) io.out(`${JSON.stringify({ error: serialized }, null, 2)}\n`);
    else io.err(`error [${serialized.code}]: ${terminalLine(serialized.message)}\n`);
    if (!isSynapsisError(failure)) io.err(`${(failure as Error).stack ?? ''}\n`);
    return serialized.code === 'E_SYN_BAD_REQUEST' || serialized.code === 'E_SYN_NOT_FOUND' ? EXIT_USAGE : EXIT_FAILURE;
  }
}
