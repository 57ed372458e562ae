/**
 * What adding a second embedding model for a language the first already covers measured, said
 * where a user adds one (`synapsis models add`, Settings → Models). By default one model embeds
 * each language (engine/llm/resolve.ts); a second one is used only when SYN_EMBED_MODELS lists it.
 * Numbers: docs/quality.md (plain RRF rows, test splits) and docs/indexing.md (embedding rate).
 */
export const SECOND_EMBEDDER_MEASURED = {
  with: 'all-MiniLM-L6-v2',
  beside: 'multilingual-e5-small',
  /** nDCG@10, BM25 + the multilingual model alone → BM25 + both (plain RRF k = 60). */
  gain: [
    { set: 'SciFact', one: 0.7278, both: 0.7468 },
    { set: 'CoSQA', one: 0.4997, both: 0.5608 },
    { set: 'XQuAD-en', one: 0.9817, both: 0.9858 },
  ],
  /** Embedding time added to the multilingual model's, chunks and sentences (2 cores; docs/indexing.md). */
  embedTimePercent: 45,
  /** Query p95 on SciFact, one model → both (ms; both query embeddings on 2 cores). */
  queryP95Ms: { one: 94, both: 116 },
};

interface PlanModel {
  id: string;
  name: string;
  role: string;
  languages?: string[];
}

/**
 * The line shown beside an embedding model that is registered but not used, because the models in
 * use already cover its languages; null when it is in use or covers a language they do not.
 */
export function unusedEmbedderNote(model: PlanModel, inUse: readonly PlanModel[]): string | null {
  if (model.role !== 'embed' || inUse.length === 0 || inUse.some((m) => m.id === model.id)) return null;
  const langs = model.languages ?? [];
  const covered = (l: string) => inUse.some((m) => (m.languages ?? []).includes('*') || (m.languages ?? []).includes(l));
  if (langs.length === 0 || langs.some((l) => l === '*' ? !inUse.some((m) => (m.languages ?? []).includes('*')) : !covered(l))) return null;
  const m = SECOND_EMBEDDER_MEASURED;
  const gain = m.gain.map((g) => `${g.set} ${g.one.toFixed(4)} → ${g.both.toFixed(4)}`).join(', ');
  return (
    `Not used: ${inUse.map((u) => u.name).join(' and ')} already covers ${langs.includes('*') ? 'every language' : langs.join(', ')}. ` +
    `As a second model (SYN_EMBED_MODELS=${[...inUse.map((u) => u.id), model.id].join(',')}) every passage and sentence is embedded twice: ` +
    `measured with ${m.with} beside ${m.beside}, nDCG@10 ${gain}, for about ${m.embedTimePercent}% more embedding time and query p95 ${m.queryP95Ms.one} → ${m.queryP95Ms.both} ms.`
  );
}
