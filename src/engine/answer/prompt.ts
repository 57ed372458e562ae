/**
 * The prompts of cited answers: numbered snippets with their path, line range and a language
 * fence, the question, and the instruction to cite [n] for every claim or say the sources do not
 * hold the answer. The critic's prompt lists the answer's sentences by number for a JSON verdict.
 * The chat template is the model's own (node-llama-cpp applies it); these are the message texts.
 */
import path from 'node:path';
import type { ContextBlock } from '../retrieve/context.ts';
import type { Snippet } from './types.ts';

export const DEFAULT_SYSTEM_PROMPT =
  'You answer questions using only the numbered snippets from the user\'s own files. ' +
  'After every sentence, cite the snippet that supports it with its number in square brackets, like [1] or [2][3]. ' +
  'Do not use outside knowledge. If the snippets do not contain the answer, reply exactly: Not found in your files.';

export const ABSTAIN_TEXT = 'Not found in your files.';

const FENCE_BY_EXT: Record<string, string> = {
  '.md': 'markdown', '.markdown': 'markdown', '.txt': 'text', '.ts': 'typescript', '.tsx': 'tsx', '.js': 'javascript', '.mjs': 'javascript',
  '.py': 'python', '.go': 'go', '.rs': 'rust', '.java': 'java', '.c': 'c', '.h': 'c', '.cpp': 'cpp', '.cs': 'csharp', '.rb': 'ruby',
  '.sh': 'bash', '.sql': 'sql', '.json': 'json', '.yaml': 'yaml', '.yml': 'yaml', '.toml': 'toml', '.html': 'html', '.css': 'css',
  '.pdf': 'text', '.docx': 'text',
};

export function fenceLanguage(filePath: string): string {
  return FENCE_BY_EXT[path.extname(filePath).toLowerCase()] ?? 'text';
}

/** Numbers the context blocks 1..n as snippets, each with the locator that opens its exact lines. */
export function snippetsFromBlocks(blocks: readonly ContextBlock[]): Snippet[] {
  return blocks.map((b, i) => ({
    n: i + 1,
    locator: `${b.path}#L${b.start_line}-L${b.end_line}`,
    path: b.path,
    start_line: b.start_line,
    end_line: b.end_line,
    doc_id: b.doc_id,
    title: b.title,
    heading: b.heading,
    text: b.text,
    score: b.score,
    language: fenceLanguage(b.path),
  }));
}

function fenced(text: string, language: string): string {
  // A fence longer than any backtick run inside, so snippet text cannot close it early.
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}${language}\n${text}\n${fence}`;
}

export function formatSnippets(snippets: readonly Snippet[]): string {
  return snippets
    .map((s) => {
      const where = `${s.path} lines ${s.start_line}-${s.end_line}${s.heading ? ` (${s.heading})` : ''}`;
      return `[${s.n}] ${where}\n${fenced(s.text, s.language ?? 'text')}`;
    })
    .join('\n\n');
}

export function answerPrompt(question: string, snippets: readonly Snippet[], feedback?: string): string {
  const parts = [`Snippets:\n\n${formatSnippets(snippets)}`, `Question: ${question}`];
  if (feedback) {
    parts.push(`A reviewer found problems in your previous answer:\n${feedback}\nWrite the answer again, fixing them. Cite [n] after every sentence.`);
  }
  parts.push('Answer (cite [n] after every sentence):');
  return parts.join('\n\n');
}

export const CRITIC_SYSTEM_PROMPT =
  'You check an answer against numbered snippets. A sentence is supported when the snippet it cites states it. ' +
  'Reply in JSON: verdict APPROVE when every sentence is supported, REVISE when some are not, REJECT when none are or the answer ignores the question; ' +
  'unsupported lists the numbers of unsupported sentences; feedback says briefly what to fix.';

export function criticPrompt(question: string, snippets: readonly Snippet[], sentences: readonly string[]): string {
  const numbered = sentences.map((s, i) => `${i + 1}. ${s}`).join('\n');
  return `Snippets:\n\n${formatSnippets(snippets)}\n\nQuestion: ${question}\n\nAnswer sentences:\n${numbered}\n\nVerdict:`;
}

export const CRITIC_SCHEMA = {
  type: 'object',
  properties: {
    verdict: { enum: ['APPROVE', 'REVISE', 'REJECT'] },
    unsupported: { type: 'array', items: { type: 'integer' }, maxItems: 20 },
    feedback: { type: 'string', maxLength: 300 },
  },
  required: ['verdict', 'unsupported', 'feedback'],
} as const;
