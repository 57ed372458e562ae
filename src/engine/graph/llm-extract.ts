/**
 * A knowledge graph from one chunk of a note, read by a local chat model: people, projects,
 * technologies, concepts, decisions and dates, and typed relations between them. The model writes
 * JSON under a grammar (so the shape is always right), but a small model invents names freely, so
 * nothing it says is kept unless the chunk supports it: every entity must occur in the chunk's own
 * text (case-, accent- and ё-insensitively, on word boundaries), dates must look like dates, and a
 * relation survives only between two kept entities. Kept names take the chunk's spelling, and every
 * entity and relation keeps the 0-based line of the chunk that supports it.
 */
import type { ChatModel } from '../llm/chat.ts';

export const LLM_ENTITY_TYPES = ['person', 'project', 'technology', 'concept', 'decision', 'date'] as const;
export const LLM_RELATION_TYPES = ['works_on', 'decided', 'mentioned_in', 'related_to', 'depends_on'] as const;
export type LlmEntityType = (typeof LLM_ENTITY_TYPES)[number];
export type LlmRelationType = (typeof LLM_RELATION_TYPES)[number];

export interface ExtractedEntity {
  /** The name as the chunk writes it (its first occurrence), not as the model wrote it. */
  name: string;
  type: LlmEntityType;
  /** 0-based line index within the chunk text where the name first appears */
  line: number;
}

export interface ExtractedRelation {
  source: string;
  relation: LlmRelationType;
  target: string;
  /** 0-based line of the chunk where both ends appear closest, or the source's line */
  line: number;
}

export interface LlmExtraction {
  entities: ExtractedEntity[];
  relations: ExtractedRelation[];
  tokensIn: number;
  tokensOut: number;
}

/** What the grammar lets the model write; lists are short so a looping model stops early. */
const SCHEMA_MAX_ITEMS = 12;
const NAME_MAX = 80;
const NAME_MIN = 2;
const MAX_ENTITIES = 20;
const MAX_RELATIONS = 20;
/** Raw items looked at per list, whatever the input holds (bounds the work on junk input). */
const MAX_RAW_ITEMS = 200;

export const EXTRACTION_SCHEMA: Record<string, unknown> = {
  type: 'object',
  properties: {
    entities: {
      type: 'array',
      maxItems: SCHEMA_MAX_ITEMS,
      items: {
        type: 'object',
        properties: {
          name: { type: 'string', maxLength: NAME_MAX },
          type: { enum: [...LLM_ENTITY_TYPES] },
        },
        required: ['name', 'type'],
        additionalProperties: false,
      },
    },
    relations: {
      type: 'array',
      maxItems: SCHEMA_MAX_ITEMS,
      items: {
        type: 'object',
        properties: {
          source: { type: 'string', maxLength: NAME_MAX },
          relation: { enum: [...LLM_RELATION_TYPES] },
          target: { type: 'string', maxLength: NAME_MAX },
        },
        required: ['source', 'relation', 'target'],
        additionalProperties: false,
      },
    },
  },
  required: ['entities', 'relations'],
  additionalProperties: false,
};

const SYSTEM_PROMPT = [
  'You extract a knowledge graph from a note.',
  'List the people, projects, technologies, concepts, decisions and dates that are explicitly named in the text.',
  'Use each name exactly as it is written in the text; never invent or paraphrase names.',
  'Add relations only between entities you listed: works_on, decided, mentioned_in, related_to, depends_on.',
  'If the text names nothing, return empty lists. Answer with JSON only.',
].join('\n');

const DEFAULT_MAX_CHARS = 1500;
const DEFAULT_MAX_TOKENS = 256;
/** Tokens the chat template adds around the system and user messages. */
const TEMPLATE_TOKENS = 64;

/**
 * Asks the model for the entities and relations of one chunk and keeps only what the chunk
 * supports (validateExtraction). The text is cut to `maxChars` and further to fit the model's
 * context. Aborting (the signal, or an AbortError from the model) rejects with that error; any other
 * generation error is rethrown too, so callers can tell a failed model from an empty chunk. Output
 * that is not valid JSON (cut short by maxTokens) yields what can be salvaged of it, else nothing.
 */
export async function extractWithModel(
  chat: ChatModel,
  chunk: { title: string | null; text: string },
  options: { signal?: AbortSignal; maxTokens?: number; maxChars?: number } = {},
): Promise<LlmExtraction> {
  const { signal } = options;
  signal?.throwIfAborted();
  let maxTokens = Math.max(1, Math.floor(options.maxTokens ?? DEFAULT_MAX_TOKENS));
  let body = truncate(chunk.text, Math.max(1, Math.floor(options.maxChars ?? DEFAULT_MAX_CHARS)));
  const title = chunk.title?.trim() ? truncate(chunk.title.trim(), 200) : null;

  // Fit the prompt and the answer into the model's context: shrink the text, then (tiny contexts) the answer.
  const window = await chat.contextSize();
  maxTokens = Math.min(maxTokens, Math.max(16, Math.floor(window / 2)));
  let user = userMessage(title, body);
  let used = (await chat.countTokens(SYSTEM_PROMPT + user)) + TEMPLATE_TOKENS;
  for (let i = 0; i < 8 && used + maxTokens > window && body.length > 0; i++) {
    const keep = Math.floor(((body.length * (window - maxTokens)) / used) * 0.9);
    body = truncate(body, Math.max(0, Math.min(keep, body.length - 1)));
    user = userMessage(title, body);
    used = (await chat.countTokens(SYSTEM_PROMPT + user)) + TEMPLATE_TOKENS;
  }
  if (used + maxTokens > window) maxTokens = Math.max(16, window - used);
  signal?.throwIfAborted();

  let generation;
  try {
    generation = await chat.generate({
      system: SYSTEM_PROMPT,
      user,
      maxTokens,
      jsonSchema: EXTRACTION_SCHEMA,
      temperature: 0,
      ...(signal ? { signal } : {}),
    });
  } catch (error) {
    if (signal?.aborted) throw abortReason(signal);
    throw error;
  }
  // LlamaChatModel stops early on abort and returns what it wrote: that is not an extraction.
  if (signal?.aborted || generation.aborted) throw signal?.aborted ? abortReason(signal) : abortError();

  const raw = generation.json !== undefined ? generation.json : salvageJson(generation.text);
  return { ...validateExtraction(raw, chunk.text), tokensIn: generation.tokensIn, tokensOut: generation.tokensOut };
}

function userMessage(title: string | null, body: string): string {
  return `${title ? `Title: ${title}\n` : ''}Text:\n${body}`;
}

/** Cuts at a word boundary (or hard, when the text has no space near the end). */
function truncate(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const cut = text.slice(0, maxChars);
  const space = cut.search(/\s\S*$/);
  return (space > maxChars * 0.8 ? cut.slice(0, space) : cut).trimEnd();
}

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? abortError();
}

function abortError(): Error {
  return new DOMException('The extraction was aborted', 'AbortError');
}

/**
 * The longest prefix of cut-short JSON that parses once its open strings, arrays and objects are
 * closed (e.g. `{"entities":[{"name":"A","type":"person"},{"na` gives the first entity), or
 * undefined. Only cuts after a complete value are tried, so no half-written name survives.
 */
export function salvageJson(text: string | undefined): unknown {
  if (typeof text !== 'string') return undefined;
  const start = text.indexOf('{');
  if (start < 0) return undefined;
  const source = text.slice(start, start + 20_000);
  try {
    return JSON.parse(source);
  } catch {
    // cut short: try the prefixes below
  }
  const stack: string[] = [];
  // Positions just after an opened container or a complete one, with the closers needed there.
  const cuts: { at: number; closers: string }[] = [];
  let inString = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') {
      inString = true;
      continue;
    }
    if (c === '{' || c === '[') stack.push(c === '{' ? '}' : ']');
    else if (c === '}' || c === ']') stack.pop();
    else continue;
    cuts.push({ at: i + 1, closers: [...stack].reverse().join('') });
    if (stack.length === 0) break;
  }
  for (let k = cuts.length - 1; k >= 0; k--) {
    const { at, closers } = cuts[k]!;
    try {
      return JSON.parse(source.slice(0, at) + closers);
    } catch {
      // a cut inside an object after a key: try an earlier one
    }
  }
  return undefined;
}

/** Folds one piece of text for matching: compatibility-decomposed, marks stripped, lower case, ё→е. */
function foldPiece(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().replace(/ё/g, 'е');
}

/** A name's key: folded, whitespace collapsed. */
function foldName(name: string): string {
  return foldPiece(name).replace(/\s+/g, ' ').trim();
}

/** The chunk folded code point by code point, with the offset in the original of each folded unit. */
interface FoldedText {
  original: string;
  folded: string;
  /** map[i] = offset in `original` of the code point folded unit i comes from; map[folded.length] = original.length. */
  map: number[];
  /** Offsets in `original` where each line starts. */
  lineStarts: number[];
}

function foldText(original: string): FoldedText {
  let folded = '';
  const map: number[] = [];
  let offset = 0;
  for (const ch of original) {
    const f = foldPiece(ch);
    folded += f;
    for (let k = 0; k < f.length; k++) map.push(offset);
    offset += ch.length;
  }
  map.push(original.length);
  const lineStarts = [0];
  for (let i = 0; i < original.length; i++) if (original[i] === '\n') lineStarts.push(i + 1);
  return { original, folded, map, lineStarts };
}

function lineOf(text: FoldedText, offset: number): number {
  let lo = 0;
  let hi = text.lineStarts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (text.lineStarts[mid]! <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Where a folded name occurs in the text on word boundaries: the first match's spelling and every line it is on. */
function occurrences(text: FoldedText, key: string): { surface: string; lines: number[] } | null {
  const pattern = key.split(' ').map(escapeRegExp).join('\\s+');
  const re = new RegExp(`(?<![\\p{L}\\p{N}])${pattern}(?![\\p{L}\\p{N}])`, 'gu');
  let surface: string | null = null;
  const lines: number[] = [];
  for (const m of text.folded.matchAll(re)) {
    const from = text.map[m.index]!;
    if (surface === null) {
      const to = text.map[m.index + m[0].length]!;
      surface = text.original.slice(from, to).replace(/\s+/g, ' ').trim();
    }
    const line = lineOf(text, from);
    if (lines[lines.length - 1] !== line) lines.push(line);
  }
  return surface === null ? null : { surface, lines };
}

const MONTH =
  '(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?' +
  // Russian, nominative and genitive, as folded (й loses its breve: май → маи).
  '|январ[ья]|феврал[ья]|марта?|апрел[ья]|ма[ия]|июн[ья]|июл[ья]|августа?|сентябр[ья]|октябр[ья]|ноябр[ья]|декабр[ья])\\.?';
const DAY = '(?:0?[1-9]|[12]\\d|3[01])(?:st|nd|rd|th)?';
const YEAR = '\\d{4}';
const DATE_PATTERNS = [
  /^\d{4}-(?:0[1-9]|1[0-2])(?:-(?:0[1-9]|[12]\d|3[01]))?$/u,
  new RegExp(`^${MONTH}\\s+${DAY}(?:,?\\s+${YEAR})?$`, 'u'),
  new RegExp(`^${DAY}(?:\\s+of)?\\s+${MONTH}(?:,?\\s+${YEAR})?$`, 'u'),
  new RegExp(`^${MONTH},?\\s+${YEAR}$`, 'u'),
];

/** ISO YYYY-MM-DD or YYYY-MM, or a month name with a day and/or a year (English or Russian). */
export function looksLikeDate(name: string): boolean {
  const key = foldName(name);
  return DATE_PATTERNS.some((p) => p.test(key));
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const ENTITY_TYPES = new Set<string>(LLM_ENTITY_TYPES);
const RELATION_TYPES = new Set<string>(LLM_RELATION_TYPES);

/** Pure: turns a model's raw JSON (unknown) into a validated extraction against the chunk text. */
export function validateExtraction(raw: unknown, text: string): { entities: ExtractedEntity[]; relations: ExtractedRelation[] } {
  const entities: ExtractedEntity[] = [];
  const relations: ExtractedRelation[] = [];
  if (!isRecord(raw) || typeof text !== 'string') return { entities, relations };
  const folded = foldText(text);
  /** Kept entities by folded name (both the model's and the text's spelling), with every line they are on. */
  const kept = new Map<string, { entity: ExtractedEntity; lines: number[] }>();

  const rawEntities = Array.isArray(raw.entities) ? raw.entities.slice(0, MAX_RAW_ITEMS) : [];
  for (const item of rawEntities) {
    if (entities.length >= MAX_ENTITIES) break;
    if (!isRecord(item) || typeof item.name !== 'string' || typeof item.type !== 'string') continue;
    const type = item.type.trim().toLowerCase();
    if (!ENTITY_TYPES.has(type)) continue;
    const name = item.name.replace(/\s+/g, ' ').trim();
    if (name.length < NAME_MIN || name.length > NAME_MAX) continue;
    if (type === 'date' ? !looksLikeDate(name) : !/\p{L}/u.test(name)) continue;
    const key = foldName(name);
    if (key.length === 0 || kept.has(key)) continue;
    const found = occurrences(folded, key);
    if (!found) continue;
    const entity: ExtractedEntity = { name: found.surface, type: type as LlmEntityType, line: found.lines[0]! };
    entities.push(entity);
    kept.set(key, { entity, lines: found.lines });
    const surfaceKey = foldName(found.surface);
    if (!kept.has(surfaceKey)) kept.set(surfaceKey, { entity, lines: found.lines });
  }

  const seen = new Set<string>();
  const rawRelations = Array.isArray(raw.relations) ? raw.relations.slice(0, MAX_RAW_ITEMS) : [];
  for (const item of rawRelations) {
    if (relations.length >= MAX_RELATIONS) break;
    if (!isRecord(item) || typeof item.source !== 'string' || typeof item.target !== 'string' || typeof item.relation !== 'string') continue;
    const relation = item.relation.trim().toLowerCase();
    if (!RELATION_TYPES.has(relation)) continue;
    const source = kept.get(foldName(item.source));
    const target = kept.get(foldName(item.target));
    if (!source || !target || source.entity === target.entity) continue;
    const a = source.entity.name;
    const b = target.entity.name;
    // related_to has no direction: A related_to B and B related_to A are one edge.
    const id = relation === 'related_to' && a > b ? `${b}\u0000${relation}\u0000${a}` : `${a}\u0000${relation}\u0000${b}`;
    if (seen.has(id)) continue;
    seen.add(id);
    relations.push({ source: a, relation: relation as LlmRelationType, target: b, line: closestLine(source.lines, target.lines) });
  }
  return { entities, relations };
}

/** The source's line in the pair of occurrences (source line, target line) nearest each other, earliest on ties. */
function closestLine(sourceLines: number[], targetLines: number[]): number {
  let best = sourceLines[0]!;
  let bestGap = Infinity;
  for (const s of sourceLines) {
    for (const t of targetLines) {
      const gap = Math.abs(s - t);
      if (gap < bestGap) {
        bestGap = gap;
        best = s;
      }
    }
  }
  return best;
}
