import { afterEach, describe, expect, it } from 'vitest';
import { TempDirs } from '../../../test/helpers/tmp.ts';
import { createEngine } from '../engine.ts';

const temp = new TempDirs();
afterEach(() => temp.cleanup());

// A vault of two languages: a query is read in the language its words lean to, or in both.
const NOTES = {
  'de/sync.md':
    '# Synchronisierung\n\nObsidian Sync hält die Dateien auf allen Geräten aktuell. Die Dateien werden verschlüsselt übertragen, und der Schlüssel verlässt nie dein Gerät. Ältere Versionen bleiben ein Jahr lang erhalten.\n',
  'de/publish.md':
    '# Veröffentlichen\n\nMit Publish stellst du deine Notizen als Website ins Netz. Die Seite lädt schnell, und du bestimmst, welche Notizen sichtbar sind.\n',
  'en/sync.md': '# Sync\n\nObsidian Sync keeps the files on every device up to date. Files are sent encrypted, and the key never leaves your device.\n',
  'en/backup.md': '# Backups\n\nA nightly backup copies the whole vault to an external drive, and the last thirty copies are kept.\n',
};

describe('lexical search in a vault of two languages', () => {
  it('matches German inflections and phrases with the German stemmer, English ones with the English one, and explains the match in the chunk language', async () => {
    const vault = temp.make('lex-lang-vault-', NOTES);
    const engine = createEngine({ dataDir: temp.make('lex-lang-data-'), env: {} });
    try {
      await engine.index([vault]);
      const top = async (query: string) => (await engine.retrieve(query, { mode: 'bm25', explain: true, use_graph: false }, 3)).chunks;
      // "verschlüsselte Datei" meets "Dateien werden verschlüsselt" only through the German stemmer.
      const inflected = await top('verschlüsselte Datei');
      expect(inflected[0]?.path).toBe('de/sync.md');
      expect(inflected[0]?.explain?.missing).toEqual([]);
      expect(inflected[0]?.explain?.fields.body.length).toBe(2);
      // A phrase is matched as a phrase in its own language, in either part of the vault, and shown as matched.
      const german = await top('"Dateien werden verschlüsselt"');
      expect(german.map((c) => c.path)).toEqual(['de/sync.md']);
      expect(german[0]?.snippet).toContain('«Dateien» werden «verschlüsselt»');
      expect(german[0]?.explain?.missing).toEqual([]);
      expect(german[0]?.explain?.fields.body.length).toBeGreaterThanOrEqual(2);
      const phrase = await engine.retrieve('"files are sent encrypted"', { mode: 'bm25', explain: true, use_graph: false }, 3);
      expect(phrase.chunks.map((c) => c.path)).toEqual(['en/sync.md']);
      expect(phrase.chunks[0]?.snippet).toContain('«Files» are «sent» «encrypted»');
      expect(phrase.chunks[0]?.explain?.missing).toEqual([]);
      expect(phrase.meta.terms).toEqual(expect.arrayContaining(['file', 'sent', 'encrypt']));
      // An English query with English inflections finds the English note.
      const english = await top('encrypting the file');
      expect(english[0]?.path).toBe('en/sync.md');
      expect(english[0]?.explain?.missing).toEqual([]);
    } finally {
      await engine.dispose();
    }
  });
});
