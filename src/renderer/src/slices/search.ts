import type { StateCreator } from 'zustand';
import type { ParsedRequestOf, RetrievalResult, TagList } from '../../../shared/contract.ts';
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
  /** Tags the tag filter suggests for what is typed: every visible note's tags (search/tags), most used first. */
  tagSuggestions: TagList['tags'];
  suggestTags(prefix: string): Promise<void>;
  /** The notes' most used tags (the tag field's example); null until asked. */
  topTags: string[] | null;
  loadTopTags(): Promise<void>;
  setQuery(query: string): void;
  setFilters(filters: Partial<SearchFilters>): void;
  /** A #tag clicked in a note: the search view, filtered by that tag (the query kept). */
  filterByTag(tag: string): void;
  search(): Promise<void>;
}

let searchSeq = 0;
let tagSeq = 0;
/** Tags asked for per keystroke; the filter shows the first ones not already chosen. */
const TAGS_ASKED = 30;

export const createSearchSlice: StateCreator<AppState, [], [], SearchSlice> = (set, get) => {
  const { client, sensitivity } = kit(get);
  return {
    query: '',
    filters: { roots: [], types: [], tags: [] },
    results: null,
    searching: false,
    searchError: null,
    tagSuggestions: [],
    topTags: null,

    async suggestTags(prefix) {
      const seq = ++tagSeq;
      try {
        const { tags } = await client().call('search/tags', { prefix, limit: TAGS_ASKED, allow_sensitivity: sensitivity() });
        if (seq === tagSeq) set({ tagSuggestions: tags });
      } catch {
        // Suggestions are a convenience: typing a tag still filters.
        if (seq === tagSeq) set({ tagSuggestions: [] });
      }
    },
    async loadTopTags() {
      try {
        const { tags } = await client().call('search/tags', { prefix: '', limit: 2, allow_sensitivity: sensitivity() });
        set({ topTags: tags.map((t) => t.tag) });
      } catch {
        set({ topTags: [] });
      }
    },
    setQuery(query) {
      set({ query });
    },
    setFilters(filters) {
      set((s) => ({ filters: { ...s.filters, ...filters } }));
      void get().search();
    },
    filterByTag(tag) {
      set((s) => ({ filters: { ...s.filters, tags: [tag] }, preview: null, previewHistory: [] }));
      get().setView('search');
      void get().search();
    },
    async search() {
      const { query, filters, mode } = get();
      const seq = ++searchSeq;
      // No words: nothing to search, unless a tag filter lists the notes tagged so.
      if (!query.trim() && filters.tags.length === 0) {
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
      } catch (error) {
        if (seq === searchSeq) set({ searching: false, searchError: messageOf(error) });
      }
    },
  };
};
