import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Command } from 'commander';
import { createError } from '../../shared/errors.ts';
import { benchCliStart, cliStartRow } from '../bench/cli-start.ts';
import { benchDemo } from '../bench/demo.ts';
import { benchEmbed, embedRow } from '../bench/embed.ts';
import { benchExtractionOverhead, benchMultiHop } from '../bench/graph.ts';
import { benchIngest } from '../bench/ingest.ts';
import { benchReal, formatReal, REAL_ROUNDS, REAL_ROUNDS_MAX, readQueryFile } from '../bench/real.ts';
import { benchSearch, coldStart, generateZipfCorpus, sampleQueries } from '../bench/search.ts';
import { benchHybrid, formatSuite, runSuite } from '../bench/suite.ts';
import { benchUpgrade } from '../bench/upgrade.ts';
import { benchVectors } from '../bench/vectors.ts';
import { collect, examplesText, nonNegativeInt, positiveInt, type RegisteredCommand } from '../command.ts';
import { metricTable } from '../format.ts';
import { DEMO_MODELS_DIR, DEMO_TOUR, REPO_ROOT, SAMPLE_QUESTIONS, SAMPLE_VAULT } from '../resources.ts';

/** `synapsis <bench subcommand> --help` ends with these. */
const EXAMPLES: Record<string, string[]> = {
  all: ['synapsis bench all --chunks 20000 --queries 100', 'synapsis bench   # the same as bench all, at 100k chunks', 'synapsis bench --full --out /tmp/bench.md'],
  ingest: ['synapsis bench ingest --files 5000'],
  embed: ['synapsis bench embed', 'synapsis bench embed --embed-model ../shared/models/all-MiniLM-L6-v2.Q8_0.gguf --notes 300'],
  search: ['synapsis bench search --chunks 100000 --work-dir /tmp/bench'],
  'cold-start': ['synapsis bench cold-start --data-dir /tmp/bench/data --chunks 100000   # an index bench search --work-dir /tmp/bench built', 'synapsis bench cold-start --data-dir /tmp/bench/data --chunks 100000 --mmap-mb 0'],
  hybrid: ['synapsis bench hybrid --chunks 20000', 'synapsis bench hybrid --work-dir /tmp/bench/search-100000   # a suite run\'s kept notes and index'],
  vectors: ['synapsis bench vectors --sizes 10000,100000 --dims 384'],
  cli: ['synapsis bench cli', 'synapsis bench cli --runs 15 --json'],
  demo: ['synapsis bench demo', 'synapsis bench demo --starts 5 --json'],
  upgrade: ['synapsis bench upgrade --data-dir /tmp/bench/data   # an index bench search --work-dir /tmp/bench built', 'synapsis bench upgrade --data-dir /tmp/bench/data --in-line'],
  real: ['synapsis bench real --corpus ~/notes --queries questions.txt', 'synapsis bench real --corpus obsidian-help --queries test/fixtures/obsidian-help.questions.json --work-dir /tmp/bench-real'],
  graph: ['synapsis bench graph', 'synapsis bench graph --mode hybrid --embed-model ../shared/models/all-MiniLM-L6-v2.Q8_0.gguf --notes 0'],
};

/** Benchmarks build their own workspaces and measure engine internals (bench/ may import them). */
export const bench: RegisteredCommand = {
  name: 'bench',
  examples: [],
  register: (parent, { io, globals, print }) => {
    const bench = parent.command('bench').description('benchmarks that print reproducible numbers (alone: the whole suite, every speed target in one table)');
    bench
      .command('all', { isDefault: true })
      .description('every speed target (indexing, latency, recall, memory, cold start, incremental, time to semantic) and the comparisons with MiniSearch, Orama, LanceDB and sqlite-vec, in one table')
      .option('--chunks <n>', 'chunks of the generated corpus', positiveInt, 100_000)
      .option('--queries <n>', 'queries per latency measurement', positiveInt, 300)
      .option('--full', 'also measure at 1M chunks (about 25 more minutes on 2 cores)')
      .option('--scifact <dir>', 'BEIR folder for the indexing-time row and the BM25 comparison', path.join(REPO_ROOT, '..', 'shared', 'data', 'scifact'))
      .option('--work-dir <dir>', 'keep the generated corpora and indexes here')
      .option('--out <file>', 'also write the tables (markdown) to this file')
      .option('--embed-model <file>', 'embedding model for the time-to-semantic row', path.join(DEMO_MODELS_DIR, 'multilingual-e5-small.Q4_0.gguf'))
      .action(async (cmdOpts: { chunks: number; queries: number; full?: boolean; scifact: string; workDir?: string; out?: string; embedModel: string }, cmd: Command) => {
        const opts = globals(cmd);
        if (!fs.existsSync(path.join(cmdOpts.scifact, 'corpus.jsonl'))) throw createError('E_SYN_BAD_REQUEST', `--scifact: no corpus.jsonl in ${cmdOpts.scifact}`);
        const report = await runSuite({
          chunks: cmdOpts.chunks,
          queries: cmdOpts.queries,
          full: cmdOpts.full === true,
          scifact: path.resolve(cmdOpts.scifact),
          ...(cmdOpts.workDir ? { workDir: cmdOpts.workDir } : {}),
          embedModel: path.resolve(cmdOpts.embedModel),
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
        print(opts, result, metricTable(result));
      });

    bench
      .command('cold-start')
      .description('a fresh process on an existing index (--data-dir): open + first query, then the other queries (p50/p95), resident memory and its anonymous part after them; with the graph and without')
      .option('--chunks <n>', 'the --chunks of the bench search run that built the index: its queries are drawn from the same generated notes', positiveInt, 100_000)
      .option('--queries <n>', 'queries answered by each process, the first one included', positiveInt, 300)
      .option('--mmap-mb <n>', "the store's memory map in MB (SYN_MMAP_MB; default the engine's)", nonNegativeInt)
      .action(async (cmdOpts: { chunks: number; queries: number; mmapMb?: number }, cmd: Command) => {
        const opts = globals(cmd);
        if (!opts.dataDir) throw createError('E_SYN_BAD_REQUEST', 'bench cold-start needs --data-dir: the data dir of an index (bench search --work-dir D leaves one in D/data)');
        const dataDir = path.resolve(opts.dataDir);
        if (!fs.existsSync(path.join(dataDir, 'synapsis.db'))) throw createError('E_SYN_NOT_FOUND', `${dataDir} holds no index (synapsis.db)`, { data_dir: dataDir });
        const { sections } = generateZipfCorpus('', cmdOpts.chunks, 7, false);
        const queries = sampleQueries(sections, cmdOpts.queries);
        const rows: Record<string, number | string | null>[] = [];
        for (const graph of [true, false]) {
          io.err(`fresh process, ${graph ? 'with' : 'without'} the graph…\n`);
          const r = coldStart(dataDir, queries, graph, cmdOpts.mmapMb);
          rows.push({ graph: graph ? 'yes' : 'no', open_ms: r.open_ms, open_and_first_query_ms: r.open_and_first_query_ms, queries: r.queries, p50_ms: r.p50_ms, p95_ms: r.p95_ms, graph_p50_ms: r.graph_p50_ms, graph_p95_ms: r.graph_p95_ms, rss_mb: r.rss_mb, rss_anon_mb: r.rss_anon_mb, process_ms: r.process_ms });
        }
        const result = { data_dir: dataDir, mmap_mb: cmdOpts.mmapMb ?? null, with_graph: rows[0]!, without_graph: rows[1]! };
        print(opts, result, [
          `${dataDir}, ${cmdOpts.queries} queries per process, memory map ${cmdOpts.mmapMb === undefined ? 'default' : `${cmdOpts.mmapMb} MB`}`,
          '| graph | open + first query ms | p50 ms | p95 ms | of it the graph list p50 / p95 ms | RSS MB | of it anonymous MB |',
          '|---|---|---|---|---|---|---|',
          ...rows.map((r) => `| ${r.graph} | ${r.open_and_first_query_ms} | ${r.p50_ms} | ${r.p95_ms} | ${r.graph_p50_ms ?? '–'} / ${r.graph_p95_ms ?? '–'} | ${r.rss_mb} | ${r.rss_anon_mb} |`),
        ].join('\n'));
      });
  
    bench
      .command('real')
      .description('a real folder indexed lexically in a process of its own (time, chunks/s, peak memory), then a query file answered by fresh processes with the graph and without it, in rounds: first query, p50, p95, slowest, resident memory')
      .requiredOption('--corpus <dir>', 'the folder of notes to index')
      .requiredOption('--queries <file>', 'queries: one a line, or a JSON array of strings or of objects with a "question" (an eval question set); repeat to run several files in turn', collect, [])
      .option('--work-dir <dir>', 'keep the index here (indexed afresh each run); default a temporary folder, removed after')
      .option('--reuse-index', "with --work-dir: bring the kept index up to date instead of indexing afresh (the index row is then that run's)")
      .option('--while-indexing', 'the indexing process also answers the queries in turn while it indexes, as the app does for a user searching during a first index (its time then includes them)')
      .option('--rounds <n>', `fresh query processes with the graph and without it, in turn (their queries pooled; at most ${REAL_ROUNDS_MAX})`, positiveInt, REAL_ROUNDS)
      .action((cmdOpts: { corpus: string; queries: string[]; workDir?: string; reuseIndex?: boolean; whileIndexing?: boolean; rounds: number }, cmd: Command) => {
        const opts = globals(cmd);
        const queries = cmdOpts.queries.flatMap((file) => readQueryFile(path.resolve(file)));
        if (cmdOpts.reuseIndex && !cmdOpts.workDir) throw createError('E_SYN_BAD_REQUEST', 'bench real --reuse-index needs --work-dir: the folder that keeps the index');
        const r = benchReal({ corpus: cmdOpts.corpus, queries, ...(cmdOpts.workDir ? { workDir: cmdOpts.workDir } : {}), reuse: cmdOpts.reuseIndex === true, whileIndexing: cmdOpts.whileIndexing === true, rounds: cmdOpts.rounds, log: (line) => io.err(`${line}\n`) });
        print(opts, r, formatReal(r));
      });

    bench
      .command('upgrade')
      .description("a store of an older analyzer opened by this version (--data-dir: a copy of it is used): its word index rebuilt on a worker thread as the app's host does it, with the longest stall of the host's event loop; --in-line also times the CLI's in-line rebuild")
      .option('--in-line', 'also rebuild in line on this thread (the CLI opening such a store)', false)
      .action(async (cmdOpts: { inLine: boolean }, cmd: Command) => {
        const opts = globals(cmd);
        if (!opts.dataDir) throw createError('E_SYN_BAD_REQUEST', 'bench upgrade needs --data-dir: the data dir of an index (bench search --work-dir D leaves one in D/data); it is copied, not changed');
        const dataDir = path.resolve(opts.dataDir);
        if (!fs.existsSync(path.join(dataDir, 'synapsis.db'))) throw createError('E_SYN_NOT_FOUND', `${dataDir} holds no index (synapsis.db)`, { data_dir: dataDir });
        const r = await benchUpgrade({ dataDir, inLine: cmdOpts.inLine, log: (line) => io.err(line) });
        const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
        print(opts, r, [
          `${r.data_dir}: ${r.notes.toLocaleString('en-US')} notes, ${r.chunks.toLocaleString('en-US')} chunks`,
          '| rebuild of the word index | time | notes/s | progress reports | longest event-loop stall |',
          '|---|---|---|---|---|',
          `| on a worker thread (the app's host; ${r.off_thread.result}) | ${s(r.off_thread.ms)} | ${Math.round(r.notes / Math.max(0.001, r.off_thread.ms / 1000))} | ${r.off_thread.progress_reports} | ${r.off_thread.longest_stall_ms} ms |`,
          ...(r.in_line ? [`| in line (the CLI) | ${s(r.in_line.ms)} | ${Math.round(r.notes / Math.max(0.001, r.in_line.ms / 1000))} | – | ${s(r.in_line.ms)} |`] : []),
        ].join('\n'));
      });

    bench
      .command('embed')
      .description('time to semantic: a generated vault indexed with a real embedding model until every chunk has its vector, with a profile of the embedding stage (our share, node-llama-cpp alone, GFLOP/s)')
      .option('--notes <n>', 'generated notes (about 2 chunks each)', positiveInt, 1000)
      .option('--embed-model <file>', 'GGUF embedding model (default: multilingual-e5-small, the default embedder)', path.join(DEMO_MODELS_DIR, 'multilingual-e5-small.Q4_0.gguf'))
      .option('--threads <n>', 'threads for the model (default: the machine\'s cores)', positiveInt)
      .option('--gpu <mode>', 'auto (a GPU when node-llama-cpp finds one) or off', 'auto')
      .action(async (cmdOpts: { notes: number; embedModel: string; threads?: number; gpu: string }, cmd: Command) => {
        const opts = globals(cmd);
        if (cmdOpts.gpu !== 'auto' && cmdOpts.gpu !== 'off') throw createError('E_SYN_BAD_REQUEST', `--gpu must be auto or off (got "${cmdOpts.gpu}")`);
        if (!fs.existsSync(cmdOpts.embedModel)) throw createError('E_SYN_BAD_REQUEST', `--embed-model: no such file ${cmdOpts.embedModel}`);
        const r = await benchEmbed({ model: cmdOpts.embedModel, notes: cmdOpts.notes, gpu: cmdOpts.gpu, ...(cmdOpts.threads ? { threads: cmdOpts.threads } : {}), log: (line) => io.err(`${line}\n`) });
        const row = embedRow(r);
        const human = [
          `${row.target}: ${row.measured} (goal ${row.goal}: ${row.met ? 'met' : 'NOT met'})`,
          `embedding stage ${r.embed_s} s, ${r.chunks_per_s} chunks/s, ${Math.round(r.model_share * 100)}% of it inside the model's calls; ${r.contexts} context(s) x ${r.threads_per_context} thread(s), GPU ${r.gpu || 'none'}`,
          `node-llama-cpp alone on ${r.runtime_sample} of the same inputs: ${r.runtime_chunks_per_s} chunks/s; matrix work at the measured rate: ${r.gflops} GFLOP/s`,
        ];
        print(opts, r, human.join('\n'));
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
        print(opts, result, metricTable(result));
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
      .command('cli')
      .description('the CLI as a whole process: --help and a search of the sample vault, built (out/cli) and through tsx, against node -e 0')
      .option('--runs <n>', 'rounds (the median is reported)', positiveInt, 7)
      .action(async (cmdOpts: { runs: number }, cmd: Command) => {
        const opts = globals(cmd);
        const r = await benchCliStart({ vault: SAMPLE_VAULT, runs: cmdOpts.runs, log: (line) => io.err(`${line}\n`) });
        const row = cliStartRow(r);
        print(opts, r, `${row.target}\n${row.measured}\ngoal: ${row.goal} (${row.met ? 'met' : 'NOT met'})`);
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
            ...(r.models.length ? [`| first start: tour ready (words indexed, passages embedded) | ${r.first_ready_s} |`] : []),
            `| first start: sample vault indexed${r.models.length ? ', passages and sentences embedded' : ''} | ${r.first_start_s} |`,
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
    for (const sub of bench.commands) sub.addHelpText('after', examplesText(EXAMPLES[sub.name()] ?? []));
    return bench;
  },
};
