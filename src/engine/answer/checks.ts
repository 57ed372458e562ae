/**
 * The deterministic critic: checks each sentence of an answer against the snippets it cites,
 * without a model. It runs on every answer, first, because it is instant and cannot hallucinate:
 * a claim with no citation, or one whose cited snippet shares almost no words with it, is caught
 * here; only what passes may go on to a model critic (spec 004, decision 2).
 *
 * Word overlap is a weak test of support (it cannot see negation or paraphrase), so the threshold
 * is low and the verdict is a signal for a retry, not a proof. Words are compared through the
 * project's lexical analyzer, so "restarted" meets "restart" and настройка meets настроить, the way
 * they meet in search; numbers (dates, counts) must match as written.
 */
import { isStopword, stemWord, tokenize } from '../search/analyzer.ts';
import { citationNumbers, splitSentences, stripCitationMarkers } from './citations.ts';
import type { CriticResult, SentenceSupport, Snippet, Verdict } from './types.ts';

export interface CheckOptions {
  /** Least share of a claim's content words that its cited snippets must contain. Default 0.3. */
  minOverlap?: number;
}

const DEFAULT_MIN_OVERLAP = 0.3;
/** A sentence needs this many content words to state something worth checking. */
const MIN_CLAIM_WORDS = 3;

/**
 * Words a grounded answer adds around what the sources say ("according to the sources, ...").
 * They are not stopwords for search, but a snippet never contains them, so counting them would
 * make a faithful sentence look unsupported.
 */
const FRAMING_TERMS = new Set(
  [
    'according', 'based', 'source', 'sources', 'snippet', 'snippets', 'passage', 'passages', 'excerpt', 'excerpts',
    'also', 'however', 'therefore', 'mentioned', 'mentions', 'states', 'stated', 'says', 'said',
    'согласно', 'источник', 'источники', 'источниках', 'фрагмент', 'фрагменте', 'фрагментах', 'также', 'однако', 'поэтому', 'указано', 'сказано', 'говорится',
  ].map((w) => stemWord(w)),
);

/**
 * The stemmed content words of a text, in order, repeats kept: citation markers removed,
 * stopwords and framing words dropped, single letters dropped but single digits kept; words of
 * Latin script stemmed in `lang` (analyzer.ts; default English).
 */
export function contentTerms(text: string, lang?: string): string[] {
  const out: string[] = [];
  for (const t of tokenize(stripCitationMarkers(text), lang)) {
    if (isStopword(t.raw, lang) || FRAMING_TERMS.has(t.term)) continue;
    if (t.raw.length < 2 && !/\d/.test(t.raw)) continue;
    out.push(t.term);
  }
  return out;
}

/** Every term of a passage, identifier parts included, so "retrySync" in a note supports "retry". */
function passageTerms(text: string): Set<string> {
  const out = new Set<string>();
  for (const t of tokenize(text)) {
    out.add(t.term);
    for (const p of t.parts) out.add(p);
  }
  return out;
}

/**
 * The material the answer was given, in English: words that always mean it (sources, snippets),
 * and words that mean it only with a determiner ("your notes", not "the backup files"), so that a
 * claim such as "the backup files do not include the database" is still checked as a claim.
 */
const DET_EN = String.raw`(?:(?:the|these|those|your|my|any|all|of|provided|given|available|retrieved|indexed) )`;
const SOURCE_EN = String.raw`(?:${DET_EN}*(?:sources?|snippets?|passages?|excerpts?|context|search results|provided text)|${DET_EN}+(?:notes?|files?|documents?|records?|materials?|text|information))`;
const SOURCE_RU = String.raw`(?:источник|фрагмент|сниппет|контекст|заметк|(?:ваш|мои|моих|предоставлен|найден|приведен|проиндексирован)\S* (?:файл|документ|запис|материал|текст|данны))`;
const NOT_RU = String.raw`(?<![\p{L}\p{N}])не\s+`;
const SAY_RU = '(?:содерж|говор|упомина|указ|сказ|опис|дае|привод|освещ|сообщ|отвеча|найден|обнаруж)';

/**
 * Sentences that abstain or talk about the sources instead of stating something from them.
 * Matched on folded, lower-cased text with straight apostrophes.
 */
const ABSTENTION_PATTERNS: readonly RegExp[] = [
  new RegExp(String.raw`\b${SOURCE_EN}\b.*\b(?:do|does|did|can|could)(?: not|n't) (?:explicitly |directly )?(?:say|mention|contain|cover|include|state|specify|provide|address|answer|discuss|describe|explain|give|tell|indicate|show|list)`),
  new RegExp(String.raw`\b(?:not|never|nowhere) (?:found|mentioned|covered|stated|specified|present|available|included|described|addressed|given|listed|recorded)\b.*\b(?:in|by|from) ${SOURCE_EN}\b`),
  new RegExp(String.raw`\b(?:is|are|was|were)(?: not|n't) (?:in|part of) ${SOURCE_EN}\b`),
  new RegExp(String.raw`\b(?:none of|no) ${SOURCE_EN} (?:say|says|mention|mentions|contain|contains|cover|covers|answer|answers|address|addresses|state|states|describe|describes)\b`),
  /\bi (?:do not|don't|cannot|can't|could not|couldn't|am unable to|was unable to|am not able to) (?:know|find|determine|tell|answer|say|locate|see)\b/,
  /\b(?:unable|not able) to (?:find|determine|answer|locate|tell)\b/,
  /\b(?:there is|there's|i found|i have|with) no (?:information|mention|details?)\b/,
  /^no information\b|\b(?:insufficient|not enough) (?:information|evidence|context)\b/,
  new RegExp(`${SOURCE_RU}.*${NOT_RU}${SAY_RU}`, 'u'),
  new RegExp(`${NOT_RU}${SAY_RU}.*${SOURCE_RU}`, 'u'),
  new RegExp(`${NOT_RU}(?:знаю|могу (?:найти|ответить|определить|сказать)|удалось (?:найти|определить|установить))`, 'u'),
  /(?<![\p{L}\p{N}])(?:нет|недостаточно|отсутствуе?т|отсутствуют) (?:информаци|сведени|упоминани)/u,
  /(?<![\p{L}\p{N}])(?:информаци|сведени)\S* (?:об? этом )?(?:нет|отсутству)/u,
];

/** True when a sentence abstains ("The sources do not say…", "Источники не содержат…"). */
export function isAbstention(sentence: string): boolean {
  const s = stripCitationMarkers(sentence).normalize('NFC').toLowerCase().replace(/ё/g, 'е').replace(/[‘’`´]/g, "'");
  return ABSTENTION_PATTERNS.some((p) => p.test(s));
}

const round3 = (x: number) => Math.round(x * 1000) / 1000;

/** Quotes a sentence for feedback, shortened so a long answer does not flood the retry prompt. */
function quote(sentence: string): string {
  const s = sentence.replace(/\s+/g, ' ');
  return `"${s.length > 80 ? `${s.slice(0, 79).trimEnd()}…` : s}"`;
}

/**
 * The sentence without a label that names one of its cited passages' notes ("2026-04-02 Transport
 * protocol — Decider: Tomás Herrera."): the label says where the rest comes from, as the citation
 * does, and claims nothing of its own (a date in a title is not a number the passage must hold).
 */
function withoutSourceLabel(sentence: string, titles: readonly string[]): string {
  const s = sentence.trimStart();
  for (const title of titles) {
    const t = title.trim();
    if (t.length > 0 && s.length > t.length + 3 && s.slice(0, t.length).toLowerCase() === t.toLowerCase() && /^\s+—\s/.test(s.slice(t.length))) return s.slice(t.length).replace(/^\s+—\s+/, '');
  }
  return sentence;
}

/**
 * Checks every sentence of an answer against the snippets it cites. A claim (a sentence with at
 * least three content words that is not an abstention) is supported when it cites a snippet and
 * at least `minOverlap` of its content words occur in the cited snippets.
 *
 * Verdict: REJECT when the answer only abstains, is empty, or supports none of its claims;
 * APPROVE when every claim is supported; REVISE otherwise (also when an answer makes no claim,
 * does not abstain and cites nothing: the retry is asked to ground it).
 */
export function checkAnswer(answer: string, snippets: readonly Snippet[], options: CheckOptions = {}): CriticResult {
  const minOverlap = options.minOverlap ?? DEFAULT_MIN_OVERLAP;
  const byNumber = new Map(snippets.map((s) => [s.n, s] as const));
  const termsOf = new Map<number, Set<string>>();
  const snippetTerms = (n: number) => {
    let terms = termsOf.get(n);
    if (!terms) termsOf.set(n, (terms = passageTerms(byNumber.get(n)!.text)));
    return terms;
  };

  const texts = splitSentences(answer);
  let abstains = false;
  const sentences: SentenceSupport[] = texts.map((sentence) => {
    const citations = [...new Set(citationNumbers(sentence))].filter((n) => byNumber.has(n));
    const words = contentTerms(withoutSourceLabel(sentence, citations.map((n) => byNumber.get(n)!.title)));
    const abstention = isAbstention(sentence);
    abstains ||= abstention;
    const claim = !abstention && words.length >= MIN_CLAIM_WORDS;
    const distinct = [...new Set(words)];
    const cited = citations.map(snippetTerms);
    const found = distinct.filter((w) => cited.some((terms) => terms.has(w))).length;
    const overlap = distinct.length === 0 ? 0 : round3(found / distinct.length);
    // A number is the easiest thing for a model to get wrong and the least covered by word overlap:
    // every number a claim states must be in a cited snippet.
    const numbers = distinct.filter((w) => /\d/.test(w));
    const wrongNumbers = numbers.filter((w) => !cited.some((terms) => terms.has(w)));
    let reason: string | null = null;
    if (claim && citations.length === 0) reason = 'no citation';
    else if (claim && overlap < minOverlap) {
      const which = citations.length === 1 ? 'cited snippet does' : 'cited snippets do';
      reason = `${which} not share content with the sentence (overlap ${overlap.toFixed(2)})`;
    } else if (claim && wrongNumbers.length > 0) {
      reason = `${wrongNumbers.join(', ')} ${wrongNumbers.length === 1 ? 'is' : 'are'} not in the cited snippet${citations.length === 1 ? '' : 's'}`;
    }
    return { sentence, citations, claim, supported: reason === null, overlap, reason };
  });

  const claims = sentences.filter((s) => s.claim);
  const supported = claims.filter((s) => s.supported).length;
  const problems = sentences.flatMap((s, i) => {
    if (s.supported) return [];
    const head = `Sentence ${i + 1} ${quote(s.sentence)}`;
    if (s.citations.length === 0) return [`${head} has no citation: cite the snippet that supports it or remove it.`];
    const cites = s.citations.map((n) => `[${n}]`).join('');
    if (s.reason && !s.reason.includes('overlap')) return [`${head} cites ${cites}, but ${s.reason}: use the numbers the snippet gives or remove the sentence.`];
    return [`${head} cites ${cites}, which does not say this (overlap ${s.overlap.toFixed(2)}): cite the snippet that says it or remove it.`];
  });

  let verdict: Verdict;
  let feedback: string;
  if (sentences.length === 0) {
    verdict = 'REJECT';
    feedback = 'The answer is empty: answer from the snippets with [n] citations, or say that they do not answer the question.';
  } else if (claims.length === 0 && abstains) {
    verdict = 'REJECT';
    feedback = 'The answer abstains: the snippets do not answer the question.';
  } else if (claims.length === 0) {
    const cites = sentences.some((s) => s.citations.length > 0);
    verdict = cites ? 'APPROVE' : 'REVISE';
    feedback = cites ? '' : 'The answer cites no snippet: support it with [n] citations or say that the snippets do not answer the question.';
  } else if (supported === 0) {
    verdict = 'REJECT';
    feedback = ['No claim in the answer is supported by the snippets.', ...problems].join('\n');
  } else if (supported === claims.length) {
    verdict = 'APPROVE';
    feedback = '';
  } else {
    verdict = 'REVISE';
    feedback = problems.join('\n');
  }
  return { verdict, sentences, feedback, decidedBy: 'deterministic' };
}

/** Supported claims / claims, 1 when there is no claim: the input answerConfidence expects. */
export function supportedShare(sentences: readonly SentenceSupport[]): number {
  const claims = sentences.filter((s) => s.claim);
  return claims.length === 0 ? 1 : claims.filter((s) => s.supported).length / claims.length;
}

export interface TidiedAnswer {
  text: string;
  /** Sentences dropped because they repeated an earlier one (small models loop). */
  repeated: number;
  /** Citations added to uncited sentences, as [sentence index (1-based), snippet number]. */
  attributed: [number, number][];
}

/**
 * Cleans a model's draft before it is checked: sentences that repeat an earlier one are dropped
 * (small models fall into loops), and a claim the model left uncited gets the snippet that holds
 * at least `minAttribution` of its content words, the best such snippet (post-hoc attribution;
 * stricter than the support check so it cannot attach a citation the check would then doubt).
 * Everything added is reported, so the caller can name it.
 */
export function tidyAnswer(answer: string, snippets: readonly Snippet[], minAttribution = 0.5): TidiedAnswer {
  const seen = new Set<string>();
  const kept: string[] = [];
  let repeated = 0;
  for (const sentence of splitSentences(answer)) {
    const key = stripCitationMarkers(sentence).toLowerCase().replace(/\s+/g, ' ').trim();
    if (key && seen.has(key)) {
      repeated++;
      continue;
    }
    seen.add(key);
    kept.push(sentence);
  }
  const terms = snippets.map((s) => ({ n: s.n, terms: passageTerms(s.text) }));
  const attributed: [number, number][] = [];
  const out = kept.map((sentence, i) => {
    if (citationNumbers(sentence).length > 0 || isAbstention(sentence)) return sentence;
    const words = [...new Set(contentTerms(sentence))];
    if (words.length < MIN_CLAIM_WORDS) return sentence;
    let best: { n: number; share: number } | null = null;
    for (const s of terms) {
      const share = words.filter((w) => s.terms.has(w)).length / words.length;
      if (share >= minAttribution && (!best || share > best.share)) best = { n: s.n, share };
    }
    if (!best) return sentence;
    attributed.push([i + 1, best.n]);
    return `${sentence} [${best.n}]`;
  });
  return { text: out.join(' '), repeated, attributed };
}
