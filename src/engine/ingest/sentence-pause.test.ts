/**
 * Background sentence embedding gives way to questions: while a retrieve or answer request is in
 * flight, no new page of sentences is embedded; the stage resumes when the request ends.
 */
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { TempDirs } from '../../../test/helpers/tmp.ts';
import { HashedEmbedder } from '../../cli/bench/hashed-embedder.ts';
import { createEngine, type Engine } from '../engine.ts';
import { ForegroundGate } from './foreground.ts';

const temp = new TempDirs();
const engines: Engine[] = [];
afterEach(async () => {
  for (const e of engines.splice(0)) await e.dispose();
});
afterAll(() => temp.cleanup());

const turns = async (n: number) => {
  for (let i = 0; i < n; i++) await new Promise<void>((resolve) => setImmediate(resolve));
};

/** The hashed embedder, with each question held until the test lets it go, and a log of what it embedded. */
class HeldQueries extends HashedEmbedder {
  log: string[] = [];
  private release: (() => void) | null = null;
  held: Promise<void> | null = null;
  private started: (() => void) | null = null;
  readonly queryStarted = new Promise<void>((resolve) => (this.started = resolve));

  hold(): void {
    this.held = new Promise<void>((resolve) => (this.release = resolve));
  }

  letGo(): void {
    this.release?.();
  }

  override async embed(text: string, kind?: 'query' | 'document'): Promise<Float32Array> {
    if (kind === 'query') {
      this.log.push('query');
      this.started?.();
      await this.held;
    }
    return super.embed(text, kind);
  }

  override async embedMany(texts: readonly string[], kind?: 'query' | 'document'): Promise<PromiseSettledResult<Float32Array>[]> {
    await turns(1);
    this.log.push(`page ${texts.length}`);
    return super.embedMany(texts, kind);
  }
}

function vault(notes: number) {
  const files: Record<string, string> = {};
  for (let i = 0; i < notes; i++) {
    files[`n${i}.md`] = `# Note ${i}\n\n${Array.from({ length: 6 }, (_, s) => `Sentence ${s} of note ${i} talks about relay ${i * 7 + s} and cache ${s}.`).join(' ')}\n`;
  }
  return temp.make('syn-pause-vault-', files);
}

describe('sentence vectors pause while a question is in flight', () => {
  it('embeds no new page of sentences until the question is answered, then finishes them', async () => {
    const embedder = new HeldQueries(64);
    const engine = createEngine({ dataDir: temp.make('syn-pause-'), env: {}, embedder });
    engines.push(engine);
    let question: Promise<unknown> | null = null;
    let pagesWhenAsked = -1;
    engine.on('index/progress', (e) => {
      // Once a few pages of sentences are done (of about 8), ask; the question's embedding is held.
      if (e.stage === 'sentences' && e.files_done >= 64 && !question) {
        embedder.hold();
        pagesWhenAsked = embedder.log.length;
        question = engine.retrieve('relay cache', { mode: 'hybrid' }, 3);
      }
    });
    const indexed = engine.index([vault(40)]);
    await embedder.queryStarted;
    // Many event-loop turns: without the pause, several pages of 32 sentences would be embedded by now.
    await turns(200);
    const during = embedder.log.slice(pagesWhenAsked).filter((l) => l.startsWith('page'));
    // At most the page that was already being embedded when the question came.
    expect(during.length).toBeLessThanOrEqual(1);
    const health = await engine.health();
    expect(health.models.embedders[0]!.sentences!.pending).toBeGreaterThan(0);

    embedder.letGo();
    expect(((await question!) as { chunks: unknown[] }).chunks.length).toBeGreaterThan(0);
    await indexed;
    const after = (await engine.health()).models.embedders[0]!.sentences!;
    expect(after).toEqual({ vectors: 240, pending: 0 });
    // Pages came after the question again.
    expect(embedder.log.slice(embedder.log.indexOf('query') + 1).filter((l) => l.startsWith('page')).length).toBeGreaterThan(1);
  });
});

describe('ForegroundGate', () => {
  it('resolves idle() when the last request in flight ends, and wraps sync and async handlers', async () => {
    const gate = new ForegroundGate();
    await gate.idle(); // nothing in flight: at once
    const endA = gate.begin();
    const endB = gate.begin();
    let resumed = false;
    const waiting = gate.idle().then(() => (resumed = true));
    endA();
    endA(); // a second call does nothing
    await turns(2);
    expect(resumed).toBe(false);
    endB();
    await waiting;
    expect(resumed).toBe(true);

    let inside = false;
    const sync = gate.wrap((x: number) => ((inside = gate.busy), x * 2));
    expect(sync(2)).toBe(4);
    expect(inside).toBe(true);
    expect(gate.busy).toBe(false);
    const failing = gate.wrap(async () => {
      throw new Error('boom');
    });
    await expect(failing()).rejects.toThrow('boom');
    expect(gate.busy).toBe(false);
    expect(() => gate.wrap(() => { throw new Error('sync boom'); })()).toThrow('sync boom');
    expect(gate.busy).toBe(false);
  });
});
