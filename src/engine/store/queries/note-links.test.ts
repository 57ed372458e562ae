import BetterSqlite3 from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { asWriteConnection } from '../connection.ts';
import { migrate } from '../database.ts';
import { MIGRATIONS } from '../migrations/index.ts';
import { writeNoteDegrees } from './graph.ts';
import { forgetNoteLinks, storedNoteLinks, writeNoteLinks } from './note-links.ts';

function store() {
  const sqlite = new BetterSqlite3(':memory:');
  sqlite.pragma('foreign_keys = ON');
  migrate(sqlite, MIGRATIONS);
  sqlite.prepare("INSERT INTO roots (id, path, added_at) VALUES (1, '/notes', 'now')").run();
  const doc = sqlite.prepare("INSERT INTO documents (id, root_id, path, doc_id, type, mtime_ms, size, status, indexed_at, sensitivity) VALUES (?, 1, ?, ?, 'markdown', 0, 0, 'indexed', 'now', ?)");
  doc.run(1, 'a.md', 'a.md', null);
  doc.run(2, 'b.md', 'b.md', null);
  doc.run(3, 'c.md', 'c.md', 'restricted');
  const db = asWriteConnection(sqlite);
  writeNoteDegrees(db, ['a.md', 'b.md', 'c.md'].map((path) => ({ path, degree: 2, publicDegree: 1 })));
  return { sqlite, db };
}

describe('kept note links', () => {
  it('are read back with each weight to the bit, per audience, and only for notes whose links are counted', () => {
    const { sqlite, db } = store();
    const w = 1 / (Math.sqrt(3) * 7) + 0.1;
    writeNoteLinks(db, [
      { path: 'a.md', all: new Map([['b.md', w], ['c.md', 0.5]]), public: new Map([['b.md', w / 3]]) },
      { path: 'b.md', all: new Map([['a.md', 1 / 3]]), public: null },
    ]);
    expect(storedNoteLinks(db, ['a.md', 'b.md', 'c.md'], 'all').links).toEqual(
      new Map([
        ['a.md', new Map([['b.md', w], ['c.md', 0.5]])],
        ['b.md', new Map([['a.md', 1 / 3]])],
      ]),
    );
    // The public links where they differ; the whole graph's where they are the same; the sources' stored degrees with them.
    const pub = storedNoteLinks(db, ['a.md', 'b.md'], 'public');
    expect(pub.links).toEqual(new Map([['a.md', new Map([['b.md', w / 3]])], ['b.md', new Map([['a.md', 1 / 3]])]]));
    expect(pub.degrees.get('a.md')).toBe(1);
    sqlite.close();
  });

  it('keep nothing from before when a note is counted again, and go with their note', () => {
    const { sqlite, db } = store();
    writeNoteLinks(db, [{ path: 'a.md', all: new Map([['b.md', 1]]), public: new Map([['b.md', 0.5]]) }]);
    writeNoteLinks(db, [{ path: 'a.md', all: new Map(), public: null }]);
    expect(storedNoteLinks(db, ['a.md'], 'all').links).toEqual(new Map([['a.md', new Map()]]));
    expect(storedNoteLinks(db, ['a.md'], 'public').links).toEqual(new Map([['a.md', new Map()]]));
    writeNoteLinks(db, [{ path: 'b.md', all: new Map([['a.md', 1]]), public: null }]);
    forgetNoteLinks(db, ['b.md']);
    expect(sqlite.prepare('SELECT COUNT(*) FROM note_links').pluck().get()).toBe(0);
    writeNoteLinks(db, [{ path: 'b.md', all: new Map([['a.md', 1]]), public: null }]);
    sqlite.prepare('DELETE FROM documents WHERE id = 2').run();
    expect(sqlite.prepare('SELECT COUNT(*) FROM note_links').pluck().get()).toBe(0);
    sqlite.close();
  });
});
