/**
 * The vault's lower-case writings of its names, counted with the index (migration 016): a name a
 * few notes capitalise and more notes write in lower case is a common word, not a node
 * (names.ts isCommonWord). A question reads how many of the notes it may see write the word from
 * the rows kept here instead of reading every chunk the word's index term matches.
 *
 * Documents store their writings of the counted words as they are written (store.writeDocument).
 * After an index run, the words of names not counted yet (new names; every name once after the
 * migration) are counted in every indexed document: each through the full-text index when they are
 * few, else all in one pass over the chunks, a page at a time. Until a word is counted, its names are
 * taken for common words (names.ts isCommonWord): a question does not scan the chunks for it.
 */
import type { Store } from '../store/store.ts';

/** Up to this many new words, each is counted through the full-text index; past it, in one pass over the chunks. */
export const WORDS_BY_INDEX_MAX = 64;
/** Chunks read per page of the pass (each page a transaction; the caller may yield between them). */
const PAGE = 2000;

/** Counts the words of the names not counted yet; returns how many words were counted. */
export async function countNameWords(store: Pick<Store, 'uncountedNameWords' | 'countWordsByIndex' | 'countWordsInChunks'>, between?: () => Promise<void>): Promise<number> {
  const words = store.uncountedNameWords();
  if (words.length === 0) return 0;
  if (words.length <= WORDS_BY_INDEX_MAX) {
    store.countWordsByIndex(words);
    return words.length;
  }
  const wanted = new Set(words);
  for (let after = store.countWordsInChunks(wanted, 0, PAGE); after !== null; after = store.countWordsInChunks(wanted, after, PAGE)) await between?.();
  return words.length;
}
