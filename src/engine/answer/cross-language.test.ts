/**
 * A question in another language than its notes, with the real multilingual embedder: the reader
 * shares no word with the notes, so it reads by meaning (sentence vectors) and shows the closest
 * sentences as a partial answer, saying so; without an embedder it cannot, and says what it lacks.
 */
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { SHARED_DIR, TempDirs } from '../../../test/helpers/tmp.ts';
import { createEngine, type Engine } from '../engine.ts';

const E5 = path.join(SHARED_DIR, 'models', 'multilingual-e5-small.Q4_0.gguf');
const temp = new TempDirs();
const engines: Engine[] = [];
afterEach(async () => {
  for (const e of engines.splice(0)) await e.dispose();
});
afterAll(() => temp.cleanup());

const ENGLISH = {
  'recovery.md': '# File recovery\n\nObsidian saves a snapshot of each note while you edit it. To restore a deleted note, open the File recovery plugin and pick the snapshot you need.\n',
  'sync.md': '# Sync\n\nSync keeps the version history of your notes for one year on the server. It also syncs your settings and themes between devices.\n',
  'themes.md': '# Themes\n\nA theme changes the colours and fonts of the app. Community themes can be installed from the settings.\n',
};

function open(embedModels: string[]) {
  const engine = createEngine({ dataDir: temp.make('syn-xlang-data-'), env: {}, config: { embedModels, llmThreads: 1, gpu: 'off' } });
  engines.push(engine);
  return engine;
}

describe('a question in another language than the notes', () => {
  it('is answered by meaning with a multilingual embedder: the closest sentence first, partly answered, the reason named', async () => {
    const engine = open([E5]);
    await engine.index([temp.make('syn-xlang-en-', ENGLISH)]);
    const a = await engine.answer('Как восстановить случайно удалённую заметку?');
    expect(a.outcome).toBe('partial');
    expect(a.answer).toMatch(/restore a deleted note/);
    expect(a.citations.map((c) => path.basename(c.path))).toContain('recovery.md');
    expect(a.limits.map((l) => l.code)).toContain('read_by_meaning');
    expect(a.limits.map((l) => l.code)).not.toContain('terms_never_mentioned');
  }, 240_000);

  it('without an embedder, is not answered, and the words the notes lack are named', async () => {
    const engine = open([]);
    await engine.index([temp.make('syn-xlang-en2-', ENGLISH)]);
    const a = await engine.answer('Как восстановить случайно удалённую заметку?');
    expect(a.outcome).toBe('not_found');
    expect(a.limits.map((l) => l.code)).not.toContain('read_by_meaning');
    expect(a.limits.map((l) => l.code)).toContain('terms_never_mentioned');
  }, 120_000);
});
