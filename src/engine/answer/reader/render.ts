/** How the answer reader's quote is laid out: the items of a list or the steps quoted after the sentence that announces them, and the subjects offered for a second hop. */
import { packAlternation } from '../../lang/reader-packs.ts';
import { endsSentence } from '../citations.ts';
import type { QuoteContext } from './outcome.ts';

/** The most items of a list quoted after the sentence that announces it ("…in the following regions:"). */
export const MAX_LISTED = 6;
/** The most steps and lines of their commands quoted for a "How do I…" question. */
export const MAX_STEPS = 12;
/** The longest line quoted as what a sentence ending in ":" announces, when that is neither a list nor code (in words). */
export const FOLLOWS_WORDS = 40;

/** A sentence that ends by announcing what follows it without a colon: "…using the following methods.", "…as follows.", «…следующими способами.», "…wie folgt." */
export const ANNOUNCES_LIST = new RegExp(`(?:(?<![\\p{L}])(?:${packAlternation('listAnnouncers')})(?:\\s+[\\p{L}-]+){0,2}|(?<![\\p{L}])(?:${packAlternation('listEndings')}))\\s*[.!]?\\s*$`, 'iu');

/** The best sentences whose links and names a second hop follows. */
export const HOP_FROM = 5;
/** The most subjects a reading offers for a second hop. */
export const MAX_HOPS = 5;

/**
 * The quoted answer: each picked sentence with its citation, in reading order of relevance (the lead
 * first, then what completes it), a field line or the other hop of a chain with its note's subject,
 * list items and lines of code on lines of their own.
 */
export function quotedText(ctx: QuoteContext, listed: ReadonlySet<number>, hopped: ReadonlySet<number>): string {
  const { picked } = ctx;
  const { candidates, parts } = ctx.weighed;
  const askedPerson = parts.some((p) => p.asked.type === 'person');
  const quoted = picked.map((i) => {
    const c = candidates[i]!;
    // A field line quoted alone loses whom it is about: "Анна Соколова — Город: Казань".
    // So is the other hop of a chain: "Maya Chen — Maya leads the sync team", and a sentence that
    // names the person of its note by a first name only, when a person is asked: "Анна Соколова — Анна руководит…".
    const byFirstName = askedPerson && c.titleNames !== undefined && (c.nameOrder ?? []).some((n) => c.titleNames!.has(n));
    // An item quoted after the sentence that announces it reads with that sentence, not with its note's name.
    const about = listed.has(i) ? undefined : (c.subject ?? (hopped.has(i) || byFirstName ? c.title : undefined));
    const subject = about && about.split(/\s+/).length <= 4 && !/\d/.test(about) && !c.text.toLowerCase().includes(about.toLowerCase()) ? about : null;
    const s = subject ? `${subject} — ${c.text}` : c.text;
    // A line of code is quoted as written: "make dev-up." would not run; so is the line a colon
    // announces when it is no list item ("npm ls react" in a component block). Thai and Lao end a sentence without a stop.
    const asWritten = c.code || (listed.has(i) && !c.item);
    return `${asWritten || endsSentence(s) || /[{;,(:：]$/.test(s) ? s : `${s}.`} [${candidates[i]!.n}]`;
  });
  // The items of a list and the lines of a command go on lines of their own: steps read as steps.
  const answer = quoted.map((q, k) => (k === 0 ? q : `${listed.has(picked[k]!) || candidates[picked[k]!]!.code ? '\n' : ' '}${q}`)).join('');
  return answer;
}

/** The citation numbers of the quoted sentences, each once, in quote order. */
export function cited(ctx: QuoteContext): number[] {
  const { picked } = ctx;
  const { candidates } = ctx.weighed;
  return [...new Set(picked.map((i) => candidates[i]!.n))];
}
