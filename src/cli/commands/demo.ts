import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Command } from 'commander';
import { createEngine, type EngineOptions } from '../../engine/engine.ts';
import { demoEngineOptions, demoModels } from '../../engine/host/demo.ts';
import { engineOptions, option, type RegisteredCommand } from '../command.ts';
import { formatAnswer, formatIndexReport } from '../format.ts';
import { createProgressReporter } from '../progress.ts';
import { DEMO_CHAT_MODEL, DEMO_MODELS_DIR, DEMO_TOUR, readQuestions, SAMPLE_QUESTIONS, SAMPLE_VAULT } from '../resources.ts';

interface DemoOptions {
  vault: string;
  questions: string;
  all?: boolean;
  embedModel?: string;
  chatModel?: string;
  models: boolean;
}

/**
 * `index/run` over the sample vault, then `answer/ask` for each question. The data dir is a throwaway
 * one unless --data-dir names one: the demo never indexes into the workspace $SYN_INDEX_PATH names.
 */
export const demo: RegisteredCommand = {
  name: 'demo',
  examples: ['synapsis demo', 'synapsis demo --all --no-models'],
  register: (parent, { io, globals, print }) =>
    parent
      .command('demo')
      .description('index the sample vault into a throwaway data dir and answer one question of each kind, with citations and verdicts')
      .addOption(option('--vault <dir>', 'folder to use instead of the sample vault', undefined, SAMPLE_VAULT))
      .addOption(option('--questions <file>', 'questions fixture (JSON)', undefined, SAMPLE_QUESTIONS))
      .addOption(option('--all', 'answer every question of the fixture, not one of each kind'))
      .addOption(option('--embed-model <file>', `GGUF embedding model (default: the web demo's, multilingual-e5-small or else all-MiniLM-L6-v2 from ${path.relative(process.cwd(), DEMO_MODELS_DIR) || '.'}, when present)`))
      .addOption(option('--chat-model <file>', `GGUF chat model for generated answers (e.g. ${path.relative(process.cwd(), DEMO_CHAT_MODEL)}); default: extractive answers`))
      .addOption(option('--no-models', 'use no models: lexical retrieval and extractive answers'))
      .action(async (cmdOpts: DemoOptions, cmd: Command) => {
        const opts = globals(cmd);
        const all = readQuestions(cmdOpts.questions);
        const questions = cmdOpts.all ? all : all.filter((q, i) => all.findIndex((o) => o.kind === q.kind) === i);
        const dataDir = opts.dataDir ? engineOptions(opts).dataDir : fs.mkdtempSync(path.join(os.tmpdir(), 'synapsis-demo-'));
        const options = cliDemoEngineOptions(cmdOpts, dataDir, DEMO_MODELS_DIR);
        const embedModel = options.config?.embedModel;
        const chatModel = options.config?.chatModel;
        const engine = createEngine({ ...engineOptions(opts), ...options });
        try {
          const progress = opts.json ? null : createProgressReporter();
          const sub = progress ? engine.on('index/progress', (e) => progress.update(e)) : null;
          const report = await engine.call('index/run', { sources: [cmdOpts.vault] });
          sub?.dispose();
          progress?.stop();
          if (!opts.json) {
            io.out(`Sample vault: ${formatIndexReport(report)}\n`);
            io.out(`Models: embeddings ${embedModel ? path.basename(embedModel) : 'none (lexical only)'}, chat ${chatModel ? path.basename(chatModel) : 'none (extractive answers)'}\n\n`);
          }
          const answers = [];
          for (const q of questions) {
            if (!opts.json) io.out(`Q ${q.id} [${q.kind}] ${q.question}\n`);
            const envelope = await engine.call('answer/ask', { query: q.question });
            answers.push({ ...q, envelope });
            if (!opts.json) io.out(`${indent(formatAnswer(envelope))}\n\n`);
          }
          if (opts.json) print(opts, { index: report, answers }, '');
        } finally {
          await engine.dispose();
          if (!opts.dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
        }
      }),
};

function indent(text: string): string {
  return text
    .split('\n')
    .map((l) => `   ${l}`)
    .join('\n');
}

/**
 * The engine of `synapsis demo`: the web demo's (demoEngineOptions: the multilingual embedder first,
 * sentence vectors as in a user's workspace, none of the user's SYN_* overrides), in a data dir of
 * its own; it answers once the sentences are embedded, so its quotes can be badged Answered. The shared
 * chat model (SmolLM2-135M) is too small to write good answers: answers are extractive unless
 * --chat-model names one, and the critic's checks judge either way.
 */
export function cliDemoEngineOptions(cmdOpts: Pick<DemoOptions, 'vault' | 'questions' | 'embedModel' | 'chatModel' | 'models'>, dataDir: string, modelsDir: string): EngineOptions & { dataDir: string } {
  const setup = { vault: cmdOpts.vault, questionsFile: cmdOpts.questions, tourFile: DEMO_TOUR, dataDir, modelsDir: cmdOpts.models ? modelsDir : undefined };
  const base = demoEngineOptions(setup);
  const embedModel = cmdOpts.models ? (cmdOpts.embedModel ?? demoModels(setup).embed ?? undefined) : undefined;
  const chatModel = cmdOpts.models ? cmdOpts.chatModel : undefined;
  return {
    ...base,
    dataDir,
    config: { ...(embedModel ? { embedModel } : {}), ...(chatModel ? { chatModel, synthTokens: 160, contextTokens: 1200 } : {}) },
  };
}
