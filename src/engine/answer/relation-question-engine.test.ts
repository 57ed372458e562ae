import { afterEach, describe, expect, it } from 'vitest';
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
    expect(who.outcome).toBe('answered');
    expect(who.answer).toMatch(/^Decider: Tomás Herrera\. \[\d+\]$/);
    // "Decider: Maya Chen" answers "who chose", not "which engine was chosen" or "which transport was picked".
    for (const question of ['Which storage engine was chosen for data on the device?', 'Which transport was picked for the relay?']) {
      const thing = await engine.answer(question);
      expect(thing.answer, question).not.toMatch(/^Decider:/);
      expect(thing.outcome, question).not.toBe('answered');
    }
  });
});
