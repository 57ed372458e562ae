/**
 * A request's filters over documents: the sensitivity policy (visibility.ts) in SQL, and what SQL
 * cannot express (globs, tag lists, roots) as a JS function the query calls per document.
 */
import picomatch from 'picomatch';
import { sqliteOf, type ReadConnection } from '../connection.ts';
import { allowedParam, visibleSql, type VisibilityPolicy } from '../visibility.ts';

export interface ChunkFilters extends VisibilityPolicy {
  includeGlobs: readonly string[];
  excludeGlobs: readonly string[];
  types: readonly string[];
  languages: readonly string[];
  tags: readonly string[];
  roots: readonly string[];
}

export function hasJsFilter(f: ChunkFilters): boolean {
  return f.includeGlobs.length + f.excludeGlobs.length + f.types.length + f.languages.length + f.tags.length + f.roots.length > 0;
}

/** The JS side of the filters that SQL cannot express (globs, tag lists); null when none is set. */
function buildFilter(f: ChunkFilters) {
  const include = f.includeGlobs.length > 0 ? picomatch([...f.includeGlobs], { dot: true }) : null;
  const exclude = f.excludeGlobs.length > 0 ? picomatch([...f.excludeGlobs], { dot: true }) : null;
  const types = f.types.length > 0 ? new Set(f.types.map((t) => t.toLowerCase())) : null;
  const languages = f.languages.length > 0 ? new Set(f.languages.map((t) => t.toLowerCase())) : null;
  const tags = f.tags.length > 0 ? new Set(f.tags.map((t) => t.toLowerCase().replace(/^#/, ''))) : null;
  const roots = f.roots.length > 0 ? new Set(f.roots) : null;
  if (!include && !exclude && !types && !languages && !tags && !roots) return null;
  return (p: string, type: string, language: string | null, tagsJson: string, root: string): boolean => {
    if (include && !include(p)) return false;
    if (exclude && exclude(p)) return false;
    if (types && !types.has(type)) return false;
    if (roots && !roots.has(root)) return false;
    if (languages || tags) {
      const t = JSON.parse(tagsJson) as Record<string, string>;
      if (languages && !languages.has((language ?? '').toLowerCase()) && !languages.has((t.lang ?? '').toLowerCase())) return false;
      if (tags && !(t.tags ?? '').split(',').some((x) => tags.has(x.toLowerCase()))) return false;
    }
    return true;
  };
}

/** The WHERE clause (over c, d, r) for sensitivity and the JS-side filters, and a count of rows the filters dropped. */
export function filterSql(connection: ReadConnection, f: ChunkFilters): { where: string; params: { allowed: string }; filtered: () => number } {
  const filter = buildFilter(f);
  let filtered = 0;
  if (filter) {
    sqliteOf(connection).function('syn_filter', { deterministic: true }, (p: unknown, type: unknown, language: unknown, tagsJson: unknown, root: unknown) => {
      const ok = filter(String(p), String(type), language === null ? null : String(language), String(tagsJson), String(root));
      if (!ok) filtered++;
      return ok ? 1 : 0;
    });
  }
  const where = [visibleSql(f, 'd'), filter ? 'syn_filter(d.path, d.type, d.language, d.tags_json, r.path) = 1' : '1'].join(' AND ');
  return { where, params: { allowed: allowedParam(f) }, filtered: () => filtered };
}
