/**
 * Where a ranked list stops being relevant: the first sharp drop in score. A search asks for 20
 * passages; when one or three stand out, the rest are shown only on request ("more").
 */

/** A passage scoring under this share of the one before it starts the tail. */
export const GAP_RATIO = 0.7;
/** A passage scoring under this share of the best starts the tail. */
export const FLOOR_RATIO = 0.45;

/** How many of the results (scores best first) to show before "more"; at least one. */
export function relevantCount(scores: readonly number[]): number {
  const top = scores[0];
  if (top === undefined || !(top > 0)) return scores.length;
  for (let i = 1; i < scores.length; i++) {
    if (scores[i]! < scores[i - 1]! * GAP_RATIO || scores[i]! < top * FLOOR_RATIO) return i;
  }
  return scores.length;
}
