/** The quotable units of a passage: the prose sentences of a note (front matter, headings, link lines skipped; tables read with their header) and the lines of code, each with what introduces it. */
import { splitSentences, stripCitationMarkers } from '../citations.ts';
import type { PassageUnit } from './types.ts';
import { plainText } from './text.ts';

export const FENCE = /^(?:```|~~~)/;
const LIST_ITEM = /^(?:[-*+•]|\d{1,3}[.)])\s/;
/** "**Date:** 2026-04-02", "Owner: Maya": a line that states one field starts a sentence of its own. */
const LABEL_LINE = /^(?:\*\*[^*\n]{1,40}:\*\*|\*\*[^*\n]{1,40}\*\*:|[\p{L}][\p{L} ]{0,30}:\s)/u;
const TABLE_ROW = /^\|.*\|\s*$/;
/** A line that is only a question in bold: an FAQ's question, whose answer follows it. */
const BOLD_QUESTION = /^\*\*[^*\n]+[?？]\*\*$/;
const QUOTE = /^(?:>\s?)+/;
/** An Obsidian callout's first line: "[!warning] Title", "[!info]+ Title", "[!tip]-". */
const CALLOUT = /^\[![\p{L}\p{N}_-]+\][+-]?(?:\s|$)/u;
export const TABLE_RULE = /^\|?[\s:|-]+\|[\s:|-]*$/;
/** An Obsidian block ID at the end of a line: " ^block-id". */
export const BLOCK_ID = /(?:^|\s+)\^[\p{L}\p{N}-]+$/u;
/**
 * Lines that carry no prose: headings, horizontal rules, HTML, and lines of links or tags only.
 * The URL alternative is atomic (a lookahead captures the whole non-space run, \1 consumes it): a
 * plain \S+ inside the repetition could split "http://http://..." every possible way, and a token
 * of 40 such prefixes took 11 s, so a note holding one stalled every answer that quoted it.
 */
const NOISE_LINE =
  /^(?:#|[-*_=]{3,}\s*$|<[^>]*>\s*$|<!--|\[[^\]^][^\]]*\]:\s+\S+(?:\s+(?:"[^"]*"|'[^']*'|\([^)]*\)))?\s*$|\{\{.*\}\}\s*$|\{%.*%\}\s*$)|^(?:(?:tags?|links?|see also|related|aliases)\s*:)?(?:[\s,;|·•-]|\[\[[^\]]*\]\]|!?\[[^\]]*\]\([^)]*\)|(?=(<?https?:\/\/\S+))\1|#[\p{L}\p{N}_/-]+)+$/iu;

/** A wikilink or a Markdown link, as written. */
const LINK = /!?\[\[[^\]]+\]\]|!?\[[^\]]*\]\([^)]*\)/g;
/**
 * A link whose text is a title of four words or more ("check out [[Where can I find my current Sync
 * server?]] for guidance") points at what another note says: its words are not this sentence's own.
 * A shorter one names a thing ("[[Obsidian Sync]] keeps versions for a year"), and its words are.
 */
const POINTER_WORDS = 4;

export const cells = (row: string) => row.trim().replace(/^\||\|$/g, '').split('|').map((c) => plainText(c));

/**
 * The prose sentences of a snippet: front matter, code blocks, headings and link or tag lines
 * skipped; wrapped lines of one paragraph joined, so a sentence broken over two lines stays whole;
 * a table row read with its header ("Time: 08:00; Event: Certificate expires").
 */
export function proseSentences(text: string): string[] {
  return proseUnits(text).map((u) => u.text);
}

/** The prose sentences of a snippet, and each line of its code blocks with the sentence that introduces it. */
export function proseUnits(text: string): PassageUnit[] {
  const lines = text.split(/\r\n|\r|\n/);
  let i = 0;
  if (lines[0]?.trim() === '---') {
    const close = lines.findIndex((l, j) => j > 0 && /^(?:---|\.\.\.)\s*$/.test(l));
    if (close > 0) i = close + 1;
  }
  const out: PassageUnit[] = [];
  let current: string[] = [];
  const flush = () => {
    // The first sentence of a list item is an item of the list, as a field line is.
    const listed = current.length > 0 && LIST_ITEM.test(current[0]!);
    const numbered = listed && /^\d{1,3}[.)]\s/.test(current[0]!);
    const under = callout();
    if (current.length > 0) out.push(...splitSentences(current.join(' ')).map((t, j) => (listed && j === 0 ? { text: t, item: true, ...(numbered ? { numbered: true } : {}), ...under } : { text: t, ...under })));
    if (current.length > 0) asked = '';
    current = [];
  };
  // A passage cut from the middle of a long code block starts inside it: its first fence closes.
  let inFence = startsInFence(lines, i);
  /** Inside an HTML comment that spans lines (`<!-- manual-regeneration …`): nothing a person reads. */
  let inComment = false;
  /** The open code block is a shell session: each line is a command. */
  let shell = false;
  /** The open code block lists files and folders: no line of it is a command. */
  let listing = false;
  /** The sentence ending in ":" right before the open code block, if any. */
  let intro: string | undefined;
  let header: string[] | null = null;
  /** The line before was in a block quote (a callout): a quote is read apart from the prose around it. */
  let quoted = false;
  /** The title of the open callout, if it has one: the heading of the lines in it. */
  let calloutTitle = '';
  /** A question alone on its line in bold ("**Can I get a refund?**"), as FAQs write them: the heading of the paragraph that answers it. */
  let asked = '';
  const callout = (): { heading?: string; answers?: string } => (quoted && calloutTitle ? { heading: calloutTitle } : asked ? { answers: asked } : {});
  /** The open block is indented code (four spaces or a tab, after a blank line, outside a list). */
  let indented = false;
  /** The last line with text, outside code, was a list item or went on one: an indented line after it goes on the item. */
  let inList = false;
  for (; i < lines.length; i++) {
    const read: { text: string; open: boolean } = inFence ? { text: lines[i]!, open: false } : withoutComments(lines[i]!, inComment);
    inComment = read.open;
    const raw = read.text;
    // A line that was all comment is no line at all: the paragraph around it goes on.
    if (raw.trim() === '' && lines[i]!.trim() !== '') continue;
    let line = raw.trim();
    if (!inFence && !inList && indentedCodeLine(lines, i, indented)) {
      // An indented code block ("    gsutil iam ch allUsers:objectViewer gs://…" under "This command
      // allows anyone to download from the bucket:"): its lines are code, introduced as a fence's are.
      if (!indented) {
        flush();
        const last = out.at(-1);
        intro = last && !last.code && endsInColon(last.text) ? last.text : undefined;
        indented = true;
      }
      if (readsAsCode(line, true)) out.push(fenceLine(line, true, false, intro));
      continue;
    }
    if (line !== '') {
      if (indented) intro = undefined;
      indented = false;
      if (!inFence) inList = LIST_ITEM.test(line) || (inList && /^\s/.test(raw));
    }
    // An Obsidian block ID ("… in size to your Publish site. ^publish-media-limit", or alone on the
    // line after a list or table) names the block for links: nothing a person reads as the sentence.
    if (!inFence) line = line.replace(BLOCK_ID, '');
    // "> text" is a block quote, "> [!note] Title" opens a callout: the quote's lines read as lines of
    // their own, the callout's type and title as a heading (not a sentence).
    const quote = !inFence && QUOTE.test(line);
    if (quote !== quoted) flush();
    if (!quote) calloutTitle = '';
    quoted = quote;
    if (quote) {
      line = line.replace(QUOTE, '');
      if (CALLOUT.test(line)) {
        flush();
        calloutTitle = plainText(line.replace(CALLOUT, ''));
        continue;
      }
    }
    if (FENCE.test(line)) {
      inFence = !inFence;
      listing = inFence && listsFiles(lines, i + 1);
      shell = inFence && !listing && SHELL_FENCE.test(line.slice(3).trim());
      flush();
      intro = inFence ? blockIntro(out, lines, i, shell) : undefined;
      continue;
    }
    if (inFence) {
      // A command or a setting in a code block answers "which command": each line on its own.
      if (readsAsCode(line, shell)) out.push(fenceLine(line, shell, listing, intro));
      continue;
    }
    if (TABLE_ROW.test(line)) {
      flush();
      if (TABLE_RULE.test(line)) continue;
      const row = cells(line);
      const next = lines[i + 1]?.trim() ?? '';
      if (!header || TABLE_RULE.test(next)) {
        header = row;
        continue;
      }
      const fields = row.map((c, j) => (c && header![j] ? `${header![j]}: ${c}` : c)).filter(Boolean);
      if (fields.length > 0) out.push({ text: fields.join('; '), row: true });
      continue;
    }
    header = null;
    if (line === '' || NOISE_LINE.test(line)) {
      flush();
      continue;
    }
    if (BOLD_QUESTION.test(line)) {
      flush();
      asked = plainText(line);
      continue;
    }
    if (LABEL_LINE.test(line)) {
      flush();
      const under = callout();
      out.push(...splitSentences(line).map((t, j) => (j === 0 ? { text: t, field: true, ...under } : { text: t, ...under })));
      continue;
    }
    if (LIST_ITEM.test(line)) flush();
    current.push(line);
  }
  flush();
  // Markers in a note ("as shown in [3]") would read as citations of our snippets: drop them.
  // A bold span over two sentences ("**I bought it weeks ago. Can I get a refund?**") leaves each an unpaired "**".
  const clean = (t: string) =>
    plainText(stripCitationMarkers(t))
      .replace(/^\*\*(?=\S)|(?<=[.?!:;,)])\*\*(?=\s|$)/g, '')
      .trim();
  return out
    .map((u) => {
      const links = [...u.text.matchAll(/\[\[([^\]|#]+)/g)].map((m) => m[1]!.trim()).filter(Boolean);
      const pointers = [...u.text.matchAll(LINK)].map((m) => plainText(m[0])).filter((t) => t.split(/\s+/).length >= POINTER_WORDS);
      return { ...u, text: clean(u.code ? u.text : withoutTags(u.text)), ...(u.described ? { described: clean(withoutTags(u.described)) } : {}), ...(links.length > 0 ? { links } : {}), ...(pointers.length > 0 ? { pointers } : {}) };
    })
    .filter((u) => /[\p{L}\p{N}]/u.test(u.text));
}

/** An HTML element's tag written in a note's prose (`<button class="mod-cta"><a href="…">Vote now</a></button>`): markup, not words. */
const HTML_TAG = /<\/?(?:a|abbr|audio|b|blockquote|br|button|center|cite|code|del|details|div|em|figcaption|figure|font|h[1-6]|hr|i|iframe|img|input|ins|kbd|label|li|mark|ol|p|pre|q|s|section|small|source|span|strong|sub|summary|sup|table|tbody|td|th|thead|tr|u|ul|video)(?:\s[^<>]*)?\/?>/gi;
/** Prose without its HTML tags (the text between them stays); inline code (`<div>`) is left as written. */
export const withoutTags = (text: string) =>
  text.includes('<')
    ? text
        .split(/(`[^`]*`)/)
        .map((part, k) => (k % 2 === 1 ? part : part.replace(HTML_TAG, ' ')))
        .join('')
    : text;

/**
 * Whether a passage starts inside a code block (a chunk cut from the middle of a long one): its first
 * fence then closes a block. An opening fence usually names its language (```console) and a closing
 * one never does, so the fences with an info string vote for where they stand; with none, a bare first
 * fence right after a line of text and before a blank line closes a block, when the fences are odd.
 */
export function startsInFence(lines: readonly string[], from: number): boolean {
  const fences: number[] = [];
  for (let j = from; j < lines.length; j++) if (FENCE.test(lines[j]!.trim())) fences.push(j);
  if (fences.length === 0) return false;
  const named = fences.map((j, k) => ({ k, named: /^(?:```|~~~)\s*[^\s`~]/.test(lines[j]!.trim()) })).filter((f) => f.named);
  const opensFirst = named.filter((f) => f.k % 2 === 0).length;
  const closesFirst = named.length - opensFirst;
  if (opensFirst !== closesFirst) return closesFirst > opensFirst;
  const first = fences[0]!;
  return fences.length % 2 === 1 && opensFirst === 0 && first > from && lines[first - 1]!.trim() !== '' && (lines[first + 1] ?? '').trim() === '' && first + 1 < lines.length;
}

/** A line's text without its HTML comments, and whether a comment is still open at its end. */
export function withoutComments(line: string, open: boolean): { text: string; open: boolean } {
  let text = '';
  let rest = line;
  let inside = open;
  for (;;) {
    if (inside) {
      const end = rest.indexOf('-->');
      if (end < 0) return { text, open: true };
      rest = rest.slice(end + 3);
      inside = false;
    } else {
      const start = rest.indexOf('<!--');
      if (start < 0) return { text: text + rest, open: false };
      text += rest.slice(0, start);
      rest = rest.slice(start + 4);
      inside = true;
    }
  }
}

/**
 * The sentence that introduces the code block opening at line i: the last unit, when it ends in a
 * colon or, before commands, runs straight into the block with no blank line ("To upgrade Astro, we
 * need to upgrade its integrations too" over `npm install astro@latest`). A caption between the
 * sentence and its block ("…for the `dev` and `release` profiles:", then "Filename: Cargo.toml")
 * names the file; the sentence before it still introduces the code.
 */
function blockIntro(out: readonly PassageUnit[], lines: readonly string[], i: number, shell: boolean): string | undefined {
  const last = out.at(-1);
  const runsInto = shell && i > 0 && lines[i - 1]!.trim() !== '';
  const lead = last && !last.code && isCaption(last.text) && i > 0 && lines[i - 1]!.trim() === '' ? out.at(-2) : last;
  return lead && !lead.code && (endsInColon(lead.text) || (lead === last && runsInto)) ? lead.text : undefined;
}

/** A short line without a sentence's end between a sentence and its code block: the file's name ("Filename: src/main.rs"). */
const isCaption = (text: string): boolean => {
  const plain = withoutTags(text).trim();
  return plain.length > 0 && plain.length <= 60 && !/[.!?:：]$/.test(plain);
};

/** A line of a code block as a unit: a command in a shell block, a name in a listing, introduced by the sentence before the block. */
function fenceLine(text: string, shell: boolean, listing: boolean, intro: string | undefined): PassageUnit {
  return { text, code: true, ...(shell ? { command: true } : {}), ...(listing ? { listing: true } : {}), ...(intro ? { described: intro } : {}) };
}

/** A line that names a file or a folder ("Airtable/", "\t\tTasks.base", "├── Write the proposal.md"): no operator, a folder's slash or a file's extension at its end. */
const PATH_LINE = /^[\s│├└─|`]*[^\s$=;&|<>(){}"'`\\-][^$=;&|<>(){}"'`]*(?:\/|\.[\p{L}][\p{L}\p{N}]{0,7})$/u;

/**
 * Whether the code block from line `from` lists files and folders rather than commands to type: two
 * lines or more up to its closing fence, each a file or folder name, at least one a folder.
 */
export function listsFiles(lines: readonly string[], from: number): boolean {
  const block: string[] = [];
  for (let j = from; j < lines.length && !FENCE.test(lines[j]!.trim()); j++) if (lines[j]!.trim() !== '') block.push(lines[j]!.trimEnd());
  return block.length >= 2 && block.every((l) => PATH_LINE.test(l)) && block.some((l) => l.endsWith('/'));
}

/** A code block whose lines are commands: a shell's info string, or none. */
const SHELL_FENCE = /^(?:sh|bash|zsh|fish|shell|console|shell-session|powershell|ps1?|pwsh|cmd|bat)?$/i;


/** A line of an indented code block: four spaces or a tab before it. */
const INDENTED = /^(?: {4}|\t)/;
/**
 * Whether line i is a line of an indented code block: indented by INDENTED, not blank, and after a
 * blank line or another line of the block (`continuing`). A wrapped paragraph line is not; whether a
 * list goes on (its items' paragraphs are indented too) the caller knows.
 */
const indentedCodeLine = (lines: readonly string[], i: number, continuing: boolean): boolean =>
  INDENTED.test(lines[i]!) && lines[i]!.trim() !== '' && (continuing || i === 0 || lines[i - 1]!.trim() === '');
/** A sentence that announces what follows it ("…download from the bucket:"). */
const endsInColon = (text: string): boolean => /[:：]\s*$/.test(text);

const COMMENT = /^(?:\/\/+|#+(?!include|define|!)|\/\*+|\*+\/?|--|;+|%)\s?/;
/** zsh's prompt before a command in a shell session ("% ./node_modules/.bin/tsc --init"): the line is the command, not a comment. */
const ZSH_PROMPT = /^%\s+[\p{L}.~/]/u;
/** A line of a code block worth quoting on its own: four characters or more, a letter, not a comment. */
const readsAsCode = (line: string, shell = false): boolean =>
  line.length >= 4 && /[\p{L}]/u.test(line) && (!COMMENT.test(line) || (shell && ZSH_PROMPT.test(line))) && !TEMPLATE.test(line);
/**
 * A directive standing for text a site generator inserts (`{{#include listing.rs}}`, `{{< figure >}}`,
 * `{{% note %}}`): nothing to quote. A template's own code (`{{ "{:,}".format(row_count) }}`) is code.
 */
const TEMPLATE = /^\{\{[#<%].*\}\}$/;

/**
 * A code file's candidate sentences: a run of comment lines read as one sentence (its markers
 * removed), and each statement line on its own (`RetentionDays = 45`), trimmed.
 */
export function codeSentences(text: string): string[] {
  return codeUnits(text).map((u) => u.text);
}

/** A code file's candidate sentences, each statement with the comment right above it (its documentation). */
export function codeUnits(text: string): PassageUnit[] {
  const out: PassageUnit[] = [];
  let comment: string[] = [];
  /** The comment run just read; it documents the next line when that line is a statement. */
  let doc: string | undefined;
  const flush = () => {
    if (comment.length > 0) {
      doc = comment.join(' ');
      out.push(...splitSentences(doc).map((t) => ({ text: t })));
    }
    comment = [];
  };
  for (const raw of text.split(/\r\n|\r|\n/)) {
    const line = raw.trim();
    if (COMMENT.test(line) && !/^\*\*?[^*]*\*\*?\s*[=:]/.test(line)) {
      const body = line.replace(COMMENT, '').replace(/\*\/\s*$/, '').trim();
      if (body) comment.push(body);
      else {
        flush();
        doc = undefined;
      }
      continue;
    }
    flush();
    if (line.length >= 8 && !/^[{}()[\];,]*$/.test(line)) out.push({ text: line, code: true, ...(doc ? { described: doc } : {}) });
    doc = undefined;
  }
  flush();
  return out.filter((u) => /[\p{L}\p{N}]/u.test(u.text));
}
