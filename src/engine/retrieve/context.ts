/**
 * Token-aware context builder: turns a best-first list of retrieved chunks into the blocks of text
 * handed to a language model, within a token budget (default 4096).
 *
 * What it does, and why:
 * - Prefers diverse documents. Five chunks of one note usually say less than the best chunk of
 *   five notes, so chunks are tried round-robin across documents (see `maxChunksPerDocBeforeDiversity`).
 * - Fills the budget greedily. A chunk that does not fit is skipped, not the end of the search: a
 *   smaller one further down may still fit.
 * - Merges adjacent or overlapping chunks of one file into one block. Chunkers overlap lines, and
 *   sending those lines twice wastes budget and confuses citations; one block also costs one header.
 * - Keeps section order: blocks are grouped by document (best document first) and, within a
 *   document, come in line order, so the model reads a note the way it was written.
 * - Trims text only as a last resort: only when no chunk fits on its own is the best one cut to
 *   the budget (at a line boundary when possible), and the result says so (`trimmed`).
 * - Never exceeds the budget, and is deterministic: ties are broken by input order.
 *
 * A pure function over plain objects (no store, no index, no I/O), so it is property-tested alone.
 */

/**
 * The fields the builder reads from a retrieved chunk: a structural subset of the contract's
 * RetrievedChunk, so those objects can be passed as they are. Lines are 1-based and inclusive.
 */
export interface ContextChunk {
  doc_id: string;
  locator: string;
  path: string;
  title: string;
  heading: string | null;
  start_line: number;
  end_line: number;
  text: string;
  score: number;
  section_id?: string | null;
}

export interface ContextOptions {
  /** Most tokens the blocks may take together, headers included. Default 4096; must be >= 1. */
  budgetTokens?: number;
  /** Counts the tokens of a piece of text; must return a non-negative integer. Default estimateTokens. */
  countTokens?: (text: string) => number;
  /**
   * How many chunks one document may place before every other document has had its turn. The
   * chunks are tried in rounds: round r holds, for each document, its chunks ranked r·n to r·n + n - 1
   * within that document, and rounds are tried in input (best-first) order. Default 1: the best
   * chunk of every document comes before the second chunk of any. Infinity turns diversity off
   * (pure input order). Must be a positive integer or Infinity.
   */
  maxChunksPerDocBeforeDiversity?: number;
}

export interface ContextBlock {
  doc_id: string;
  path: string;
  title: string;
  /** Heading of the first merged chunk in line order: the section the block starts in. */
  heading: string | null;
  start_line: number;
  end_line: number;
  text: string;
  /** Locators of the merged chunks, in line order. */
  locators: string[];
  /** Best score among the merged chunks. */
  score: number;
  /** countTokens(contextBlockHeader(block)) + countTokens(block.text). */
  tokens: number;
  /** True when the text was cut to fit the budget (then it is a prefix of one chunk's text). */
  trimmed: boolean;
}

export interface BuiltContext {
  /** Grouped by document (document of the best-ranked chunk first), in line order within one. */
  blocks: ContextBlock[];
  /** Sum of the blocks' tokens; never more than `budget`. */
  tokens: number;
  budget: number;
  /** Locators of the input chunks that did not fit, in input order. */
  dropped: string[];
  /** True when the best chunk had to be cut because no chunk fit whole. */
  trimmed: boolean;
}

export const DEFAULT_CONTEXT_BUDGET_TOKENS = 4096;
export const DEFAULT_MAX_CHUNKS_PER_DOC_BEFORE_DIVERSITY = 1;

/**
 * Cheap, deterministic token estimate for when no real tokenizer is at hand:
 * max(ceil(characters / 4), words), a word being a run of non-whitespace. About four characters a
 * token is the usual rule for English with BPE tokenizers; the per-word floor keeps runs of short
 * words and numbers ("a b c 1 2 3") from being undercounted. Both parts are monotone in appending
 * text and subadditive, so estimateTokens(a + b) <= estimateTokens(a) + estimateTokens(b): merging
 * blocks never costs more than keeping them apart. Characters are UTF-16 code units.
 */
export function estimateTokens(text: string): number {
  if (text.length === 0) return 0;
  const words = text.match(/\S+/g)?.length ?? 0;
  return Math.max(Math.ceil(text.length / 4), words);
}

/**
 * The header line a prompt shows above each block ("notes/a.md:3-9"). Its tokens count against the
 * budget: it is what lets the model cite the block, so it is never optional.
 */
export function contextBlockHeader(range: { path: string; start_line: number; end_line: number }): string {
  return `${range.path}:${range.start_line}-${range.end_line}`;
}

/** A chunk with its position in the (deduplicated) input, the ranking used for every tie. */
interface RankedChunk {
  chunk: ContextChunk;
  rank: number;
}

type TokenCounter = (text: string) => number;

/**
 * Builds the context for `chunks`, which must come best first: the array order is the ranking
 * (scores are only carried through). A locator that appears twice counts once, at its first place.
 * Throws a RangeError for a budget below 1 or not finite, a bad `maxChunksPerDocBeforeDiversity`,
 * a chunk with a non-integer line number, or a countTokens that returns a non-integer or negative.
 * When even the header of the trimmed best chunk cannot fit, the result is empty.
 */
export function buildContext(chunks: readonly ContextChunk[], options: ContextOptions = {}): BuiltContext {
  const budget = options.budgetTokens ?? DEFAULT_CONTEXT_BUDGET_TOKENS;
  if (!Number.isFinite(budget) || budget < 1) {
    throw new RangeError(`context budget must be a positive number of tokens, got ${budget}`);
  }
  const perDoc = options.maxChunksPerDocBeforeDiversity ?? DEFAULT_MAX_CHUNKS_PER_DOC_BEFORE_DIVERSITY;
  if (!(perDoc === Number.POSITIVE_INFINITY || (Number.isInteger(perDoc) && perDoc >= 1))) {
    throw new RangeError(`maxChunksPerDocBeforeDiversity must be a positive integer or Infinity, got ${perDoc}`);
  }
  const count = checkedCounter(options.countTokens ?? estimateTokens);

  const ranked = dedupeByLocator(chunks);
  for (const { chunk } of ranked) {
    // Line numbers order the merge; NaN or fractions would make that order meaningless.
    if (!Number.isInteger(chunk.start_line) || !Number.isInteger(chunk.end_line)) {
      throw new RangeError(`chunk ${chunk.locator} has non-integer lines ${chunk.start_line}-${chunk.end_line}`);
    }
  }

  // Greedy fill. The cost of a document is recomputed from all its selected chunks each time,
  // because adding a chunk can merge blocks (sharing lines and a header) and an arbitrary
  // countTokens need not be additive: only measuring the real blocks keeps the budget exact.
  const selectedByDoc = new Map<string, RankedChunk[]>();
  const blocksByDoc = new Map<string, ContextBlock[]>();
  const costByDoc = new Map<string, number>();
  let total = 0;
  for (const candidate of diversityOrder(ranked, perDoc)) {
    const docId = candidate.chunk.doc_id;
    const members = [...(selectedByDoc.get(docId) ?? []), candidate];
    const blocks = mergeDocChunks(members, count);
    const cost = sumTokens(blocks);
    const nextTotal = total - (costByDoc.get(docId) ?? 0) + cost;
    if (nextTotal > budget) continue; // too big now; a smaller chunk further down may still fit
    selectedByDoc.set(docId, members);
    blocksByDoc.set(docId, blocks);
    costByDoc.set(docId, cost);
    total = nextTotal;
  }

  if (selectedByDoc.size === 0) {
    // Nothing fits whole: the last resort is the best chunk, cut down to the budget.
    const best = ranked[0];
    const block = best ? trimChunk(best.chunk, budget, count) : null;
    return {
      blocks: block ? [block] : [],
      tokens: block ? block.tokens : 0,
      budget,
      dropped: ranked.filter((r) => r !== best || !block).map((r) => r.chunk.locator),
      trimmed: block !== null,
    };
  }

  // Documents in the order of their best selected chunk; blocks are already in line order.
  const docOrder = [...selectedByDoc.entries()]
    .map(([docId, members]) => ({ docId, bestRank: Math.min(...members.map((m) => m.rank)) }))
    .sort((a, b) => a.bestRank - b.bestRank);
  const blocks = docOrder.flatMap(({ docId }) => blocksByDoc.get(docId) ?? []);
  const included = new Set(blocks.flatMap((b) => b.locators));
  return {
    blocks,
    tokens: sumTokens(blocks),
    budget,
    dropped: ranked.filter((r) => !included.has(r.chunk.locator)).map((r) => r.chunk.locator),
    trimmed: false,
  };
}

/** Wraps countTokens so a bad count fails loudly instead of silently breaking the budget guarantee. */
function checkedCounter(countTokens: TokenCounter): TokenCounter {
  return (text) => {
    const tokens = countTokens(text);
    if (!Number.isInteger(tokens) || tokens < 0) {
      throw new RangeError(`countTokens must return a non-negative integer, got ${tokens}`);
    }
    return tokens;
  };
}

function dedupeByLocator(chunks: readonly ContextChunk[]): RankedChunk[] {
  const seen = new Set<string>();
  const ranked: RankedChunk[] = [];
  for (const chunk of chunks) {
    if (seen.has(chunk.locator)) continue;
    seen.add(chunk.locator);
    ranked.push({ chunk, rank: ranked.length });
  }
  return ranked;
}

/**
 * The order chunks are tried in: round-robin over documents, `perDoc` chunks of each document per
 * round, input order within a round. With perDoc = Infinity every chunk is in round 0.
 */
function diversityOrder(ranked: readonly RankedChunk[], perDoc: number): RankedChunk[] {
  const seenPerDoc = new Map<string, number>();
  return ranked
    .map((item) => {
      const index = seenPerDoc.get(item.chunk.doc_id) ?? 0;
      seenPerDoc.set(item.chunk.doc_id, index + 1);
      return { item, round: Math.floor(index / perDoc) };
    })
    .sort((a, b) => a.round - b.round || a.item.rank - b.item.rank)
    .map(({ item }) => item);
}

/** A block being built by merging chunks in line order. */
interface OpenBlock {
  start_line: number;
  end_line: number;
  /** The text so far, split on '\n'. */
  lines: string[];
  /** Whether lines[i] is line start_line + i; once a merge falls back to concatenation, never again. */
  lineAligned: boolean;
  members: RankedChunk[];
}

function isLineAligned(chunk: ContextChunk, lines: readonly string[]): boolean {
  return chunk.end_line >= chunk.start_line && lines.length === chunk.end_line - chunk.start_line + 1;
}

/**
 * Merges one document's selected chunks into blocks: chunks are taken in line order and a chunk
 * joins the open block when it overlaps or touches it (start_line <= end_line + 1). Overlapping lines
 * are kept once, which relies on a chunk's text line i being line start_line + i. Where that does
 * not hold (the line count does not match the range) or the two chunks disagree on a shared line
 * (e.g. two pieces of one over-long line, which share a line number), the texts are concatenated
 * with '\n' instead: repeating a little text is better than losing some.
 */
function mergeDocChunks(members: readonly RankedChunk[], count: TokenCounter): ContextBlock[] {
  const inLineOrder = [...members].sort(
    (a, b) => a.chunk.start_line - b.chunk.start_line || a.chunk.end_line - b.chunk.end_line || a.rank - b.rank,
  );
  const blocks: ContextBlock[] = [];
  let open: OpenBlock | null = null;
  for (const member of inLineOrder) {
    const { chunk } = member;
    const lines = chunk.text.split('\n');
    if (open && chunk.start_line <= open.end_line + 1) {
      absorb(open, member, lines);
      continue;
    }
    if (open) blocks.push(closeBlock(open, count));
    open = {
      start_line: chunk.start_line,
      end_line: Math.max(chunk.start_line, chunk.end_line),
      lines,
      lineAligned: isLineAligned(chunk, lines),
      members: [member],
    };
  }
  if (open) blocks.push(closeBlock(open, count));
  return blocks;
}

/** Adds a chunk that starts inside or right after the open block (guaranteed by the line order). */
function absorb(open: OpenBlock, member: RankedChunk, lines: string[]): void {
  const { chunk } = member;
  open.members.push(member);
  const sharedEnd = Math.min(chunk.end_line, open.end_line);
  let agrees = open.lineAligned && isLineAligned(chunk, lines);
  for (let line = chunk.start_line; agrees && line <= sharedEnd; line++) {
    agrees = open.lines[line - open.start_line] === lines[line - chunk.start_line];
  }
  if (agrees) {
    // Only the lines past the block's end are new.
    for (let line = open.end_line + 1; line <= chunk.end_line; line++) open.lines.push(lines[line - chunk.start_line]!);
  } else {
    open.lines.push(...lines);
    open.lineAligned = false;
  }
  open.end_line = Math.max(open.end_line, chunk.end_line);
}

function closeBlock(open: OpenBlock, count: TokenCounter): ContextBlock {
  const first = open.members[0]!.chunk;
  const text = open.lines.join('\n');
  const range = { path: first.path, start_line: open.start_line, end_line: open.end_line };
  return {
    doc_id: first.doc_id,
    path: first.path,
    title: first.title,
    heading: first.heading,
    start_line: open.start_line,
    end_line: open.end_line,
    text,
    locators: open.members.map((m) => m.chunk.locator),
    score: Math.max(...open.members.map((m) => m.chunk.score)),
    tokens: count(contextBlockHeader(range)) + count(text),
    trimmed: false,
  };
}

function sumTokens(blocks: readonly ContextBlock[]): number {
  return blocks.reduce((sum, block) => sum + block.tokens, 0);
}

/**
 * The largest n in [low, high] for which fits(n) held, or low - 1 when none did. A binary search,
 * which assumes fits is monotone (true for estimateTokens over prefixes); if a custom counter is
 * not, the answer may be short of the best, but it was measured, so it always fits.
 */
function largestFitting(low: number, high: number, fits: (n: number) => boolean): number {
  let best = low - 1;
  while (low <= high) {
    const mid = Math.floor((low + high) / 2);
    if (fits(mid)) {
      best = mid;
      low = mid + 1;
    } else {
      high = mid - 1;
    }
  }
  return best;
}

/**
 * Cuts one chunk to the budget: as many whole leading lines as fit, else as many leading characters
 * (never splitting a surrogate pair). When the text is line-aligned the block's end_line is the last
 * line kept; otherwise the chunk's own range is kept, since no line number is known for the cut.
 * Returns null when not even one character fits next to the header.
 */
function trimChunk(chunk: ContextChunk, budget: number, count: TokenCounter): ContextBlock | null {
  const lines = chunk.text.split('\n');
  const lineAligned = isLineAligned(chunk, lines);
  const endLineOf = (text: string): number =>
    lineAligned ? chunk.start_line + text.split('\n').length - 1 : Math.max(chunk.start_line, chunk.end_line);
  const costOf = (text: string): number =>
    count(contextBlockHeader({ path: chunk.path, start_line: chunk.start_line, end_line: endLineOf(text) })) + count(text);

  const linePrefix = (n: number): string => lines.slice(0, n).join('\n');
  let text = '';
  const wholeLines = largestFitting(1, lines.length, (n) => costOf(linePrefix(n)) <= budget);
  if (wholeLines >= 1) {
    text = linePrefix(wholeLines);
  } else {
    const charPrefix = (n: number): string => {
      // Cutting between the halves of a surrogate pair would leave an invalid character.
      const code = chunk.text.charCodeAt(n - 1);
      return chunk.text.slice(0, code >= 0xd800 && code <= 0xdbff ? n - 1 : n);
    };
    const chars = largestFitting(1, chunk.text.length, (n) => costOf(charPrefix(n)) <= budget);
    if (chars >= 1) text = charPrefix(chars);
  }
  if (text.length === 0) return null;

  return {
    doc_id: chunk.doc_id,
    path: chunk.path,
    title: chunk.title,
    heading: chunk.heading,
    start_line: chunk.start_line,
    end_line: endLineOf(text),
    text,
    locators: [chunk.locator],
    score: chunk.score,
    tokens: costOf(text),
    trimmed: true,
  };
}
