import { describe, expect, it } from 'vitest';
import { analysisLanguage, analyzeForIndex, detectChunkLanguages, compoundParts, isStopword, stemWord } from './analyzer.ts';

describe('analyzer stopwords', () => {
  it('keeps content verbs and words of time and order searchable ("make relay-dev", "before", "never")', () => {
    const terms = analyzeForIndex('Run make relay-dev before you take the app, and never get stuck the same way after that.').split(' ');
    for (const word of ['make', 'before', 'take', 'never', 'get', 'same', 'way', 'after']) {
      expect(isStopword(word)).toBe(false);
      expect(terms).toContain(stemWord(word));
    }
  });

  it('keeps Russian words of time and order searchable (после, перед, никогда, сегодня, раз)', () => {
    const terms = analyzeForIndex('После релиза и перед демо никогда не выкатываем сегодня второй раз.').split(' ');
    for (const word of ['после', 'перед', 'никогда', 'сегодня', 'раз']) expect(terms).toContain(stemWord(word));
  });

  it('still drops function words: articles, pronouns, prepositions, conjunctions, auxiliaries', () => {
    for (const word of ['the', 'a', 'of', 'and', 'is', 'were', 'they', 'which', 'и', 'в', 'на', 'что', 'он', 'был']) expect(isStopword(word)).toBe(true);
    expect(analyzeForIndex('the relay and the app')).toBe(`${stemWord('relay')} ${stemWord('app')}`);
  });
});

describe('analyzer languages', () => {
  it('keeps English and Russian index terms exactly as they are (the BM25 numbers of English and Russian sets rest on them)', () => {
    expect(analyzeForIndex('The engineers were restarting the relay servers before the outage; retrySync failed twice.')).toBe(
      'engin restart relay server befor outag retrysync retri sync fail twice',
    );
    expect(analyzeForIndex('Команда перенесла запуск: настройка серверов заняла две недели, ёлка стоит.')).toBe('команд перене запуск настро сервер заня две недел елк сто');
    // Text of another language analyzed as English: its words stay unstemmed, its function words kept.
    expect(analyzeForIndex('Café résumé naïve Zürich Dateien die und ich')).toBe('café résumé naïve zürich dateien die und ich');
    // English, Russian and unknown text share one analysis.
    for (const lang of ['en', 'ru', 'und', 'ja', undefined]) expect(analyzeForIndex('The relay servers restarted; сервера перезапущены.', lang)).toBe('relay server restart сервер переза');
    expect(analysisLanguage('ru')).toBe('en');
    expect(analysisLanguage('xx')).toBe('en');
    expect(analysisLanguage(null)).toBe('en');
    expect(analysisLanguage('de')).toBe('de');
  });

  it('stems German words with the German stemmer, umlauts included, and drops German function words', () => {
    expect(stemWord('dateien', 'de')).toBe(stemWord('datei', 'de'));
    expect(stemWord('tagen', 'de')).toBe(stemWord('tage', 'de'));
    expect(stemWord('gelöschte', 'de')).toBe(stemWord('gelöscht', 'de'));
    expect(stemWord('sicherungen', 'de')).toBe(stemWord('sicherung', 'de'));
    const terms = analyzeForIndex('Ich kann die gelöschten Dateien nicht wiederherstellen, und wie lange bleiben sie im Papierkorb?', 'de').split(' ');
    for (const word of ['ich', 'kann', 'die', 'nicht', 'und', 'wie', 'sie', 'im']) {
      expect(isStopword(word, 'de')).toBe(true);
      expect(terms).not.toContain(word);
    }
    expect(terms).toEqual(expect.arrayContaining([stemWord('dateien', 'de'), stemWord('papierkorb', 'de'), stemWord('wiederherstellen', 'de'), stemWord('lange', 'de')]));
    // In English text the same words are not function words ("die" is a verb there).
    expect(isStopword('die')).toBe(false);
  });

  it('keeps German numbers, units of time and content words searchable though the stopword list has them', () => {
    const terms = analyzeForIndex('Erstattungen sind sieben Tage lang möglich, zum Beispiel am Ende des Jahres.', 'de').split(' ');
    for (const word of ['sieben', 'tage', 'lang', 'möglich', 'beispiel', 'ende', 'jahres']) expect(terms).toContain(stemWord(word, 'de'));
  });

  it('stems French, Spanish and other Latin-script languages in their own language', () => {
    expect(stemWord('fichiers', 'fr')).toBe(stemWord('fichier', 'fr'));
    expect(analyzeForIndex('Les fichiers supprimés sont conservés dans la corbeille', 'fr').split(' ')).toEqual(
      ['fichiers', 'supprimés', 'conservés', 'corbeille'].map((w) => stemWord(w, 'fr')),
    );
    expect(isStopword('les', 'fr')).toBe(true);
    expect(stemWord('archivos', 'es')).toBe(stemWord('archivo', 'es'));
    expect(isStopword('los', 'es')).toBe(true);
    // Cyrillic words in a German note are still Russian; digits and identifiers keep their parts.
    expect(analyzeForIndex('Die Datei heißt retrySync, сервера 2026', 'de')).toBe(`${stemWord('datei', 'de')} ${stemWord('heißt', 'de')} retrysync retry sync сервер 2026`);
  });

  it("gives a word its own language's terms however often it was met in another language's text", () => {
    // A word's terms are kept once met: in English text, then in German and French text, then English again.
    const text = 'Die Dateien wurden gelöscht: files deleted, fichiers supprimés, the';
    const english = analyzeForIndex(text, 'en');
    const german = analyzeForIndex(text, 'de');
    const french = analyzeForIndex(text, 'fr');
    expect(new Set([english, german, french]).size).toBe(3);
    expect(german.split(' ')).toContain(stemWord('dateien', 'de'));
    expect(german.split(' ')).not.toContain('die');
    expect(english.split(' ')).toContain('die');
    expect(english.split(' ')).not.toContain('the');
    expect(french.split(' ')).toContain(stemWord('supprimés', 'fr'));
    expect(analyzeForIndex(text, 'en')).toBe(english);
    expect(analyzeForIndex(text, 'de')).toBe(german);
  });
});

describe('text written without spaces (Chinese, Japanese)', () => {
  it('splits a run into its words, drops function words and keeps Latin words and units of time', () => {
    expect(analyzeForIndex('购买后七天内，我们提供全额退款。')).toBe('购买 后 七天 内 提供 全 额 退款');
    expect(analyzeForIndex('同步服务的服务器由DigitalOcean托管')).toBe('同步 服务 服务 器 由 digitalocean digit ocean 托管');
    expect(analyzeForIndex('購入後7日以内であれば全額返金いたします。')).toBe('購入 後 7 日 以内 あれ 全額 返金');
    // A word made of function characters alone drops as they do ("的是", "什么").
    expect(analyzeForIndex('用的是什么')).toBe('用');
    expect(isStopword('没有')).toBe(true);
    expect(isStopword('年')).toBe(false);
  });

  it('keeps the vowel signs of Hindi inside its words, and splits Thai into words', () => {
    expect(analyzeForIndex('हिन्दी भारत की राजभाषा है।')).toBe('हिन्दी भारत राजभाषा');
    expect(analyzeForIndex('เราคืนเงินเต็มจำนวนภายในเจ็ดวัน')).toBe('คืน เงิน เต็ม จำนวน ภายใน เจ็ด วัน');
  });

  it('stems Arabic words in any text (article, affixes and vowel marks off), not Persian ones', () => {
    expect(analyzeForIndex('الكتاب في المكتبة')).toBe('كتاب مكتب');
    expect(analyzeForIndex('كِتَابٌ')).toBe(analyzeForIndex('كتاب'));
    expect(analyzeForIndex('این کتاب')).toBe('این کتاب');
  });

  it('indexes a Korean word also without the particle it ends in, and keeps it whole', () => {
    expect(analyzeForIndex('서버는 프랑크푸르트에 있습니다')).toBe('서버는 서버 프랑크푸르트에 프랑크푸르트 있습니다');
    // A word of two syllables is no word and a particle: 회의 (meeting) stays whole.
    expect(analyzeForIndex('회의')).toBe('회의');
  });

  it('leaves text without such a run exactly as before', () => {
    expect(analyzeForIndex('The relay outage lasted 47 minutes')).toBe('relay outag last 47 minut');
  });
});

describe('detectChunkLanguages', () => {
  const german = 'Gelöschte Notizen bleiben dreißig Tage im Papierkorb. Danach werden sie endgültig entfernt, und du kannst sie nicht mehr wiederherstellen.';
  it('gives a short or unsure chunk its note\'s language when the note is in an analyzed language', () => {
    const { doc, chunks } = detectChunkLanguages([german, 'Siehe auch: Sync, Publish, Canvas']);
    expect(doc).toBe('de');
    expect(chunks).toEqual(['de', 'de']);
  });

  it('leaves English and Russian notes\' chunks as detected, and a sure chunk keeps its own language', () => {
    expect(detectChunkLanguages(['The relay restarts every night and the team checks the logs in the morning.', 'See also: Sync, Publish']).chunks).toEqual(['en', 'en']);
    expect(detectChunkLanguages(['Сервер перезапускается каждую ночь, а команда проверяет журналы утром.', 'См. также: Sync']).doc).toBe('ru');
    const mixed = detectChunkLanguages([german, 'The English summary of this note is here, and it is written for the whole team.']);
    expect(mixed.chunks).toEqual(['de', 'en']);
  });
});

describe('compoundParts', () => {
  const vocabulary = new Set(['bildung', 'rabatt', 'papi', 'korb', 'papier', 'tresor', 'sync'].map((w) => stemWord(w, 'de')));
  const df = (terms: readonly string[]) => new Map(terms.map((t) => [t, vocabulary.has(t) ? 3 : 0]));
  it('splits a German compound the vault does not hold into parts it does, linking letters dropped', () => {
    expect(compoundParts('Bildungsrabatt', 'de', df)).toEqual([stemWord('bildung', 'de'), stemWord('rabatt', 'de')]);
    expect(compoundParts('Papierkorb', 'de', df)).toEqual([stemWord('papier', 'de'), stemWord('korb', 'de')]);
  });

  it('leaves words alone that are no compound of known parts, and other languages', () => {
    expect(compoundParts('Abonnement', 'de', df)).toEqual([]);
    expect(compoundParts('Rabatt', 'de', df)).toEqual([]);
    expect(compoundParts('Bildungsrabatt', 'en', df)).toEqual([]);
  });
});
