/**
 * The held-out answer-quality sets on a real documentation vault: Obsidian's help
 * (github.com/obsidianmd/obsidian-help at fa179e91), its English notes (folder en/, 173 notes) with
 * fixtures/obsidian-help.questions.json and fixtures/obsidian-help-2.questions.json, its German notes
 * (folder de/) with fixtures/obsidian-help-de.questions.json and its Russian notes (folder ru/) with
 * fixtures/obsidian-help-ru.questions.json, questions written without looking at how the answer
 * reader works. The files' shape is checked always; where a copy of the vault is at hand, so is each
 * expected string against the note it is said to come from:
 *   SYNAPSIS_OBSIDIAN_HELP=/path/to/obsidian-help/en SYNAPSIS_OBSIDIAN_HELP_DE=/path/to/obsidian-help/de \
 *   SYNAPSIS_OBSIDIAN_HELP_RU=/path/to/obsidian-help/ru \
 *     npx vitest run test/obsidian-help-questions.test.ts
 * Without a variable its case is reported as skipped. The measurement itself is
 * `synapsis eval --answers --vault <en> --questions test/fixtures/obsidian-help.questions.json`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readFixture } from '../src/cli/eval/answers.ts';

const FIXTURES = path.join(import.meta.dirname, 'fixtures');
// The harness's matching: case, typographic quotes and runs of spaces folded.
const fold = (s: string) => s.normalize('NFKC').toLowerCase().replace(/[’‘]/g, "'").replace(/[“”«»]/g, '"').replace(/\s+/g, ' ').trim();
const MULTI_NOTE = new Set(['multi-note', 'multi-hop']);

const SETS = [
  { name: 'English', file: 'obsidian-help.questions.json', answerable: 26, unanswerable: 6, vault: process.env.SYNAPSIS_OBSIDIAN_HELP, variable: 'SYNAPSIS_OBSIDIAN_HELP' },
  { name: 'German', file: 'obsidian-help-de.questions.json', answerable: 12, unanswerable: 4, vault: process.env.SYNAPSIS_OBSIDIAN_HELP_DE, variable: 'SYNAPSIS_OBSIDIAN_HELP_DE' },
  { name: 'English, second set', file: 'obsidian-help-2.questions.json', answerable: 19, unanswerable: 4, vault: process.env.SYNAPSIS_OBSIDIAN_HELP, variable: 'SYNAPSIS_OBSIDIAN_HELP' },
  { name: 'Russian', file: 'obsidian-help-ru.questions.json', answerable: 19, unanswerable: 4, vault: process.env.SYNAPSIS_OBSIDIAN_HELP_RU, variable: 'SYNAPSIS_OBSIDIAN_HELP_RU' },
];

for (const set of SETS) {
  describe(`the Obsidian help question set, ${set.name}`, () => {
    const items = readFixture(path.join(FIXTURES, set.file));

    it(`holds ${set.answerable} answerable and ${set.unanswerable} unanswerable questions, each answerable one with its sources`, () => {
      const total = set.answerable + set.unanswerable;
      expect(items).toHaveLength(total);
      expect(new Set(items.map((q) => q.id)).size).toBe(total);
      const unanswerable = items.filter((q) => q.facts.length === 0);
      expect(unanswerable).toHaveLength(set.unanswerable);
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

    it.skipIf(!set.vault)(`finds every expected string in the note it is said to come from (${set.variable})`, () => {
      const text = new Map<string, string>();
      const read = (rel: string) => {
        if (!text.has(rel)) text.set(rel, fold(fs.readFileSync(path.join(set.vault!, rel), 'utf8')));
        return text.get(rel)!;
      };
      for (const q of items.filter((i) => i.facts.length > 0)) {
        for (const s of q.sources) expect(fs.existsSync(path.join(set.vault!, s)), `${q.id}: ${s} is not in the vault`).toBe(true);
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
}
