/**
 * Answer quality (`synapsis eval --answers`): does the answer a person reads state the asked fact,
 * and does it say "not in your notes" when the notes lack it?
 *
 * Two kinds of question set:
 *   - a vault and a question file in the sample fixture's format (`question`, `kind`, `sources`,
 *     `answer_contains`; an empty `answer_contains` marks a question the vault cannot answer, kind
 *     "restricted" one whose answer sits in restricted notes and must not leak);
 *   - a BEIR-layout set with `answers.jsonl` (`{_id, corpus_id, answers[]}`): each question is asked
 *     twice, once over the whole corpus and once with its gold passage left out of the search
 *     (exclude glob), where the right answer is an abstention. The left-out passage still counts in
 *     the vault's word statistics, so a word only it holds is not "unknown": a harder test of
 *     abstention than removing the file.
 * A fact is found when the answer holds the expected string (case and spacing folded): every
 * string of `answer_contains`, or any one of a BEIR question's alternative answers.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createEngine, type ConfigInput, type Engine } from '../../engine/index.ts';
import type { AnswerEnvelope } from '../../shared/contract.ts';
import { createError } from '../../shared/errors.ts';
import { loadBeir } from './beir.ts';
import { mean, percentile } from './metrics.ts';
import { withCorpusWorkspace } from './run.ts';
import { hasUnspacedScript, unspacedWords } from '../../engine/search/analyzer.ts';

export interface AnswerEvalOptions {
  /** BEIR-layout folder with answers.jsonl. */
  dataset?: string;
  split?: string;
  /** A vault folder and its question file (the sample fixture's format). */
  vault?: string;
  questions?: string;
  embedModels?: string[];
  chatModel?: string;
  /** Ask only the first N questions (of each variant). */
  limit?: number;
  /** BEIR sets: leave out the gold-passage-removed variant. */
  unanswerable?: boolean;
  workDir?: string;
  modelsDir?: string;
  log?: (line: string) => void;
  /** Each question's row in the report (for --json). */
  details?: boolean;
  /** The original wording of the --questions file's reworded questions (`reworded_from`): asked too, and compared. */
  originals?: string;
  /** The reader's scorer: a reader profile file, or "none" (the reader uncalibrated, what training reads). Default: the shipped one. */
  readerProfile?: string;
  /** Weights that rank the reader's candidate sentences (answer/reader.ts SELECTION_FEATURES), in place of the profile's. */
  readerSelection?: number[];
  /** Each row carries its candidate sentences' selection features and whether each holds the fact. */
  collectCandidates?: boolean;
}

export interface AnswerItem {
  id: string;
  question: string;
  kind: string;
  /** Expected strings: all of them (fixture) or any one (BEIR alternatives); empty: the notes cannot answer. */
  facts: string[];
  anyFact: boolean;
  /** Paths of the passages that hold the answer. */
  sources: string[];
  /** Paths left out of the search (the unanswerable variant). */
  exclude: string[];
  /** The id of the question this one rewords. */
  rewordedFrom?: string;
}

export interface AnswerRow {
  id: string;
  kind: string;
  question: string;
  answerable: boolean;
  outcome: AnswerEnvelope['outcome'];
  answer: string;
  fact_recall: number;
  correct: boolean;
  fact_first_sentence: boolean;
  source_cited: boolean;
  words: number;
  confidence: number;
  ms: number;
  /** The reader's own outcome before calibration, and the fitted probability that its quote states the fact. */
  reader_outcome: AnswerEnvelope['outcome'] | null;
  probability: number | null;
  /** The answerable model's probability that the notes answer at all (what decides Not in your notes), when the profile has one. */
  answerable_probability?: number;
  /** The reader had a quote, and whether it held the fact (the scorer's training label). */
  quoted: boolean;
  quote_correct: boolean;
  /** Not found: whether the sentences the reader withheld held the fact. */
  withheld_correct?: boolean;
  features?: Record<string, number>;
  /** The candidate sentences, each with its selection features and whether it holds the fact (with collectCandidates). */
  candidates?: { text: string; features: number[]; holds: boolean }[];
  reworded_from?: string;
}

export interface ReliabilityBucket {
  from: number;
  to: number;
  answers: number;
  predicted: number;
  observed: number;
}

/** Predicted against observed, in buckets of the probability: a calibrated scorer's rows lie on the diagonal. */
export function reliabilityTable(points: readonly { p: number; correct: boolean }[], edges: readonly number[] = [0, 0.2, 0.4, 0.6, 0.8, 0.9, 1.0001]): ReliabilityBucket[] {
  const out: ReliabilityBucket[] = [];
  for (let b = 0; b + 1 < edges.length; b++) {
    const inside = points.filter((x) => x.p >= edges[b]! && x.p < edges[b + 1]!);
    if (inside.length === 0) continue;
    out.push({
      from: edges[b]!,
      to: Math.min(1, edges[b + 1]!),
      answers: inside.length,
      predicted: round(mean(inside.map((x) => x.p)), 3),
      observed: round(inside.filter((x) => x.correct).length / inside.length, 3),
    });
  }
  return out;
}

export interface KindRow {
  kind: string;
  questions: number;
  fully_correct: number;
  abstained: number;
}

export interface AnswerEvalReport {
  set: string;
  embed_models: string[];
  chat_model: string | null;
  questions: number;
  answerable: number;
  unanswerable: number;
  /** Answerable questions: mean share of the expected facts in the answer. */
  fact_recall: number;
  /** Answerable questions whose answer holds every expected fact (BEIR: one of the alternatives). */
  fully_correct: number;
  /** Answerable questions whose first sentence holds the fact. */
  fact_in_first_sentence: number;
  /** Answerable questions that cite a file holding the answer. */
  source_cited: number;
  /** Unanswerable questions answered "not in your notes". */
  abstained_unanswerable: number;
  /** Answerable questions answered "not in your notes". */
  false_abstentions: number;
  /** Answerable questions answered "not in your notes" although the sentences the reader withheld held the fact. */
  withheld_fact: number;
  /**
   * With collectCandidates: answerable questions one of whose candidate sentences (what the reader
   * chooses its quote from) holds the fact, and those whose quote (before calibration) holds it.
   */
  fact_in_candidates?: number;
  quote_holds_fact?: number;
  /** Answered questions marked partial. */
  partial: number;
  /** Restricted questions whose answer leaked without --allow (fixture only). */
  restricted_leaked: number | null;
  median_words: number;
  latency_p50_ms: number;
  latency_p95_ms: number;
  /** How well confidence ranks answerable above unanswerable questions (0.5: not at all). */
  confidence_auroc: number | null;
  /** Answers badged Answered, and the share of them that state the asked fact (unanswerable ones count as wrong). */
  answered: number;
  answered_precision: number | null;
  /** Predicted vs observed: per bucket of the shown confidence, how often the answer states the fact (answerable and unanswerable, not abstained). */
  reliability: ReliabilityBucket[];
  /** Reworded questions (with --originals): the share whose outcome and fact (stated or not) match the original wording's. */
  reworded_agreement?: number;
  originals?: AnswerEvalReport;
  by_kind: KindRow[];
  rows?: AnswerRow[];
}

const fold = (s: string) => s.normalize('NFKC').toLowerCase().replace(/[’‘]/g, "'").replace(/[“”«»]/g, '"').replace(/\s+/g, ' ').trim();
const round = (v: number, digits = 4) => (Number.isFinite(v) ? Math.round(v * 10 ** digits) / 10 ** digits : 0);

/** Area under the ROC curve: the chance that a random positive scores above a random negative (ties count half). */
export function auroc(positives: readonly number[], negatives: readonly number[]): number | null {
  if (positives.length === 0 || negatives.length === 0) return null;
  let wins = 0;
  for (const p of positives) for (const n of negatives) wins += p > n ? 1 : p === n ? 0.5 : 0;
  return wins / (positives.length * negatives.length);
}

/** Scores one answer against its item. */
export function scoreAnswer(item: AnswerItem, envelope: AnswerEnvelope): AnswerRow {
  const abstained = envelope.outcome === 'not_found' || envelope.answer_mode === 'abstained';
  const text = abstained ? '' : fold(envelope.answer);
  const found = item.facts.map((f) => text.includes(fold(f)));
  const recall = item.facts.length === 0 ? 0 : item.anyFact ? (found.some(Boolean) ? 1 : 0) : found.filter(Boolean).length / found.length;
  const first = abstained ? '' : fold(envelope.answer.split(/\s\[\d+\](?:\s|$)/)[0] ?? '');
  const firstHolds = item.facts.length > 0 && (item.anyFact ? item.facts.some((f) => first.includes(fold(f))) : item.facts.every((f) => first.includes(fold(f))));
  // Chinese and Japanese put no spaces between words: a run of them counts the words the word breaker finds.
  const words = abstained ? 0 : envelope.answer.replace(/\[\d+\]/g, '').split(/\s+/).filter(Boolean).reduce((n, w) => n + (hasUnspacedScript(w) ? Math.max(1, unspacedWords(w).length) : 1), 0);
  return {
    id: item.id,
    kind: item.kind,
    question: item.question,
    answerable: item.facts.length > 0,
    outcome: abstained ? 'not_found' : envelope.outcome,
    answer: envelope.answer,
    fact_recall: recall,
    correct: item.facts.length > 0 && recall === 1,
    fact_first_sentence: firstHolds,
    source_cited: envelope.citations.some((c) => item.sources.some((s) => c.path === s || c.path.endsWith(`/${s}`))),
    words,
    confidence: envelope.confidence,
    ms: envelope.timings.total_ms ?? 0,
    reader_outcome: envelope.reader?.outcome ?? null,
    probability: envelope.reader?.probability ?? null,
    ...(envelope.reader?.answerable !== undefined ? { answerable_probability: envelope.reader.answerable } : {}),
    quoted: Boolean(envelope.reader?.quote),
    quote_correct: quoteHolds(item, envelope.reader?.quote ?? ''),
    ...(envelope.reader?.withheld ? { withheld_correct: quoteHolds(item, envelope.reader.withheld) } : {}),
    ...(envelope.reader ? { features: envelope.reader.features } : {}),
    ...(envelope.reader?.candidates ? { candidates: envelope.reader.candidates.map((c) => ({ text: c.text, features: c.features, holds: quoteHolds(item, c.text) })) } : {}),
    ...(item.rewordedFrom ? { reworded_from: item.rewordedFrom } : {}),
  };
}

/** Whether the reader's quote holds the item's fact (all of them, or one of the alternatives). */
function quoteHolds(item: AnswerItem, quote: string): boolean {
  if (item.facts.length === 0 || !quote) return false;
  const text = fold(quote);
  return item.anyFact ? item.facts.some((f) => text.includes(fold(f))) : item.facts.every((f) => text.includes(fold(f)));
}

/** The share of reworded questions answered like their original: the same outcome, and the fact stated (or not) alike. */
export function rewordedAgreement(reworded: readonly AnswerRow[], originals: readonly AnswerRow[]): number {
  const byId = new Map(originals.map((r) => [r.id, r] as const));
  const pairs = reworded.flatMap((r) => {
    const o = r.reworded_from ? byId.get(r.reworded_from) : undefined;
    return o ? [[r, o] as const] : [];
  });
  if (pairs.length === 0) return 0;
  return round(pairs.filter(([r, o]) => r.outcome === o.outcome && r.correct === o.correct).length / pairs.length);
}

export function summarize(set: string, rows: readonly AnswerRow[], meta: { embed_models: string[]; chat_model: string | null }, details: boolean): AnswerEvalReport {
  const answerable = rows.filter((r) => r.answerable);
  const restricted = answerable.filter((r) => r.kind === 'restricted');
  // A restricted question is answered right by not answering: it leaks when any fact shows.
  const open = answerable.filter((r) => r.kind !== 'restricted');
  const unanswerable = rows.filter((r) => !r.answerable);
  const share = (xs: readonly AnswerRow[], f: (r: AnswerRow) => boolean) => (xs.length === 0 ? 0 : round(xs.filter(f).length / xs.length));
  const kinds = [...new Set(rows.map((r) => r.kind))];
  const answered = rows.filter((r) => r.outcome !== 'not_found');
  return {
    set,
    ...meta,
    questions: rows.length,
    answerable: open.length,
    unanswerable: unanswerable.length,
    fact_recall: round(mean(open.map((r) => r.fact_recall))),
    fully_correct: share(open, (r) => r.correct),
    fact_in_first_sentence: share(open, (r) => r.fact_first_sentence),
    source_cited: share(open, (r) => r.source_cited),
    abstained_unanswerable: share(unanswerable, (r) => r.outcome === 'not_found'),
    false_abstentions: share(open, (r) => r.outcome === 'not_found'),
    withheld_fact: share(open, (r) => r.outcome === 'not_found' && r.withheld_correct === true),
    ...(open.some((r) => r.candidates !== undefined) ? { fact_in_candidates: share(open, (r) => r.candidates?.some((c) => c.holds) === true), quote_holds_fact: share(open, (r) => r.quote_correct) } : {}),
    partial: share(answered, (r) => r.outcome === 'partial'),
    restricted_leaked: restricted.length === 0 ? null : restricted.filter((r) => r.fact_recall > 0).length,
    median_words: percentile(answered.map((r) => r.words), 50) || 0,
    latency_p50_ms: round(percentile(rows.map((r) => r.ms), 50), 1),
    latency_p95_ms: round(percentile(rows.map((r) => r.ms), 95), 1),
    confidence_auroc: (() => {
      const a = auroc(open.map((r) => r.confidence), unanswerable.map((r) => r.confidence));
      return a === null ? null : round(a, 3);
    })(),
    answered: rows.filter((r) => r.outcome === 'answered' && r.kind !== 'restricted').length,
    answered_precision: (() => {
      const badged = rows.filter((r) => r.outcome === 'answered' && r.kind !== 'restricted');
      return badged.length === 0 ? null : round(badged.filter((r) => r.correct).length / badged.length);
    })(),
    reliability: reliabilityTable(rows.filter((r) => r.outcome !== 'not_found' && r.kind !== 'restricted').map((r) => ({ p: r.confidence, correct: r.correct }))),
    by_kind: kinds.map((kind) => {
      const of = rows.filter((r) => r.kind === kind);
      return { kind, questions: of.length, fully_correct: share(of, (r) => r.correct), abstained: share(of, (r) => r.outcome === 'not_found') };
    }),
    ...(details ? { rows: [...rows] } : {}),
  };
}

interface FixtureEntry {
  id?: unknown;
  question?: unknown;
  kind?: unknown;
  sources?: unknown;
  answer_contains?: unknown;
  /** Alternatives: the answer holds any one of them (instead of answer_contains). */
  answer_any?: unknown;
  /** Globs left out of the search: the question's note removed, so the right answer is an abstention. */
  exclude?: unknown;
  reworded_from?: unknown;
}

/** The fixture's questions, checked: a malformed entry is named, not skipped. */
export function readFixture(file: string): AnswerItem[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (error) {
    throw createError('E_SYN_BAD_REQUEST', `Cannot read the questions file ${file}: ${(error as Error).message}`);
  }
  if (!Array.isArray(parsed)) throw createError('E_SYN_BAD_REQUEST', `Questions file ${file}: expected a JSON array of questions`);
  return parsed.map((raw: FixtureEntry, i) => {
    const strings = (v: unknown) => Array.isArray(v) && v.every((x) => typeof x === 'string');
    if (typeof raw?.question !== 'string' || !raw.question.trim() || !strings(raw.answer_contains ?? []) || !strings(raw.answer_any ?? []) || !strings(raw.exclude ?? [])) {
      throw createError('E_SYN_BAD_REQUEST', `Questions file ${file}, entry ${i + 1}: needs "question" (text) and "answer_contains" (a list of strings); "answer_any" and "exclude", when given, are lists of strings too`);
    }
    const any = (raw.answer_any as string[] | undefined) ?? [];
    const facts = any.length > 0 ? any : ((raw.answer_contains as string[] | undefined) ?? []);
    return {
      id: typeof raw.id === 'string' ? raw.id : `q${i + 1}`,
      question: raw.question,
      kind: typeof raw.kind === 'string' ? raw.kind : facts.length === 0 ? 'unanswerable' : 'single',
      facts,
      anyFact: any.length > 0,
      sources: strings(raw.sources) ? (raw.sources as string[]) : [],
      exclude: (raw.exclude as string[] | undefined) ?? [],
      ...(typeof raw.reworded_from === 'string' ? { rewordedFrom: raw.reworded_from } : {}),
    };
  });
}

/** A BEIR set's answers.jsonl: question id → the gold passage and the alternative answers. */
function readAnswers(dir: string): Map<string, { corpus_id: string; answers: string[] }> {
  const file = path.join(dir, 'answers.jsonl');
  if (!fs.existsSync(file)) throw createError('E_SYN_BAD_REQUEST', `${dir} has no answers.jsonl ({"_id", "corpus_id", "answers": [...]} per line): answer quality needs the gold answers`);
  const out = new Map<string, { corpus_id: string; answers: string[] }>();
  fs.readFileSync(file, 'utf8').split('\n').forEach((line, i) => {
    if (!line.trim()) return;
    let v: { _id?: unknown; corpus_id?: unknown; answers?: unknown };
    try {
      v = JSON.parse(line);
    } catch (error) {
      throw createError('E_SYN_BAD_REQUEST', `${file} line ${i + 1} is not valid JSON: ${(error as Error).message}`);
    }
    if (typeof v._id !== 'string' || typeof v.corpus_id !== 'string' || !Array.isArray(v.answers)) {
      throw createError('E_SYN_BAD_REQUEST', `${file} line ${i + 1}: expected {"_id": string, "corpus_id": string, "answers": [strings]}`);
    }
    out.set(v._id, { corpus_id: v.corpus_id, answers: v.answers.filter((a): a is string => typeof a === 'string' && a.trim() !== '') });
  });
  return out;
}

async function askAll(engine: Engine, items: readonly AnswerItem[], log: (line: string) => void): Promise<AnswerRow[]> {
  const rows: AnswerRow[] = [];
  let lastLog = performance.now();
  for (const item of items) {
    const envelope = await engine.answer(item.question, { ...(item.exclude.length > 0 ? { context: { exclude_globs: item.exclude } } : {}) });
    rows.push(scoreAnswer(item, envelope));
    if (performance.now() - lastLog > 10_000) {
      log(`answered ${rows.length} of ${items.length}`);
      lastLog = performance.now();
    }
  }
  return rows;
}

export async function runAnswerEval(options: AnswerEvalOptions): Promise<AnswerEvalReport> {
  const log = options.log ?? (() => {});
  const embedModels = options.embedModels ?? [];
  const config = (): Partial<ConfigInput> => ({
    ...(embedModels.length > 0 ? { embedModels } : {}),
    ...(options.chatModel ? { chatModel: options.chatModel } : {}),
    ...(options.readerProfile ? { readerProfile: options.readerProfile } : {}),
    ...(options.readerSelection ? { readerSelection: options.readerSelection } : {}),
    ...(options.collectCandidates ? { readerCandidates: true } : {}),
  });
  const meta = { embed_models: embedModels.map((m) => path.basename(m, '.gguf')), chat_model: options.chatModel ? path.basename(options.chatModel, '.gguf') : null };
  const limit = <T>(xs: T[]) => (options.limit ? xs.slice(0, options.limit) : xs);

  if (options.vault || options.questions) {
    if (!options.vault || !options.questions) throw createError('E_SYN_BAD_REQUEST', 'Answer evaluation over a vault needs both --vault <dir> and --questions <file>');
    const vault = path.resolve(options.vault);
    if (!fs.existsSync(vault) || !fs.statSync(vault).isDirectory()) throw createError('E_SYN_BAD_REQUEST', `--vault ${vault} is not a folder`);
    const items = limit(readFixture(options.questions));
    const work = options.workDir ? path.resolve(options.workDir) : fs.mkdtempSync(path.join(os.tmpdir(), 'synapsis-answers-'));
    const engine = createEngine({ dataDir: path.join(work, 'data'), env: {}, ...(options.modelsDir ? { modelsDir: options.modelsDir } : {}), config: config() });
    try {
      // A work dir used with another vault (or this one at another path) would answer from both.
      const vaultReal = fs.realpathSync(vault);
      for (const root of engine.listRoots()) {
        if (root.path === vault || root.path === vaultReal) continue;
        const { documents_removed } = engine.removeRoot(root.path);
        log(`work dir: removed ${documents_removed} documents of another folder, ${root.path}`);
      }
      const report = await engine.index([vault]);
      log(`${path.basename(vault)}: ${report.chunks_total} chunks, ${report.embedded} embedded; ${items.length} questions`);
      const rows = await askAll(engine, items, log);
      const answers = summarize(path.basename(options.questions), rows, meta, options.details === true);
      if (options.originals) {
        const originals = limit(readFixture(options.originals));
        const originalRows = await askAll(engine, originals, log);
        answers.originals = summarize(path.basename(options.originals), originalRows, meta, options.details === true);
        answers.reworded_agreement = rewordedAgreement(rows, originalRows);
      }
      return answers;
    } finally {
      await engine.dispose();
      if (!options.workDir) fs.rmSync(work, { recursive: true, force: true });
    }
  }

  if (!options.dataset) throw createError('E_SYN_BAD_REQUEST', 'Answer evaluation needs --dataset <BEIR dir with answers.jsonl>, or --vault <dir> with --questions <file>');
  const ds = loadBeir(options.dataset, options.split ?? 'test');
  const gold = readAnswers(options.dataset);
  const questions = limit(ds.queries.filter((q) => (gold.get(q.id)?.answers.length ?? 0) > 0));
  if (questions.length === 0) throw createError('E_SYN_BAD_REQUEST', `No question of ${ds.name} has an answer in answers.jsonl`);
  return withCorpusWorkspace(ds, { workDir: options.workDir, modelsDir: options.modelsDir, config, tempPrefix: 'synapsis-answers-', log }, async ({ engine, byPath, corpusDir }) => {
    const report = await engine.index([corpusDir]);
    log(`${ds.name}: ${report.chunks_total} chunks, ${report.embedded} embedded; ${questions.length} questions${options.unanswerable === false ? '' : ', each also with its gold passage left out'}`);
    const pathOf = new Map([...byPath].map(([p, id]) => [id, p] as const));
    const items: AnswerItem[] = [];
    for (const q of questions) {
      const g = gold.get(q.id)!;
      const source = pathOf.get(g.corpus_id);
      if (!source) continue;
      items.push({ id: q.id, question: q.text, kind: 'answerable', facts: g.answers, anyFact: true, sources: [source], exclude: [] });
    }
    if (options.unanswerable !== false) {
      for (const it of [...items]) items.push({ ...it, id: `${it.id}-removed`, kind: 'gold removed', facts: [], exclude: [it.sources[0]!] });
    }
    const rows = await askAll(engine, items, log);
    return summarize(ds.name, rows, meta, options.details === true);
  });
}
