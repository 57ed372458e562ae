/**
 * The held-out answer-quality set on a real documentation vault: the English notes of Obsidian's
 * help (github.com/obsidianmd/obsidian-help at fa179e91, folder en/, 173 notes) and
 * fixtures/obsidian-help.questions.json, questions written without looking at how the answer reader
 * works. The file's shape is checked always; where a copy of the vault is at hand, so is each
 * expected string against the note it is said to come from:
 *   SYNAPSIS_OBSIDIAN_HELP=/path/to/obsidian-help/en npx vitest run test/obsidian-help-questions.test.ts
 * Without the variable that case is reported as skipped. The measurement itself is
 * `synapsis eval --answers --vault <en> --questions test/fixtures/obsidian-help.questions.json`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readFixture } from '../src/cli/eval/answers.ts';

const FILE = path.join(import.meta.dirname, 'fixtures', 'obsidian-help.questions.json');
const items = readFixture(FILE);
// The harness's matching: case, typographic quotes and runs of spaces folded.
const fold = (s: string) => s.normalize('NFKC').toLowerCase().replace(/[’‘]/g, "'").replace(/[“”«»]/g, '"').replace(/\s+/g, ' ').trim();
const MULTI_NOTE = new Set(['multi-note', 'multi-hop']);

describe('the Obsidian help question set', () => {
  it('holds 26 answerable and 6 unanswerable questions, each answerable one with its sources', () => {
    expect(items).toHaveLength(32);
    expect(new Set(items.map((q) => q.id)).size).toBe(32);
    const unanswerable = items.filter((q) => q.facts.length === 0);
    expect(unanswerable).toHaveLength(6);
    for (const q of unanswerable) {
      expect(q.kind, q.id).toBe('unanswerable');
      expect(q.sources, q.id).toEqual([]);
    }
    for (const q of items.filter((i) => i.facts.length > 0)) {
      expect(q.sources.length, q.id).toBeGreaterThan(0);
      expect(q.kind, q.id).not.toBe('unanswerable');
      for (const s of q.sources) expect(s.endsWith('.md') && !path.isAbsolute(s) && !s.includes('..'), `${q.id}: ${s}`).toBe(true);
    }
    for (const kind of ['multi-part', 'multi-note', 'multi-hop']) expect(items.some((q) => q.kind === kind), kind).toBe(true);
  });

  const vault = process.env.SYNAPSIS_OBSIDIAN_HELP;
  it.skipIf(!vault)('finds every expected string in the note it is said to come from', () => {
    const text = new Map<string, string>();
    const read = (rel: string) => {
      if (!text.has(rel)) text.set(rel, fold(fs.readFileSync(path.join(vault!, rel), 'utf8')));
      return text.get(rel)!;
    };
    for (const q of items.filter((i) => i.facts.length > 0)) {
      for (const s of q.sources) expect(fs.existsSync(path.join(vault!, s)), `${q.id}: ${s} is not in the vault`).toBe(true);
      for (const fact of q.facts) {
        expect(q.sources.some((s) => read(s).includes(fold(fact))), `${q.id}: "${fact}" is in none of ${q.sources.join(', ')}`).toBe(true);
      }
      // A question that needs two notes names only notes that each hold part of the answer.
      if (MULTI_NOTE.has(q.kind)) {
        expect(q.sources.length, q.id).toBeGreaterThan(1);
        for (const s of q.sources) expect(q.facts.some((f) => read(s).includes(fold(f))), `${q.id}: ${s} holds none of its facts`).toBe(true);
      }
    }
  });
});
