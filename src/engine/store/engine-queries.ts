/** Queries the engine's API answers from the store directly (no module of their own yet). */
import { sqliteOf } from './connection.ts';
import type { Store } from './store.ts';

/** Rows of the stored graph: entities, relations and mentions. */
export function graphRowCounts(store: Store): { entities: number; relations: number; mentions: number } {
  return sqliteOf(store.db)
    .prepare('SELECT (SELECT COUNT(*) FROM entities) AS entities, (SELECT COUNT(*) FROM relations) AS relations, (SELECT COUNT(*) FROM mentions) AS mentions')
    .get() as { entities: number; relations: number; mentions: number };
}
