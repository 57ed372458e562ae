import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readQuestions } from '../src/cli/main.ts';
import { createEngine, type Engine } from '../src/engine/engine.ts';
import { SAMPLE_QUESTIONS, SAMPLE_VAULT, TempDirs } from './helpers/tmp.ts';

const questions = readQuestions(SAMPLE_QUESTIONS);
const files = (dir: string): string[] =>
  fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(path.join(dir, e.name)) : [path.join(dir, e.name)]));
const vaultFiles = files(SAMPLE_VAULT).map((f) => path.relative(SAMPLE_VAULT, f));

describe('sample vault', () => {
  it('is a realistic small knowledge base', () => {
    const notes = vaultFiles.filter((f) => f.endsWith('.md'));
    expect(notes.length).toBeGreaterThanOrEqual(30);
    expect(notes.length).toBeLessThanOrEqual(60);
    expect(vaultFiles.filter((f) => f.endsWith('.pdf'))).toHaveLength(1);
    expect(vaultFiles.filter((f) => f.endsWith('.docx'))).toHaveLength(1);
    expect(vaultFiles.filter((f) => /\.(ts|py|go)$/.test(f)).length).toBeGreaterThanOrEqual(2);
    const texts = notes.map((f) => fs.readFileSync(path.join(SAMPLE_VAULT, f), 'utf8'));
    expect(texts.filter((t) => /^sensitivity: restricted$/m.test(t))).toHaveLength(1);
    expect(texts.filter((t) => /^lang: ru$/m.test(t))).toHaveLength(1);
    expect(texts.some((t) => /\[\[[^\]]+\]\]/.test(t))).toBe(true);
  });

  it('has a questions fixture covering every kind, with sources that exist and hold the answers', () => {
    expect(questions.length).toBeGreaterThanOrEqual(12);
    const kinds = new Set(questions.map((q) => q.kind));
    for (const k of ['single', 'multi-hop', 'restricted', 'unanswerable', 'russian']) expect(kinds).toContain(k);
    expect(questions.filter((q) => q.kind === 'multi-hop').every((q) => q.sources.length >= 2)).toBe(true);
    expect(questions.filter((q) => q.kind === 'unanswerable').every((q) => q.sources.length === 0)).toBe(true);
    expect(new Set(questions.map((q) => q.id)).size).toBe(questions.length);
    for (const q of questions) {
      for (const s of q.sources) expect(vaultFiles, `${q.id} source ${s}`).toContain(s);
      const textSources = q.sources.filter((s) => !/\.(pdf|docx)$/.test(s));
      if (textSources.length === q.sources.length) {
        const text = textSources.map((s) => fs.readFileSync(path.join(SAMPLE_VAULT, s), 'utf8')).join('\n');
        for (const fact of q.answer_contains) expect(text, `${q.id}: ${fact}`).toContain(fact);
      }
    }
  });
});

describe('sample vault through the engine', () => {
  const temp = new TempDirs();
  let engine: Engine;
  beforeAll(async () => {
    engine = createEngine({ dataDir: temp.make('syn-sample-'), env: {} });
    await engine.index([SAMPLE_VAULT]);
  });
  afterAll(async () => {
    await engine.dispose();
    temp.cleanup();
  });

  it('indexes every markdown note and code file', async () => {
    const health = await engine.health({ allow_sensitivity: ['restricted'] });
    const notes = vaultFiles.filter((f) => f.endsWith('.md')).length;
    expect(health.documents.by_type.markdown).toBe(notes);
    expect(health.documents.by_type.code).toBe(vaultFiles.filter((f) => /\.(ts|py|go)$/.test(f)).length);
  });

  it('never returns the restricted note unless asked, and finds it when allowed', async () => {
    const q = questions.find((x) => x.kind === 'restricted')!;
    const restricted = q.sources[0]!;
    const plain = await engine.retrieve(q.question, {}, 50);
    expect(plain.chunks.map((c) => c.path)).not.toContain(restricted);
    const allowed = await engine.retrieve(q.question, { allow_sensitivity: ['restricted'] }, 8);
    expect(allowed.chunks.map((c) => c.path)).toContain(restricted);
  });

  it('finds a source of most answerable text questions in the top 8 lexically', async () => {
    const answerable = questions.filter((q) => q.sources.length > 0 && q.kind !== 'restricted' && q.sources.every((s) => !/\.(pdf|docx)$/.test(s)));
    let hits = 0;
    for (const q of answerable) {
      const r = await engine.retrieve(q.question, {}, 8);
      if (r.chunks.some((c) => q.sources.includes(c.path))) hits++;
    }
    expect(hits / answerable.length).toBeGreaterThanOrEqual(0.8);
  });
});
