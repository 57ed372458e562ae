/** What the answer reader reads in a question: its own words (not the words that frame it), the task of a how-to, the values it states, the nouns it asks for, derived and misspelt words. */
import { stemWord } from '../../search/analyzer.ts';

/** Words that frame a question rather than say what it is about (stemmed forms too). */
export const QUESTION_WORDS: ReadonlySet<string> = new Set(
  (
    'what which who whom whose when where why how does doe did do long often many much kind sort tell explain describe mean ' +
    'что чего чему чем чём какой какая какое какие какую какого какому каким каком каких какими каков какова каково каковы кто кого кому кем ком когда где куда откуда почему зачем как сколько скольк скольких ли ' +
    'который которая которое которые которого которой которому которым чей чья чьё чье чьи ' +
    'wie wann wo woher wohin warum weshalb wieso weswegen wozu wer wen wem wessen was welche welcher welches welchen welchem ' +
    'womit wofür woraus worauf wodurch worin wovon lange oft häufig viele viel wieviel wieviele gibt ' +
    'quand où pourquoi combien quel quelle quels quelles qui que quoi lequel laquelle ' +
    'cuándo cuando dónde donde por qué cómo cuánto cuánta cuántos cuántas quién quiénes cuál cuáles ' +
    // Chinese and Japanese, as the word breaker splits them (什么时候: 什么 | 时候; どのくらい: どの | くらい).
    '什么 什么样 时候 哪 哪个 哪些 哪里 哪儿 哪种 哪家 哪天 哪年 谁 多少 几 多久 多长 多大 多高 多远 为什么 为何 怎么 怎样 如何 吗 呢 何时 请问 可以 能 能够 是否 ' +
    '何 なに なん いつ 誰 だれ どこ なぜ どうして どの どれ どんな いくら いくつ くらい ぐらい ですか ますか できます できますか ' +
    // Hindi and Thai
    'कितने कितनी कितना कब कौन किसने किसका किसकी क्यों कहाँ कहां क्या किस समय तक ' +
    'เท่าไร เท่าไหร่ เมื่อไร เมื่อไหร่ ใคร ทำไม ที่ไหน อะไร ไหน กี่ นาน แค่ไหน ' +
    // Arabic
    'ما ماذا متى أين اين من كم لماذا كيف أي هل ' +
    // Korean
    '얼마나 언제 누가 누구 왜 어디 어디에 무엇 무슨 어떤 어느 몇 얼마'
  ).split(' '),
);

/**
 * English function words the index's stopword list keeps ("its", "somewhere", "else", "anyone"): no
 * question's asked content rests on them, yet in a small vault their idf is high, and a quote without
 * "else" read as missing the question's most specific word ("…in my vault folder or somewhere
 * else?"), nor on "will" ("…the largest file Sync Plus will sync"). "own" stays a content word: "on their own" is what some questions ask.
 */
export const ENGLISH_FUNCTION_WORDS = 'its itself she hers herself ours ourselves yours yourself yourselves myself theirs themselves else somewhere anywhere everywhere nowhere someone somebody anyone anybody everyone everybody something anything everything just will'.split(' ');
/**
 * Russian modal verbs the stopword list lacks (it keeps "может", not "могло", "смогу", "нужно"): in
 * "…могло быть удалено" the asked content is «удалено», and no answer repeats the modal.
 */
export const RUSSIAN_FUNCTION_WORDS = 'могу можешь можем можете могут мог могла могло могли смогу сможешь сможет сможем сможете смогут смог смогла смогло смогли нужно надо должен должна должно должны'.split(' ');
export const FUNCTION_WORDS: Record<string, readonly string[]> = { en: ENGLISH_FUNCTION_WORDS, ru: RUSSIAN_FUNCTION_WORDS };
/** Words that do not count among a question's own, as the analyzer stems them in each analysis language ("why" is "whi"): the question words, and in English and Russian the function words above. */
export const questionStemSets = new Map<string, ReadonlySet<string>>();
export function questionStems(lang = 'en'): ReadonlySet<string> {
  let set = questionStemSets.get(lang);
  if (!set) {
    const words = [...QUESTION_WORDS, ...(FUNCTION_WORDS[lang] ?? [])];
    questionStemSets.set(lang, (set = new Set([...QUESTION_WORDS, ...words.map((w) => stemWord(w, lang))])));
  }
  return set;
}
