import { describe, expect, it } from 'vitest';
import { missingPartsLimit } from './partial.ts';

describe('missingPartsLimit', () => {
  it('names the open parts of a question of several parts', () => {
    const limit = missingPartsLimit([
      { part: 'How long did the outage last', type: 'duration', score: 0.8, answered: true },
      { part: 'who approved the postmortem?', type: 'person', score: 0.3, answered: false },
    ]);
    expect(limit).toEqual({ code: 'part_unanswered', detail: 'not found in your notes: "who approved the postmortem?"' });
  });

  it('for a question of one part, says which kind of value no sentence clearly states, not that the whole question is missing', () => {
    expect(missingPartsLimit([{ part: 'How long are snapshots kept?', type: 'duration', score: 0.47, answered: false }])).toEqual({
      code: 'value_unstated',
      detail: 'not found in your notes: a sentence that clearly says how long; the closest ones are quoted',
    });
    expect(missingPartsLimit([{ part: 'Где хранятся снимки?', type: 'place', score: 0.46, answered: false }])?.detail).toContain('clearly says where');
  });

  it('has nothing to say when every part is answered', () => {
    expect(missingPartsLimit([{ part: 'When?', type: 'date', score: 0.9, answered: true }])).toBeNull();
  });
});
