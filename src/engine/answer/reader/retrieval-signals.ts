/**
 * How well retrieval found the question at all, before any sentence is read (query-performance
 * prediction): how much of the question's rare-word weight the best passages hold, how clearly the
 * first passage stands out from the fifth, the rarest question word no passage holds, and how many
 * notes the best passages come from. A question the notes answer tends to have its words gathered
 * in its first passages; one they do not answer ("what does Publish cost", over notes about Publish
 * that never state a price) tends to find its topic words everywhere and its asked word nowhere.
 * Pure: the passages' words, the question words' idf and the notes the passages are of.
 */

/** A question word the vault holds, in the form the passages' words are matched by, and its idf. */
export interface RarityWord {
  term: string;
  idf: number;
}

/** The retrieval signals of one reading (ReadingSignals' retrieval block). */
export interface RetrievalSignals {
  /** Share of the question's idf the first retrieved passage holds. */
  topShare: number;
  /** Share of the question's idf the first three passages hold together. */
  top3Share: number;
  /** The first passage's share less the fifth's (a passage retrieval did not bring holds nothing). */
  rankGap: number;
  /** The idf of the rarest question word no passage holds, over the question's highest idf (0: every word is held). */
  missingRare: number;
  /** Distinct notes among the first five passages, over five. */
  topNotes: number;
  /** The lead (or the withheld quote's lead) is a sentence of the note of the first passage. */
  leadFirstNote: number;
}

/** The passages ranked this many first are the "best passages" of the gap and the note count. */
const TOP = 5;

const round3 = (v: number) => Math.round(v * 1000) / 1000;

/** The share of the words' idf that `held` holds (0 when the words weigh nothing). */
export function idfShare(words: readonly RarityWord[], held: (term: string) => boolean): number {
  const total = words.reduce((s, w) => s + w.idf, 0);
  if (total <= 0) return 0;
  return round3(words.reduce((s, w) => s + (held(w.term) ? w.idf : 0), 0) / total);
}

/** The idf of the rarest word no passage holds, over the highest idf of the words (0 when every word is held or none weighs). */
export function missingRarity(words: readonly RarityWord[], passages: readonly ReadonlySet<string>[]): number {
  const top = Math.max(0, ...words.map((w) => w.idf));
  if (top <= 0) return 0;
  const missing = words.filter((w) => !passages.some((p) => p.has(w.term)));
  return round3(Math.max(0, ...missing.map((w) => w.idf)) / top);
}

/**
 * The retrieval signals from the passages' words in rank order (best first), the note each passage
 * is of (any key: the same key, the same note), the question's known words with their idf, and the
 * lead's note (undefined: no lead).
 */
export function retrievalSignals(passages: readonly ReadonlySet<string>[], notes: readonly unknown[], words: readonly RarityWord[], leadNote: unknown): RetrievalSignals {
  const share = (i: number) => (i < passages.length ? idfShare(words, (t) => passages[i]!.has(t)) : 0);
  const first3 = passages.slice(0, 3);
  const topShare = share(0);
  return {
    topShare,
    top3Share: idfShare(words, (t) => first3.some((p) => p.has(t))),
    rankGap: round3(topShare - share(TOP - 1)),
    missingRare: missingRarity(words, passages),
    topNotes: round3(new Set(notes.slice(0, TOP)).size / TOP),
    leadFirstNote: leadNote !== undefined && notes.length > 0 && notes[0] === leadNote ? 1 : 0,
  };
}
