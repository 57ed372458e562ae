/**
 * Deterministic graph extraction from one parsed document, at index time (issue 7, item 1): every
 * fact keeps the 1-based line range it came from, so each edge of the graph cites its evidence.
 *
 * Rules: [[wikilinks]] and relative markdown links between notes (headings included), #tags,
 * front-matter fields that name people, projects, status and dates, @mentions, ISO dates, code
 * imports and top-level symbols, and capitalised names in running text (proper nouns such as a
 * release codename; not in headings, whose words are all capitalised) that are not interface words
 * ("Click **Save**", "Settings > Sync", "Нажмите **Войти**"), imperatives, file names, or words the
 * note mostly writes in lower case ("Sync" beside "sync runs"). Links to images and other assets
 * (`![[icon.svg]]`) name no note and are dropped. A name is
 * stored as written; resolving it to a note (title, file name, alias) happens when the graph is
 * loaded, so a note indexed later still receives the links written to it earlier.
 */
import path from 'node:path';
import { eng, rus } from 'stopword';
import type { DocumentType } from '../ingest/file-types.ts';
import { frontmatterList, isTag, parseHeading } from '../ingest/markdown.ts';

/** Bump when the rules change: documents extracted by older rules are re-extracted on the next index run. */
export const GRAPH_RULES_VERSION = 2;

export type EntityType =
  | 'ref' // a link target: a note name, resolved when the graph loads
  | 'tag'
  | 'person'
  | 'project'
  | 'organization'
  | 'status'
  | 'date'
  | 'module'
  | 'symbol'
  | 'name' // a capitalised name found in running text
  | 'technology'
  | 'concept'
  | 'decision';

export interface EntityRef {
  name: string;
  type: EntityType;
}

export interface FactRelation {
  /** Null: the document itself. */
  src: EntityRef | null;
  dst: EntityRef;
  type: string;
  /** 1-based lines of the evidence, in the parsed document's line numbering. */
  line: number;
  endLine: number;
  origin: 'rule' | 'llm';
}

export interface FactMention {
  entity: EntityRef;
  line: number;
  /**
   * False for a capitalised word that only starts a sentence, a list item or a table cell there
   * ("Pilot customers…"): such a name counts only once some note uses it mid-sentence.
   */
  strong: boolean;
}

export interface GraphFacts {
  relations: FactRelation[];
  mentions: FactMention[];
}

export interface ExtractInput {
  relPath: string;
  type: DocumentType;
  lines: readonly string[];
  /** 0-based first line of the body (after front matter). */
  from: number;
  frontmatter: Record<string, unknown>;
  /** The chunk a 1-based line falls in; mentions are kept once per entity and chunk. Default: per line. */
  chunkOf?: (line: number) => number | null;
}

/** Front-matter fields whose values are entities: the relation from the note and the entity type. */
const FIELD_RELATIONS: Record<string, { relation: string; type: EntityType }> = {
  people: { relation: 'mentions', type: 'person' },
  person: { relation: 'mentions', type: 'person' },
  attendees: { relation: 'attended_by', type: 'person' },
  participants: { relation: 'attended_by', type: 'person' },
  author: { relation: 'authored_by', type: 'person' },
  authors: { relation: 'authored_by', type: 'person' },
  owner: { relation: 'owned_by', type: 'person' },
  owners: { relation: 'owned_by', type: 'person' },
  decided_by: { relation: 'decided_by', type: 'person' },
  decider: { relation: 'decided_by', type: 'person' },
  manager: { relation: 'reports_to', type: 'person' },
  reports_to: { relation: 'reports_to', type: 'person' },
  project: { relation: 'part_of', type: 'project' },
  projects: { relation: 'part_of', type: 'project' },
  company: { relation: 'part_of', type: 'organization' },
  organization: { relation: 'part_of', type: 'organization' },
  team: { relation: 'part_of', type: 'organization' },
  related: { relation: 'related_to', type: 'ref' },
  see_also: { relation: 'related_to', type: 'ref' },
  depends_on: { relation: 'depends_on', type: 'ref' },
  status: { relation: 'has_status', type: 'status' },
  date: { relation: 'dated', type: 'date' },
  created: { relation: 'dated', type: 'date' },
  due: { relation: 'due', type: 'date' },
  deadline: { relation: 'due', type: 'date' },
};

const WIKILINK = /\[\[([^\]|#^\n]+)(?:[#^][^\]|\n]*)?(?:\|[^\]\n]*)?\]\]/g;
const MDLINK = /\[[^\]\n]*\]\(([^)\s]+\.md)(?:#[^)\s]*)?\)/gi;
const HASHTAG = /(?:^|[\s(])#([\p{L}\p{N}_][\p{L}\p{N}_/-]*)/gu;
const MENTION = /(?:^|[\s(])@([\p{L}][\p{L}\p{N}_.-]*[\p{L}\p{N}])/gu;
const ISO_DATE = /\b((?:19|20)\d\d-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01]))\b/g;
/** A code fence, also inside a quote or a callout (`> ```css`). */
const FENCE = /^\s{0,3}(?:>\s?)*\s{0,3}(```|~~~)/;
/** One to four capitalised words (or an acronym), joined by spaces: "Harbor Health", "Kestrel", "QUIC". */
const NAME = /(\p{Lu}[\p{Ll}\p{Lu}\p{N}]*(?:[-'’]\p{L}+)?(?:\s+\p{Lu}[\p{Ll}\p{Lu}\p{N}]*(?:[-'’]\p{L}+)?){0,3})(?![\p{L}\p{N}_])/gu;
/** What may not come right before a name (it would be inside a word: "iOS", "McDonald"). */
const WORD_CHAR = /[\p{L}\p{N}_'’-]/u;
const STOP = new Set([...eng, ...rus].map((w) => w.toLowerCase()));
/** Words that are capitalised by convention, not because they name something. */
const COMMON = new Set(
  'monday tuesday wednesday thursday friday saturday sunday mondays tuesdays wednesdays thursdays fridays saturdays sundays january february march april may june july august september october november december mon tue wed thu fri sat sun jan feb mar apr jun jul aug sep sept oct nov dec when whenever where wherever while because since unless although though however also then once instead otherwise therefore thus todo note notes yes no ok okay tbd faq pdf md http https www api url id ui ux qa am pm eta usd eur'.split(' '),
);

/**
 * Words of an application's interface and the imperatives of instructions, English and Russian
 * (lower case): capitalised because they are buttons, menus or the first word of a step, not names.
 * Dropped as a name of one word and trimmed from either end of a longer one ("See Grace Okoye").
 */
const UI_WORDS = new Set(
  (
    'click press tap choose select check see open close save cancel apply reset create delete remove add edit new show hide enable disable ' +
    'toggle turn type enter go run use find search export import copy paste cut undo redo start stop restart install uninstall update upgrade ' +
    'download upload share sign log login logout submit confirm continue skip finish done next back previous browse restore retry refresh ' +
    'reload rename move duplicate insert format view help file tools window settings preferences options menu button tab dialog sidebar ' +
    'toolbar panel page pages screen icon link links step steps tip tips warning caution important example examples prerequisites figure ' +
    'table section chapter option yes ok default advanced general about account profile home dashboard light dark system compact ' +
    'нажмите нажать выберите выбрать откройте открыть закройте закрыть сохраните сохранить отмена отменить применить сбросить создайте ' +
    'создать удалите удалить добавьте добавить измените изменить введите ввести перейдите перейти проверьте проверить включите включить ' +
    'выключите выключить отметьте установите установить обновите обновить скачайте скачать загрузите загрузить войти выйти войдите ' +
    'выйдите продолжить далее назад готово обзор поиск найти найдите экспорт импорт экспортировать импортировать копировать вставить ' +
    'восстановить файл правка вид справка журнал настройки параметры меню кнопка вкладка окно панель значок ссылка шаг совет внимание ' +
    'пример примечание раздел см смотрите светлая тёмная темная системная запустите запустить выделите'
  ).split(' '),
);
/** Words that send the reader to a button or a menu: a bold or quoted label right after one is the interface's. */
const UI_VERBS = new Set(
  'click press tap choose select check open use pick hit enable disable toggle turn нажмите выберите откройте отметьте включите выключите используйте кнопкой кнопку кнопка пункт меню then затем'.split(' '),
);
/** File types a link can name that are not notes: an embedded image or asset is no entity. */
const ASSET = /\.(?:svg|png|jpe?g|gif|webp|bmp|ico|tiff?|heic|avif|mp3|mp4|m4a|wav|ogg|flac|mov|webm|mkv|avi|zip|gz|tgz|7z|rar|woff2?|ttf|otf|css|excalidraw|canvas|base)$/i;
/** A Russian verb form, not a name: imperatives (-ите, -йте) and infinitives (-ть, -ться, -йти). */
const RU_VERB = /^[\p{Script=Cyrillic}]+(?:ите|йте|ть|ться|йти)$/u;
/** A bold, code or quoted label: its text is the group. */
const LABEL = /\*\*([^*\n]+)\*\*|__([^_\n]+)__|«([^»\n]+)»|"([^"\n]+)"|“([^”\n]+)”/g;
/** A menu path: "Settings > Sync > Turn on", "Файл → Экспорт". */
const MENU_PATH = /[\p{L}][\p{L}\p{N} ]*(?:\s(?:>|→|›|»)\s[\p{L}][\p{L}\p{N} ]*)+/gu;

/** Code imports per language: each pattern's first group is the imported module. */
const IMPORTS: RegExp[] = [
  /^\s*import\s+(?:type\s+)?(?:[^'"]+?\s+from\s+)?['"]([^'"]+)['"]/, // ES modules
  /\brequire\(\s*['"]([^'"]+)['"]\s*\)/, // CommonJS
  /^\s*from\s+([\w.]+)\s+import\b/, // Python
  /^\s*import\s+([\w.]+)(?:\s+as\s+\w+)?\s*$/, // Python, Java-like
  /^\s*(?:import\s+)?(?:\w+\s+)?"([\w./-]+)"\s*$/, // Go (single or inside an import block)
  /^\s*#include\s+[<"]([^>"]+)[>"]/, // C, C++
  /^\s*use\s+([\w:]+)/, // Rust
];
/** Top-level definitions: each pattern's first group is the symbol. */
const SYMBOLS: RegExp[] = [
  /^(?:export\s+)?(?:default\s+)?(?:async\s+)?function\*?\s+([A-Za-z_$][\w$]*)/,
  /^(?:export\s+)?(?:default\s+)?(?:abstract\s+)?class\s+([A-Za-z_$][\w$]*)/,
  /^(?:export\s+)?(?:interface|type|enum)\s+([A-Za-z_$][\w$]*)/,
  /^(?:export\s+)?const\s+([A-Za-z_$][\w$]*)\s*=\s*(?:async\s*)?(?:\([^)]*\)|[A-Za-z_$][\w$]*)\s*=>/,
  /^(?:async\s+)?def\s+([A-Za-z_]\w*)/,
  /^func\s+(?:\([^)]*\)\s*)?([A-Za-z_]\w*)/,
  /^type\s+([A-Za-z_]\w*)\s+(?:struct|interface)\b/,
  /^(?:pub(?:\([^)]*\))?\s+)?(?:fn|struct|enum|trait)\s+([A-Za-z_]\w*)/,
];

const MAX_FACTS = 2000;

/** A frontmatter value as entity names: lists, comma lists, [[links]] unwrapped. */
function namesOf(value: unknown): string[] {
  if (value instanceof Date) return [value.toISOString().slice(0, 10)];
  return frontmatterList(value)
    .map((v) => v.replace(/^\[\[/, '').replace(/\]\]$/, '').split('|')[0]!.trim())
    .filter((v) => v.length > 0 && v.length <= 200);
}

/** Where a front-matter field is written: its key line through its last indented list line. */
function fieldLines(lines: readonly string[], from: number, field: string): [number, number] {
  const end = Math.max(1, from - 1);
  const key = new RegExp(`^${field.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*:`, 'i');
  for (let i = 1; i < end; i++) {
    if (!key.test(lines[i] ?? '')) continue;
    let j = i;
    while (j + 1 < end && /^\s+(-\s|\S)/.test(lines[j + 1] ?? '')) j++;
    return [i + 1, j + 1];
  }
  return [1, Math.max(1, from)];
}

/**
 * Is the match at `index` where a capital letter says nothing: the start of a sentence, a list item
 * or a heading? A table cell is not: cells hold names ("| 1.0 | Kestrel |"); header rows are skipped.
 */
function sentenceInitial(line: string, index: number): boolean {
  // Scanned backwards by hand: an end-anchored regex over the prefix costs a pass over it per name.
  let i = index - 1;
  while (i >= 0 && OPENERS.has(line[i]!)) i--;
  while (i >= 0 && (line[i] === ' ' || line[i] === '\t')) i--;
  if (i < 0) return true;
  if (ENDERS.has(line[i]!)) return true;
  return i < 12 && /^\s*(?:[-*+>#]+|\d+[.)])$/.test(line.slice(0, i + 1));
}

const OPENERS = new Set([...'*_`"\'“«([']);
const ENDERS = new Set([...'.!?:;—–']);
const TABLE_RULE = /^\s*\|?\s*:?-{3,}/;

export function extractGraphFacts(input: ExtractInput): GraphFacts {
  const relations: FactRelation[] = [];
  const mentions: FactMention[] = [];
  const seenRel = new Set<string>();
  const seenMention = new Set<string>();
  const rel = (dst: EntityRef, type: string, line: number, endLine = line) => {
    const key = `${dst.type}\u0000${dst.name.toLowerCase()}\u0000${type}`;
    if (relations.length >= MAX_FACTS || seenRel.has(key)) return;
    seenRel.add(key);
    relations.push({ src: null, dst, type, line, endLine, origin: 'rule' });
  };
  // One mention per entity and chunk is enough to find the chunk; `chunkOf` maps a line to its chunk.
  const chunkOf = input.chunkOf ?? ((line: number) => line);
  const mention = (entity: EntityRef, line: number, strong = true) => {
    const key = `${entity.type}\u0000${entity.name.toLowerCase()}\u0000${chunkOf(line)}`;
    if (mentions.length >= MAX_FACTS * 4 || seenMention.has(key)) return;
    seenMention.add(key);
    mentions.push({ entity, line, strong });
  };
  const both = (dst: EntityRef, type: string, line: number, endLine = line) => {
    rel(dst, type, line, endLine);
    mention(dst, line);
  };

  for (const [field, value] of Object.entries(input.frontmatter)) {
    const lower = field.toLowerCase();
    const spec = FIELD_RELATIONS[lower];
    const isTags = lower === 'tags' || lower === 'tag';
    if (!spec && !isTags) continue;
    const [a, b] = fieldLines(input.lines, input.from, field);
    for (const name of namesOf(value)) {
      if (isTags) both({ name: name.replace(/^#/, ''), type: 'tag' }, 'tagged', a, b);
      else if (spec!.type === 'date' && !/^\d{4}-\d\d(-\d\d)?/.test(name)) continue;
      else both({ name, type: spec!.type }, spec!.relation, a, b);
    }
  }

  const code = input.type === 'code';
  const prose = input.type === 'markdown' || input.type === 'text' || input.type === 'pdf' || input.type === 'docx' || input.type === 'html';
  let inFence = false;
  const names = new Map<string, { name: string; lines: number[]; strong: boolean; midSentence: number }>();
  /** The prose as read for names, to count how often a name is written in lower case there. */
  const prosePlain: string[] = [];
  for (let i = input.from; i < input.lines.length; i++) {
    const line = input.lines[i] ?? '';
    const n = i + 1;
    if (line.length > 4000) continue; // minified or generated: no names worth a graph node
    if (code) {
      for (const re of IMPORTS) {
        const m = re.exec(line);
        if (m) {
          both({ name: m[1]!, type: 'module' }, 'imports', n);
          break;
        }
      }
      for (const re of SYMBOLS) {
        const m = re.exec(line);
        if (m) {
          both({ name: m[1]!, type: 'symbol' }, 'defines', n);
          break;
        }
      }
      continue;
    }
    if (!prose) continue;
    if (input.type === 'markdown' && FENCE.test(line)) {
      inFence = !inFence;
      continue;
    }
    if (inFence) continue;
    const heading = input.type === 'markdown' ? parseHeading(line) : null;
    // A heading's links, tags and dates count like any line's; the heading itself is not an entity:
    // every chunk already carries its heading (and cites it), and "## Context" in fifty decision
    // records would only join them all.
    // Cheap tests first: most lines hold no link, tag, mention or date.
    // Inline code shows syntax (`[[Link]]`, `#tag`): nothing in it is a link, a tag or a mention.
    const text = line.includes('`') ? line.replace(/`[^`]*`/g, (c) => ' '.repeat(c.length)) : line;
    const hasBracket = text.includes('[');
    if (hasBracket) {
      for (const m of text.matchAll(WIKILINK)) {
        // In a table the pipe before a link's label is escaped ("[[Note\\|label]]"); "[[Note.md]]" is Note.
        const target = m[1]!.trim().replace(/\\$/, '').replace(/\.md$/i, '').trim();
        if (target && !ASSET.test(target)) both({ name: target, type: 'ref' }, 'links_to', n);
      }
    }
    if (hasBracket && text.includes('](')) for (const m of text.matchAll(MDLINK)) {
      if (/^[a-z]+:/i.test(m[1]!)) continue;
      let target: string;
      try {
        target = decodeURIComponent(m[1]!);
      } catch {
        target = m[1]!;
      }
      const name = path.posix.basename(target).replace(/\.md$/i, '');
      if (name) both({ name, type: 'ref' }, 'links_to', n);
    }
    if (input.type === 'markdown' && text.includes('#')) {
      for (const m of text.matchAll(HASHTAG)) if (isTag(m[1]!)) both({ name: m[1]!, type: 'tag' }, 'tagged', n);
    }
    if (text.includes('@')) for (const m of text.matchAll(MENTION)) both({ name: m[1]!, type: 'person' }, 'mentions', n);
    if (line.includes('-')) for (const m of line.matchAll(ISO_DATE)) both({ name: m[1]!, type: 'date' }, 'mentions_date', n);
    if (heading) continue;
    // A table's header row names columns, not things.
    if (line.trimStart().startsWith('|') && TABLE_RULE.test(input.lines[i + 1] ?? '')) continue;
    // Link targets are handled above; capitalised words inside them would only repeat them.
    const plain = hasBracket || line.includes('`') || line.includes('://') ? line.replace(/\[\[[^\]]*\]\]|\]\([^)]*\)|`[^`]*`|https?:\/\/\S+/g, (s) => ' '.repeat(s.length)) : line;
    prosePlain.push(plain);
    // Read once the line holds a name worth asking about (most lines hold none).
    let ui: [number, number][] | null = null;
    for (const m of plain.matchAll(NAME)) {
      const at = m.index!;
      if (at > 0 && (WORD_CHAR.test(plain[at - 1]!) || PATH_CHAR.has(plain[at - 1]!))) continue;
      const match = m[1]!;
      // A file name ("Config.yaml", "README.md") names a file, not a thing.
      if (FILE_EXT.test(plain.slice(at + match.length, at + match.length + 8))) continue;
      let name = match;
      let offset = 0;
      let multi = match.includes(' ') || match.includes('\t');
      if (multi) {
        const words = match.split(/\s+/);
        // Leading stopwords ("The Relay") and trailing ones are not part of the name.
        while (words.length > 0 && isFiller(words[0]!)) words.shift();
        while (words.length > 0 && isFiller(words[words.length - 1]!)) words.pop();
        // An instruction's verb before a name is no part of it ("See Grace Okoye", "Relaunch Obsidian",
        // "Откройте Заметник"); other interface words are ("New York", "General Motors").
        if (words.length > 1 && isImperative(words[0]!) && sentenceInitial(plain, at + match.indexOf(words[0]!))) words.shift();
        // Nor is the interface part after it ("Web Clipper Settings", "Sync menu").
        while (words.length > 1 && UI_PLACES.has(words[words.length - 1]!.toLowerCase())) words.pop();
        // Interface words only: a button or a menu item ("New Folder", "Sign In").
        if (words.length === 0 || words.every((w) => UI_WORDS.has(w.toLowerCase()))) continue;
        name = words.join(' ');
        offset = match.indexOf(words[0]!);
        multi = words.length > 1;
      } else if (isFiller(match)) continue;
      // A possessive is its name ("Greenway's rollout" names Greenway), and so is a compound with a
      // lower-case word ("Obsidian-specific", "Kestrel-based").
      name = name.replace(/['’]s$/u, '').replace(/-\p{Ll}+$/u, '');
      if (name.length < 3) continue;
      // An interface word, a Russian verb, or the plural of an acronym ("PDFs", "URLs": things, not a name).
      if (!multi && (UI_WORDS.has(name.toLowerCase()) || RU_VERB.test(name) || /^\p{Lu}{2,}s$/u.test(name))) continue;
      const key = name.toLowerCase();
      const isUi = (ui ??= interfaceSpans(plain)).some(([a, b]) => at + offset >= a && at + offset < b);
      // Sentence-initial single words are only remembered (cheaply) in case the note also uses them mid-sentence.
      const strong = multi || !sentenceInitial(plain, at + offset);
      const seen = names.get(key);
      if (seen) {
        if (seen.lines[seen.lines.length - 1] !== n) seen.lines.push(n);
        seen.strong ||= strong;
        if (strong && !isUi) seen.midSentence++;
      } else names.set(key, { name, lines: [n], strong, midSentence: strong && !isUi ? 1 : 0 });
    }
  }
  // A name the note shows only as a button or menu ("Click **Save**") is the interface's; a single
  // word the note writes in lower case at least as often as capitalised mid-sentence is a word.
  const proseText = prosePlain.join('\n');
  let words: Map<string, number> | null = null;
  for (const [key, entry] of names) {
    if (entry.midSentence === 0) names.delete(key);
    else if (!/\s/.test(entry.name) && lowerCaseUses(proseText, entry.name, () => (words ??= proseWordCounts(proseText))) >= entry.midSentence) names.delete(key);
  }
  // A capitalised name the note uses mid-sentence counts everywhere in it; one it only ever starts
  // sentences with ("Then", "Pilot customers…") is dropped. Kept names are related to the note at
  // their first line (the graph joins notes that share one) and mentioned in each chunk they occur in.
  for (const { name, lines, strong } of names.values()) {
    if (!strong) continue;
    const entity: EntityRef = { name, type: 'name' };
    rel(entity, 'mentions', lines[0]!);
    for (const line of lines) mention(entity, line);
  }
  return { relations, mentions };
}

function isFiller(word: string): boolean {
  const lower = word.toLowerCase();
  return STOP.has(lower) || COMMON.has(lower);
}

/** Instructions' verbs, English and Russian: "Click", "See", "Relaunch", "Откройте", "Нажмите". */
const IMPERATIVES = new Set(
  'click press tap choose select check see open close save cancel apply reset create delete remove add edit show hide enable disable toggle turn type enter go run use find search export import copy paste install uninstall update upgrade download upload restart relaunch reload rename move browse restore retry refresh drag drop visit read learn ask contact'.split(' '),
);
/** Where in an interface something is: after a name, not part of it. */
const UI_PLACES = new Set('settings preferences options menu button tab dialog panel icon sidebar toolbar настройки меню кнопка вкладка панель'.split(' '));
function isImperative(word: string): boolean {
  return IMPERATIVES.has(word.toLowerCase()) || RU_VERB.test(word);
}

/** What may come right before a name that is part of a path ("docs/Setup", "~/Notes"). */
const PATH_CHAR = new Set([...'/\\~.']);
/** Right after a name: a file extension ("Config.yaml", "README.md"). */
const FILE_EXT = /^\.[A-Za-z0-9]{1,5}(?![\p{L}\p{N}])/u;

const PROSE_BEFORE = /[\s("'«“*_]/u;
const PROSE_AFTER = /[\s,;:!?)"'»”*_]/u;

/** A run of letters and digits, and the character after it (a full stop's next one too). */
const WORD_RUN = /[\p{L}\p{N}]+/gu;
const LETTERS_DIGITS = /^[\p{L}\p{N}]+$/u;

/**
 * How often the prose writes each run of letters and digits as a word of prose (as lowerCaseUses
 * counts one): after a space, an opening mark or the start, before a space, a closing mark, a full
 * stop followed by a space, or the end. Counted in one pass for all the note's names.
 */
export function proseWordCounts(prose: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const m of prose.matchAll(WORD_RUN)) {
    const i = m.index!;
    const end = i + m[0].length;
    const before = i > 0 ? prose[i - 1]! : ' ';
    const after = prose[end] ?? ' ';
    const next = prose[end + 1] ?? ' ';
    if (PROSE_BEFORE.test(before) && (PROSE_AFTER.test(after) || (after === '.' && /\s/.test(next)))) out.set(m[0], (out.get(m[0]) ?? 0) + 1);
  }
  return out;
}

/**
 * How often the note writes a name as a word in lower case; an acronym ("REST", "QUIC") never is.
 * A name of letters and digits only is looked up in `counts` (proseWordCounts, made once per note):
 * its lower-case form is counted there exactly when it is a whole run bounded as a word of prose.
 */
export function lowerCaseUses(prose: string, name: string, counts?: () => ReadonlyMap<string, number>): number {
  const lower = name.toLowerCase();
  if (name.toUpperCase() === name) return 0;
  if (counts && LETTERS_DIGITS.test(lower)) return counts().get(lower) ?? 0;
  let count = 0;
  for (let i = prose.indexOf(lower); i >= 0; i = prose.indexOf(lower, i + lower.length)) {
    // A word of prose, not part of an address or a path ("github.com", "docs/sync").
    const before = i > 0 ? prose[i - 1]! : ' ';
    const after = prose[i + lower.length] ?? ' ';
    const next = prose[i + lower.length + 1] ?? ' ';
    if (PROSE_BEFORE.test(before) && (PROSE_AFTER.test(after) || (after === '.' && /\s/.test(next)))) count++;
  }
  return count;
}

/**
 * Where a line shows the interface rather than names: menu paths ("Settings > Sync"), and bold or
 * quoted labels right after a word that sends the reader to them ("click **Save**", "нажмите **Войти**").
 */
const MENU_ARROW = /\s[>→›»]\s/;
function interfaceSpans(line: string): [number, number][] {
  const out: [number, number][] = [];
  // A menu path has an arrow between spaces: a line without one (most, ">" of code and quotes included) is not read for it.
  if (MENU_ARROW.test(line)) {
    for (const m of line.matchAll(MENU_PATH)) out.push([m.index!, m.index! + m[0].length]);
  }
  if (!line.includes('*') && !line.includes('_') && !line.includes('"') && !line.includes('«') && !line.includes('“')) return out;
  for (const m of line.matchAll(LABEL)) {
    const before = line.slice(Math.max(0, m.index! - 40), m.index!).toLowerCase().split(/[^\p{L}]+/u).filter(Boolean);
    const last = before.slice(-2);
    if (last.some((w) => UI_VERBS.has(w)) || (before.length > 0 && /[,/]\s*(?:or\s+|или\s+)?$|\bor\s*$|\bили\s*$/.test(line.slice(Math.max(0, m.index! - 6), m.index!)) && out.length > 0)) {
      out.push([m.index!, m.index! + m[0].length]);
    }
  }
  return out;
}
