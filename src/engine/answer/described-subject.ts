/**
 * Questions that name their subject by a description ("Where does the engineer who chose WebSockets
 * as the relay transport work from?", «Где работает инженер, который выбрал NATS?»): the question is
 * split into the described subject's relative clause — the bridge — and the rest. The bridge is
 * searched alone and resolved to a name (the record's "Decider: Tomás Herrera" line, or the person
 * the best sentence for the clause is about), and the rest is asked about that name. The answer then
 * quotes the bridge's evidence first, so the chain is cited, and the facts asked after it.
 *
 * Pure: the searches are the caller's (answer.ts).
 */
import { isStopword, tokenize } from '../search/analyzer.ts';
import { endsSentence } from './citations.ts';
import { plainText, readAnswer, type ReaderOptions, readerCandidates } from './reader.ts';
import { askedRelation, relationGraphType, statesRelation, statesWorkOf } from './relations.ts';
import type { Snippet } from './types.ts';

export interface DescribedSubject {
  /** The described subject as written: "the engineer who chose WebSockets as the relay transport". */
  phrase: string;
  /** Its noun: "engineer", «инженер» ("" for «тот, кто»). */
  head: string;
  /** The relative clause, without its pronoun: "chose WebSockets as the relay transport". */
  clause: string;
  /** The question before and after the phrase. */
  before: string;
  after: string;
}

/** Nouns that name a person: a relative clause after them describes one (who, that, который). */
const PERSON_NOUNS = new Set(
  (
    'person people engineer engineers developer developers designer manager lead leader colleague employee author owner member someone somebody one guy woman man ' +
    'scientist researcher writer analyst architect administrator admin tester intern contractor consultant founder director head ' +
    'человек инженер инженера инженеру инженером разработчик разработчика разработчику разработчиком сотрудник сотрудника сотруднику сотрудником сотрудница сотрудницы ' +
    'коллега коллеги коллегу руководитель руководителя руководителю менеджер менеджера менеджеру дизайнер дизайнера автор автора аналитик аналитика ' +
    'тестировщик тестировщика архитектор архитектора стажёр стажер стажёра стажера участник участника'
  ).split(' '),
);

/** English words that end a noun phrase's object rather than start the main verb: prepositions, determiners and the like. */
const EN_GLUE = new Set('a an the this that these those its his her their our my your as for to from in on at with about by of into over under after before through via per than and or'.split(' '));
/** Particles and prepositions a main verb is followed by ("work from", "pick for"). */
const EN_PARTICLES = new Set('from for to in on at with about by of into over under after before through via up out off around'.split(' '));
/** What opens a main verb's object ("join *the* team", "do *her* PhD"). */
const EN_DETERMINERS = new Set('the a an her his their its my our your this that these those'.split(' '));
/** Auxiliaries that leave the main verb after the subject ("Where does the engineer who … work from?"). */
const EN_AUX = /(?:^|\s)(?:do|does|did|can|could|will|would|should|may|might|must)\s+$/i;
/** A copula before the subject: the question's own verb may be a participle after the clause ("Where is the engineer who owns the relay *based*?"). */
const EN_COPULA = /(?:^|\s)(?:is|are|was|were)\s+$/i;
/** A past participle closing such a question: based, located, born, paid, known. */
const EN_PARTICIPLE = /^\p{Ll}{2,}(?:ed|en|wn|rn|id)$/u;
/** Where a relative clause ends: a comma, a dash or a colon, the question's end, or "and" opening the question's next part. */
const EN_CLAUSE_END = /\s*(?:[,;?!—–:]|\s-\s|\s+and\s+(?:who|whom|what|which|when|where|why|how)\b|$)/i;
const RU_CLAUSE_END = /\s*(?:[,;?!—–:]|\s-\s|\s+и\s+(?:кто|что|где|когда|как|какой|какая|какое|какие|каков|какова|сколько|почему|зачем|куда|откуда|чем|кому|кого)(?![\p{L}])|$)/iu;

/**
 * In a question with an auxiliary before the subject ("Which database did the person who leads the
 * sync team pick for on-device storage"), the clause runs up to the main verb: the first lower-case
 * word past the clause's own verb and one word of its object that follows a content word and comes
 * before a particle, a name, an article or possessive, or the end ("pick for", "work from", "join
 * Lumen Labs", "do her PhD").
 */
function mainVerbAt(words: readonly string[]): number {
  for (let i = 2; i < words.length; i++) {
    const w = words[i]!;
    const prev = words[i - 1]!;
    if (!/^[\p{Ll}]+$/u.test(w) || EN_GLUE.has(w) || EN_GLUE.has(prev.toLowerCase()) || EN_PARTICLES.has(prev.toLowerCase())) continue;
    const next = words[i + 1];
    if (next === undefined || EN_PARTICLES.has(next) || EN_DETERMINERS.has(next) || /^\p{Lu}/u.test(next)) return i;
  }
  return -1;
}

/**
 * The person the question describes instead of naming, or null: a noun phrase with a relative clause
 * ("the engineer who chose…", "the person that leads…", «инженер, который выбрал…», «тот, кто
 * руководит…»). Only people: "who", «кто», or a noun that names a person ("engineer", «инженер»).
 */
export function describedSubject(question: string): DescribedSubject | null {
  const q = question.replace(/\s+/g, ' ').trim();
  // Case-sensitive: under /i, \p{Ll} matches capitals too ("a replacement for Doctor Who").
  const en = /(?<![\p{L}])(?:[Tt]he|[Aa]n?)\s+((?:[\p{Ll}-]+\s+){0,2}?([\p{Ll}-]+))\s+(who|whom|that)\s+/u.exec(q);
  if (en) {
    const head = en[2]!.toLowerCase();
    if (en[3] === 'that' && !PERSON_NOUNS.has(head)) return null;
    const from = en.index + en[0].length;
    const rest = q.slice(from);
    let end = EN_CLAUSE_END.exec(rest)!.index;
    let clause = rest.slice(0, end);
    if (EN_AUX.test(q.slice(0, en.index))) {
      const words = clause.split(' ');
      const at = mainVerbAt(words);
      if (at > 0) {
        clause = words.slice(0, at).join(' ');
        end = clause.length;
      }
    } else if (EN_COPULA.test(q.slice(0, en.index))) {
      // "Where is [the engineer who owns the relay] based?": the participle is the question's, not the clause's.
      const words = clause.split(' ');
      const last = words.length >= 3 ? words[words.length - 1]! : '';
      if (EN_PARTICIPLE.test(last) && !EN_GLUE.has(words[words.length - 2]!.toLowerCase())) {
        clause = words.slice(0, -1).join(' ');
        end = clause.length;
      }
    }
    if (clause.split(' ').length < 2) return null;
    return { phrase: q.slice(en.index, from + end), head, clause, before: q.slice(0, en.index), after: q.slice(from + end) };
  }
  const ru = /(?<![\p{L}])(?:([\p{L}-]+),\s+(?:(?:с|со|о|об|для|у|к|от|на|в|по|за)\s+)?котор\p{L}+|(тот|та|те|того|тому|тем|той|тех),\s+кто)\s+/iu.exec(q);
  if (ru) {
    const head = (ru[1] ?? '').toLowerCase();
    if (ru[1] !== undefined && !PERSON_NOUNS.has(head)) return null;
    const from = ru.index + ru[0].length;
    const rest = q.slice(from);
    const end = RU_CLAUSE_END.exec(rest)!.index;
    const clause = rest.slice(0, end);
    if (clause.split(' ').length < 2) return null;
    return { phrase: q.slice(ru.index, from + end), head, clause, before: q.slice(0, ru.index), after: q.slice(from + end) };
  }
  return null;
}

/**
 * A question that asks only for the person of a relation a record states ("Who decided to use
 * WebSockets for the relay?", "Who wrote the conflict resolution record?", «Кто выбрал NATS для
 * очереди?»): read as the described subject "the one who decided to use WebSockets for the relay"
 * with nothing asked after it, so that the record the clause finds answers by its "Decider:" line
 * even where that line does not repeat the clause's words. Null for a question of more parts, or
 * whose verb asks no relation.
 */
export function relationQuestion(question: string): DescribedSubject | null {
  const q = question.replace(/\s+/g, ' ').trim();
  const m = /^(?:who|кто)\s+(.+?)\s*\?*$/iu.exec(q);
  if (!m) return null;
  const clause = m[1]!;
  const russian = /[\p{Script=Cyrillic}]/u.test(clause);
  // One part only: a comma, a dash or "and who/what…" opens another.
  if ((russian ? RU_CLAUSE_END : EN_CLAUSE_END).exec(clause)!.index < clause.length) return null;
  if (clause.split(' ').length < 2 || askedRelation(clause) === null) return null;
  return { phrase: q, head: '', clause, before: '', after: '' };
}

/** What the bridge is searched with: the clause and its noun ("engineer chose WebSockets as the relay transport"). */
export function bridgeQuery(d: DescribedSubject): string {
  return `${d.head} ${d.clause}`.trim();
}

/** The question asked of the resolved name: the described subject replaced by it ("Where does Tomás Herrera work from, …?"). */
export function mainQuestion(d: DescribedSubject, name: string): string {
  return `${d.before}${name}${d.after}`.replace(/\s+([,?!;])/g, '$1').replace(/\s+/g, ' ').trim();
}

/** Words of the question left once the described subject is named: a question that asks only who it is ("Who is the person who…") has none. */
export function asksAboutSubject(d: DescribedSubject, lang?: string): boolean {
  const rest = `${d.before} ${d.after}`;
  return tokenize(rest, lang).some((t) => !isStopword(t.raw.toLowerCase(), lang) && !QUESTION_FRAME.has(t.raw.toLowerCase()));
}
const QUESTION_FRAME = new Set(
  'what which who whom whose when where why how is are was were does do did has have had be been name called the a an and or of its their his her it they them that this кто что где когда как какой какая какое какие каков какова сколько почему зачем куда откуда чем кому кого его её ее их это и ли был была были является зовут'.split(
    ' ',
  ),
);

export interface BridgeResolution {
  /** The resolved name: "Tomás Herrera". */
  name: string;
  /** The line or sentence that ties it to the clause, and where it is. */
  evidence: { text: string; snippet: Snippet };
  /** How it was found: a field of the record the clause points to, or the person its best sentence is about. */
  by: 'relation' | 'sentence';
  /** The indexed chunk the evidence line is in, when a search returned it (its sentence vectors say how close the line is to the question). */
  chunkId?: number;
}

/** What separates the fields of one line: a middle dot, a bullet or a bar between spaces. */
const FIELD_SEPARATOR = /\s+[·•|]\s+/u;
/** A field line: its label and value ("**Decider:** [[Tomás Herrera]]", "Reports to: Maya Chen"). */
const FIELD_LINE = /^\s*(?:[-*+]\s+)?(?:\*\*([^*\n]{1,40}?):?\*\*:?|([\p{L}][\p{L} ]{0,30}):)\s*(.+)$/u;

/** A name as written in a field's value: its links first ("[[Tomás Herrera]]"), else its capitalised words. */
function namesInValue(value: string): string[] {
  const links = [...value.matchAll(/\[\[([^\]|#]+)(?:[#|][^\]]*)?\]\]/g)].map((m) => m[1]!.trim());
  if (links.length > 0) return links;
  return [...plainText(value).matchAll(/[\p{Lu}][\p{Ll}'’-]+(?:\s+[\p{Lu}][\p{Ll}'’-]+){0,3}/gu)].map((m) => m[0]);
}

const wordsOf = (s: string) => new Set(tokenize(s).map((t) => t.term));
/** Every word of the name is in the text (stemmed): the clause already names it. */
const named = (name: string, words: ReadonlySet<string>) => tokenize(name).every((t) => words.has(t.term));
/** A title that is a person's name: two to four capitalised words, no digits. */
const personTitle = (title: string) => /^[\p{Lu}][\p{L}'’-]+(?:\s+[\p{Lu}][\p{L}'’-]+){1,3}$/u.test(title.trim());

/**
 * The notes about the person: hers (its title is her name), and the records that are her work (a
 * field line says she decided or wrote it: "Decider: [[Maya Chen]]"). A note that only names her
 * ("Reports to: Maya Chen" in a colleague's) is about someone else.
 */
export function notesAbout(passages: readonly Snippet[], name: string): Set<string> {
  const nameWords = wordsOf(name);
  const out = new Set<string>();
  for (const s of passages) {
    if (named(name, wordsOf(s.title))) out.add(s.doc_id);
    for (const line of s.text.split('\n')) {
      const m = FIELD_LINE.exec(line);
      if (m && statesWorkOf(m[1] ?? m[2]!) && namesInValue(m[3]!).some((n) => named(name, wordsOf(n)) && named(n, nameWords))) out.add(s.doc_id);
    }
  }
  return out;
}

/** One line of a snippet as a snippet of its own: the evidence is cited by its exact line. */
function lineSnippet(s: Snippet, line: string, offset: number): Snippet {
  const at = s.start_line + offset;
  return { ...s, locator: `${s.path}#L${at}-L${at}`, start_line: at, end_line: at, text: line, heading: s.heading };
}

/**
 * The field line of these passages that states the asked relation ("**Decider:** [[Tomás Herrera]]"
 * for "chose", "**Author and decider:**" for "wrote", "**Reports to:**" for "manages"), with the
 * name it gives. A value the clause itself names ("who reports to Maya Chen") points back: the
 * subject is then the note the line is in, when its title is a person's name.
 */
export function relationLine(passages: readonly Snippet[], relation: number, clause: string): BridgeResolution | null {
  const clauseWords = wordsOf(clause);
  for (const s of passages) {
    const lines = s.text.split('\n');
    for (let i = 0; i < lines.length; i++) {
      // A line may hold several fields ("**Date:** 2026-01-20 · **Decider:** [[Daniel Okafor]]"): each is read alone.
      const m = lines[i]!.split(FIELD_SEPARATOR).map((field) => FIELD_LINE.exec(field)).find((f) => f !== null && statesRelation(f[1] ?? f[2]!, relation));
      if (!m) continue;
      const label = m[1] ?? m[2]!;
      const names = namesInValue(m[3]!);
      const fresh = names.find((n) => !named(n, clauseWords));
      const name = fresh ?? (names.length > 0 && personTitle(s.title) && !named(s.title, clauseWords) ? s.title.trim() : null);
      if (!name) continue;
      const text = plainText(`${label}: ${m[3]!}`).replace(/\s+/g, ' ').trim();
      return { name, evidence: { text, snippet: lineSnippet(s, lines[i]!, i) }, by: 'relation' };
    }
  }
  return null;
}

/**
 * The relation a note's front matter states (the graph's typed relations: `decided_by: Tomás
 * Herrera`), for a note without a field line in its body. `line` reads a line of the note as it
 * is now (null when the file changed since it was indexed: a quote must be the note's own words).
 * A value the clause names points back to the note, as a field line's does.
 */
export function typedRelation(
  rows: readonly { type: string; name: string; line: number }[],
  relation: number,
  clause: string,
  note: Snippet,
  line: (n: number) => string | null,
): BridgeResolution | null {
  const type = relationGraphType(relation);
  const clauseWords = wordsOf(clause);
  for (const r of rows) {
    if (r.type !== type) continue;
    const name = !named(r.name, clauseWords) ? r.name : personTitle(note.title) && !named(note.title, clauseWords) ? note.title.trim() : null;
    const text = name ? line(r.line) : null;
    if (!name || !text) continue;
    return { name, evidence: { text: plainText(text.trim()), snippet: { ...note, locator: `${note.path}#L${r.line}-L${r.line}`, start_line: r.line, end_line: r.line, text } }, by: 'relation' };
  }
  return null;
}

/**
 * The person the best sentence for the clause is about ("Maya leads the sync team…" for "the person
 * who leads the sync team"): the reader reads the clause as a question of who, and the first name of
 * its lead sentence that the clause does not give is the subject — completed by its note's title when
 * the sentence gives a first name only ("Maya" in "Maya Chen"). Null unless the reader answers the
 * clause and the name is a person's: two words or more, or its note's title.
 */
export function clauseSubject(d: DescribedSubject, passages: readonly Snippet[], options: ReaderOptions): BridgeResolution | null {
  if (passages.length === 0) return null;
  const russian = /[\p{Script=Cyrillic}]/u.test(d.clause);
  const asked = russian ? `Кто ${d.clause}?` : `Who ${d.clause}?`;
  const candidates = readerCandidates(passages, options.language);
  const reading = readAnswer(asked, candidates, { ...options, maxSentences: 1, quoteOnly: true });
  if (reading.outcome !== 'answered' || reading.cited.length === 0) return null;
  const lead = reading.closest[0];
  if (!lead) return null;
  const snippet = passages.find((s) => s.n === lead.n);
  if (!snippet) return null;
  const clauseWords = wordsOf(`${d.clause} ${d.head}`);
  for (const m of lead.text.matchAll(/[\p{Lu}][\p{Ll}'’-]+(?:\s+[\p{Lu}][\p{Ll}'’-]+){0,3}/gu)) {
    // A field's label ("Person: Maya Chen", "Role: …") is not a name.
    if (/^\s*(?:[\p{L}-]+\s+){0,2}?:/u.test(lead.text.slice(m.index! + m[0].length))) continue;
    const phrase = m[0];
    if (named(phrase, clauseWords) || isStopword(phrase.toLowerCase(), options.language)) continue;
    const words = phrase.split(/\s+/);
    const title = snippet.title.trim();
    if (words.length >= 2) return { name: phrase, evidence: { text: lead.text, snippet }, by: 'sentence' };
    if (personTitle(title) && title.split(/\s+/).includes(phrase)) return { name: title, evidence: { text: lead.text, snippet }, by: 'sentence' };
    // The first name the sentence gives is what it is about; one that resolves to no person's note is no answer.
    return null;
  }
  return null;
}

/** The relation the clause asks by its verb ("chose" → the decider), or null. */
export function clauseRelation(d: DescribedSubject): number | null {
  return askedRelation(d.clause);
}

/** The evidence as quoted: with its note's title when the line does not say whom or what it is about ("2026-04-02 Transport protocol — Decider: Tomás Herrera"). */
export function evidenceQuote(r: BridgeResolution): string {
  const title = r.evidence.snippet.title.trim();
  let text = r.evidence.text;
  if (r.by === 'relation' && title && !text.toLowerCase().includes(title.toLowerCase())) text = `${title} — ${text}`;
  else if (r.by === 'sentence' && !text.includes(r.name)) text = `${r.name} — ${text}`;
  return endsSentence(text) ? text : `${text}.`;
}
