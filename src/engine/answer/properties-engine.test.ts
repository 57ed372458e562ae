import { afterEach, describe, expect, it } from 'vitest';
import { SAMPLE_VAULT, TempDirs } from '../../../test/helpers/tmp.ts';
import { NO_MODELS } from '../../../test/helpers/engine.ts';
import { createEngine, type Engine } from '../engine.ts';
import { PROPERTY_FILE_MAX_BYTES } from './properties.ts';

const temp = new TempDirs();
const engines: Engine[] = [];
afterEach(async () => {
  for (const e of engines.splice(0)) await e.dispose();
  temp.cleanup();
});

describe('front matter properties as quotes, on the sample vault', () => {
  it('answers where a person is based from the location property, citing its own line', async () => {
    const engine = createEngine({ dataDir: temp.make('syn-properties-data-'), ...NO_MODELS });
    engines.push(engine);
    await engine.index([SAMPLE_VAULT]);
    const lead = async (question: string) => {
      const envelope = await engine.answer(question);
      const n = Number(/\[(\d+)\]/.exec(envelope.answer)?.[1]);
      return { envelope, locator: envelope.citations.find((c) => c.n === n)?.locator };
    };
    // The note's body never says where Tomás works: only its front matter does. A timeline line
    // ("Tomás starts the relay in Go") reads almost as well, but the location field is what "where …
    // based" asks: it is quoted alone.
    const tomas = await lead('Where is Tomás based?');
    expect(tomas.envelope.outcome).not.toBe('not_found');
    expect(tomas.envelope.reader?.quote).toMatch(/^Tomás Herrera — location: Valencia \(remote\)\. \[\d+\]$/);
    // people/Tomás Herrera.md: line 1 is "---", line 8 is "location: Valencia (remote)".
    expect(tomas.locator).toBe('people/Tomás Herrera.md#L8-L8');
    const maya = await lead('Where is Maya Chen based?');
    // The reader's own reading: it quotes the line as a whole answer (the badge is the calibrated scorer's).
    expect(maya.envelope.reader?.outcome).toBe('answered');
    expect(maya.envelope.reader?.quote).toMatch(/^Maya Chen — location: Rotterdam\. \[\d+\]$/);
    expect(maya.locator).toBe('people/Maya Chen.md#L8-L8');
    // "who owns the relay" describes the person asked about: it asks no `owner` (Project Aurora's is Aiko Tanaka).
    const described = await engine.answer('Where is the engineer who owns the relay based?');
    expect(described.answer).not.toMatch(/owner: /);
    // Through the bridge: the decision record names its decider, whose own note's location is read.
    const bridged = await lead('Where is the person who decided to use WebSockets based?');
    expect(bridged.envelope.reader?.outcome).toBe('answered');
    expect(bridged.envelope.reader?.quote).toMatch(/^2026-04-02 Transport protocol — Decider: Tomás Herrera\. \[1\] Tomás Herrera — location: Valencia \(remote\)\. \[\d+\]$/);
    expect(bridged.envelope.citations.map((c) => c.locator)).toContain('people/Tomás Herrera.md#L8-L8');
    // A note is asked about when the question holds half its title's words, its numbers aside: the meeting
    // "2026-04-22 Porto offsite" is, the decision record "2026-04-02 Transport protocol" (whose heading
    // mentions the relay) is not asked the relay's status.
    const ended = await engine.answer('When did the Porto offsite end?');
    expect(ended.reader?.outcome).toBe('answered');
    expect(ended.reader?.quote).toMatch(/^end date: 2026-04-24\. \[\d+\]$/);
    const status = await engine.answer('What is the status of the relay?');
    expect(status.answer.startsWith('Status: accepted') && status.reader?.outcome === 'answered').toBe(false);
  });

  it('reads no properties of a note too large to read again at each question, and quotes those of the others', async () => {
    const note = (name: string, city: string, filler: string) => `---\ntitle: ${name}\nlocation: ${city}\n---\n\n# ${name}\n\n${name} joined the platform team in 2024.\n${filler}`;
    const long = Array.from({ length: 6000 }, (_, i) => `Entry ${i}: nightly export finished without errors.`).join('\n');
    expect(long.length).toBeGreaterThan(PROPERTY_FILE_MAX_BYTES);
    const vault = temp.make('syn-properties-vault-', { 'Ana Silva.md': note('Ana Silva', 'Lisbon', ''), 'Ola Berg.md': note('Ola Berg', 'Oslo', long) });
    const engine = createEngine({ dataDir: temp.make('syn-properties-data-'), ...NO_MODELS });
    engines.push(engine);
    await engine.index([vault]);
    expect((await engine.answer('Where is Ana Silva based?')).answer).toContain('location: Lisbon');
    expect((await engine.answer('Where is Ola Berg based?')).answer).not.toContain('location: Oslo');
  });
});
