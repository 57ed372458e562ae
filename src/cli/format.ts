/** Text a person reads for the reports more than one command prints (index runs, answers). */
import { quoteAndClosest } from '../shared/answer-view.ts';
import type { AnswerEnvelope, IndexReport } from '../shared/contract.ts';
import { terminalLine } from '../shared/terminal-safe.ts';

export function formatIndexReport(r: IndexReport): string {
  const lines = [
    `indexed ${r.indexed}, unchanged ${r.unchanged}, removed ${r.removed}, skipped ${r.skipped}, failed ${r.failed} ` +
      `of ${r.files_seen} files in ${(r.duration_ms / 1000).toFixed(2)} s; ${r.chunks_total} chunks in the index`,
  ];
  const warned = r.issues.filter((i) => i.status === 'warning').length;
  if (warned > 0) lines.push(`${warned} indexed with warnings (not all of the file as written; see below)`);
  for (const issue of r.issues.slice(0, 20)) lines.push(`  ${issue.status}: ${terminalLine(issue.path)} — ${issue.reason}`);
  if (r.issues.length > 20) lines.push(`  … and ${r.issues.length - 20} more (synapsis health lists them all)`);
  return lines.join('\n');
}

export function formatAnswer(a: AnswerEnvelope): string {
  // An unsure quote: the sentences shown after it are set apart, as the app shows them.
  const split = quoteAndClosest(a);
  const lines = split ? [split.quote, 'Other sentences of your notes close to the question:', ...split.closest.map((l) => `  ${l}`), ''] : [a.answer, ''];
  if (a.citations.length > 0) {
    lines.push('Sources:');
    for (const c of a.citations) lines.push(`  [${c.n}] ${terminalLine(c.path)}:${c.start_line}-${c.end_line}${c.stale ? '  (changed since indexing)' : ''}`);
  }
  if (a.answer_mode === 'abstained') {
    // The question as asked; the index's stems of its words ("does" is "doe") only as what they matched as, as the app shows them.
    const matched = a.searched.terms.length > 0 ? `matched as: ${a.searched.terms.join(' ')}; ` : '';
    lines.push(`Searched for: "${terminalLine(a.searched.query || a.query)}" (${matched}${a.searched.results} passages)`);
    if (a.searched.closest.length > 0) {
      lines.push('Closest sentences in your files (not an answer):');
      for (const c of a.searched.closest) lines.push(`  "${c.text}" (${terminalLine(c.locator)})`);
    } else {
      for (const l of a.searched.top) lines.push(`  ${terminalLine(l)}`);
    }
  }
  const kind = a.answer_mode === 'extractive' ? 'quoted (the sentences of your files that answer)' : a.answer_mode;
  // A question of one part that the quote only comes close to: its note line says what is not clearly
  // stated; one whose quote the scorer is not sure enough of says that instead.
  const whole = a.missing_parts.length === 1 && a.missing_parts[0]!.trim() === a.query.trim();
  const unsure = a.limits.some((l) => l.code === 'unsure_quote');
  const open = whole ? (unsure ? 'not sure enough for Answered' : 'not clearly stated') : `not found: ${a.missing_parts.join('; ') || a.missing_terms.join(', ')}`;
  const outcome = a.outcome === 'answered' ? 'Answered' : a.outcome === 'partial' ? `Partly answered (${open})` : 'Not in your notes';
  lines.push(a.cancelled ? 'Stopped' : outcome);
  lines.push(`${kind}; verdict ${a.verdict ?? 'none'} (${a.critic.decided_by}${a.critic.retried ? ', revised once' : ''}); confidence ${a.confidence.toFixed(2)}${a.low_confidence ? ' LOW' : ''}`);
  if (a.cancelled) lines.push('cancelled');
  for (const l of a.limits) lines.push(`note: ${l.detail}`);
  return lines.join('\n');
}

/** A table of metric and value, one row per key. */
export function metricTable(report: object): string {
  const rows = Object.entries(report)
    .map(([k, v]) => `| ${k} | ${v} |`)
    .join('\n');
  return `| metric | value |\n|---|---|\n${rows}`;
}
