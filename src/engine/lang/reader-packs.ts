/**
 * The languages the answer reader knows, in the order their words and patterns are joined
 * (reader-pack.ts says what a pack holds). A language the reader reads is one folder here: add it
 * to this list.
 */
import { ar } from './ar/reader.ts';
import { de } from './de/reader.ts';
import { en } from './en/reader.ts';
import { es } from './es/reader.ts';
import { fr } from './fr/reader.ts';
import { hi } from './hi/reader.ts';
import { ja } from './ja/reader.ts';
import { ko } from './ko/reader.ts';
import type { AskedCue, ReaderPack, ValueWords } from './reader-pack.ts';
import { ru } from './ru/reader.ts';
import { th } from './th/reader.ts';
import { zh } from './zh/reader.ts';

export type { AskedCue, ReaderPack, ValueWords } from './reader-pack.ts';

export const READER_PACKS: readonly ReaderPack[] = [en, ru, de, fr, es, zh, ja, hi, th, ar, ko];

type ListField = { [K in keyof ReaderPack]-?: ReaderPack[K] extends readonly string[] | undefined ? K : never }[keyof ReaderPack];

/** One field's entries of every pack, in pack order. */
export function packWords(field: ListField): string[] {
  return READER_PACKS.flatMap((p) => p[field] ?? []);
}

/**
 * Pieces of a regular expression joined into one alternation. None at all is "(?!)", which matches
 * nothing: an empty alternative would match everywhere, so a kind no pack states would make every
 * sentence state it.
 */
export function alternation(pieces: readonly string[]): string {
  return pieces.length > 0 ? pieces.join('|') : '(?!)';
}

/** One field's alternatives of every pack joined into one alternation (for a regular expression). */
export function packAlternation(field: ListField): string {
  return alternation(packWords(field));
}

/** How every pack's questions ask for one kind of value, joined into one alternation (pack order). */
export function packCue(cue: AskedCue): string {
  return alternation(READER_PACKS.flatMap((p) => p.asks?.[cue] ?? []));
}

/** How every pack states one kind of value (`values`), joined into one alternation (pack order). */
export function packValues(name: keyof ValueWords): string {
  return alternation(READER_PACKS.flatMap((p) => p.values?.[name] ?? []));
}

/** The pack of an analysis language, if the reader has one. */
export function readerPack(code: string): ReaderPack | undefined {
  return READER_PACKS.find((p) => p.code === code);
}
