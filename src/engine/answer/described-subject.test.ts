import { describe, expect, it } from 'vitest';
import { asksAboutSubject, bridgeQuery, clauseRelation, clauseSubject, describedSubject, evidenceQuote, mainQuestion, notesAbout, relationLine, relationQuestion } from './described-subject.ts';
import type { Snippet } from './types.ts';

const snippet = (n: number, path: string, title: string, text: string, start = 10): Snippet => ({
  n,
  locator: `${path}#L${start}-L${start + text.split('\n').length - 1}`,
  path,
  start_line: start,
  end_line: start + text.split('\n').length - 1,
  doc_id: path,
  title,
  heading: null,
  text,
  score: 1,
});
const stats = (terms: readonly string[]) => new Map(terms.map((t) => [t, { idf: 2, df: 3 }]));

describe('described subject', () => {
  it('splits an English question into the relative clause and the rest', () => {
    const d = describedSubject('Who manages the engineer who wrote the conflict resolution strategy record, and what kind of clocks did that record adopt?')!;
    expect(d.head).toBe('engineer');
    expect(d.clause).toBe('wrote the conflict resolution strategy record');
    expect(bridgeQuery(d)).toBe('engineer wrote the conflict resolution strategy record');
    expect(mainQuestion(d, 'Priya Raman')).toBe('Who manages Priya Raman, and what kind of clocks did that record adopt?');
    expect(clauseRelation(d)).not.toBeNull();
  });

  it('ends the clause at a dash or colon that opens the question', () => {
    const d = describedSubject("The engineer who decided on WebSockets for the relay — which city do they work out of, and who's their manager?")!;
    expect(d.clause).toBe('decided on WebSockets for the relay');
    expect(mainQuestion(d, 'Tomás Herrera')).toBe("Tomás Herrera — which city do they work out of, and who's their manager?");
    expect(describedSubject('Инженер, который выбрал WebSockets: в каком городе он работает?')!.clause).toBe('выбрал WebSockets');
  });

  it('ends the clause at the main verb when an auxiliary comes before the subject', () => {
    const work = describedSubject('Where does the engineer who chose WebSockets as the relay transport work from, and who is their manager?')!;
    expect(work.clause).toBe('chose WebSockets as the relay transport');
    expect(mainQuestion(work, 'Tomás Herrera')).toBe('Where does Tomás Herrera work from, and who is their manager?');
    const pick = describedSubject('Which database did the person who leads the sync team pick for on-device storage, and on what date?')!;
    expect(pick.clause).toBe('leads the sync team');
    expect(mainQuestion(pick, 'Maya Chen')).toBe('Which database did Maya Chen pick for on-device storage, and on what date?');
    expect(describedSubject('When did the person who leads the sync team join Lumen Labs?')!.clause).toBe('leads the sync team');
    const phd = describedSubject('Which city did the engineer who wrote the conflict resolution strategy record do her PhD in?')!;
    expect(mainQuestion(phd, 'Priya Raman')).toBe('Which city did Priya Raman do her PhD in?');
  });

  it('leaves the question its participle after a copula ("Where is … based?"), and a copula question without one its clause', () => {
    const based = describedSubject('Where is the person who decided to use WebSockets based?')!;
    expect(based.clause).toBe('decided to use WebSockets');
    expect(mainQuestion(based, 'Tomás Herrera')).toBe('Where is Tomás Herrera based?');
    expect(describedSubject('Where was the person who wrote the storage record born?')!.clause).toBe('wrote the storage record');
    expect(describedSubject('Who is the engineer who owns the relay?')!.clause).toBe('owns the relay');
    // A participle after a preposition or article belongs to the clause.
    expect(describedSubject('Where is the person who works on the shared?')!.clause).toBe('works on the shared');
  });

  it('reads Russian clauses: «…, который …» and «тот, кто …»', () => {
    const d = describedSubject('Где работает инженер, который выбрал NATS для шины событий?')!;
    expect(d.head).toBe('инженер');
    expect(d.clause).toBe('выбрал NATS для шины событий');
    expect(mainQuestion(d, 'Анна Соколова')).toBe('Где работает Анна Соколова?');
    const who = describedSubject('Где работает тот, кто выбрал NATS, и кто его руководитель?')!;
    expect(who.clause).toBe('выбрал NATS');
    expect(mainQuestion(who, 'Анна Соколова')).toBe('Где работает Анна Соколова, и кто его руководитель?');
    expect(describedSubject('Кто руководит разработчиком, который написал сервис уведомлений?')!.clause).toBe('написал сервис уведомлений');
  });

  it('describes only people: a thing with "that", a name that ends in "Who", a question without a clause are not', () => {
    expect(describedSubject('What is the name of the team that won Super Bowl 50?')).toBeNull();
    expect(describedSubject('Which actor was a replacement for Doctor Who due to the illness of the main actor?')).toBeNull();
    expect(describedSubject('Где лежит отчёт, который написал Павел?')).toBeNull();
    expect(describedSubject('When did we choose NATS for the event bus?')).toBeNull();
    expect(describedSubject('Who is the person that leads the sync team?')).not.toBeNull();
  });

  it('asks about the subject only when words are left beside it', () => {
    expect(asksAboutSubject(describedSubject('Who is the person who leads the sync team?')!)).toBe(false);
    expect(asksAboutSubject(describedSubject('Where does the person who leads the sync team live?')!)).toBe(true);
  });
});

describe('a question that asks only for the person of a relation', () => {
  it.each([
    ['Who decided to use WebSockets for the relay?', 'decided to use WebSockets for the relay'],
    ['who picked websockets', 'picked websockets'],
    ['Who wrote the conflict resolution record?', 'wrote the conflict resolution record'],
    ['Кто выбрал NATS для очереди?', 'выбрал NATS для очереди'],
  ])('reads "%s" as the one who %s', (question, clause) => {
    expect(relationQuestion(question)).toEqual({ phrase: question, head: '', clause, before: '', after: '' });
  });

  it.each([
    ['Who leads the sync team?', 'a verb that asks no relation'],
    ['Who decided to use WebSockets, and why?', 'a second part after a comma'],
    ['Who chose SQLite and when was it decided?', 'a second part after "and when"'],
    ['What did Maya decide about storage?', 'no "who"'],
    ['Who decided?', 'no clause'],
  ])('leaves "%s" alone (%s)', (question) => {
    expect(relationQuestion(question)).toBeNull();
  });
});

describe('resolving the bridge', () => {
  const d = describedSubject('Where does the engineer who chose NATS for the event bus work from?')!;

  it('takes the name from the field line that states the asked relation, and cites that line', () => {
    const record = snippet(1, 'decisions/Queue choice.md', '2026-02-10 Queue choice', '# ADR-3: Queue\n\n**Status:** accepted\n**Decider:** [[Rosa Diaz]]\n**Consulted:** [[Ivo Marsh]]', 10);
    const r = relationLine([record], clauseRelation(d)!, d.clause)!;
    expect(r.name).toBe('Rosa Diaz');
    expect(r.by).toBe('relation');
    expect(r.evidence.snippet.locator).toBe('decisions/Queue choice.md#L13-L13');
    expect(evidenceQuote(r)).toBe('2026-02-10 Queue choice — Decider: Rosa Diaz.');
  });

  it('reads each field of a line that holds several ("Date: … · Decider: …"), and quotes the one that states the relation', () => {
    const record = snippet(1, 'decisions/Monorepo.md', 'Monorepo layout', '# ADR-1\n\n**Date:** 2026-01-20 · **Decider:** [[Daniel Okafor]] · **Proposed by:** [[Aiko Tanaka]]', 5);
    const r = relationLine([record], clauseRelation(d)!, d.clause)!;
    expect(r.name).toBe('Daniel Okafor');
    expect(r.evidence.text).toBe('Decider: Daniel Okafor');
    expect(r.evidence.snippet.locator).toBe('decisions/Monorepo.md#L7-L7');
  });

  it('reads a value that the clause itself names as pointing back to the note the line is in', () => {
    const who = describedSubject('Where does the engineer who reports to Maya Chen work from?')!;
    const note = snippet(1, 'people/Rosa Diaz.md', 'Rosa Diaz', '# Rosa Diaz\n\n**Reports to:** [[Maya Chen]]');
    expect(relationLine([note], clauseRelation(who)!, who.clause)?.name).toBe('Rosa Diaz');
  });

  it('finds no relation where no line states it', () => {
    const record = snippet(1, 'decisions/Queue choice.md', 'Queue choice', '**Reviewed by:** [[Ivo Marsh]]\n\nWe chose NATS for the event bus.');
    expect(relationLine([record], clauseRelation(d)!, d.clause)).toBeNull();
  });

  it('else takes the person the best sentence for the clause is about, with the full name of her note', () => {
    const lead = describedSubject('Which database did the person who leads the sync team pick?')!;
    const maya = snippet(1, 'people/Maya Chen.md', 'Maya Chen', 'Maya leads the sync team, the group of engineers that builds the sync engine. Maya joined in 2024.');
    const other = snippet(2, 'people/Sofia Lind.md', 'Sofia Lind', 'Sofia studied industrial engineering in Delft.');
    const r = clauseSubject(lead, [maya, other], { termStats: stats })!;
    expect(r.name).toBe('Maya Chen');
    expect(r.by).toBe('sentence');
    expect(evidenceQuote(r)).toMatch(/^Maya Chen — Maya leads the sync team/);
  });

  it('counts her note and the records she decided or wrote as about her, not a colleague\'s note that names her', () => {
    const own = snippet(1, 'people/Maya Chen.md', 'Maya Chen', 'Maya leads the sync team.');
    const decided = snippet(2, 'decisions/Storage.md', 'Storage decision', '**Decider:** [[Maya Chen]]\n\nDecided to use SQLite.');
    const wrote = snippet(3, 'decisions/Решение.md', 'Решение', '**Автор:** [[Maya Chen]]');
    const colleague = snippet(4, 'people/Tomás Herrera.md', 'Tomás Herrera', '**Reports to:** [[Maya Chen]]\n\nBefore Lumen Labs he worked in Madrid.');
    expect([...notesAbout([own, decided, wrote, colleague], 'Maya Chen')].sort()).toEqual(['decisions/Storage.md', 'decisions/Решение.md', 'people/Maya Chen.md']);
  });

  it('resolves nothing when the best sentence names no person', () => {
    const lead = describedSubject('Which database did the person who leads the sync team pick?')!;
    const team = snippet(1, 'teams/Sync.md', 'Sync team', 'The sync team leads the storage work this quarter.');
    expect(clauseSubject(lead, [team], { termStats: stats })).toBeNull();
  });
});
