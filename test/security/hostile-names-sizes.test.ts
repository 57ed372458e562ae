import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../../src/engine/engine.ts';
import { TempDirs } from '../helpers/tmp.ts';

/**
 * Files the index cannot take as they are say why, and what is left out is never claimed absent:
 * a name that is not valid UTF-8 is skipped for that reason (it read "cannot stat … ENOENT"), and a
 * note cut at SYN_MAX_CHUNKS_PER_FILE inside its one long line names the characters left out (it
 * read "lines 2-1 are not searchable") while an answer about a word only that part holds says the
 * word is not in what was searched, not that "your files never mention" it.
 */
const temp = new TempDirs();
const engines: Engine[] = [];
afterAll(async () => {
  for (const e of engines) await e.dispose();
  temp.cleanup();
});

describe.skipIf(process.platform !== 'linux')('a file name that is not valid UTF-8', () => {
  it('is skipped naming the reason, and the files beside it are indexed', async () => {
    const vault = temp.make('syn-badname-', { 'a.md': '# A\n\nalpha note\n' });
    const bad = Buffer.concat([Buffer.from(`${vault}/caf`), Buffer.from([0xe9]), Buffer.from('.md')]);
    fs.writeFileSync(bad, '# Café\n\nlatin1 name\n');
    fs.mkdirSync(Buffer.concat([Buffer.from(`${vault}/dir`), Buffer.from([0xff])]));
    const engine = createEngine({ dataDir: temp.make('syn-badname-data-'), env: {}, config: { graphLlm: false } });
    engines.push(engine);
    const report = await engine.index([vault]);
    expect(engine.documents().map((d) => d.path)).toEqual(['a.md']);
    const issues = report.issues.filter((i) => i.path !== path.join(vault, 'a.md'));
    expect(issues).toHaveLength(2);
    for (const issue of issues) {
      expect(issue).toMatchObject({ status: 'skipped', reason: expect.stringContaining('not valid UTF-8') });
      expect(issue.reason).not.toMatch(/ENOENT|cannot stat/);
    }
    expect(issues.map((i) => i.path).sort()).toEqual([path.join(vault, 'caf\\xE9.md'), path.join(vault, 'dir\\xFF')]);
  });
});

describe('a note cut inside its one long line', () => {
  it('names the characters left out, and an answer does not call a word there absent', async () => {
    // 60 chunks of 1,200 characters (a step of 1,000) cover 60,200 characters of a 200,000-character line.
    const line = `${'filler '.repeat(200_000 / 7)}zanzibarcanary sits at the end`;
    const vault = temp.make('syn-longline-', { 'big.md': line, 'small.md': '# Small\n\nA short note about lunch.\n' });
    const engine = createEngine({ dataDir: temp.make('syn-longline-data-'), env: {}, config: { graphLlm: false, maxChunksPerFile: 60 } });
    engines.push(engine);
    const report = await engine.index([vault]);
    const issue = report.issues.find((i) => i.path === path.join(vault, 'big.md'));
    expect(issue?.reason).toContain(`line 1 from character 60,201 on (${(line.length - 60_200).toLocaleString('en-US')} of ${line.length.toLocaleString('en-US')} characters) is not searchable`);
    expect(issue?.reason).not.toMatch(/lines 2-1/);
    expect((await engine.retrieve('zanzibarcanary', {}, 5)).chunks).toEqual([]);
    const answer = await engine.answer('What is zanzibarcanary?');
    expect(answer.limits.some((l) => l.code === 'terms_never_mentioned')).toBe(false);
    expect(answer.limits).toContainEqual({ code: 'terms_maybe_unsearched', detail: expect.stringMatching(/the searched text never mentions: zanzibarcanary.*part of big\.md is not searchable/) });
  });

  it('several lines after the cut are named as lines', async () => {
    const text = Array.from({ length: 400 }, (_, i) => `line ${i + 1} ${'word '.repeat(40)}`).join('\n');
    const vault = temp.make('syn-manylines-', { 'long.md': text });
    const engine = createEngine({ dataDir: temp.make('syn-manylines-data-'), env: {}, config: { graphLlm: false, maxChunksPerFile: 10 } });
    engines.push(engine);
    const report = await engine.index([vault]);
    const reason = report.issues.find((i) => i.path === path.join(vault, 'long.md'))?.reason ?? '';
    expect(reason).toMatch(/lines (\d+)-400 are not searchable/);
    const first = Number(/lines (\d+)-400/.exec(reason)![1]);
    expect(first).toBeGreaterThan(1);
    expect(first).toBeLessThan(400);
  });
});
