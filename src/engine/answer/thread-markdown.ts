/**
 * A thread as markdown: what "Copy as markdown" copies (one turn) and what an export writes (the
 * whole thread). Each answer keeps its [n] citations, listed under it with the file and lines they
 * open; an answer held back (restricted notes not allowed) says so instead of showing it.
 */
import { citationNumbers, outcomeLabel, quoteAndClosest, relabelCitations } from '../../shared/answer-view.ts';
import type { AnswerEnvelope, ThreadTurn } from '../../shared/contract.ts';

const lines = (c: { path: string; start_line: number; end_line: number }) => (c.start_line === c.end_line ? `${c.path}:${c.start_line}` : `${c.path}:${c.start_line}–${c.end_line}`);

/**
 * Text from notes and questions as markdown that shows it and runs nothing: `<` becomes `&lt;`, so
 * HTML a note quotes (`<img src="http://…">`) is text in any viewer that renders raw HTML, and a
 * markdown image (`![x](http://…)`) is shown as written instead of fetched.
 */
export const inertText = (text: string) => text.replace(/</g, '&lt;').replace(/!\[/g, '!\\[');

/** One line of markdown never breaks a heading or a list item. */
const oneLine = (text: string) => inertText(text.replace(/\s+/g, ' ').trim());

/**
 * A code span holding `text` exactly: fenced by one backtick more than the longest run inside it,
 * and padded when it starts or ends with one (CommonMark 6.1); a line break would end the list
 * item, so it becomes a space, as a code span shows it anyway.
 */
export function codeSpan(text: string): string {
  const flat = text.replace(/\r\n|\r|\n/g, ' ');
  const longest = Math.max(0, ...[...flat.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  const pad = flat.startsWith('`') || flat.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${flat}${pad}${fence}`;
}

function answerMarkdown(a: AnswerEnvelope): string[] {
  // The steps of a how-to are on lines of their own: a hard break keeps them so in markdown.
  // Numbered as the app shows them (1, 2 in the order the answer cites them), with its outcome.
  const numbers = citationNumbers(a.answer, a.snippets.map((s) => s.n));
  const label = (n: number) => numbers.get(n) ?? n;
  const outcome = [outcomeLabel(a.verdict, a.outcome), ...(a.answer_mode !== 'abstained' ? [`${Math.round(a.confidence * 100)}% confidence`] : []), ...(a.cancelled ? ['stopped'] : [])].join(' · ');
  const text = (t: string) => inertText(relabelCitations(t.trim(), numbers));
  // An unsure quote's closest sentences are listed under it, as the app shows them.
  const split = quoteAndClosest(a);
  const out: string[] = split
    ? [`_${outcome}_`, '', text(split.quote).replace(/\n/g, '  \n'), '', 'Other sentences of your notes close to the question:', '', ...split.closest.map((l) => `- ${text(l)}`)]
    : [`_${outcome}_`, '', text(a.answer).replace(/\n/g, '  \n')];
  if (a.answer_mode === 'abstained') {
    if (a.searched.closest.length > 0) {
      out.push('', 'Closest passages (not an answer):', '');
      for (const c of a.searched.closest) out.push(`> ${oneLine(c.text)}`, `> — ${codeSpan(c.locator)}`, '');
      out.pop();
    }
    return out;
  }
  const cited = [...a.citations].sort((x, y) => label(x.n) - label(y.n));
  if (cited.length > 0) {
    out.push('', '**Sources**', '');
    for (const c of cited) {
      const s = a.snippets.find((x) => x.n === c.n);
      const title = s?.title && s.title !== c.path ? `${oneLine(s.title)} — ` : '';
      out.push(`- [${label(c.n)}] ${title}${codeSpan(lines(c))}${c.stale ? ' (changed since indexing)' : ''}`);
    }
  }
  return out;
}

/** One turn: the question as a heading, what it was searched as, the answer and its sources. */
export function turnMarkdown(turn: Pick<ThreadTurn, 'question' | 'searched_as' | 'answer' | 'hidden' | 'restricted'> & { interrupted?: ThreadTurn['interrupted'] }, level = 2): string {
  const out: string[] = [`${'#'.repeat(level)} ${oneLine(turn.question)}`, ''];
  if (turn.searched_as) out.push(`_Searched as: ${oneLine(turn.searched_as)}_`, '');
  if (!turn.hidden && turn.interrupted) {
    out.push('_Interrupted: the answer was not finished._');
    if (turn.interrupted.quote) out.push('', 'The quote read before it stopped (not checked):', '', `> ${oneLine(turn.interrupted.quote)}`, ...turn.interrupted.sources.map((s) => `> — \`${s.locator}\``));
  } else if (turn.hidden || !turn.answer) out.push('_The answer uses restricted notes and is not shown here. Show restricted notes to include it._');
  else {
    if (turn.restricted) out.push('_Uses restricted notes._', '');
    out.push(...answerMarkdown(turn.answer));
  }
  return out.join('\n');
}

/** The whole thread: its title, when it was exported, and each turn in order. */
export function threadMarkdown(title: string, turns: readonly Parameters<typeof turnMarkdown>[0][], exportedAt: string): string {
  const head = [`# ${oneLine(title)}`, '', `_Exported from Synapsis on ${exportedAt.slice(0, 10)}: ${turns.length} ${turns.length === 1 ? 'question' : 'questions'}._`];
  return [head.join('\n'), ...turns.map((t) => turnMarkdown(t))].join('\n\n') + '\n';
}

/** A file name for the export: the title's letters and digits joined by hyphens, at most 80 of them. */
export function exportFileName(title: string): string {
  const base = title
    .normalize('NFC')
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80)
    .replace(/-+$/, '');
  return `${base || 'thread'}.md`;
}
