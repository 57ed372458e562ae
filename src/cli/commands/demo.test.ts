import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { demoEngineOptions } from '../../engine/host/demo.ts';
import { cli } from '../../../test/helpers/cli.ts';
import { SHARED_DIR, TempDirs } from '../../../test/helpers/tmp.ts';
import { DEMO_TOUR, SAMPLE_QUESTIONS, SAMPLE_VAULT } from '../resources.ts';
import { cliDemoEngineOptions } from './demo.ts';

const temp = new TempDirs();
afterAll(() => temp.cleanup());
const MODELS = path.join(SHARED_DIR, 'models');
const flags = { vault: SAMPLE_VAULT, questions: SAMPLE_QUESTIONS, models: true };

describe('synapsis demo', () => {
  it('opens the workspace the web demo opens: the same embedder (e5 first), sentence vectors left on, no SYN_* overrides', () => {
    const dataDir = temp.make('syn-demo-opts-');
    const web = demoEngineOptions({ vault: SAMPLE_VAULT, questionsFile: SAMPLE_QUESTIONS, tourFile: DEMO_TOUR, dataDir, modelsDir: MODELS });
    const cliOptions = cliDemoEngineOptions(flags, dataDir, MODELS);
    expect(cliOptions).toEqual(web);
    expect(cliOptions.config).toEqual({ embedModel: path.join(MODELS, 'multilingual-e5-small.Q4_0.gguf') });
    expect(cliOptions.env).toEqual({});
  });

  it('takes a named embedder or chat model on top, and none with --no-models', () => {
    const dataDir = temp.make('syn-demo-opts-');
    const minilm = path.join(MODELS, 'all-MiniLM-L6-v2.Q8_0.gguf');
    expect(cliDemoEngineOptions({ ...flags, embedModel: minilm, chatModel: 'chat.gguf' }, dataDir, MODELS).config).toEqual({ embedModel: minilm, chatModel: 'chat.gguf', synthTokens: 160, contextTokens: 1200 });
    expect(cliDemoEngineOptions({ ...flags, models: false, embedModel: minilm }, dataDir, MODELS).config).toEqual({});
  });

  it('indexes the sample vault and answers one question of each kind', async () => {
    const r = await cli(['demo', '--no-models', '--json']);
    expect(r.code, r.err).toBe(0);
    const out = JSON.parse(r.out) as { index: { indexed: number }; answers: { kind: string; envelope: { citations: unknown[] } }[] };
    expect(out.index.indexed).toBeGreaterThan(40);
    expect(new Set(out.answers.map((a) => a.kind)).size).toBe(out.answers.length);
  }, 60_000);
});
