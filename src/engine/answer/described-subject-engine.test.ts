import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SAMPLE_VAULT, TempDirs } from '../../../test/helpers/tmp.ts';
import { createEngine, type Engine } from '../engine.ts';

const temp = new TempDirs();
const engines: Engine[] = [];
afterEach(async () => {
  for (const e of engines.splice(0)) await e.dispose();
  temp.cleanup();
});
const open = () => {
  // The reader's own outcome: these tests read how the bridge finds the quote (the scorer has tests of its own).
  const engine = createEngine({ dataDir: temp.make('syn-bridge-data-'), env: {}, config: { readerProfile: 'none' } });
  engines.push(engine);
  return engine;
};

describe('answers through the bridge, on an indexed vault', () => {
  it('names the engineer by the record\'s decider line, then says where he works and who manages him', async () => {
    const engine = open();
    await engine.index([SAMPLE_VAULT]);
    const envelope = await engine.answer('Where does the engineer who chose WebSockets as the relay transport work from, and who is their manager?');
    expect(envelope.outcome).toBe('answered');
    expect(envelope.answer).toMatch(/^2026-04-02 Transport protocol — Decider: Tomás Herrera\. \[1\]/);
    expect(envelope.answer).toContain('Valencia');
    expect(envelope.answer).toContain('Reports to: Maya Chen');
    expect(envelope.citations.find((c) => c.n === 1)?.locator).toBe('decisions/2026-04-02 Transport protocol.md#L16-L16');
  });

  it('says partly answered when a later part is answered only by a sentence about the name', async () => {
    const engine = open();
    await engine.index([SAMPLE_VAULT]);
    // "which type of clock…" is asked with "Priya Raman" added; her PhD sentence holds her name and
    // "data types", not the clock the record settled on.
    const envelope = await engine.answer('Who is the boss of the engineer that authored the conflict resolution strategy decision, and which type of clock did that decision settle on?');
    expect(envelope.outcome).toBe('partial');
    expect(envelope.answer).toMatch(/^2026-02-20 Conflict resolution strategy — Author and decider: Priya Raman\. \[1\]/);
    expect(envelope.answer).toContain('Reports to: Maya Chen');
    expect(envelope.answer).not.toContain('PhD');
  });

  it('answers "who decided X" by the record\'s decider line where that line does not repeat X', async () => {
    const engine = open();
    await engine.index([SAMPLE_VAULT]);
    // The record says "Devices talk to the Relay server over WebSockets" in one section and "Decider: Tomás Herrera" in its header.
    const envelope = await engine.answer('Who decided to use WebSockets for the relay?');
    expect(envelope.outcome).toBe('answered');
    expect(envelope.answer).toMatch(/^Decider: Tomás Herrera\. \[\d+\]$/);
    expect(envelope.citations.map((c) => c.locator)).toEqual(['decisions/2026-04-02 Transport protocol.md#L16-L16']);
    // A word no note says stays missing: the record's line does not take it on.
    const unknown = await engine.answer('Who decided to use Zeromq for the relay?');
    expect(unknown.answer).not.toContain('Tomás Herrera');
    expect(unknown.citations.map((c) => c.locator)).not.toContain('decisions/2026-04-02 Transport protocol.md#L16-L16');
  });

  it('reads the decider from front matter when no line of the note says it', async () => {
    const vault = temp.make('syn-bridge-vault-', {
      'decisions/Queue choice.md': '---\ntitle: Queue choice\ndecided_by: Rosa Diaz\n---\n\n# Queue choice\n\nWe chose NATS for the event bus after a week of load tests.\n',
      'people/Rosa Diaz.md': '---\ntags: [person]\n---\n\n# Rosa Diaz\n\nRosa works remotely from Lisbon and visits the office monthly.\n',
      'people/Ivo Marsh.md': '# Ivo Marsh\n\nIvo works from Porto on the billing engine.\n',
    });
    const engine = open();
    await engine.index([vault]);
    const envelope = await engine.answer('Where does the engineer who chose NATS for the event bus work from?');
    expect(envelope.answer).toMatch(/^Queue choice — decided_by: Rosa Diaz\. \[1\] .*Lisbon/);
    expect(envelope.citations.find((c) => c.n === 1)?.locator).toBe('decisions/Queue choice.md#L3-L3');
    expect(envelope.answer).not.toContain('Porto');
    // A record changed since it was indexed is not quoted from: the line may say something else now.
    fs.appendFileSync(path.join(vault, 'decisions', 'Queue choice.md'), '\nRevisited later.\n');
    const stale = await engine.answer('Where does the engineer who chose NATS for the event bus work from?');
    expect(stale.answer).not.toContain('decided_by');
  });
});
