/**
 * A document's sensitivity from its front matter, failing closed: a note that names a sensitivity
 * is never public because its front matter is malformed. Keys match case-insensitively
 * (`Sensitivity:`) at any depth, a list counts by its most restrictive entry, and front matter that
 * cannot be parsed, is never closed or is not recognised as front matter (TOML's `+++`, a blank line
 * or a no-break space before `---`, an HTML file) but mentions a sensitivity key near the top is
 * treated as restricted unless every such line says `public`.
 */

/** The label a note gets when its sensitivity cannot be read with certainty. */
export const FAIL_CLOSED = 'restricted';

/** `sensitivity: x` (YAML) or `sensitivity = "x"` (TOML), at any indent, after a `- ` list mark too. */
const KEY_LINE = /^\s*(?:-\s+)?["']?sensitivity["']?\s*[:=](.*)$/i;
const WORD = /^[\p{L}\p{N}][\p{L}\p{N}_-]{0,63}$/u;

function label(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') {
    const v = value.trim().toLowerCase();
    if (v === '') return null;
    return WORD.test(v) ? v : FAIL_CLOSED;
  }
  if (Array.isArray(value)) {
    const labels = value.map(label).filter((l): l is string => l !== null);
    return labels.find((l) => l !== 'public') ?? (labels.length > 0 ? 'public' : null);
  }
  // A number, a boolean or a mapping says something about sensitivity that is not a label: restrict.
  return FAIL_CLOSED;
}

/**
 * The sensitivity of parsed front matter (null: none given). A `sensitivity` key at any depth counts
 * (`meta: {sensitivity: restricted}`, a YAML merge `<<: *base`, a list of mappings): each mapping and
 * list is visited once, so aliases cost nothing.
 */
export function sensitivityOf(frontmatter: unknown): string | null {
  const labels: string[] = [];
  const seen = new Set<object>();
  const visit = (node: unknown, depth: number): void => {
    if (!node || typeof node !== 'object' || seen.has(node)) return;
    seen.add(node);
    // Deeper than any front matter goes: whatever hides there is not read as public.
    if (depth > 32) return void labels.push(FAIL_CLOSED);
    if (Array.isArray(node)) return node.forEach((item) => visit(item, depth + 1));
    for (const [key, value] of Object.entries(node)) {
      if (key.trim().toLowerCase() === 'sensitivity') {
        const l = label(value);
        if (l) labels.push(l);
      } else visit(value, depth + 1);
    }
  };
  visit(frontmatter, 0);
  return labels.find((l) => l !== 'public') ?? (labels.length > 0 ? 'public' : null);
}

/**
 * The sensitivity front matter that could not be parsed claims, read line by line (null: it names
 * none). Any line naming the key counts, at any indent, so a duplicated key or a nested one cannot
 * turn a restricted note public; a value that is not one plain word is restricted.
 */
export function sensitivityOfRaw(lines: readonly string[]): { sensitivity: string; line: number } | null {
  let found: { sensitivity: string; line: number } | null = null;
  lines.forEach((text, i) => {
    const m = KEY_LINE.exec(text);
    if (!m) return;
    const raw = m[1]!.replace(/#.*$/, '').trim().replace(/^\[(.*)\]$/, '$1');
    const words = raw.split(',').map((w) => w.trim().replace(/^["']|["']$/g, '').toLowerCase()).filter(Boolean);
    const l = words.length === 0 ? FAIL_CLOSED : (words.map((w) => (WORD.test(w) ? w : FAIL_CLOSED)).find((w) => w !== 'public') ?? 'public');
    if (!found || (found.sensitivity === 'public' && l !== 'public')) found = { sensitivity: l, line: i };
  });
  return found;
}
