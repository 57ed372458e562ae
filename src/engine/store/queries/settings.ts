/** Settings: one JSON value per key (cached model hashes, marks of work done, a root's walk issues). */
import { sqliteOf, type ReadConnection, type WriteConnection } from '../connection.ts';
import { statements } from '../statements.ts';

export function getSetting<T>(connection: ReadConnection, key: string): T | undefined {
  const row = statements(sqliteOf(connection)).prepare('SELECT value_json FROM settings WHERE key = ?').get(key) as { value_json: string } | undefined;
  return row ? (JSON.parse(row.value_json) as T) : undefined;
}

export function setSetting(connection: WriteConnection, key: string, value: unknown): void {
  statements(sqliteOf(connection))
    .prepare('INSERT INTO settings (key, value_json) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value_json = excluded.value_json')
    .run(key, JSON.stringify(value));
}
