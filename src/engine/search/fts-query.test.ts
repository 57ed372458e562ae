import BetterSqlite3 from 'better-sqlite3';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildFtsQuery } from './fts-query.ts';

describe('buildFtsQuery', () => {
  it('ORs quoted stemmed terms, drops stopwords, keeps phrases and prefixes', () => {
    expect(buildFtsQuery('the storage decisions').match).toBe('"storag" OR "decis"');
    expect(buildFtsQuery('"offline sync" engine').match).toBe('"offlin sync" OR "engin"');
    expect(buildFtsQuery('synap*').match).toBe('"synap"*');
  });

  it('shows the words of a phrase as matched, each word with its terms in every language', () => {
    const q = buildFtsQuery('"sync team" relay');
    expect(q.terms).toEqual(['relay']);
    expect(q.shown).toEqual(expect.arrayContaining(['sync', 'team', 'relay']));
    expect(q.words).toEqual([['sync'], ['team'], ['relay']]);
    const two = buildFtsQuery('"Dateien verschlüsselt"', ['de', 'en']);
    expect(two.words).toEqual([['datei', 'dateien'], ['verschlusselt', 'verschlüsselt']]);
  });

  it('searches a Chinese or Japanese run by its words, function words dropped', () => {
    expect(buildFtsQuery('购买后多久可以退款').terms).toEqual(['购买', '后', '多久', '退款']);
    expect(buildFtsQuery('返金ポリシー').terms).toEqual(['返金', 'ポリシー']);
  });

  it('stems Russian so different forms meet, and folds ё to е', () => {
    expect(buildFtsQuery('настроить').terms).toEqual(buildFtsQuery('настройка').terms);
    expect(buildFtsQuery('ёлка').terms).toEqual(buildFtsQuery('елка').terms);
  });

  it('splits identifiers into parts and keeps literals for the trigram index', () => {
    const q = buildFtsQuery('retrySync AUR-1102');
    expect(q.terms).toEqual(expect.arrayContaining(['retrysync', 'retri', 'sync', 'aur', '1102']));
    expect(q.literals).toEqual(expect.arrayContaining(['retrySync', 'AUR-1102']));
  });

  it('neutralises FTS5 syntax and keeps all-stopword queries searchable', () => {
    expect(buildFtsQuery('title:x AND (y OR NOT z) NEAR/3 x').match).toBe('"titl" OR "x" OR "y" OR "not" OR "z" OR "near" OR "3"');
    expect(buildFtsQuery('"unbalanced quote').match).toBe('"unbalanc" OR "quot"');
    expect(buildFtsQuery('to be or').match).toBe('"to" OR "be" OR "or"');
    expect(buildFtsQuery('  ?!"" -- ').match).toBeNull();
  });

  it('never produces an expression FTS5 rejects, whatever the input', () => {
    const db = new BetterSqlite3(':memory:');
    db.exec("CREATE VIRTUAL TABLE t USING fts5(body, tokenize = 'unicode61 remove_diacritics 2')");
    db.exec("CREATE VIRTUAL TABLE tri USING fts5(body, tokenize = 'trigram')");
    db.prepare('INSERT INTO t (body) VALUES (?)').run('some text to match against');
    const stmt = db.prepare('SELECT COUNT(*) FROM t WHERE t MATCH ?');
    const syntax = fc.constantFrom('"', '*', '(', ')', ':', '^', '-', '+', 'AND', 'OR', 'NOT', 'NEAR', '{', '}', '\u0000', 'ё', '🙂', '\u202e');
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.string(), syntax, fc.string({ unit: 'binary' })), { maxLength: 12 }), (parts) => {
        const q = buildFtsQuery(parts.join(' '));
        if (q.match !== null) expect(() => stmt.get(q.match)).not.toThrow();
      }),
      { numRuns: 500 },
    );
    db.close();
  });
});

describe('buildFtsQuery in several languages', () => {
  it('ORs the index terms of each analysis language, and drops each language\'s function words', () => {
    const q = buildFtsQuery('Wie lange bleiben gelöschte Dateien?', ['de', 'en']);
    expect(q.languages).toEqual(['de', 'en']);
    // German stems (datei) and English ones (dateien) both searched; "wie" is a German function word.
    expect(q.terms).toEqual(expect.arrayContaining(['datei', 'dateien', 'bleib', 'bleiben']));
    expect(q.terms).not.toContain('wie');
    expect(q.match).toContain('"datei" OR');
  });

  it('is the English query when no other language is asked for', () => {
    const q = 'Why did the team postpone QUIC? "relay outage" retry*';
    expect(buildFtsQuery(q, ['en'])).toEqual(buildFtsQuery(q));
    expect(buildFtsQuery(q).languages).toEqual(['en']);
  });
});
