import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createEngine } from '../../engine/index.ts';
import { createError } from '../../shared/errors.ts';
import { generateMarkdownCorpus } from './corpus.ts';

export interface MultiHopRow {
  id: string;
  question: string;
  /** 1-based rank of each required source in the top k, or null when it is not there. */
  without_graph: (number | null)[];
  with_graph: (number | null)[];
}

export interface MultiHopReport {
  mode: 'bm25' | 'hybrid';
  k: number;
  questions: number;
  both_without_graph: number;
  both_with_graph: number;
  rows: MultiHopRow[];
}

interface Question {
  id: string;
  kind: string;
  question: string;
  sources: string[];
}

/**
 * Multi-hop retrieval on a vault with a question file (the sample vault by default): for each
 * multi-hop question, where its required sources rank in the top k without and with the graph list.
 */
export async function benchMultiHop(
  options: { vault: string; questions: string; mode: 'bm25' | 'hybrid'; k: number; embedModel?: string; modelsDir?: string },
  log: (line: string) => void,
): Promise<MultiHopReport> {
  if (options.mode === 'hybrid' && !options.embedModel) throw createError('E_SYN_BAD_REQUEST', 'Mode hybrid needs --embed-model <file.gguf>');
  const all = JSON.parse(fs.readFileSync(options.questions, 'utf8')) as Question[];
  const questions = all.filter((q) => q.kind === 'multi-hop');
  if (questions.length === 0) throw createError('E_SYN_BAD_REQUEST', `No multi-hop questions in ${options.questions}`);
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'synapsis-bench-graph-'));
  const engine = createEngine({
    dataDir: path.join(work, 'data'),
    env: { SYN_CHAT_MODEL: '', ...(options.mode === 'bm25' ? { SYN_EMBED_MODEL: '' } : {}) },
    ...(options.modelsDir ? { modelsDir: options.modelsDir } : {}),
    config: options.embedModel && options.mode === 'hybrid' ? { embedModel: options.embedModel } : {},
  });
  try {
    const report = await engine.index([options.vault]);
    log(`indexed ${report.indexed} files, ${report.chunks_total} chunks, ${report.embedded} embedded`);
    const rows: MultiHopRow[] = [];
    for (const q of questions) {
      const ranks = async (useGraph: boolean) => {
        const r = await engine.retrieve(q.question, { mode: options.mode, use_graph: useGraph }, options.k);
        const paths = r.chunks.map((c) => c.path);
        return q.sources.map((s) => (paths.includes(s) ? paths.indexOf(s) + 1 : null));
      };
      rows.push({ id: q.id, question: q.question, without_graph: await ranks(false), with_graph: await ranks(true) });
    }
    const both = (key: 'without_graph' | 'with_graph') => rows.filter((r) => r[key].every((x) => x !== null)).length;
    return { mode: options.mode, k: options.k, questions: rows.length, both_without_graph: both('without_graph'), both_with_graph: both('with_graph'), rows };
  } finally {
    await engine.dispose();
    fs.rmSync(work, { recursive: true, force: true });
  }
}

export interface ExtractionOverheadReport {
  notes: number;
  chunks: number;
  lexical_only_s: number;
  with_graph_s: number;
  overhead_pct: number;
  entities: number;
  relations: number;
  mentions: number;
  graph_nodes: number;
  graph_edges: number;
  graph_load_ms: number;
}

/**
 * What graph extraction adds to lexical indexing: the same generated notes (people, links, tags,
 * names) indexed into fresh data dirs with extraction off and on, alternated, best of `rounds`.
 */
export async function benchExtractionOverhead(notes: number, rounds: number, log: (line: string) => void): Promise<ExtractionOverheadReport> {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'synapsis-bench-graph-'));
  try {
    const corpus = path.join(work, 'corpus');
    log(`generating ${notes} notes…`);
    generateMarkdownCorpus(corpus, notes, 42, 6, true);
    const best = { off: Infinity, on: Infinity };
    let chunks = 0;
    let stats = { entities: 0, relations: 0, mentions: 0, graph_nodes: 0, graph_edges: 0, graph_load_ms: 0 };
    for (let round = 0; round < rounds; round++) {
      for (const extract of [false, true]) {
        const dataDir = path.join(work, `data-${round}-${extract}`);
        const engine = createEngine({ dataDir, env: { SYN_EMBED_MODEL: '', SYN_CHAT_MODEL: '', SYN_GRAPH_EXTRACT: String(extract) } });
        try {
          const t = performance.now();
          const report = await engine.index([corpus]);
          const s = (performance.now() - t) / 1000;
          chunks = report.chunks_total;
          best[extract ? 'on' : 'off'] = Math.min(best[extract ? 'on' : 'off'], s);
          log(`round ${round + 1}: graph extraction ${extract ? 'on ' : 'off'}: ${s.toFixed(2)} s (${report.indexed} notes, ${report.chunks_total} chunks)`);
          if (extract && round === 0) {
            // The first graph question after an index run loads the graph from the stored facts.
            const tl = performance.now();
            engine.graphNeighbors('Note 0');
            const loadMs = Math.round(performance.now() - tl);
            const o = engine.graphOverview({ limit: 1 });
            stats = { ...engine.graphStats(), graph_nodes: o.notes + o.entities + o.tags, graph_edges: o.edges, graph_load_ms: loadMs };
          }
        } finally {
          await engine.dispose();
          fs.rmSync(dataDir, { recursive: true, force: true });
        }
      }
    }
    return {
      notes,
      chunks,
      lexical_only_s: Math.round(best.off * 100) / 100,
      with_graph_s: Math.round(best.on * 100) / 100,
      overhead_pct: Math.round(((best.on - best.off) / best.off) * 1000) / 10,
      ...stats,
    };
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}
