import type { Database } from 'better-sqlite3';

/** One numbered schema change (docs/design.md §3, Signal's ts/sql/migrations); never edited once shipped. */
export interface Migration {
  version: number;
  name: string;
  up(db: Database): void;
}
