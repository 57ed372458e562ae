import { type RefObject, useEffect, useMemo, useRef, useState } from 'react';
import type { RetrievalResult } from '../../../shared/contract.ts';
import type { AppState } from '../slices/kit.ts';
import { relevantCount } from '../search-cut.ts';
import { useApp, useAppFields } from '../store.ts';
import { formatMs, Highlighted, plural } from './text.tsx';

/** The file types the type filter can offer, in this order; it offers those the workspace holds. */
const TYPES = ['markdown', 'text', 'code', 'pdf', 'docx', 'html'];
/** Results follow typing after this pause (a query takes ~15 ms; the pause saves work, not time). */
const DEBOUNCE_MS = 150;
/** The tag filter applies this long after the last keystroke. */
const TAG_DEBOUNCE_MS = 300;
/** Suggestions follow typing in the tag field after this pause. */
const TAG_SUGGEST_MS = 80;

/** The tags typed, each complete one followed by ", " (how picking a suggestion or a card's tag writes it). */
const tagsText = (tags: readonly string[]) => (tags.length > 0 ? `${tags.join(', ')}, ` : '');
const parseTags = (text: string) => [...new Set(text.split(',').map((t) => t.trim().replace(/^#/, '')).filter(Boolean))];

function Chip({ active, onClick, children, title }: { active: boolean; onClick: () => void; children: React.ReactNode; title?: string }) {
  return (
    <button type="button" className={`chip${active ? ' chip--on' : ''}`} aria-pressed={active} onClick={onClick} title={title}>
      {children}
    </button>
  );
}

const toggle = (list: string[], value: string) => (list.includes(value) ? list.filter((x) => x !== value) : [...list, value]);

/** The file types the type filter offers (those the workspace holds, and any chosen) with their counts; the tag field's example tags. */
function useWorkspaceFilters(chosenTypes: readonly string[]) {
  const { topTags, loadTopTags, allowRestricted } = useAppFields('topTags', 'loadTopTags', 'allowRestricted');
  // Only the counts this view shows are selected: a health report that changes nothing here re-renders nothing.
  const indexed = useApp((s) => s.health?.documents.indexed ?? 0);
  const heldJson = useApp((s) => JSON.stringify(s.health?.documents.by_type ?? {}));
  const held = useMemo(() => JSON.parse(heldJson) as Record<string, number>, [heldJson]);
  // The tag field's example is the user's own most used tags (asked again as the notes change or restricted ones are shown).
  useEffect(() => void loadTopTags(), [loadTopTags, indexed, allowRestricted]);
  const types = TYPES.filter((t) => (held[t] ?? 0) > 0 || chosenTypes.includes(t)).concat(Object.keys(held).filter((t) => !TYPES.includes(t) && (held[t] ?? 0) > 0));
  return { held, types, topTags };
}

/** The tag field: what is typed, the tag being typed, the suggestions for it, and the filter it applies once typing pauses. */
function useTagField(filters: AppState['filters'], setFilters: AppState['setFilters']) {
  const { tagSuggestions, suggestTags, allowRestricted } = useAppFields('tagSuggestions', 'suggestTags', 'allowRestricted');
  const [tagText, setTagText] = useState(tagsText(filters.tags));
  const typedTags = tagText.split(',');
  const fragment = (typedTags[typedTags.length - 1] ?? '').trim().replace(/^#/, '').toLowerCase();
  /** The tag being typed names a tag of the notes (not just the start of one). */
  const fragmentIsTag = fragment !== '' && tagSuggestions.some((t) => t.tag.toLowerCase() === fragment);
  // The tag filter applies as you type, once typing pauses: the complete tags, and the one being typed
  // once it names a tag of the notes (a half-typed "how" does not empty the results; Enter applies anything).
  const typedFilter = () => parseTags(typedTags.slice(0, -1).join(',')).concat(fragmentIsTag ? parseTags(fragment) : []);
  /** The tags this field last applied: a change from elsewhere (a #tag clicked in a note) rewrites the field. */
  const applied = useRef(filters.tags.join(','));
  useEffect(() => {
    const tags = typedFilter();
    if (tags.join(',') === filters.tags.join(',')) return;
    const t = setTimeout(() => {
      applied.current = tags.join(',');
      setFilters({ tags });
    }, TAG_DEBOUNCE_MS);
    return () => clearTimeout(t);
    // typedFilter reads tagText and fragmentIsTag.
  }, [tagText, fragmentIsTag, filters.tags, setFilters]);
  useEffect(() => {
    const key = filters.tags.join(',');
    if (key === applied.current) return;
    applied.current = key;
    if (typedFilter().join(',') !== key) setTagText(tagsText(filters.tags));
    // Only a change of the filter itself rewrites the field.
  }, [filters.tags]);
  const [tagFocus, setTagFocus] = useState(false);
  // Every visible note's tags that start with what is typed (search/tags), asked again as typing goes on.
  useEffect(() => {
    if (!tagFocus) return;
    const t = setTimeout(() => void suggestTags(fragment), TAG_SUGGEST_MS);
    return () => clearTimeout(t);
  }, [fragment, tagFocus, suggestTags, allowRestricted]);
  const chosen = parseTags(tagText).map((t) => t.toLowerCase());
  const suggestions = tagSuggestions.filter((t) => t.tag.toLowerCase().startsWith(fragment) && !chosen.includes(t.tag.toLowerCase())).slice(0, 8);
  /** The suggestion the arrow keys point at (Enter picks it). */
  const [activeTag, setActiveTag] = useState(-1);
  useEffect(() => setActiveTag(-1), [fragment, tagSuggestions]);
  const pickTag = (t: string) => {
    typedTags[typedTags.length - 1] = t;
    setTagText(tagsText(typedTags.map((x) => x.trim()).filter(Boolean)));
    setActiveTag(-1);
    document.getElementById('tag-filter')?.focus();
  };
  const suggesting = tagFocus && suggestions.length > 0;
  /** Adds a note's tag (clicked on a result) to what is typed. */
  const addTag = (t: string) => setTagText(tagsText(parseTags(`${tagText},${t}`)));
  return { tagText, setTagText, fragment, fragmentIsTag, tagFocus, setTagFocus, suggestions, suggesting, activeTag, setActiveTag, pickTag, addTag };
}
type TagField = ReturnType<typeof useTagField>;

/** The results shown (those before the first sharp drop in score, or all on request) and the one the arrow keys point at. */
function useResultList(results: RetrievalResult | null) {
  /** Results past the first sharp drop in score are shown on request. */
  const [showAll, setShowAll] = useState(false);
  useEffect(() => setShowAll(false), [results]);
  const relevant = results ? relevantCount(results.chunks.map((c) => c.score)) : 0;
  const shown = results ? (showAll ? results.chunks : results.chunks.slice(0, relevant)) : [];
  /** The result the arrow keys point at (Enter opens it). */
  const [active, setActive] = useState(-1);
  const list = useRef<HTMLOListElement>(null);
  useEffect(() => setActive(-1), [results]);
  useEffect(() => {
    if (active >= 0) list.current?.children[active]?.scrollIntoView({ block: 'nearest' });
  }, [active]);
  return { showAll, setShowAll, relevant, shown, active, setActive, list };
}

/** The tag field with its suggestions: ↓ ↑ move, Enter picks one or applies what is typed, Esc closes them. */
function TagFilter({ tag, topTags }: { tag: TagField; topTags: AppState['topTags'] }) {
  const { setFilters } = useAppFields('setFilters');
  const { tagText, setTagText, fragment, fragmentIsTag, tagFocus, setTagFocus, suggestions, suggesting, activeTag, setActiveTag, pickTag } = tag;
  return (
    <div className="filters__group tag-filter" onFocus={() => setTagFocus(true)} onBlur={(e) => !e.currentTarget.contains(e.relatedTarget) && setTagFocus(false)}>
      <label className="filters__label" htmlFor="tag-filter">
        Tags
      </label>
      <input
        id="tag-filter"
        className="tag-input"
        value={tagText}
        placeholder={topTags === null ? '' : topTags.length > 0 ? topTags.join(', ') : 'no note has tags yet'}
        autoComplete="off"
        role="combobox"
        aria-expanded={suggesting}
        aria-autocomplete="list"
        aria-controls="tag-suggestions"
        aria-activedescendant={suggesting && activeTag >= 0 ? `tag-suggestion-${activeTag}` : undefined}
        onChange={(e) => setTagText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown' && suggesting) {
            e.preventDefault();
            setActiveTag((a) => Math.min(suggestions.length - 1, a + 1));
          } else if (e.key === 'ArrowUp' && suggesting) {
            e.preventDefault();
            setActiveTag((a) => Math.max(-1, a - 1));
          } else if (e.key === 'Enter') {
            const picked = suggesting && activeTag >= 0 ? suggestions[activeTag] : undefined;
            if (picked) {
              e.preventDefault();
              pickTag(picked.tag);
            } else {
              // Enter applies what is typed, a tag no note carries included (the results then say so).
              setTagText(tagsText(parseTags(tagText)));
              setFilters({ tags: parseTags(tagText) });
            }
          } else if (e.key === 'Escape' && suggesting) {
            // Esc closes the suggestions first (the query and its results stay).
            e.stopPropagation();
            setTagFocus(false);
          }
        }}
      />
      {tagFocus && fragment && !fragmentIsTag && suggestions.length === 0 && (
        <p className="tag-suggestions tag-suggestions--none muted small" role="status" data-testid="no-tag">
          No note is tagged #{fragment}… (Enter filters by it anyway)
        </p>
      )}
      {suggesting && (
        <ul className="tag-suggestions" id="tag-suggestions" aria-label="Tag suggestions">
          {suggestions.map((t, i) => (
            <li key={t.tag}>
              <button
                type="button"
                id={`tag-suggestion-${i}`}
                className={`chip${i === activeTag ? ' chip--on' : ''}`}
                aria-selected={i === activeTag}
                tabIndex={-1}
                title={`${t.count} ${t.count === 1 ? 'note' : 'notes'} tagged #${t.tag}`}
                onMouseDown={(e) => e.preventDefault()}
                onClick={() => pickTag(t.tag)}
              >
                #{t.tag} <span className="tag-suggestions__count">{t.count}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** The folder and type chips, and the tag field. */
function Filters({ types, held, tag, topTags }: { types: string[]; held: Record<string, number>; tag: TagField; topTags: AppState['topTags'] }) {
  const { filters, setFilters, roots } = useAppFields('filters', 'setFilters', 'roots');
  return (
    <div className="filters" aria-label="Filters">
      {roots.length > 1 && (
        <div className="filters__group">
          <span className="filters__label">Folders</span>
          {roots.map((r) => (
            <Chip key={r.id} active={filters.roots.includes(r.path)} onClick={() => setFilters({ roots: toggle(filters.roots, r.path) })} title={r.path}>
              {r.path.split(/[\\/]/).pop()}
            </Chip>
          ))}
        </div>
      )}
      {types.length > 1 && (
        <div className="filters__group" data-testid="type-filter">
          <span className="filters__label">Types</span>
          {types.map((t) => (
            <Chip key={t} active={filters.types.includes(t)} onClick={() => setFilters({ types: toggle(filters.types, t) })} title={`${held[t] ?? 0} ${t} files`}>
              {t}
            </Chip>
          ))}
        </div>
      )}
      <TagFilter tag={tag} topTags={topTags} />
    </div>
  );
}

/** How many passages, how many stand out, the time, the mode, and what the search went without. */
function SearchMeta({ results, relevant }: { results: RetrievalResult; relevant: number }) {
  return (
    <p className="muted small" data-testid="search-meta">
      {results.chunks.length === 0 ? 'No passage matches' : relevant < results.chunks.length ? `${plural(relevant, 'passage')} ${relevant === 1 ? 'stands' : 'stand'} out of ${results.chunks.length}` : plural(results.chunks.length, 'passage')} · {formatMs(results.latency_ms)} · {results.meta.mode}
      {results.meta.trigram_used && ' · substring match'}
      {results.meta.limits.length > 0 && ` · ${results.meta.limits.map((l) => l.detail).join('; ')}`}
    </p>
  );
}

/** One result: its title, place and snippet (opens the passage), its tags, and the note in the graph or in Obsidian. */
function ResultItem({ c, i, active, addTag }: { c: RetrievalResult['chunks'][number]; i: number; active: boolean; addTag: (t: string) => void }) {
  const { openPreview, showGraph, openInEditor, roots } = useAppFields('openPreview', 'showGraph', 'openInEditor', 'roots');
  return (
    <li id={`result-${i}`} className={`result${active ? ' result--active' : ''}`} aria-selected={active}>
      <button type="button" className="result__main" onClick={() => void openPreview(c.locator)} data-testid="result">
        <span className="result__title">{c.title}</span>
        {c.heading && <span className="result__heading"> › {c.heading}</span>}
        <span className="result__loc">
          {c.path}:{c.start_line}–{c.end_line}
        </span>
        <span className="snippet" dir="auto">
          <Highlighted text={c.snippet} />
        </span>
      </button>
      <div className="result__side">
        {c.tags.sensitivity === 'restricted' && (
          <span className="badge badge--restricted" data-testid="result-restricted" title="A restricted note, shown because you allowed them in Settings">
            restricted
          </span>
        )}
        <span className="tag" title={c.tags.type === 'code' ? 'Code' : 'File type'}>
          {c.tags.type === 'code' && c.tags.language ? c.tags.language : c.tags.type}
        </span>
        {parseTags(c.tags.tags ?? '')
          .slice(0, 4)
          .map((t) => (
            <button key={t} type="button" className="tag tag--note" data-testid="result-tag" title={`Only passages tagged #${t}`} onClick={() => addTag(t)}>
              #{t}
            </button>
          ))}
        <button type="button" className="btn btn--ghost btn--small result__graph" onClick={() => void showGraph(c.path)} title="This note in the knowledge graph" data-testid="result-graph">
          <span aria-hidden>⋈</span> In graph
        </button>
        {roots.some((r) => r.path === c.root && r.obsidian_vault) && (
          <button type="button" className="link small" data-testid="result-obsidian" onClick={() => void openInEditor(c.locator, 'obsidian')} title="Open this note in Obsidian">
            Open in Obsidian
          </button>
        )}
      </div>
    </li>
  );
}

/** The hint shown before anything is typed: what search finds, or the tags it is limited to. */
function EmptyHint({ tags }: { tags: readonly string[] }) {
  if (tags.length === 0) return <p className="muted empty-hint">Type to search every indexed file. Exact terms and codes are found even inside words.</p>;
  return (
    <p className="muted empty-hint" data-testid="tag-hint">
      Type to search the notes tagged {tags.map((t) => `#${t}`).join(', ')}.
    </p>
  );
}

export function SearchView() {
  const { query, setQuery, search, results, searching, searchError, filters, setFilters, openPreview } = useAppFields('query', 'setQuery', 'search', 'results', 'searching', 'searchError', 'filters', 'setFilters', 'openPreview');
  const { held, types, topTags } = useWorkspaceFilters(filters.types);
  const tag = useTagField(filters, setFilters);
  const { showAll, setShowAll, relevant, shown, active, setActive, list } = useResultList(results);
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => input.current?.focus(), []);
  useEffect(() => {
    const t = setTimeout(() => void search(), DEBOUNCE_MS);
    return () => clearTimeout(t);
  }, [query, search]);

  return (
    <section className="view view--search" aria-label="Search">
      <header className="view__header">
        <h1>Search</h1>
      </header>
      <input
        dir="auto"
        id="search-input"
        ref={input}
        className="search-input"
        type="search"
        value={query}
        placeholder="Words, exact terms, error codes, “a phrase”, prefix* (↓ ↑ to move, Enter to open)"
        aria-label="Search query"
        onChange={(e) => setQuery(e.target.value)}
        onKeyDown={(e) => {
          const n = shown.length;
          if (e.key === 'ArrowDown' && n > 0) {
            e.preventDefault();
            setActive((a) => Math.min(n - 1, a + 1));
          } else if (e.key === 'ArrowUp' && n > 0) {
            e.preventDefault();
            setActive((a) => Math.max(0, a - 1));
          } else if (e.key === 'Enter' && shown[Math.max(0, active)]) {
            e.preventDefault();
            void openPreview(shown[Math.max(0, active)]!.locator);
          }
        }}
        aria-activedescendant={active >= 0 ? `result-${active}` : undefined}
        aria-controls="search-results"
      />
      <Filters types={types} held={held} tag={tag} topTags={topTags} />

      {searchError && (
        <p className="error-line" role="alert">
          {searchError}
        </p>
      )}
      {results && <SearchMeta results={results} relevant={relevant} />}
      {searching && !results && <p className="muted">Searching…</p>}
      <ResultList shown={shown} active={active} list={list} addTag={tag.addTag} />
      {results && !showAll && relevant < results.chunks.length && (
        <button type="button" className="btn btn--ghost more-results" onClick={() => setShowAll(true)}>
          Show {results.chunks.length - relevant} more
        </button>
      )}
      {!results && !query && <EmptyHint tags={filters.tags} />}
    </section>
  );
}

function ResultList({ shown, active, list, addTag }: { shown: RetrievalResult['chunks']; active: number; list: RefObject<HTMLOListElement | null>; addTag: (t: string) => void }) {
  return (
    <ol className="results" aria-label="Results" id="search-results" ref={list}>
      {shown.map((c, i) => (
        <ResultItem key={`${c.chunk_id ?? c.locator}`} c={c} i={i} active={i === active} addTag={addTag} />
      ))}
    </ol>
  );
}
