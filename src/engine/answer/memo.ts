/**
 * Answers of a pure function, kept by key: the reader asks the same of a sentence for each part of
 * a question, each ranking and each hop's reading. Emptied whole when `max` answers are kept, so it
 * never grows with the vault.
 */
export function boundedMemo<V>(max: number): (key: string, compute: () => V) => V {
  const kept = new Map<string, V>();
  return (key, compute) => {
    if (kept.has(key)) return kept.get(key)!;
    const value = compute();
    if (kept.size >= max) kept.clear();
    kept.set(key, value);
    return value;
  };
}
