/**
 * A note rendered for the reading pane: markdown-it with raw HTML off (a note's `<script>` is text,
 * never markup), [[wikilinks]] as links to the notes they name, images as their alt text (the app
 * loads nothing a note points at), and every block tagged with the source lines it came from
 * (token.map), so the cited lines can be highlighted and scrolled to in the rendered note.
 */
import MarkdownIt, { type StateBlock, type StateInline, type Token } from 'markdown-it';

export interface RenderOptions {
  /** The file line the text starts at (1 for a whole file). */
  firstLine?: number;
  /** Each [[name]] resolved to the path of the note it names (null or absent: no visible note). */
  links?: ReadonlyMap<string, string | null>;
  /** The cited lines (file line numbers): the blocks that hold them are marked. */
  cited?: { start: number; end: number } | null;
}

/** Blocks that are marked when they hold cited lines: the smallest ones that show text. */
const MARKED = new Set(['heading_open', 'paragraph_open', 'fence', 'code_block', 'tr_open', 'hr', 'list_item_open', 'front_matter']);

const WIKILINK = /^\[\[([^\]|#^\n]+)((?:[#^][^\]|\n]*)?)(?:\|([^\]\n]*))?\]\]/;

function wikilinkRule(state: StateInline, silent: boolean): boolean {
  if (state.src.charCodeAt(state.pos) !== 0x5b || state.src.charCodeAt(state.pos + 1) !== 0x5b) return false;
  const m = WIKILINK.exec(state.src.slice(state.pos));
  if (!m) return false;
  if (!silent) {
    const token = state.push('wikilink', '', 0);
    const name = m[1]!.trim();
    token.meta = { name, anchor: m[2] ?? '', label: (m[3] ?? '').trim() || `${name}${m[2] ?? ''}` };
  }
  state.pos += m[0].length;
  return true;
}

/** Front matter (`---` … `---` on the first lines) as one block of its own, shown as it is written. */
function frontMatterRule(state: StateBlock, startLine: number, endLine: number, silent: boolean): boolean {
  if (startLine !== 0 || state.src.slice(state.bMarks[0]! + state.tShift[0]!, state.eMarks[0]) !== '---') return false;
  for (let line = 1; line < endLine; line++) {
    const text = state.src.slice(state.bMarks[line]! + state.tShift[line]!, state.eMarks[line]);
    if (text !== '---' && text !== '...') continue;
    if (silent) return true;
    const token = state.push('front_matter', 'pre', 0);
    token.map = [startLine, line + 1];
    token.content = state.getLines(1, line, 0, false);
    token.block = true;
    state.line = line + 1;
    return true;
  }
  return false;
}

/** The one markdown-it of the reading pane. */
export function createNoteRenderer(): MarkdownIt {
  const md = new MarkdownIt({ html: false, linkify: false, typographer: false, breaks: false });
  md.block.ruler.before('table', 'front_matter', frontMatterRule);
  md.inline.ruler.before('link', 'wikilink', wikilinkRule);
  md.renderer.rules.front_matter = (tokens, i, _options, _env, self) => `<pre class="md-frontmatter"${self.renderAttrs(tokens[i]!)}><code>${md.utils.escapeHtml(tokens[i]!.content)}</code></pre>\n`;
  md.renderer.rules.wikilink = (tokens, i, _options, env: RenderOptions) => {
    const { name, anchor, label } = tokens[i]!.meta as { name: string; anchor: string; label: string };
    const target = env.links?.get(name) ?? null;
    const text = md.utils.escapeHtml(label);
    if (!target) return `<span class="wikilink wikilink--missing" title="${md.utils.escapeHtml(`No note named “${name}” in your folders (or it is not shown)`)}">${text}</span>`;
    return `<a href="#" class="wikilink" data-note="${md.utils.escapeHtml(target)}" data-anchor="${md.utils.escapeHtml(anchor)}" title="${md.utils.escapeHtml(target)}">${text}</a>`;
  };
  // Images are not loaded (a note's picture from the web would be a request off the machine): the alt text stands in.
  md.renderer.rules.image = (tokens, i) => {
    const alt = tokens[i]!.children?.map((c) => c.content).join('') ?? '';
    return `<span class="md-image" title="${md.utils.escapeHtml(tokens[i]!.attrGet('src') ?? '')}">[image${alt ? `: ${md.utils.escapeHtml(alt)}` : ''}]</span>`;
  };
  // Links keep their address for the pane to handle (a note opens in the pane; nothing else navigates).
  md.renderer.rules.link_open = (tokens, i, options, _env, self) => {
    const token = tokens[i]!;
    const href = token.attrGet('href') ?? '';
    token.attrSet('data-href', href);
    token.attrSet('href', '#');
    token.attrSet('title', href);
    return self.renderToken(tokens, i, options);
  };
  md.core.ruler.push('source_lines', (state) => {
    const env = state.env as RenderOptions;
    const offset = (env.firstLine ?? 1) - 1;
    for (const token of state.tokens) tagLines(token, offset, env.cited ?? null);
  });
  return md;
}

function tagLines(token: Token, offset: number, cited: { start: number; end: number } | null): void {
  if (!token.map || token.nesting === -1 || token.type === 'inline') return;
  const start = token.map[0] + offset + 1;
  const end = Math.max(start, token.map[1] + offset);
  token.attrSet('data-line-start', String(start));
  token.attrSet('data-line-end', String(end));
  if (cited && MARKED.has(token.type) && !token.hidden && start <= cited.end && end >= cited.start) {
    token.attrJoin('class', 'md-cited');
    token.attrSet('data-cited', 'true');
  }
}

let shared: MarkdownIt | null = null;

/** A note's markdown as HTML: escaped, wikilinks resolved, blocks tagged with their lines. */
export function renderNote(text: string, options: RenderOptions = {}): string {
  shared ??= createNoteRenderer();
  return shared.render(text, { ...options });
}

/** Whether a file is read as markdown (rendered) rather than as lines. */
export function isMarkdownPath(path: string): boolean {
  return /\.(md|markdown|mdx?)$/i.test(path);
}

/**
 * Where a relative link in a note points: the path beside the note (`../people/Maya Chen.md`), or
 * null for an address (http:, mailto:, an anchor alone) or one that climbs out of the folder.
 */
export function resolveNoteLink(fromPath: string, href: string): string | null {
  if (!href || href.startsWith('#') || /^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith('/')) return null;
  let target: string;
  try {
    target = decodeURIComponent(href.split('#')[0]!);
  } catch {
    return null;
  }
  const parts = fromPath.split('/').slice(0, -1);
  for (const part of target.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (parts.length === 0) return null;
      parts.pop();
    } else parts.push(part);
  }
  return parts.join('/') || null;
}
