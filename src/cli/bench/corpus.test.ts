import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { TempDirs } from '../../../test/helpers/tmp.ts';
import { createEngine } from '../../engine/index.ts';
import { generateZipfCorpus } from './search.ts';

const temp = new TempDirs();
afterAll(() => temp.cleanup());

describe('generated bench notes', () => {
  it('carry links, tags, people and names at the density of the sample vault, as the graph extracts them', async () => {
    const corpus = temp.make('syn-bench-corpus-');
    const { files } = generateZipfCorpus(corpus, 1000);
    const dataDir = temp.make();
    const engine = createEngine({ dataDir, env: { SYN_EMBED_MODEL: '', SYN_CHAT_MODEL: '' }, config: { graphLlm: false } });
    await engine.index([corpus]);
    await engine.dispose();
    const db = new BetterSqlite3(path.join(dataDir, 'synapsis.db'), { readonly: true });
    try {
      const perNote = (where: string) => (db.prepare(`SELECT COUNT(*) FROM relations r JOIN entities e ON e.id = r.dst_id WHERE ${where}`).pluck().get() as number) / files;
      // The sample vault: 5.3 links, 3.1 tags, 7.7 names, 2.9 people, 2.4 dates per note.
      expect(perNote("r.type = 'links_to'")).toBeGreaterThan(4);
      expect(perNote("e.type = 'tag'")).toBeGreaterThan(2.5);
      expect(perNote("e.type = 'name'")).toBeGreaterThan(6);
      expect(perNote("e.type = 'person'")).toBeGreaterThan(1.5);
      expect(perNote("e.type = 'date'")).toBeGreaterThan(1.5);
      // Links resolve to the generated notes.
      const notes = db.prepare("SELECT COUNT(*) FROM note_names WHERE key IN (SELECT key FROM entities WHERE type = 'ref')").pluck().get() as number;
      expect(notes).toBeGreaterThan(files / 2);
    } finally {
      db.close();
    }
  });
});
