/**
 * A follow-up question in a thread ("and who approved it?", "а кто его утвердил?") names what it
 * asks about only through the thread: searched as written, it finds nothing. When it leans on the
 * thread (a pronoun or a "that/there" among few words of its own, an opening "and"/"what about", or too few words of its own
 * to search by and no name among them), it is searched with the previous question's salient terms
 * carried: names and identifiers first, then its other content words, those the follow-up already
 * has left out; then the titles of the notes the previous answer cited (the thread's entities: the
 * decision, the person, the project it was about). The previous question is the one it was searched
 * as, so a chain of follow-ups keeps the topic. English and Russian, and German, French and Spanish
 * follow-ups by their own pronouns, question words and openings, Chinese and Japanese ones by their
 * pronouns and openings, their words split by the word breaker; a pure function, shown to the user as "Searched as: …".
 */
import { detectLanguage } from '../lang/detect.ts';
import { analysisLanguage, hasUnspacedScript, isStopword, stemWord, unspacedWords } from '../search/analyzer.ts';

/** Words that point back into the conversation. */
const POINTERS = new Set(
  [
    // English
    'it', 'its', 'itself', 'this', 'that', 'these', 'those', 'they', 'them', 'their', 'theirs', 'he', 'him', 'his', 'she', 'her', 'hers',
    'there', 'then', 'same', 'such', 'former', 'latter',
    // Russian
    'он', 'она', 'оно', 'они', 'его', 'её', 'ее', 'ему', 'ей', 'им', 'ими', 'их', 'него', 'неё', 'нее', 'нему', 'ней', 'ним', 'них', 'нём', 'нем',
    'это', 'этот', 'эта', 'эти', 'этого', 'этой', 'этому', 'этим', 'этих', 'этом', 'тот', 'та', 'те', 'то', 'того', 'той', 'тому', 'тем', 'тех', 'том',
    'там', 'тогда', 'туда', 'оттуда', 'такой', 'такая', 'такое', 'такие', 'него',
    // Chinese and Japanese, as the word breaker splits them
    '它', '他', '她', '它们', '他们', '她们', '这', '那', '这个', '那个', '这些', '那些', '其', '该', '那里', '这里',
    'それ', 'これ', 'あれ', 'その', 'この', 'あの', '彼', '彼女', 'そこ', 'ここ',
  ],
);

/** Question words: they say what is asked, never what about. */
const QUESTION_WORDS = new Set([
  'who', 'whom', 'whose', 'what', 'when', 'where', 'why', 'how', 'which', 'did', 'does', 'do', 'was', 'were', 'is', 'are', 'will', 'would', 'can', 'could', 'should',
  'кто', 'кого', 'кому', 'кем', 'ком', 'что', 'чего', 'чем', 'чему', 'чём', 'когда', 'где', 'куда', 'откуда', 'почему', 'зачем', 'как', 'какой', 'какая', 'какое',
  'какие', 'каком', 'какую', 'каких', 'сколько', 'скольких', 'скольким', 'скольку', 'чей', 'чья', 'чьё', 'чье', 'чьи', 'ли',
  '什么', '什么时候', '时候', '多久', '多少', '几', '谁', '哪', '哪个', '哪里', '为什么', '怎么', '如何', '吗', '呢',
  'いつ', 'どこ', '誰', 'なぜ', '何', 'どの', 'どれ', 'いくら', 'ですか', 'ますか',
]);

/** Openings that continue the previous question (Chinese and Japanese ones need no space after them). */
const CONTINUES = /^(?:and|also|but|so|plus|what about|how about|and what about|и|а|но|также|тоже|ещё|еще|а что|а как|что насчёт|что насчет)(?=[\s,?!.:;]|$)|^(?:那么|那|还有|另外|それで|では|じゃあ)/iu;

/**
 * The same words of the other languages a follow-up may be asked in. A word English uses otherwise
 * ("hat", "es", "que") counts only in a question read in that language.
 */
const OTHER: Record<string, { pointers: string; questions: string; continues: RegExp }> = {
  de: {
    pointers: 'er sie ihn ihm ihr ihre ihren ihrem ihrer sein seine seinen seinem seiner dessen deren diese dieser dieses diesem diesen dort damals dann derselbe dieselbe dasselbe solche',
    questions: 'wer wen wem wessen was wann wo wohin woher warum weshalb wieso wie welche welcher welches welchen welchem hat haben hatte ist sind war waren wird werden wurde kann können',
    continues: /^(?:und|auch|aber|also|und was ist mit|was ist mit|wie steht es mit|und wie|und wann|und wer)(?=[\s,?!.:;]|$)/iu,
  },
  fr: {
    pointers: 'il elle ils elles lui leur leurs celui celle ceux celles cela ceci ça là alors',
    questions: 'qui que quoi quand où pourquoi comment quel quelle quels quelles combien est sont était a ont',
    continues: /^(?:et|aussi|mais|et pour|et qu'en est-il|qu'en est-il|et quand|et qui)(?=[\s,?!.:;]|$)/iu,
  },
  es: {
    pointers: 'él ella ellos ellas le les lo ese esa eso esos esas este esta esto allí ahí entonces',
    questions: 'quién quien quiénes qué que cuándo dónde por cómo cuál cuáles cuánto cuántos cuánta cuántas es son fue era ha han',
    continues: /^(?:y|también|pero|y qué hay de|qué hay de|y cuándo|y quién)(?=[\s,?!.:;]|$)/iu,
  },
};
const otherWords = Object.fromEntries(Object.entries(OTHER).map(([l, o]) => [l, { pointers: new Set(o.pointers.split(' ')), questions: new Set(o.questions.split(' ')), continues: o.continues }]));

/** A follow-up's language among those with their own words here: what detection says, or, for a short unsure question, the one whose question words or openings it uses. */
function followUpLanguage(question: string): string {
  const detected = detectLanguage(question);
  const lang = analysisLanguage(detected.lang);
  if (otherWords[lang] && detected.confidence >= 0.9) return lang;
  const words = fold(question).match(/\p{L}+/gu) ?? [];
  for (const [l, o] of Object.entries(otherWords)) if (o.continues.test(fold(question)) || words.some((w) => o.questions.has(w) && !QUESTION_WORDS.has(w) && w.length > 2)) return l;
  return otherWords[lang] ? lang : 'en';
}

/** A word, an identifier with its hyphens/dots/underscores (ADR-011, v2.3, retry_sync) kept whole. */
const WORD = /[\p{L}\p{N}]+(?:[-_.][\p{L}\p{N}]+)*/gu;

/** A question with a pointer and more words of its own than this stands on its own. */
const MAX_OWN_WITH_POINTER = 4;

/** Most terms a follow-up carries. */
export const MAX_CARRIED = 6;

export interface FollowUpQuery {
  /** What retrieval searches for: the question, with the carried terms after it. */
  query: string;
  /** The previous question's terms added (empty: searched as asked). */
  carried: string[];
}

interface Word {
  raw: string;
  lower: string;
  stem: string;
  /** A name or an identifier: a capital past the first word, capitals only, or digits. */
  name: boolean;
}

const fold = (w: string) => w.normalize('NFC').toLowerCase().replace(/ё/g, 'е');

function wordsOf(text: string): Word[] {
  const out: Word[] = [];
  let first = true;
  // A run of Chinese or Japanese is several words.
  const found = [...text.matchAll(WORD)].flatMap((m) => (hasUnspacedScript(m[0]) ? unspacedWords(m[0]).map((w) => w.word) : [m[0]]));
  for (const raw of found) {
    const lower = fold(raw);
    const capital = /^\p{Lu}/u.test(raw);
    const name = /\d/.test(raw) || (raw.length > 1 && raw === raw.toUpperCase() && /\p{L}/u.test(raw)) || (capital && !first) || /[-_.]/.test(raw);
    out.push({ raw, lower, stem: lower.split(/[-_.]/).map((w) => stemWord(w)).join('-'), name });
    first = false;
  }
  return out;
}

const isPointer = (w: Word, lang: string) => POINTERS.has(w.lower) || otherWords[lang]?.pointers.has(w.lower) === true;
/** A word of one character is no content word, unless a digit or Chinese or Japanese (星 | 图 of a name the breaker does not know). */
const isContent = (w: Word, lang = 'en') =>
  !isPointer(w, lang) && !QUESTION_WORDS.has(w.lower) && !otherWords[lang]?.questions.has(w.lower) && !(w.lower.length > 1 || hasUnspacedScript(w.lower) ? isStopword(w.lower, lang) : !/\d/.test(w.lower));
/** Leading Spanish question and exclamation marks ("¿Y quién…?") are not words. */
const opening = (question: string) => fold(question.trim()).replace(/^[¿¡]+/u, '');

/** Does the question lean on the thread for what it is about? */
export function leansOnThread(question: string): boolean {
  const lang = followUpLanguage(question);
  if (CONTINUES.test(opening(question)) || otherWords[lang]?.continues.test(opening(question))) return true;
  // German writes every noun with a capital: a noun names the question's subject as a name does.
  const words = wordsOf(question);
  const own = words.filter((w) => isContent(w, lang));
  // A long question names its own subject; a pronoun in it points inside it ("why did we postpone QUIC and who decided it").
  if (words.some((w) => isPointer(w, lang))) return own.length <= MAX_OWN_WITH_POINTER;
  return own.length <= 2 && !own.some((w) => w.name);
}

/**
 * The follow-up as retrieval searches it, given what the previous question was searched as (its
 * text when it was searched as asked) and the titles of the notes its answer cited; unchanged when it stands on its own or there is nothing to
 * carry.
 */
export function rewriteFollowUp(question: string, previous: string | null, maxChars = Infinity, titles: readonly string[] = []): FollowUpQuery {
  const asked = question.trim();
  if (!previous || !leansOnThread(asked)) return { query: asked, carried: [] };
  const lang = followUpLanguage(previous);
  const have = new Set(wordsOf(asked).map((w) => w.stem));
  const seen = new Set<string>();
  const candidates: (Word & { order: number })[] = [];
  const title = (t: string) => wordsOf(t).map((w, i) => (i === 0 && /^\p{Lu}/u.test(w.raw) ? { ...w, name: true } : w));
  [...wordsOf(previous), ...titles.flatMap(title)].forEach((w, order) => {
    if (!isContent(w, lang) || have.has(w.stem) || seen.has(w.stem)) return;
    seen.add(w.stem);
    candidates.push({ ...w, order });
  });
  const chosen = [...candidates]
    .sort((a, b) => Number(b.name) - Number(a.name) || a.order - b.order)
    .slice(0, MAX_CARRIED)
    .sort((a, b) => a.order - b.order);
  const carried: string[] = [];
  let query = asked.replace(/[?？]+$/u, '').trimEnd();
  for (const w of chosen) {
    if (query.length + 1 + w.raw.length > maxChars) break;
    // Chinese and Japanese words follow one another without a space, as they were written.
    query += carried.length > 0 && hasUnspacedScript(carried.at(-1)!) && hasUnspacedScript(w.raw) ? w.raw : ` ${w.raw}`;
    carried.push(w.raw);
  }
  return carried.length > 0 ? { query, carried } : { query: asked, carried: [] };
}
