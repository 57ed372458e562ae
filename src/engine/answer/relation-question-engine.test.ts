import { afterEach, describe, expect, it } from 'vitest';
import { HashedEmbedder } from '../../cli/bench/hashed-embedder.ts';
import { SAMPLE_VAULT, TempDirs } from '../../../test/helpers/tmp.ts';
import { NO_MODELS } from '../../../test/helpers/engine.ts';
import { createEngine, type Engine } from '../engine.ts';

const temp = new TempDirs();
const engines: Engine[] = [];
afterEach(async () => {
  for (const e of engines.splice(0)) await e.dispose();
  temp.cleanup();
});

describe('a record\'s decider line, on the sample vault with the shipped scorer', () => {
  it('answers who decided, and no question that asks which thing was chosen', async () => {
    const engine = createEngine({ dataDir: temp.make('syn-relation-data-'), ...NO_MODELS });
    engines.push(engine);
    await engine.index([SAMPLE_VAULT]);
    const who = await engine.answer('Who decided to use WebSockets for the relay?');
    // The reader's quote; the badge is the calibrated scorer's (docs/answers.md).
    expect(who.reader?.outcome).toBe('answered');
    expect(who.reader?.quote).toMatch(/^Decider: Tomás Herrera\. \[\d+\]$/);
    expect(who.answer.startsWith(who.reader!.quote)).toBe(true);
    // The record's line names the person where the sentence that holds the clause names none ("We name releases…").
    const birds = await engine.answer('Who chose to name releases after birds of prey?');
    expect(birds.reader?.quote).toMatch(/^Date: 2026-04-16 · Decider: Aiko Tanaka\. \[\d+\]$/);
    expect(birds.reader?.outcome).toBe('answered');
    // No file says "chose": the record's label states it ("Author and decider:"), so the question is still resolved.
    const clocks = await engine.answer('Who chose hybrid logical clocks for ordering operations?');
    expect(clocks.reader?.quote).toMatch(/^Author and decider: Priya Raman\. \[\d+\]$/);
    // A record whose decider line is found, but which never says the clause's name, is not the one asked about.
    const other = await engine.answer('Who decided to move the relay to Kubernetes?');
    expect(other.answer).not.toMatch(/Decider/);
    // "Decider: Maya Chen" answers "who chose", not "which engine was chosen" or "which transport was picked".
    for (const question of ['Which storage engine was chosen for data on the device?', 'Which transport was picked for the relay?']) {
      const thing = await engine.answer(question);
      expect(thing.answer, question).not.toMatch(/^Decider:/);
      expect(thing.outcome, question).not.toBe('answered');
    }
  });

  it('with sentence vectors, reads the decider line with its cosine: a reading with vectors, whose bar is the one with them', async () => {
    const engine = createEngine({ dataDir: temp.make('syn-relation-vectors-'), env: {}, embedder: new HashedEmbedder(256) });
    engines.push(engine);
    await engine.index([SAMPLE_VAULT]);
    const who = await engine.answer('Who chose to name releases after birds of prey?');
    expect(who.reader?.quote).toMatch(/^Date: 2026-04-16 · Decider: Aiko Tanaka\. \[\d+\]$/);
    // Read alone, the line has no other sentence to compare with: it carries its own sentence's cosine, no gap.
    expect(who.reader?.features.has_vectors).toBe(1);
    expect(who.reader?.features.sim_best).not.toBe(0);
    expect(who.reader?.features.sim_gap).toBe(0);
    expect(who.limits.map((l) => l.detail).join(' ')).not.toMatch(/too few of the sentences read have vectors/);
  }, 60_000);
});
