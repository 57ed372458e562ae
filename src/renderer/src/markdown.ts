/**
 * A note rendered for the reading pane: markdown-it with raw HTML off (a note's `<script>` is text,
 * never markup), and Obsidian's syntax as Obsidian shows it: [[wikilinks]] (and [[#Heading]] within
 * the note) as links, `> [!tip]` callouts (foldable with `+`/`-`), `![[Note]]` embeds inline, block
 * ids (`^id`) hidden and addressable, front matter as a properties table, and #tags as links into
 * the tag filter. Embedded notes and pictures arrive from the engine (source/embeds, which applies
 * the sensitivity policy and reads pictures only inside the note's folder); the app loads nothing a
 * note points at. Every block is tagged with the source lines it came from (token.map), so the cited
 * lines can be highlighted and scrolled to in the rendered note.
 */
import MarkdownIt, { type StateBlock, type StateCore, type StateInline, type Token } from 'markdown-it';
import { parse as parseYaml } from 'yaml';
import type { NoteEmbed } from '../../shared/contract.ts';

export interface RenderOptions {
  /** The file line the text starts at (1 for a whole file). */
  firstLine?: number;
  /** Each [[name]] resolved to the path of the note it names (null or absent: no visible note). */
  links?: ReadonlyMap<string, string | null>;
  /** The cited lines (file line numbers): the blocks that hold them are marked. */
  cited?: { start: number; end: number } | null;
  /** What the note (and the notes it embeds) embed, by target as written (source/embeds). */
  embeds?: ReadonlyMap<string, NoteEmbed>;
  /** Paths of the notes being rendered, outermost first: an embed of one of them is not repeated. */
  chain?: readonly string[];
}

/** Embeds inside embeds shown; deeper ones are links. */
export const MAX_EMBED_DEPTH = 3;

/** Callout types Obsidian names, by the type their look follows. */
const CALLOUT_ALIASES: Record<string, string> = {
  summary: 'abstract',
  tldr: 'abstract',
  hint: 'tip',
  important: 'tip',
  check: 'success',
  done: 'success',
  help: 'question',
  faq: 'question',
  caution: 'warning',
  attention: 'warning',
  fail: 'failure',
  missing: 'failure',
  error: 'danger',
  cite: 'quote',
};
const CALLOUT_TYPES = new Set(['note', 'abstract', 'info', 'todo', 'tip', 'success', 'question', 'warning', 'failure', 'danger', 'bug', 'example', 'quote']);
const CALLOUT_HEAD = /^\[!([\w-]+)\]([+-]?)[ \t]*(.*)$/;

/** A #tag as Obsidian reads one: letters, digits, `_`, `-`, `/`, and at least one that is not a digit. */
const TAG = /^#([\p{L}\p{N}_\-/]*[\p{L}_\-/][\p{L}\p{N}_\-/]*)/u;
/** A block id closing a block's last line (`… ^my-id`) or standing alone. */
const BLOCK_ID = /(?:^|\s)\^([A-Za-z0-9-]+)\s*$/;

/** Blocks that are marked when they hold cited lines: the smallest ones that show text. */
const MARKED = new Set(['heading_open', 'paragraph_open', 'fence', 'code_block', 'tr_open', 'hr', 'list_item_open', 'front_matter']);

const WIKILINK = /^\[\[([^\]|#^\n]*)((?:[#^][^\]|\n]*)?)(?:\|([^\]\n]*))?\]\]/;

function wikilinkRule(state: StateInline, silent: boolean): boolean {
  if (state.src.charCodeAt(state.pos) !== 0x5b || state.src.charCodeAt(state.pos + 1) !== 0x5b) return false;
  const m = WIKILINK.exec(state.src.slice(state.pos));
  if (!m || (!m[1]!.trim() && !m[2])) return false;
  if (!silent) {
    const token = state.push('wikilink', '', 0);
    const name = m[1]!.trim();
    const anchor = m[2] ?? '';
    // [[#Heading]] and [[#^block]] read as the heading or block they name, as in Obsidian.
    const fallback = name ? `${name}${anchor ? ` > ${anchor.replace(/^#\^?/, '')}` : ''}` : anchor.replace(/^#\^?/, '');
    token.meta = { name, anchor, label: (m[3] ?? '').trim() || fallback };
  }
  state.pos += m[0].length;
  return true;
}

/** `![[target]]` (an embed) with its `|size` or alias. */
const EMBED = /^!\[\[([^\]|\n]+)(?:\|([^\]\n]*))?\]\]/;

function embedRule(state: StateInline, silent: boolean): boolean {
  if (state.src.charCodeAt(state.pos) !== 0x21 || state.src.charCodeAt(state.pos + 1) !== 0x5b || state.src.charCodeAt(state.pos + 2) !== 0x5b) return false;
  const m = EMBED.exec(state.src.slice(state.pos));
  if (!m) return false;
  if (!silent) {
    const token = state.push('embed', '', 0);
    token.meta = { target: m[1]!.trim(), option: (m[2] ?? '').trim() };
  }
  state.pos += m[0].length;
  return true;
}

/** `#tag` after a space or at the start of the text (never in code: code spans are their own tokens). */
function tagRule(state: StateInline, silent: boolean): boolean {
  if (state.src.charCodeAt(state.pos) !== 0x23) return false;
  const before = state.pos > 0 ? state.src[state.pos - 1]! : ' ';
  if (!/[\s([{,;]/.test(before)) return false;
  const m = TAG.exec(state.src.slice(state.pos));
  if (!m) return false;
  if (!silent) {
    const token = state.push('tag', '', 0);
    token.meta = { tag: m[1]!.replace(/\/+$/, '') };
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

/**
 * `> [!type] Title` quotes become callouts (before inline parsing, so the head line leaves the body):
 * the blockquote tokens carry the type, the fold (`+` open, `-` closed) and the title.
 */
function calloutRule(state: StateCore): void {
  const open: Token[] = [];
  const tokens = state.tokens;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t.type === 'blockquote_open') {
      open.push(t);
      const para = tokens[i + 1];
      const inline = tokens[i + 2];
      if (para?.type !== 'paragraph_open' || inline?.type !== 'inline') continue;
      const [head = '', ...rest] = inline.content.split('\n');
      const m = CALLOUT_HEAD.exec(head.trim());
      if (!m) continue;
      const raw = m[1]!.toLowerCase();
      const type = CALLOUT_ALIASES[raw] ?? (CALLOUT_TYPES.has(raw) ? raw : 'note');
      t.meta = { callout: type, name: raw, fold: m[2] ?? '', title: m[3]!.trim() || raw.charAt(0).toUpperCase() + raw.slice(1) };
      if (rest.length > 0) inline.content = rest.join('\n');
      else {
        // The head was the whole paragraph: it goes, the body starts with the next block.
        tokens.splice(i + 1, 3);
      }
    } else if (t.type === 'blockquote_close') {
      const opened = open.pop();
      if (opened?.meta) t.meta = opened.meta;
    }
  }
}

/**
 * Block ids: `text ^id` ends its paragraph or list item, which takes the id (hidden in the text); a
 * `^id` on a line of its own names the block above it (a table, a list, a quote).
 */
function blockIdRule(state: StateCore): void {
  const tokens = state.tokens;
  const ownerOf = (end: number): Token | null => {
    // The block that closes at `end`: walk back to its opening token.
    let depth = 0;
    for (let j = end; j >= 0; j--) {
      depth += tokens[j]!.nesting === -1 ? 1 : tokens[j]!.nesting === 1 ? -1 : 0;
      if (depth === 0 && tokens[j]!.nesting !== -1) return tokens[j]!;
    }
    return null;
  };
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t.type !== 'inline') continue;
    const m = BLOCK_ID.exec(t.content);
    if (!m) continue;
    const alone = t.content.trim() === `^${m[1]}`;
    t.content = t.content.slice(0, m.index).trimEnd();
    if (alone && tokens[i - 1]?.type === 'paragraph_open' && i - 2 >= 0) {
      // A paragraph of only the id: hidden; the block before it takes the id.
      const owner = tokens[i - 2]!.nesting === -1 ? ownerOf(i - 2) : tokens[i - 2]!;
      owner?.attrSet('id', `^${m[1]}`);
      tokens[i - 1]!.hidden = true;
      tokens[i + 1]!.hidden = true;
      continue;
    }
    // The id belongs to the list item when the paragraph is one, else to the paragraph.
    const para = tokens[i - 1];
    const item = tokens[i - 2]?.type === 'list_item_open' ? tokens[i - 2] : null;
    (item ?? para)?.attrSet('id', `^${m[1]}`);
  }
}

/** A paragraph that is only an embed of a note becomes a block of its own (a note is not inline text). */
function embedBlockRule(state: StateCore): void {
  const tokens = state.tokens;
  for (let i = 1; i + 1 < tokens.length; i++) {
    const t = tokens[i]!;
    if (t.type !== 'inline' || tokens[i - 1]!.type !== 'paragraph_open') continue;
    const parts = (t.children ?? []).filter((c) => !(c.type === 'text' && c.content.trim() === '') && c.type !== 'softbreak');
    if (parts.length === 0 || !parts.every((c) => c.type === 'embed')) continue;
    tokens[i - 1]!.tag = 'div';
    tokens[i - 1]!.attrJoin('class', 'md-embeds');
    tokens[i + 1]!.tag = 'div';
  }
}

type Properties = [string, unknown][];

/** Front matter read as properties (null when it is not a YAML map: then it shows as written). */
export function readProperties(yaml: string): Properties | null {
  try {
    const value: unknown = parseYaml(yaml, { maxAliasCount: 10 });
    if (!value || typeof value !== 'object' || Array.isArray(value)) return null;
    return Object.entries(value as Record<string, unknown>);
  } catch {
    return null;
  }
}

/** The one markdown-it of the reading pane. */
export function createNoteRenderer(): MarkdownIt {
  const md = new MarkdownIt({ html: false, linkify: false, typographer: false, breaks: false });
  const esc = md.utils.escapeHtml;
  md.block.ruler.before('table', 'front_matter', frontMatterRule);
  md.inline.ruler.before('link', 'wikilink', wikilinkRule);
  md.inline.ruler.before('image', 'embed', embedRule);
  md.inline.ruler.push('tag', tagRule);
  md.core.ruler.after('block', 'callout', calloutRule);
  md.core.ruler.after('callout', 'block_id', blockIdRule);
  md.core.ruler.after('inline', 'embed_block', embedBlockRule);

  const propertyValue = (key: string, value: unknown, env: RenderOptions): string => {
    if (Array.isArray(value)) return value.map((v) => propertyValue(key, v, env)).join(Array.isArray(value) && /^tags?$/i.test(key) ? ' ' : ', ');
    if (value === null || value === undefined) return '<span class="muted">—</span>';
    if (value instanceof Date) return esc(value.toISOString().slice(0, 10));
    if (typeof value === 'object') return `<code>${esc(JSON.stringify(value))}</code>`;
    const text = String(value as string | number | boolean);
    if (/^tags?$/i.test(key)) {
      return text
        .split(/[\s,]+/)
        .filter(Boolean)
        .map((t) => `<a href="#" class="md-tag" data-tag="${esc(t.replace(/^#/, ''))}">#${esc(t.replace(/^#/, ''))}</a>`)
        .join(' ');
    }
    return md.renderInline(text, env);
  };
  md.renderer.rules.front_matter = (tokens, i, _options, env: RenderOptions, self) => {
    const token = tokens[i]!;
    const properties = readProperties(token.content);
    if (!properties || properties.length === 0) return `<pre class="md-frontmatter"${self.renderAttrs(token)}><code>${esc(token.content)}</code></pre>\n`;
    token.attrJoin('class', 'md-properties');
    const rows = properties.map(([k, v]) => `<tr><th scope="row">${esc(k)}</th><td>${propertyValue(k, v, env)}</td></tr>`).join('');
    return `<table${self.renderAttrs(token)} aria-label="Properties"><tbody>${rows}</tbody></table>\n`;
  };
  md.renderer.rules.blockquote_open = (tokens, i, options, env: RenderOptions, self) => {
    const t = tokens[i]!;
    const c = t.meta as { callout: string; name: string; fold: string; title: string } | null;
    if (!c?.callout) return self.renderToken(tokens, i, options);
    t.attrJoin('class', `callout callout--${c.callout}`);
    t.attrSet('data-callout', c.name);
    const title = `<span class="callout__icon" aria-hidden="true"></span><span class="callout__title-text">${md.renderInline(c.title, env)}</span>`;
    if (c.fold) return `<details${self.renderAttrs(t)}${c.fold === '+' ? ' open' : ''}><summary class="callout__title">${title}</summary><div class="callout__body">\n`;
    return `<div${self.renderAttrs(t)}><div class="callout__title">${title}</div><div class="callout__body">\n`;
  };
  md.renderer.rules.blockquote_close = (tokens, i, options, _env, self) => {
    const c = tokens[i]!.meta as { callout: string; fold: string } | null;
    if (!c?.callout) return self.renderToken(tokens, i, options);
    return c.fold ? '</div></details>\n' : '</div></div>\n';
  };
  md.renderer.rules.tag = (tokens, i) => {
    const tag = (tokens[i]!.meta as { tag: string }).tag;
    return `<a href="#" class="md-tag" data-tag="${esc(tag)}" title="${esc(`Search the notes tagged #${tag}`)}">#${esc(tag)}</a>`;
  };
  md.renderer.rules.wikilink = (tokens, i, _options, env: RenderOptions) => {
    const { name, anchor, label } = tokens[i]!.meta as { name: string; anchor: string; label: string };
    const text = esc(label);
    // A link within the note: the pane scrolls to the heading or block.
    if (!name) return `<a href="#" class="wikilink wikilink--here" data-anchor="${esc(anchor)}" title="${esc(`${anchor.replace(/^#/, '')} in this note`)}">${text}</a>`;
    const target = env.links?.get(name) ?? null;
    if (!target) return `<span class="wikilink wikilink--missing" title="${esc(`No note named “${name}” in your folders (or it is not shown)`)}">${text}</span>`;
    return `<a href="#" class="wikilink" data-note="${esc(target)}" data-anchor="${esc(anchor)}" title="${esc(target)}">${text}</a>`;
  };
  const imageHtml = (embed: NoteEmbed | undefined, alt: string, src: string, size = ''): string | null => {
    if (embed?.kind !== 'image' || !embed.data || !embed.mime) return null;
    const [w, h] = size.split('x').map((n) => Number(n));
    const dims = `${w ? ` width="${w}"` : ''}${h ? ` height="${h}"` : ''}`;
    return `<img class="md-picture" src="data:${esc(embed.mime)};base64,${esc(embed.data)}" alt="${esc(alt || embed.title || src)}" title="${esc(embed.path ?? src)}"${dims}>`;
  };
  md.renderer.rules.embed = (tokens, i, _options, env: RenderOptions) => {
    const { target, option } = tokens[i]!.meta as { target: string; option: string };
    const embed = env.embeds?.get(target);
    const picture = imageHtml(embed, /^\d+(x\d+)?$/.test(option) ? '' : option, target, /^\d+(x\d+)?$/.test(option) ? option : '');
    if (picture) return picture;
    const chain = env.chain ?? [];
    if (embed?.kind === 'note' && embed.text !== null && embed.path && !chain.includes(embed.path) && chain.length <= MAX_EMBED_DEPTH) {
      const inner = renderNote(embed.text, { ...env, firstLine: embed.start_line ?? 1, cited: null, chain: [...chain, embed.path] });
      const name = target.split('#')[0]!;
      const link = `<a href="#" class="wikilink" data-note="${esc(embed.path)}" data-anchor="${esc(target.slice(name.length))}" title="${esc(`Open ${embed.path}`)}">${esc(target.replace(/#\^?/, ' › '))}</a>`;
      return `<section class="md-embed" data-embed="${esc(target)}" aria-label="${esc(`Embedded: ${target}`)}"><div class="md-embed__title">${link}</div><div class="md-embed__body">${inner}</div></section>`;
    }
    if (embed?.kind === 'note' && embed.path) {
      // Too deep, or a note embedding itself: a link stands in.
      return `<a href="#" class="wikilink" data-note="${esc(embed.path)}" data-anchor="${esc(target.slice(target.split('#')[0]!.length))}">${esc(target)}</a>`;
    }
    const what = embed?.kind === 'image' ? `picture ${embed.path} (too large to show here)` : target;
    return `<span class="md-embed md-embed--missing wikilink--missing" title="${esc(embed?.kind === 'image' ? what : `Nothing named “${target}” in your folders to show here (or it is not shown)`)}">${esc(embed?.kind === 'image' ? `[${what}]` : `![[${target}]]`)}</span>`;
  };
  // Only pictures inside the note's folder, read by the engine, show; anything else (a picture from the web would be a request off the machine) shows its alt text.
  md.renderer.rules.image = (tokens, i, _options, env: RenderOptions) => {
    const alt = tokens[i]!.children?.map((c) => c.content).join('') ?? '';
    const src = tokens[i]!.attrGet('src') ?? '';
    let key = src;
    try {
      key = decodeURIComponent(src);
    } catch {
      // kept as written
    }
    const picture = imageHtml(env.embeds?.get(key), alt, src);
    if (picture) return picture;
    return `<span class="md-image" title="${esc(src)}">[image${alt ? `: ${esc(alt)}` : ''}]</span>`;
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
