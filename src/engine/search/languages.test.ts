import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TempDirs } from '../../../test/helpers/tmp.ts';
import { createEngine, type Engine } from '../engine.ts';
import { isStopword } from './analyzer.ts';
import { queryLanguages, readerLanguage } from './lexical.ts';
import { readerPack } from '../lang/reader-packs.ts';
import { expansionTerms } from './prf.ts';
import { openReadConnection, sqliteOf } from '../store/connection.ts';
import { DB_FILE } from '../store/database.ts';

/** A small German vault: a team's notes on its app, in the way people write them. */
const VAULT: Record<string, string> = {
  'Papierkorb.md': [
    '# Papierkorb',
    '',
    'Wenn du eine Notiz löschst, landet sie zuerst im Papierkorb des Tresors.',
    'Gelöschte Dateien bleiben dort 30 Tage, danach entfernt die App sie endgültig.',
    'Du kannst eine Datei aus dem Papierkorb jederzeit wiederherstellen, solange sie noch dort liegt.',
    '',
  ].join('\n'),
  'Testphase.md': [
    '# Testphase',
    '',
    'Die Testphase der neuen Synchronisierung beginnt am 3. März 2026.',
    'Zwölf Kolleginnen und Kollegen aus dem Support nehmen teil.',
    'Rückmeldungen sammeln wir in der Tabelle „Testphase Rückmeldungen“.',
    '',
  ].join('\n'),
  'Kalender-Plugin.md': [
    '# Kalender-Plugin',
    '',
    'Das Kalender-Plugin zeigt die Tagesnotizen als Monatsansicht.',
    'Gepflegt wird das Plugin von Jana Becker aus dem Team Werkzeuge.',
    'Neue Versionen erscheinen ungefähr alle sechs Wochen.',
    '',
  ].join('\n'),
  'Preise.md': [
    '# Preise',
    '',
    'Das Abo für die Synchronisierung kostet 8 € im Monat oder 96 € im Jahr.',
    'Vereine und Schulen bekommen 40 % Rabatt auf jedes Abo.',
    'Eine Erstattung ist innerhalb von 14 Tagen nach dem Kauf möglich.',
    '',
  ].join('\n'),
  'Relay.md': [
    '# Relay server',
    '',
    'The relay server keeps deleted files for 45 days before it removes them for good.',
    'It restarts every night at 03:00 so that its memory stays low.',
    '',
  ].join('\n'),
};

const temp = new TempDirs();
let dataDir: string;
let engine: Engine;

beforeAll(async () => {
  const vault = temp.make('syn-de-vault-', VAULT);
  dataDir = temp.make('syn-de-data-');
  // The reader's own outcome: these tests read which sentence is quoted (the fitted scorer has tests of its own).
  engine = createEngine({ dataDir, env: {}, config: { gpu: 'off', llmThreads: 1, readerProfile: 'none' } });
  await engine.index([vault]);
});
afterAll(async () => {
  await engine.dispose();
  temp.cleanup();
});

describe('a German vault', () => {
  it('stores each chunk with its language, German notes as German and the English one as English', () => {
    const db = new BetterSqlite3(path.join(dataDir, DB_FILE), { readonly: true });
    try {
      const rows = db.prepare('SELECT d.path, c.lang FROM chunks c JOIN documents d ON d.id = c.document_id ORDER BY d.path').all() as { path: string; lang: string }[];
      expect(rows.filter((r) => r.path !== 'Relay.md').every((r) => r.lang === 'de')).toBe(true);
      expect(rows.find((r) => r.path === 'Relay.md')?.lang).toBe('en');
    } finally {
      db.close();
    }
  });

  it('reads a short German question as German though the detector only leans, and an English one as English', () => {
    const db = openReadConnection(path.join(dataDir, DB_FILE));
    // Both are unsure for the detector: German by its function words (wann, die; kann, ich), so the reader reads German.
    expect(queryLanguages(db, 'Wann beginnt die Testphase?')).toEqual(['de', 'en']);
    expect(queryLanguages(db, 'Kann ich Sync kündigen?')).toEqual(['de', 'en']);
    expect(queryLanguages(db, 'relay port')).toEqual(['en', 'de']);
    expect(queryLanguages(db, 'How long does the relay server keep deleted files?')).toEqual(['en']);
    expect(queryLanguages(db, 'Wie lange bleiben gelöschte Dateien im Papierkorb?')).toEqual(['de']);
    sqliteOf(db).close();
  });

  it("reads a Russian question with Russian's reader pack though it is searched with English's analysis", () => {
    const db = openReadConnection(path.join(dataDir, DB_FILE));
    const hasPack = (lang: string) => readerPack(lang) !== undefined;
    try {
      expect(queryLanguages(db, 'Напомни, когда начнётся тестовая фаза?')[0]).toBe('en');
      expect(readerLanguage(db, 'Напомни, когда начнётся тестовая фаза?', hasPack)).toBe('ru');
      expect(readerLanguage(db, 'Wie lange bleiben gelöschte Dateien im Papierkorb?', hasPack)).toBe('de');
      expect(readerLanguage(db, 'How long does the relay server keep deleted files?', hasPack)).toBe('en');
      // Without a pack for it, the language it is searched in.
      expect(readerLanguage(db, 'Напомни, когда начнётся тестовая фаза?', () => false)).toBe('en');
    } finally {
      sqliteOf(db).close();
    }
  });

  it('never expands a German query with German function words', async () => {
    const r = await engine.retrieve('Abo Synchronisierung Testphase Papierkorb', {}, 5);
    const db = openReadConnection(path.join(dataDir, DB_FILE));
    try {
      const english = expansionTerms(db, r.chunks, r.meta.terms, 20);
      const german = expansionTerms(db, r.chunks, r.meta.terms, 20, 'de');
      // Read as English, German articles and conjunctions look like content words.
      expect(english.some((w) => isStopword(w, 'de'))).toBe(true);
      expect(german.length).toBeGreaterThan(0);
      expect(german.filter((w) => isStopword(w, 'de'))).toEqual([]);
    } finally {
      sqliteOf(db).close();
    }
  });

  it('finds a note by another form of its words ("Dateien" / "Datei", "gelöschten" / "Gelöschte")', async () => {
    const r = await engine.retrieve('gelöschten Datei wiederherstellen', {}, 3);
    expect(r.chunks[0]?.path).toBe('Papierkorb.md');
    // The snippet marks the words as written.
    expect(r.chunks[0]?.snippet).toContain('«Gelöschte» «Dateien»');
  });

  it('searches a German question by its content words, not by "wie", "ich", "die", "nicht"', async () => {
    const r = await engine.retrieve('Wie lange kann ich die gelöschten Dateien nicht wiederherstellen?', {}, 5);
    expect(r.meta.terms).toEqual(['lang', 'geloscht', 'datei', 'wiederherstell']);
    expect(r.chunks[0]?.path).toBe('Papierkorb.md');
  });

  it('answers German questions with the sentence that holds the asked fact', async () => {
    const cases: [string, string][] = [
      ['Wie lange bleiben gelöschte Dateien im Papierkorb?', '30 Tage'],
      ['Wann beginnt die Testphase der Synchronisierung?', '3. März 2026'],
      ['Wer pflegt das Kalender-Plugin?', 'Jana Becker'],
      ['Wie viel kostet das Abo im Jahr?', '96 €'],
      ['Wie viel Prozent Rabatt bekommen Vereine?', '40 %'],
      ['Wie oft erscheinen neue Versionen des Kalender-Plugins?', 'sechs Wochen'],
    ];
    for (const [question, fact] of cases) {
      const a = await engine.answer(question);
      expect({ question, outcome: a.outcome }).toEqual({ question, outcome: 'answered' });
      // The fact is in the lead sentence: before the first citation marker.
      expect(a.answer.slice(0, a.answer.indexOf('[')), question).toContain(fact);
    }
  });

  it('reads a compound no note writes whole by its parts ("Vereinsrabatt": Verein, Rabatt)', async () => {
    const r = await engine.retrieve('Vereinsrabatt', {}, 3);
    expect(r.meta.terms).toEqual(expect.arrayContaining(['vereinsrabatt', 'verein', 'rabatt']));
    expect(r.chunks[0]?.path).toBe('Preise.md');
    const a = await engine.answer('Wie viel Prozent Vereinsrabatt gibt es?');
    expect(a.outcome).toBe('answered');
    expect(a.answer).toContain('40 %');
  });

  it('still answers an English question from the English note of the vault', async () => {
    const a = await engine.answer('How long does the relay server keep deleted files?');
    expect(a.outcome).toBe('answered');
    expect(a.answer).toContain('45 days');
  });

  it('says "not in your notes" when the notes lack what a German question asks', async () => {
    const a = await engine.answer('Wie viele Wochen Elternzeit bekommen Mitarbeiter?');
    expect(a.outcome).toBe('not_found');
  });
});

describe('a German vault indexed by an older analyzer', () => {
  it('is re-analyzed in its languages when opened for writing, and a reader asks for that first', async () => {
    const vault = temp.make('syn-de-old-vault-', { 'Papierkorb.md': VAULT['Papierkorb.md']! });
    const dir = temp.make('syn-de-old-data-');
    const first = createEngine({ dataDir: dir, env: {} });
    await first.index([vault]);
    await first.dispose();
    // What an older version left: English terms for German text, no languages, another analyzer version.
    const db = new BetterSqlite3(path.join(dir, DB_FILE));
    db.prepare("UPDATE settings SET value_json = ? WHERE key = 'lexical_analyzer'").run(JSON.stringify('snowball-en-ru-v3'));
    db.prepare('UPDATE chunks SET lang = NULL').run();
    db.close();

    expect(() => createEngine({ dataDir: dir, env: {}, readOnly: true })).toThrow(/another version of the analyzer/);
    const progress: { done: number; total: number }[] = [];
    const reopened = createEngine({ dataDir: dir, env: {}, onStoreUpgrade: (p) => progress.push(p) });
    // The writer says how far the rebuild has come, ending with every note re-read.
    expect(progress.at(-1)).toEqual({ done: 1, total: 1 });
    try {
      const r = await reopened.retrieve('gelöschten Datei', {}, 3);
      expect(r.chunks[0]?.path).toBe('Papierkorb.md');
    } finally {
      await reopened.dispose();
    }
    const after = new BetterSqlite3(path.join(dir, DB_FILE), { readonly: true });
    try {
      expect((after.prepare('SELECT DISTINCT lang FROM chunks').all() as { lang: string }[]).map((r) => r.lang)).toEqual(['de']);
    } finally {
      after.close();
    }
  });
});

describe('French and Spanish notes', () => {
  it('are stemmed and answered in their own language', async () => {
    const vault = temp.make('syn-fr-es-vault-', {
      'Corbeille.md': '# Corbeille\n\nQuand vous supprimez une note, elle va d’abord dans la corbeille du coffre.\nLes fichiers supprimés restent 30 jours dans la corbeille, puis ils sont effacés définitivement.\n',
      'Prix.md': '# Prix\n\nL’abonnement de synchronisation coûte 8 € par mois.\nLes associations obtiennent une remise de 40 % sur chaque abonnement.\n',
      'Papelera.md': '# Papelera\n\nLos archivos eliminados se guardan durante 30 días en la papelera y después se borran para siempre.\n',
    });
    const dir = temp.make('syn-fr-es-data-');
    const e = createEngine({ dataDir: dir, env: {} });
    try {
      await e.index([vault]);
      // "fichier" finds "fichiers", "supprimé" finds "supprimés".
      expect((await e.retrieve('fichier supprimé', {}, 3)).chunks[0]?.path).toBe('Corbeille.md');
      const cases: [string, string][] = [
        ['Combien de temps les fichiers supprimés restent-ils dans la corbeille ?', '30 jours'],
        ['Combien coûte l’abonnement par mois ?', '8 €'],
        ['¿Cuánto tiempo se guardan los archivos eliminados en la papelera?', '30 días'],
      ];
      for (const [question, fact] of cases) {
        const a = await e.answer(question);
        // The reader finds the sentence that states it (the badge is the calibrated scorer's: docs/answers.md).
        expect({ question, outcome: a.reader?.outcome }).toEqual({ question, outcome: 'answered' });
        expect(a.outcome).not.toBe('not_found');
        expect(a.reader?.quote).toContain(fact);
        expect(a.answer).toContain(fact);
      }
      expect((await e.answer('Combien de semaines de congé parental les employés ont-ils ?')).outcome).toBe('not_found');
    } finally {
      await e.dispose();
    }
  });
});
