import type { Migration } from './types.ts';

/**
 * The passages a saved answer quoted, by content (issue 49): `passages_json` lists
 * `[doc_id, text_hash]` for every chunk under the answer's snippets. A turn remembers its notes by
 * doc_id (their path); when a note is moved, the old doc_id is gone, and its passages are found
 * again by their text hash in whatever document holds them now, with that document's sensitivity.
 * A cited document found neither way hides the turn (fail closed). Turns saved before this
 * migration have none ('[]'): a vanished document of theirs hides them.
 */
export const migration015: Migration = {
  version: 15,
  name: 'turn-passages',
  up(db) {
    db.exec(`ALTER TABLE thread_turns ADD COLUMN passages_json TEXT NOT NULL DEFAULT '[]'`);
  },
};
