import BetterSqlite3 from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { asReadConnection } from '../connection.ts';
import { LANGUAGE_PRESENT_SHARE, languagesPresent } from './fts.ts';

/** A store of `langs` chunks, in order: its chunks with their languages, and their FTS rows. */
function store(langs: readonly string[]) {
  const db = new BetterSqlite3(':memory:');
  db.exec('CREATE TABLE chunks (id INTEGER PRIMARY KEY, lang TEXT); CREATE INDEX chunks_lang ON chunks(lang)');
  db.exec("CREATE VIRTUAL TABLE chunks_fts USING fts5(body, content = '', contentless_delete = 1)");
  const chunk = db.prepare('INSERT INTO chunks (id, lang) VALUES (?, ?)');
  const row = db.prepare('INSERT INTO chunks_fts (rowid, body) VALUES (?, ?)');
  db.transaction(() => langs.forEach((l, i) => (chunk.run(i + 1, l), row.run(i + 1, 'words of a chunk'))))();
  return db;
}

describe('languagesPresent', () => {
  it('counts a language from its share of the chunks, not from one misread chunk of a large vault', () => {
    const total = 2000;
    const need = Math.ceil(total * LANGUAGE_PRESENT_SHARE);
    const langs = Array.from({ length: total }, (_, i) => (i < need ? 'de' : i < 2 * need - 1 ? 'pt' : 'en'));
    const db = store(langs);
    expect(languagesPresent(asReadConnection(db), ['de', 'pt', 'fr'])).toEqual(['de']);
    // Remembered until the store changes: one more Portuguese chunk makes Portuguese the vault's.
    db.prepare("INSERT INTO chunks (id, lang) VALUES (?, 'pt')").run(total + 1);
    expect(languagesPresent(asReadConnection(db), ['de', 'pt', 'fr'])).toEqual(['de', 'pt']);
    db.close();
  });

  it('counts a language of one chunk in a small vault', () => {
    const db = store(['en', 'en', 'de']);
    expect(languagesPresent(asReadConnection(db), ['de', 'fr'])).toEqual(['de']);
    db.close();
  });
});
