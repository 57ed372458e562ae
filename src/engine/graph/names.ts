import path from 'node:path';

/** How names compare in the graph: case, accents, ё/е and spacing folded ("Tomás  HERRERA" = "tomas herrera"). */
export function normalizeName(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/ё/g, 'е')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim();
}

/** A name reduced to its words: "2026-04-16 Release codenames" → "2026 04 16 release codenames". */
export function wordsKey(name: string): string {
  return normalizeName(name).replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
}

function aliasesOf(json: string): string[] {
  try {
    const meta = JSON.parse(json) as { aliases?: unknown };
    return Array.isArray(meta.aliases) ? meta.aliases.map(String) : [];
  } catch {
    return [];
  }
}

/** The note's label in the graph: its title, else its file name without the extension. */
export function noteLabel(notePath: string, title: string | null): string {
  return title ?? path.basename(notePath, path.extname(notePath));
}

/**
 * The names a note answers to, in the order they claim a name: label, file name, path without the
 * extension, then its front-matter aliases. A [[link]] or a stored name resolves to a note by any of them.
 */
export function noteNames(notePath: string, title: string | null, metaJson: string): string[] {
  return [noteLabel(notePath, title), path.basename(notePath, path.extname(notePath)), notePath.replace(/\.[^.]+$/, ''), ...aliasesOf(metaJson)];
}

/** The second key a link to a path resolves by (`people/Maya Chen` also names the note "Maya Chen"). */
export function refBaseKey(type: string, name: string): string | null {
  return type === 'ref' ? normalizeName(path.posix.basename(name)) : null;
}

/** A note's names as stored (note_names): folded and as words, each folded name once, empty ones dropped. */
export function noteNameKeys(notePath: string, title: string | null, metaJson: string): { key: string; words: string }[] {
  const out: { key: string; words: string }[] = [];
  for (const name of noteNames(notePath, title, metaJson)) {
    const key = normalizeName(name);
    if (key && !out.some((n) => n.key === key)) out.push({ key, words: wordsKey(name) });
  }
  return out;
}
