/** How the answer reader's quote is laid out: the items of a list or the steps quoted after the sentence that announces them, and the subjects offered for a second hop. */
import { packAlternation } from '../../lang/reader-packs.ts';

/** The most items of a list quoted after the sentence that announces it ("…in the following regions:"). */
export const MAX_LISTED = 6;
/** The most steps and lines of their commands quoted for a "How do I…" question. */
export const MAX_STEPS = 12;

/** A sentence that ends by announcing what follows it without a colon: "…using the following methods.", "…as follows.", «…следующими способами.», "…wie folgt." */
export const ANNOUNCES_LIST = new RegExp(`(?:(?<![\\p{L}])(?:${packAlternation('listAnnouncers')})(?:\\s+[\\p{L}-]+){0,2}|(?<![\\p{L}])(?:${packAlternation('listEndings')}))\\s*[.!]?\\s*$`, 'iu');

/** The best sentences whose links and names a second hop follows. */
export const HOP_FROM = 5;
/** The most subjects a reading offers for a second hop. */
export const MAX_HOPS = 5;
