import { describe, expect, it } from 'vitest';
import { leansOnThread, MAX_CARRIED, rewriteFollowUp } from './follow-up.ts';

describe('rewriteFollowUp', () => {
  it('carries the previous question’s subject into a follow-up with a pronoun', () => {
    const r = rewriteFollowUp('and who approved it?', 'What did we decide about the vector store in ADR-011?');
    expect(r.carried).toEqual(expect.arrayContaining(['vector', 'store', 'ADR-011']));
    expect(r.query.startsWith('and who approved it ')).toBe(true);
    expect(r.query).toContain('ADR-011');
    // Question words and stopwords of the previous question are not carried.
    expect(r.carried.map((w) => w.toLowerCase())).not.toEqual(expect.arrayContaining(['what']));
    expect(r.carried).not.toContain('the');
  });

  it('carries into a short follow-up without a name of its own, and leaves out what it already has', () => {
    const r = rewriteFollowUp('when was it approved?', 'Who approved the vector store decision ADR-011');
    expect(r.carried).toEqual(['vector', 'store', 'decision', 'ADR-011']);
    expect(r.query).toBe('when was it approved vector store decision ADR-011');
    expect(rewriteFollowUp('when?', 'Who approved ADR-011').query).toBe('when approved ADR-011');
  });

  it('keeps a question that names its own subject as asked', () => {
    for (const q of ['What is QUIC?', 'Who is Maya Chen?', 'Why did we postpone QUIC and who decided it in the planning meeting last spring?', 'Почему отложили QUIC?']) {
      expect(leansOnThread(q)).toBe(false);
      expect(rewriteFollowUp(q, 'Who approved the vector store decision?')).toEqual({ query: q, carried: [] });
    }
  });

  it('carries after an opening that continues the thread, even with a name', () => {
    const r = rewriteFollowUp('what about Lena?', 'Who owns the relay service?');
    expect(r.carried).toEqual(['owns', 'relay', 'service']);
    expect(r.query).toBe('what about Lena owns relay service');
  });

  it('works in Russian', () => {
    const r = rewriteFollowUp('а кто его утвердил?', 'Что решили про векторное хранилище в ADR-011?');
    expect(r.carried).toEqual(expect.arrayContaining(['векторное', 'хранилище', 'ADR-011']));
    expect(r.carried).not.toContain('про');
    expect(r.query.startsWith('а кто его утвердил ')).toBe(true);
    // Already in the follow-up (another form of the same word): not carried again.
    expect(rewriteFollowUp('когда его утвердили?', 'Кто утвердил переход на SQLite?').carried).toEqual(['переход', 'SQLite']);
    // Question words in any form stay behind; the sample vault's pilot question carries its subject.
    const pilot = rewriteFollowUp('а когда он начнётся?', 'На скольких планшетах «Северный Софт» запустит пилот?', Infinity, ['Встреча с партнёрами Северный Софт']);
    expect(pilot.carried).not.toContain('скольких');
    expect(pilot.carried).toEqual(expect.arrayContaining(['Северный', 'Софт', 'пилот']));
  });

  it('puts names and identifiers first when it must choose, and keeps the question’s word order', () => {
    const previous = 'Which meeting notes about the release schedule mention Maya Chen and the ADR-011 review with Oleg?';
    const r = rewriteFollowUp('and then?', previous);
    expect(r.carried.length).toBe(MAX_CARRIED);
    expect(r.carried).toEqual(expect.arrayContaining(['Maya', 'Chen', 'ADR-011', 'Oleg']));
    const order = r.carried.map((w) => previous.indexOf(w));
    expect([...order].sort((a, b) => a - b)).toEqual(order);
  });

  it('follows a chain: the previous turn as it was searched', () => {
    const first = rewriteFollowUp('who approved it?', 'What did we decide about ADR-011?');
    const second = rewriteFollowUp('when?', first.query);
    expect(second.carried).toEqual(expect.arrayContaining(['approved', 'ADR-011']));
  });

  it('carries the titles of the notes the previous answer cited, after the question’s own terms', () => {
    const r = rewriteFollowUp('and who decided it?', 'Why did we postpone QUIC?', Infinity, ['2026-04-02 Transport protocol']);
    expect(r.query).toBe('and who decided it postpone QUIC 2026-04-02 Transport protocol');
    // A title word the follow-up or the question already has is not carried twice.
    expect(rewriteFollowUp('who approved it?', 'Why did we postpone QUIC?', Infinity, ['QUIC postponed']).carried).toEqual(['postpone', 'QUIC']);
    // A question that stands on its own carries nothing, titles included.
    expect(rewriteFollowUp('What is QUIC?', 'Who approved it?', Infinity, ['Relay server']).carried).toEqual([]);
  });

  it('works in Chinese and Japanese, whose words have no spaces between them', () => {
    const previous = '星图项目的试点什么时候开始？';
    // A question of its own is searched as asked, though it is one run of characters.
    for (const q of ['数据库备份文件保存多久？', 'ヨーロッパのリージョンはどこにありますか？']) {
      expect(leansOnThread(q)).toBe(false);
      expect(rewriteFollowUp(q, previous)).toEqual({ query: q, carried: [] });
    }
    // The words carried follow one another without a space (星图 is two words to the breaker).
    expect(rewriteFollowUp('那它持续多久？', previous).query).toBe('那它持续多久 星图项目试点开始');
    expect(rewriteFollowUp('それはいつですか？', '返金ポリシーの期限は？').query).toBe('それはいつですか 返金ポリシー期限');
  });

  it('works in German, French and Spanish by their own pronouns, question words and openings', () => {
    const de = rewriteFollowUp('Und wer hat sie genehmigt?', 'Wann beginnt die Testphase von Projekt Aurora?');
    expect(de.carried).toEqual(expect.arrayContaining(['Testphase', 'Aurora']));
    // German function and question words of the previous question are not carried.
    expect(de.carried.map((w) => w.toLowerCase())).not.toEqual(expect.arrayContaining(['wann', 'die', 'von']));
    expect(leansOnThread('Wer hat ihn genehmigt?')).toBe(true);
    // A German question with nouns of its own stands on its own: a noun names its subject as a name does.
    expect(leansOnThread('Wann beginnt die Testphase von Projekt Aurora?')).toBe(false);
    expect(leansOnThread('Wie lange dauert die Testphase?')).toBe(false);
    expect(leansOnThread('Wie viele Tage habe ich für eine Erstattung?')).toBe(false);
    expect(leansOnThread('Wann beginnt sie?')).toBe(true);
    expect(leansOnThread("Et qui l'a approuvé ?")).toBe(true);
    expect(leansOnThread('¿Y quién lo aprobó?')).toBe(true);
    expect(rewriteFollowUp('¿Y quién lo aprobó?', '¿Qué base de datos eligió el equipo de Aurora?').carried).toEqual(expect.arrayContaining(['base', 'datos', 'Aurora']));
    // English words that other languages use as question words stay English content words.
    expect(leansOnThread('Who bought the hat for the company party?')).toBe(false);
  });

  it('changes nothing without a previous question, or when nothing is left to carry', () => {
    expect(rewriteFollowUp('and who approved it?', null)).toEqual({ query: 'and who approved it?', carried: [] });
    expect(rewriteFollowUp('who approved it?', 'who approved it?')).toEqual({ query: 'who approved it?', carried: [] });
  });

  it('stays within the length a question may have', () => {
    const r = rewriteFollowUp('and who approved it?', 'the vector store decision ADR-011', 30);
    expect(r.query.length).toBeLessThanOrEqual(30);
    expect(r.carried.length).toBeGreaterThan(0);
  });
});
