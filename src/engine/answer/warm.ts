/**
 * The first question in a process costs several hundred milliseconds more than the next ones: V8
 * compiles the reader's regular expressions and functions on first use, the stemmer of the
 * question's language builds its tables, and a Latin-script question other than English loads the
 * language detector. Reading a made-up passage in each of the vault's main languages once, while
 * the engine waits for its first request, moves that cost off the first answer a person asks for.
 * A vault that holds text in other languages than English and Russian gets questions in them: its
 * language detector is loaded then too, off the first such search (150 ms of a 160 ms German search
 * on Obsidian's help in all its languages, `bench real`).
 */

import { detectLanguage } from '../lang/detect.ts';
import { loadDetector } from '../lang/ngram-detect.ts';
import { LANGUAGE_PRESENT_SHARE } from '../store/queries/fts.ts';
import { readAnswer, readerCandidates } from './reader.ts';
import type { Candidate } from './reader.ts';
import type { Snippet } from './types.ts';

/** One question and a passage that answers it ("47"), per language the reader has words of its own for. */
export const WARM_SAMPLES: Readonly<Record<string, { question: string; text: string }>> = {
  en: { question: 'How long did the March relay outage last, and who fixed it?', text: 'The relay outage on 3 March lasted 47 minutes. Maya Chen fixed it by rolling back the deploy. Cost: $4,000 per month.' },
  ru: { question: 'Сколько длился сбой и кто его устранил?', text: 'Сбой 3 марта длился 47 минут. Его устранила Мария Чен, откатив выпуск.' },
  de: { question: 'Wie lange dauerte der Ausfall im März?', text: 'Der Ausfall am 3. März dauerte 47 Minuten. Maria Chen hat ihn behoben.' },
  fr: { question: 'Combien de temps a duré la panne de mars ?', text: 'La panne du 3 mars a duré 47 minutes. Maya Chen l’a réparée.' },
  es: { question: '¿Cuánto duró la caída de marzo?', text: 'La caída del 3 de marzo duró 47 minutos. Maya Chen la arregló.' },
  zh: { question: '三月的中断持续了多长时间？', text: '3月3日的中断持续了47分钟。陈玛雅修复了它。' },
};

/** A vault's languages worth warming: those of at least a tenth of its chunks, at most three. */
export function warmLanguages(counts: readonly { lang: string; chunks: number }[]): string[] {
  const total = counts.reduce((n, c) => n + c.chunks, 0);
  const main = counts.filter((c) => c.lang in WARM_SAMPLES && c.chunks >= total / 10).map((c) => c.lang);
  return main.length > 0 ? main.slice(0, 3) : ['en'];
}

/**
 * Whether questions may need the language detector: the vault holds a language other than English
 * and Russian (which are told by their letters and words alone) in the share of its chunks from which
 * a search reads the vault as written in it (LANGUAGE_PRESENT_SHARE).
 */
export function detectorWanted(counts: readonly { lang: string; chunks: number }[]): boolean {
  const total = counts.reduce((n, c) => n + c.chunks, 0);
  return counts.some((c) => c.lang !== 'en' && c.lang !== 'ru' && c.lang !== 'und' && c.chunks >= Math.max(1, total * LANGUAGE_PRESENT_SHARE));
}

/** Loads the language detector once per process; never throws. */
export function warmDetector(): void {
  try {
    loadDetector();
  } catch {
    // Loaded on first use instead.
  }
}

/** Every sample word as rare as any other, each in one file. */
export const warmTermStats = (terms: readonly string[]) => new Map(terms.map((t) => [t, { idf: 2, df: 1 }]));

/** A sample passage as the reader's candidates. */
export function warmCandidates(text: string, language: string): Candidate[] {
  const snippet: Snippet = { n: 1, locator: 'warm.md#L1-L1', path: 'warm.md', start_line: 1, end_line: 1, doc_id: 'warm', title: 'Warm', heading: null, text, score: 1 };
  return readerCandidates([snippet], language);
}

const warmed = new Set<string>();

/** Reads each language's sample once per process; a language already read is skipped. Never throws. */
export function warmReader(languages: readonly string[]): void {
  for (const language of languages) {
    const sample = WARM_SAMPLES[language];
    if (!sample || warmed.has(language)) continue;
    warmed.add(language);
    try {
      detectLanguage(sample.question);
      readAnswer(sample.question, warmCandidates(sample.text, language), { termStats: warmTermStats, language });
    } catch {
      // A warm-up that fails costs the first answer its speed, nothing else.
    }
  }
}
