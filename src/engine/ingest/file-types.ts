import { detectUtf16 } from './normalize.ts';

/** What kind of document a file is, from its extension; content sniffing decides binary-ness separately. */
export type DocumentType = 'markdown' | 'text' | 'code' | 'pdf' | 'docx' | 'html';

const MARKDOWN = new Set(['.md', '.markdown', '.mdx', '.mdown']);
const TEXT = new Set(['.txt', '.text', '.rst', '.org', '.adoc', '.log', '.csv', '.tsv']);
const CODE_LANGUAGES: Record<string, string> = {
  '.ts': 'typescript', '.tsx': 'typescript', '.mts': 'typescript', '.cts': 'typescript',
  '.js': 'javascript', '.jsx': 'javascript', '.mjs': 'javascript', '.cjs': 'javascript',
  '.py': 'python', '.go': 'go', '.rs': 'rust', '.java': 'java', '.kt': 'kotlin', '.swift': 'swift',
  '.c': 'c', '.h': 'c', '.cc': 'cpp', '.cpp': 'cpp', '.hpp': 'cpp', '.cs': 'csharp', '.rb': 'ruby',
  '.php': 'php', '.scala': 'scala', '.sh': 'shell', '.bash': 'shell', '.zsh': 'shell', '.sql': 'sql',
  '.lua': 'lua', '.r': 'r', '.dart': 'dart', '.ex': 'elixir', '.exs': 'elixir', '.hs': 'haskell',
  '.json': 'json', '.yaml': 'yaml', '.yml': 'yaml', '.toml': 'toml', '.xml': 'xml', '.css': 'css',
  '.scss': 'scss', '.vue': 'vue', '.svelte': 'svelte',
};

export interface FileKind {
  type: DocumentType;
  language: string | null;
}

export function detectFileKind(filePath: string): FileKind | null {
  const dot = filePath.lastIndexOf('.');
  const slash = Math.max(filePath.lastIndexOf('/'), filePath.lastIndexOf('\\'));
  if (dot <= slash + 1) return null;
  const ext = filePath.slice(dot).toLowerCase();
  if (MARKDOWN.has(ext)) return { type: 'markdown', language: 'markdown' };
  if (TEXT.has(ext)) return { type: 'text', language: null };
  if (ext === '.pdf') return { type: 'pdf', language: null };
  if (ext === '.docx') return { type: 'docx', language: null };
  if (ext === '.html' || ext === '.htm') return { type: 'html', language: 'html' };
  const language = CODE_LANGUAGES[ext];
  if (language) return { type: 'code', language };
  return null;
}

/**
 * Binary sniffing on the first bytes: a NUL byte, or many control characters, means binary.
 * Invalid UTF-8 alone does not: such text files are decoded with replacement characters.
 * UTF-16 text (normalize.ts detectUtf16: a byte order mark, or NULs in every other byte) is judged
 * on its code units instead, so its NUL high bytes do not make it binary.
 */
export function looksBinary(head: Uint8Array): boolean {
  if (head.length === 0) return false;
  if (detectUtf16(head)) return looksBinaryUtf16(head);
  let control = 0;
  for (const byte of head) {
    if (byte === 0) return true;
    if (byte < 7 || (byte > 13 && byte < 32 && byte !== 27)) control++;
  }
  return control / head.length > 0.1;
}

/** The same test on UTF-16 code units: a NUL unit, or many control characters, means binary after all. */
function looksBinaryUtf16(head: Uint8Array): boolean {
  const text = new TextDecoder(detectUtf16(head)!).decode(head.subarray(0, head.length - (head.length % 2)));
  if (text.length === 0) return false;
  let control = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit === 0) return true;
    if (unit < 7 || (unit > 13 && unit < 32 && unit !== 27)) control++;
  }
  return control / text.length > 0.1;
}
