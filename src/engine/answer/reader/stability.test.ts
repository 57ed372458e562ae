import { describe, expect, it } from 'vitest';
import { readAnswer, readerCandidates } from '../reader.ts';
import type { Snippet } from '../types.ts';
import { leaveOut } from './stability.ts';
import { questionVectors, scoreTable } from './table.ts';
import { weighQuestion } from './weights.ts';

const snippet = (n: number, text: string, title = `Note ${n}`): Snippet => ({ n, locator: `n${n}.md#L1-L5`, path: `n${n}.md`, start_line: 1, end_line: 5, doc_id: `d${n}`, title, heading: null, text, score: 0.5 });
const termStats = (terms: readonly string[]) => new Map(terms.map((t) => [t, { idf: 2, df: 3 }]));

describe("the lead's stability", () => {
  it('is 1 when the lead states the fact whichever question word is left out', () => {
    const notes = [snippet(1, 'The relay pilot starts on 14 March 2026 in Valencia. The team meets weekly.', 'Relay pilot'), snippet(2, 'Themes change how notes look.', 'Themes')];
    const r = readAnswer('When does the relay pilot start?', readerCandidates(notes), { termStats });
    expect(r.outcome).not.toBe('not_found');
    expect(r.signals.leadStable).toBe(1);
  });

  it('drops below 1 when the lead was chosen for one word the other sentences lack', () => {
    // "based" is all that ties the Berlin sentence to the question, "relay team" all that ties Room 4:
    // without one word or the other the reader changes its mind.
    const notes = [snippet(1, 'The sync team is based in Berlin.'), snippet(2, 'The relay uses WebSockets. The relay team meets in Room 4.')];
    const r = readAnswer('Where is the relay team based?', readerCandidates(notes), { termStats });
    expect(r.signals.leadStable).toBe(0.5);
    const clear = readAnswer('Where is the relay team based?', readerCandidates([snippet(1, 'The relay team is based in Valencia.'), snippet(2, 'The sync team is based in Berlin.')]), { termStats });
    expect(clear.signals.leadStable).toBe(1);
  });

  it('is not measured where only the quote is wanted, which stays the same', () => {
    const notes = [snippet(1, 'The sync team is based in Berlin.'), snippet(2, 'The relay uses WebSockets. The relay team meets in Room 4.')];
    const full = readAnswer('Where is the relay team based?', readerCandidates(notes), { termStats });
    const quoted = readAnswer('Where is the relay team based?', readerCandidates(notes), { termStats, quoteOnly: true });
    expect(full.signals.leadStable).toBe(0.5);
    expect(quoted.signals.leadStable).toBe(1);
    expect(quoted.answer).toBe(full.answer);
    expect(quoted.outcome).toBe(full.outcome);
    expect(quoted.closest).toEqual(full.closest);
  });

  it('leaves a word out with every total kept consistent', () => {
    const candidates = readerCandidates([snippet(1, 'The relay pilot starts in March.')]);
    const w = weighQuestion('When does the relay pilot start?', candidates, { termStats });
    const heavy = w.all.find((t) => t.w > 0)!;
    const out = leaveOut(w, heavy.term);
    expect(out.all.find((t) => t.term === heavy.term)!.w).toBe(0);
    expect(out.allTotal).toBeCloseTo(w.allTotal - heavy.w, 9);
    for (const p of out.parts) expect(p.total).toBeCloseTo(p.terms.reduce((s, t) => s + t.w, 0), 9);
    // The reading it was made from is untouched.
    expect(w.all.find((t) => t.term === heavy.term)!.w).toBe(heavy.w);
  });

  it('scores each reading with a word left out as a table made afresh would', () => {
    // The table keeps what no weight changes for the readings of one question (the same vectors):
    // a reading with a word left out must score as one that kept nothing.
    const notes = [snippet(1, 'The relay pilot starts on 14 March 2026 in Valencia. It costs $400 a month.', 'Relay pilot'), snippet(2, 'The sync pilot starts in May. The relay team meets weekly.', 'Sync')];
    const question = 'When does the relay pilot start, and how much does it cost?';
    const candidates = readerCandidates(notes);
    const options = { termStats, similarity: (text: string) => (/14 March/.test(text) ? 0.9 : 0.6) };
    const w = weighQuestion(question, candidates, options);
    const vectors = questionVectors(w.candidates, options);
    const read = (q: string, weighed: typeof w, v: typeof vectors) => {
      const { table, order } = scoreTable(q, weighed, v, options);
      return { table, order };
    };
    const first = read(question, w, vectors);
    for (const t of w.all.filter((x) => x.w > 0)) {
      const out = leaveOut(w, t.term);
      expect(read(question, out, vectors)).toEqual(read(question, out, questionVectors(w.candidates, options)));
    }
    expect(read(question, w, vectors)).toEqual(first);
    // Another question over the same candidates and vectors is read afresh.
    const other = weighQuestion('Where does the relay team meet, and what does the sync pilot cost?', candidates, options);
    expect(read('Where does the relay team meet, and what does the sync pilot cost?', other, vectors)).toEqual(read('Where does the relay team meet, and what does the sync pilot cost?', other, questionVectors(other.candidates, options)));
  });
});
