/**
 * The sensitivity policy, written once (docs/design.md §4; §3: one owner for SQL). A caller sees a document
 * whose sensitivity is unset, 'public', or one of the labels the request allows (compared in lower
 * case, as the indexer stores them: ingest/sensitivity.ts); with enforcement off it sees every
 * document. Every query of the store layer that reads documents or chunks for a caller takes its
 * SQL form from here, and code that filters rows already read takes the predicate; the property
 * test in visibility.test.ts holds the three forms (visible, hidden, predicate) together.
 */

export interface VisibilityPolicy {
  allowSensitivity: readonly string[];
  sensitivityEnable: boolean;
}

/** The sensitivity every caller may see. */
const PUBLIC = 'public';

/** The allowed labels as the SQL forms bind them (`@allowed`, a JSON array). */
export const allowedParam = (policy: Pick<VisibilityPolicy, 'allowSensitivity'>): string => JSON.stringify(policy.allowSensitivity.map((s) => s.toLowerCase()));

/**
 * The documents (alias `d` unless named) this caller may see, as a WHERE fragment that reads the
 * allowed labels from `@allowed` (allowedParam); '1' when enforcement is off.
 */
export function visibleSql(policy: Pick<VisibilityPolicy, 'sensitivityEnable'>, alias = 'd'): string {
  if (!policy.sensitivityEnable) return '1';
  const s = `${alias}.sensitivity`;
  return `(${s} IS NULL OR ${s} = '${PUBLIC}' OR ${s} IN (SELECT value FROM json_each(@allowed)))`;
}

/**
 * The documents hidden from this caller: the negation of visibleSql, written so that SQLite finds
 * them through the partial index on marked documents (migration 007) instead of reading every
 * document. Enforcement is the caller's to check: this fragment always applies the policy.
 */
export function hiddenSql(alias = 'd'): string {
  const s = alias === '' ? 'sensitivity' : `${alias}.sensitivity`;
  return `${s} IS NOT NULL AND ${s} != '${PUBLIC}' AND ${s} NOT IN (SELECT value FROM json_each(@allowed))`;
}

/** The policy as a predicate over a document's stored sensitivity, for rows already read. */
export function visibleTo(policy: VisibilityPolicy): (sensitivity: string | null) => boolean {
  const allowed = new Set(policy.allowSensitivity.map((s) => s.toLowerCase()));
  return (sensitivity) => !policy.sensitivityEnable || !sensitivity || sensitivity === PUBLIC || allowed.has(sensitivity.toLowerCase());
}
