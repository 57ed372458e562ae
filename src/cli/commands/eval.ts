import type { Command } from 'commander';
import { Option } from 'commander';
import { resolveDataDir } from '../../engine/core/paths.ts';
import { loadProfile } from '../../engine/retrieve/profile.ts';
import { createError } from '../../shared/errors.ts';
import { option, positiveInt, repeatable, type RegisteredCommand } from '../command.ts';
import { type AnswerSetsReport, MANIFEST_ROLES, type ManifestRole, runAnswerSets } from '../eval/answer-sets.ts';
import { type AnswerEvalReport, runAnswerEval } from '../eval/answers.ts';
import { EVAL_MODES, runEval, type EvalMode } from '../eval/run.ts';
import { metricTable } from '../format.ts';

interface EvalOptions {
  dataset?: string;
  split: string;
  mode: EvalMode;
  limit?: number;
  depth?: number;
  workDir?: string;
  embedModel: string[];
  rerankModel?: string;
  chatModel?: string;
  rerankTop?: number;
  fusion?: 'rrf' | 'weighted';
  profile?: string;
  answers?: boolean;
  vault?: string;
  questions?: string;
  unanswerable: boolean;
  details?: boolean;
  candidates?: boolean;
  originals?: string;
  readerProfile?: string;
  sets?: string;
  role?: ManifestRole;
}

/** Builds its own throwaway workspaces from a dataset (eval/ may use engine internals). */
export const evaluate: RegisteredCommand = {
  name: 'eval',
  examples: [
    'synapsis eval --dataset ../shared/data/scifact',
    'synapsis eval --dataset ../shared/data/scifact --mode hybrid --embed-model all-MiniLM-L6-v2.Q8_0.gguf --json',
    'synapsis eval --dataset ../shared/data/scifact --mode hybrid --embed-model all-MiniLM-L6-v2.Q8_0.gguf --embed-model multilingual-e5-small.Q4_0.gguf --profile my-fit --work-dir /tmp/sf',
    'synapsis eval --answers --sets test/fixtures/answer-sets.json --role test --work-dir /tmp/answer-sets',
  ],
  register: (parent, { io, globals, print }) =>
    parent
      .command('eval')
      .description('retrieval quality on a dataset in BEIR layout: nDCG@10, Recall@1/5/10/100, MRR@10, latency, indexing time; with --answers, answer quality (facts stated, abstentions)')
      .addOption(option('--dataset <dir>', 'folder with corpus.jsonl, queries.jsonl and qrels/<split>.tsv (with --answers: and answers.jsonl)'))
      .addOption(option('--answers', 'answer quality instead of retrieval: fact recall, fully correct, fact in the first sentence, abstention on unanswerable questions, answer length and time'))
      .addOption(option('--vault <dir>', 'with --answers: a folder of notes to ask (with --questions)'))
      .addOption(option('--questions <file>', 'with --answers: questions in the sample fixture\'s format (question, kind, sources, answer_contains)'))
      .addOption(option('--sets <file>', 'with --answers: an answer sets manifest (train, dev, calibration, test); asks every vault set of --role and reports each and all pooled'))
      .addOption(new Option('--role <role>', 'with --sets: which sets of the manifest to ask').choices([...MANIFEST_ROLES]))
      .addOption(option('--no-unanswerable', 'with --answers on a BEIR set: skip the variant that leaves each gold passage out'))
      .addOption(option('--details', 'with --answers --json: each question\'s answer and scores too'))
      .addOption(option('--candidates', 'with --answers: also how often the reader\'s candidate sentences hold the fact, and how often its quote does'))
      .addOption(option('--originals <file>', 'with --answers: the original wording of --questions\' reworded questions ("reworded_from"): asked too, and the share answered alike reported'))
      .addOption(option('--reader-profile <file>', 'with --answers: the answer reader\'s scorer, a profile from synapsis tune --answers, or "none" for the reader uncalibrated'))
      .addOption(option('--split <name>', 'qrels split to evaluate', undefined, 'test'))
      .addOption(new Option('--mode <mode>', 'retrieval mode').choices([...EVAL_MODES]).default('bm25'))
      .addOption(option('--limit <n>', 'evaluate only the first N judged queries', positiveInt))
      .addOption(option('--depth <n>', 'chunks retrieved per query (default 150; 10 measures the interactive case)', positiveInt))
      .addOption(repeatable('--embed-model <file>', 'GGUF embedding model for dense and hybrid modes (or a registry id with --models-dir); repeat it to fuse several'))
      .addOption(option('--rerank-model <file>', 'GGUF rerank model for hybrid+rerank'))
      .addOption(option('--chat-model <file>', 'without a rerank model: the chat model judges the top passages in hybrid+rerank'))
      .addOption(option('--rerank-top <n>', 'passages reranked per query (default 50 with a rerank model, 10 with the chat judge)', positiveInt))
      .addOption(new Option('--fusion <kind>', 'fusion of the hybrid modes: reciprocal rank or weighted normalised scores (default: the profile\'s)').choices(['rrf', 'weighted']))
      .addOption(option('--profile <name>', 'retrieval profile: default, one saved by synapsis tune in the work dir\'s data, or a .json file'))
      .addOption(option('--work-dir <dir>', 'keep the generated corpus and index here (re-runs re-index incrementally)'))
      .action(async (cmdOpts: EvalOptions, cmd: Command) => {
        const opts = globals(cmd);
        const log = (line: string) => io.err(`${line}\n`);
        // What every answer evaluation reads, one set or a manifest's sets.
        const answerOptions = {
          embedModels: cmdOpts.embedModel,
          ...(cmdOpts.chatModel ? { chatModel: cmdOpts.chatModel } : {}),
          ...(cmdOpts.limit ? { limit: cmdOpts.limit } : {}),
          ...(cmdOpts.workDir ? { workDir: cmdOpts.workDir } : {}),
          ...(opts.modelsDir ? { modelsDir: opts.modelsDir } : {}),
          details: cmdOpts.details === true,
          collectCandidates: cmdOpts.candidates === true,
          ...(cmdOpts.readerProfile ? { readerProfile: cmdOpts.readerProfile } : {}),
          log,
        };
        if (cmdOpts.answers && (cmdOpts.sets || cmdOpts.role)) {
          if (!cmdOpts.sets || !cmdOpts.role) throw createError('E_SYN_BAD_REQUEST', '--sets <manifest> and --role <train|dev|calibration|test> go together');
          const given = ([['--dataset', cmdOpts.dataset], ['--vault', cmdOpts.vault], ['--questions', cmdOpts.questions], ['--originals', cmdOpts.originals]] as const).flatMap(([name, v]) => (v ? [name] : []));
          if (given.length > 0) throw createError('E_SYN_BAD_REQUEST', `--sets names its own vaults and questions: leave out ${given.join(', ')}`);
          const report = await runAnswerSets({ ...answerOptions, manifest: cmdOpts.sets, role: cmdOpts.role });
          print(opts, report, formatAnswerSets(report));
          return;
        }
        if (cmdOpts.answers) {
          const report = await runAnswerEval({
            ...(cmdOpts.dataset ? { dataset: cmdOpts.dataset, split: cmdOpts.split } : {}),
            ...(cmdOpts.vault ? { vault: cmdOpts.vault } : {}),
            ...(cmdOpts.questions ? { questions: cmdOpts.questions } : {}),
            ...answerOptions,
            unanswerable: cmdOpts.unanswerable,
            ...(cmdOpts.originals ? { originals: cmdOpts.originals } : {}),
          });
          print(opts, report, formatAnswerReport(report));
          return;
        }
        // Options that only answer evaluation reads are named, not silently dropped from a retrieval run.
        const answersOnly = (
          [
            ['--vault', cmdOpts.vault],
            ['--questions', cmdOpts.questions],
            ['--details', cmdOpts.details],
            ['--candidates', cmdOpts.candidates],
            ['--originals', cmdOpts.originals],
            ['--reader-profile', cmdOpts.readerProfile],
            ['--sets', cmdOpts.sets],
            ['--role', cmdOpts.role],
            ['--no-unanswerable', cmdOpts.unanswerable === false],
          ] as const
        ).flatMap(([name, given]) => (given ? [name] : []));
        if (answersOnly.length > 0) throw createError('E_SYN_BAD_REQUEST', `${answersOnly.join(', ')} ${answersOnly.length > 1 ? 'go' : 'goes'} with --answers only: add --answers to measure answers, or leave ${answersOnly.length > 1 ? 'them' : 'it'} out to measure retrieval`);
        if (!cmdOpts.dataset) throw createError('E_SYN_BAD_REQUEST', 'synapsis eval needs --dataset <dir> (or --answers with --vault and --questions)');
        const { embedModel, profile, rerankTop, answers: _a, vault: _v, questions: _q, unanswerable: _u, details: _d, candidates: _c, originals: _o, readerProfile: _r, sets: _s, role: _ro, ...rest } = cmdOpts;
        // A profile name is one saved by synapsis tune in this workspace (the eval's own data dir is throwaway).
        const report = await runEval({
          ...rest,
          dataset: cmdOpts.dataset,
          embedModels: embedModel,
          ...(rerankTop ? { rerankTopN: rerankTop } : {}),
          ...(profile ? { profile: loadProfile(profile, resolveDataDir(opts.dataDir)) } : {}),
          ...(opts.modelsDir ? { modelsDir: opts.modelsDir } : {}),
          log,
        });
        print(opts, report, metricTable(report));
      }),
};

/** The answer-quality report as a table a person reads, one row per kind after it. */
export function formatAnswerReport(r: AnswerEvalReport): string {
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
    ['  of them, the withheld quote held the fact', pct(r.withheld_fact)],
    ...(r.fact_in_candidates === undefined ? [] : ([['fact among the reader\'s candidate sentences', pct(r.fact_in_candidates)], ['  the quote holds it (before calibration)', pct(r.quote_holds_fact ?? 0)]] as [string, string][])),
    ['partly answered (of answers)', pct(r.partial)],
    ...(r.restricted_leaked === null ? [] : [['restricted answers leaked', String(r.restricted_leaked)] as [string, string]]),
    ['median answer length', `${r.median_words} words`],
    ['time to answer p50 / p95', `${r.latency_p50_ms} / ${r.latency_p95_ms} ms`],
    ['confidence AUROC (answerable vs not)', r.confidence_auroc === null ? 'n/a' : r.confidence_auroc.toFixed(3)],
    ['badged Answered, of them right', `${r.answered}, ${r.answered_precision === null ? 'n/a' : pct(r.answered_precision)}`],
    ...(r.reworded_agreement === undefined ? [] : [['reworded answered like the original', pct(r.reworded_agreement)] as [string, string]]),
    ...(r.originals ? [['original wording: fully correct / Answered right', `${pct(r.originals.fully_correct)} / ${r.originals.answered_precision === null ? 'n/a' : pct(r.originals.answered_precision)}`] as [string, string]] : []),
  ];
  const kinds = r.by_kind.map((k) => `| ${k.kind} | ${k.questions} | ${pct(k.fully_correct)} | ${pct(k.abstained)} |`).join('\n');
  return `| metric | value |\n|---|---|\n${rows.map(([a, b]) => `| ${a} | ${b} |`).join('\n')}\n\n| kind | questions | fully correct | abstained |\n|---|---:|---:|---:|\n${kinds}${reliabilityTable(r.reliability, '\n\n')}`;
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

/** The reliability buckets as a table (after `before`), or nothing when no answer was scored. */
function reliabilityTable(buckets: AnswerEvalReport['reliability'], before: string): string {
  if (buckets.length === 0) return '';
  return `${before}| confidence | answers | predicted | observed |\n|---|---:|---:|---:|\n${buckets.map((b) => `| ${b.from.toFixed(1)}–${b.to.toFixed(1)} | ${b.answers} | ${pct(b.predicted)} | ${pct(b.observed)} |`).join('\n')}`;
}

/**
 * The sets of one role, a row each, then all of them pooled: fully correct, Answered and how many of
 * those were right, unanswerable and answerable questions abstained, median words; the pooled
 * reliability table after.
 */
export function formatAnswerSets(r: AnswerSetsReport): string {
  const line = (s: AnswerEvalReport, name: string) => {
    const right = s.answered_precision === null ? 0 : Math.round(s.answered * s.answered_precision);
    return `| ${name} | ${s.questions} | ${pct(s.fully_correct)} | ${s.answered === 0 ? '0' : `${s.answered}: ${right} right`} | ${pct(s.abstained_unanswerable)} | ${pct(s.false_abstentions)} | ${s.median_words} |`;
  };
  const head = `| ${r.role} set | questions | fully correct | Answered | unanswerable abstained | answerable abstained | median words |\n|---|---:|---:|---:|---:|---:|---:|`;
  const rows = [...r.sets.map((s) => line(s, s.set)), line(r.pooled, `**pooled** (${r.sets.length} sets)`)].join('\n');
  const skipped = r.skipped.length > 0 ? `\n\nnot asked (SQuAD-format, for synapsis tune --answers): ${r.skipped.join(', ')}` : '';
  return `${head}\n${rows}${reliabilityTable(r.pooled.reliability, '\n\npooled reliability\n\n')}${skipped}`;
}
