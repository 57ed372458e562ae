import type { Migration } from './types.ts';

/**
 * A second stored degree per note: its neighbours in the graph of the documents every caller may
 * see (restricted notes left out), beside the degree in the graph of every indexed document
 * (migration 012). A caller who cannot see restricted notes then reads stored counts too, instead of
 * reading each linked note's links to count them, and a restricted note never weighs in its ranking.
 *
 * - `note_degrees.public_degree`: written with `degree` by graph/degrees.ts; NULL until counted, so
 *   the next index run counts every note once.
 */
export const migration013: Migration = {
  version: 13,
  name: 'public-degrees',
  up(db) {
    db.exec('ALTER TABLE note_degrees ADD COLUMN public_degree INTEGER');
  },
};
