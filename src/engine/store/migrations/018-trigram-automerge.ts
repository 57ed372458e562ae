import type { Migration } from './types.ts';

/**
 * The trigram index merges its segments 8 at a time instead of FTS5's 4 (FTS5 'automerge'). Every
 * batch the indexer commits adds a segment to each lexical index, and FTS5 merges them into bigger
 * ones as they pile up: with 8 at a time each trigram is copied into a bigger segment about half as
 * often while a folder is indexed (the trigram index holds every 3 characters of the text, so most
 * of the lexical writing is its), and a trigram lookup (the fallback for identifiers and substrings)
 * reads up to twice as many segments. The word index is compacted into one segment after a large
 * run anyway, and keeps 4.
 *
 * The setting is stored with the table (its _config row), so an index from before takes it here;
 * what the index holds, and so every search result, is unchanged.
 */
export const TRIGRAM_AUTOMERGE = 8;

export const migration018: Migration = {
  version: 18,
  name: 'trigram-automerge',
  up(db) {
    // A literal (FTS5 takes its settings as integers, not bound values); the test holds it equal to TRIGRAM_AUTOMERGE.
    db.exec("INSERT INTO chunks_tri (chunks_tri, rank) VALUES ('automerge', 8)");
  },
};
