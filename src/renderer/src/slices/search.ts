import type { StateCreator } from 'zustand';
import type { ParsedRequestOf, RetrievalResult } from '../../../shared/contract.ts';
import { kit, messageOf, type AppState } from './kit.ts';

/** The filters the search view offers, as the request's retrieval context names them. */
export type SearchFilters = Pick<NonNullable<ParsedRequestOf<'search/query'>['context']>, 'roots' | 'types' | 'tags'>;

/** The search view: the query, its filters and the ranked results. */
export interface SearchSlice {
  query: string;
  filters: SearchFilters;
  results: RetrievalResult | null;
  searching: boolean;
  searchError: string | null;
  /** Tags the tag filter suggests: the graph's tag nodes and the tags of every result seen, sorted. */
  knownTags: string[];
  loadTags(): Promise<void>;
  setQuery(query: string): void;
  setFilters(filters: Partial<SearchFilters>): void;
  search(): Promise<void>;
}

let searchSeq = 0;

export const createSearchSlice: StateCreator<AppState, [], [], SearchSlice> = (set, get) => {
  const { client, sensitivity } = kit(get);
  const addTags = (tags: string[]) => {
    const known = new Set(get().knownTags);
    const before = known.size;
    for (const t of tags) if (t.trim()) known.add(t.trim().replace(/^#/, ''));
    if (known.size > before) set({ knownTags: [...known].sort() });
  };
  return {
    query: '',
    filters: { roots: [], types: [], tags: [] },
    results: null,
    searching: false,
    searchError: null,
    knownTags: [],

    async loadTags() {
      try {
        const overview = await client().call('graph/overview', { limit: 100, allow_sensitivity: sensitivity() });
        addTags(overview.central.filter((n) => n.kind === 'tag').map((n) => n.label));
      } catch {
        // Suggestions are a convenience: without the graph, the tags of the results still come.
      }
    },
    setQuery(query) {
      set({ query });
    },
    setFilters(filters) {
      set((s) => ({ filters: { ...s.filters, ...filters } }));
      void get().search();
    },
    async search() {
      const { query, filters, mode } = get();
      const seq = ++searchSeq;
      if (!query.trim()) {
        set({ results: null, searching: false, searchError: null });
        return;
      }
      set({ searching: true });
      // A failed search is shown in the view, not as a toast; a later search supersedes it.
      try {
        const results = await client().call('search/query', {
          query,
          k: 20,
          ...(mode !== 'auto' ? { mode } : {}),
          context: { allow_sensitivity: sensitivity(), roots: filters.roots, types: filters.types, tags: filters.tags },
        });
        if (seq === searchSeq) set({ results, searching: false, searchError: null });
        addTags(results.chunks.flatMap((c) => (c.tags.tags ?? '').split(',')));
      } catch (error) {
        if (seq === searchSeq) set({ searching: false, searchError: messageOf(error) });
      }
    },
  };
};
