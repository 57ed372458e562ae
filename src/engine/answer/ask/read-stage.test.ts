import { describe, expect, it } from 'vitest';
import { type Calibrated, relationReadingWins } from './read-stage.ts';

const reading = (quoteOutcome: Calibrated['quoteOutcome'], quote: string, probability: number): Calibrated => ({ features: null, probability, quote, quoteOutcome, unsure: false, rescued: false, bar: 0.8, vectorsBar: 0.8, answerable: null });

describe('the reading of a relation\'s record line against the first reading', () => {
  it.each([
    ['a better outcome', reading('partial', 'Aurora orders operations with hybrid logical clocks.', 0.7), reading('answered', 'Author and decider: Priya Raman.', 0.9), 'Priya Raman', true],
    ['the same outcome where the first names nobody the record states', reading('answered', 'Decided on 2026-03-14 to use SQLite.', 0.92), reading('answered', 'Decider: Maya Chen.', 0.8), 'Maya Chen', true],
    ['the same outcome where the first already names her', reading('partial', 'Date: 2026-05-04 · Decider: Sofia Lindqvist.', 0.75), reading('partial', 'decided_by: Sofia Lindqvist.', 0.9), 'Sofia Lindqvist', false],
    ['a worse outcome where the first names nobody the record states', reading('answered', 'Decided on 2026-03-14 to use SQLite.', 0.92), reading('partial', 'Decider: Maya Chen.', 0.6), 'Maya Chen', true],
    ['a worse outcome where the first names her', reading('answered', 'Decider: Maya Chen. SQLite runs in WAL mode.', 0.92), reading('partial', 'Decider: Maya Chen.', 0.6), 'Maya Chen', false],
    ['a line the scorer finds no answer in', reading('partial', 'Decided on 2026-03-14 to use SQLite.', 0.6), reading('not_found', '', 0.1), 'Maya Chen', false],
    ['two readings that found nothing', reading('not_found', '', 0.1), reading('not_found', '', 0.2), 'Maya Chen', false],
  ])('%s', (_what, first, hop, name, wins) => {
    expect(relationReadingWins(first, hop, name)).toBe(wins);
  });
});
