import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SAMPLE_QUESTIONS, TempDirs } from '../../../test/helpers/tmp.ts';
import { createEngine } from '../engine.ts';
import { demoEngineOptions, loadTour, removeDemoDir } from './demo.ts';
import { EngineHost } from './engine-host.ts';

const temp = new TempDirs();
const hosts: EngineHost[] = [];
afterEach(async () => {
  for (const h of hosts.splice(0)) await h.dispose();
  temp.cleanup();
});
const TOUR = path.resolve(import.meta.dirname, '..', '..', '..', 'resources', 'demo-tour.json');

describe('the demo workspace', () => {
  it('resolves the shipped tour against the questions fixture (every step has its question)', () => {
    const tour = loadTour({ questionsFile: SAMPLE_QUESTIONS, tourFile: TOUR });
    expect(tour.length).toBeGreaterThanOrEqual(5);
    for (const step of tour) expect(step.question.length).toBeGreaterThan(10);
    expect(tour.map((s) => s.kind)).toEqual(expect.arrayContaining(['single', 'multi-hop', 'unanswerable', 'russian', 'code']));
  });

  it('switches to its own data dir, indexes the vault there, resets, and returns to the untouched user workspace', async () => {
    const vault = temp.make('demo-vault-', { 'a.md': '# Relay\n\nThe relay listens on port 7443.\n', 'b.md': '# Budget\n\nThe budget is 40k.\n' });
    const userDir = temp.make('demo-user-');
    const demoDir = path.join(temp.make('demo-parent-'), 'demo');
    const host = new EngineHost({ create: () => createEngine({ dataDir: userDir, env: {} }), demo: { vault, questionsFile: SAMPLE_QUESTIONS, tourFile: TOUR, dataDir: demoDir } });
    hosts.push(host);
    expect(host.demoStatus()).toMatchObject({ available: true, active: false, models: [] });
    const completed = () => new Promise<number>((resolve) => { const s = host.on('syn.index.completed', (r) => { void s.dispose(); resolve(r.chunks_total); }); });
    let done = completed();
    expect((await host.startDemo()).active).toBe(true);
    expect(await done).toBe(2);
    const demo = await host.engine();
    expect(demo.dataDir).toBe(path.resolve(demoDir));
    expect((await demo.retrieve('relay port')).chunks[0]?.path).toBe('a.md');

    done = completed();
    await host.resetDemo();
    expect(await done).toBe(2);
    expect(fs.existsSync(path.join(demoDir, 'synapsis.db'))).toBe(true);

    expect((await host.exitDemo()).active).toBe(false);
    const user = await host.engine();
    expect(user.dataDir).toBe(path.resolve(userDir));
    expect(user.listRoots()).toEqual([]);
  });

  it('a request arriving while the workspace switches gets the new workspace, never a reopened old one', async () => {
    const vault = temp.make('demo-vault-', { 'a.md': '# Relay\n\nThe relay listens on port 7443.\n' });
    const userDir = temp.make('demo-user-');
    const demoDir = path.join(temp.make('demo-parent-'), 'demo');
    const host = new EngineHost({ create: () => createEngine({ dataDir: userDir, env: {} }), demo: { vault, questionsFile: SAMPLE_QUESTIONS, tourFile: TOUR, dataDir: demoDir } });
    hosts.push(host);
    await host.startDemo();
    // The UI's refresh after an index run raced "Leave the demo": it reopened the demo while the
    // host believed it was back in the user workspace (the onboarding never came back).
    const leaving = host.exitDemo();
    const during = host.engine();
    const reset = host.resetDemo();
    const afterReset = host.engine();
    expect((await leaving).active).toBe(false);
    expect((await during).dataDir).toBe(path.resolve(userDir));
    expect((await reset).active).toBe(true);
    expect((await afterReset).dataDir).toBe(path.resolve(demoDir));
    const leaveAgain = host.exitDemo();
    const restart = host.restart();
    await Promise.all([leaveAgain, restart]);
    const user = await host.engine();
    expect(user.dataDir).toBe(path.resolve(userDir));
    expect(user.listRoots()).toEqual([]);
    expect(host.demoStatus().active).toBe(false);
  });

  it('refuses to reset a folder holding files the demo did not make', () => {
    const dir = temp.make('not-a-demo-', { 'thesis.docx': 'x' });
    expect(() => removeDemoDir(dir)).toThrow(/holds files the demo did not make \(thesis\.docx\)/);
    expect(fs.existsSync(path.join(dir, 'thesis.docx'))).toBe(true);
  });
});

describe('demo engine options', () => {
  it('uses the first demo embedder present and leaves sentence vectors on (without them nothing is badged Answered)', () => {
    const models = temp.make('syn-demo-models-', { 'multilingual-e5-small.Q4_0.gguf': 'x' });
    const options = demoEngineOptions({ vault: '/v', questionsFile: '/q', tourFile: '/t', dataDir: '/d', modelsDir: models });
    expect(options.config).toEqual({ embedModel: path.join(models, 'multilingual-e5-small.Q4_0.gguf') });
    expect(demoEngineOptions({ vault: '/v', questionsFile: '/q', tourFile: '/t', dataDir: '/d' }).config).toEqual({});
  });
});
