/**
 * The chat model as a pointwise relevance judge, behind the rerank interface: used when no
 * cross-encoder (rerank GGUF) is present. Each passage is graded 0–3 for the query with
 * grammar-constrained output; one generation per passage, so its cost grows with rerankTopN
 * (`synapsis eval --mode hybrid+rerank` prints it). Off unless a request asks for reranking.
 */
import type { ChatModel } from './chat.ts';
import type { Reranker } from './reranker.ts';

/** Characters of a passage shown to the judge: enough for an abstract's claim, cheap to read. */
const PASSAGE_CHARS = 1200;

const SCHEMA = { type: 'object', properties: { grade: { enum: [0, 1, 2, 3] } }, required: ['grade'] } as const;

const SYSTEM =
  'You grade search results. Given a query and a passage, answer with a JSON object {"grade": n}: ' +
  '3 = the passage directly answers or addresses the query, 2 = closely related, 1 = same topic only, 0 = unrelated.';

export class ChatJudgeReranker implements Reranker {
  readonly name: string;

  constructor(private readonly chat: ChatModel) {
    this.name = `${chat.name} (as judge)`;
  }

  async rank(query: string, passages: readonly string[], signal?: AbortSignal): Promise<number[]> {
    const scores: number[] = [];
    for (const passage of passages) {
      if (signal?.aborted) break;
      const text = passage.length > PASSAGE_CHARS ? `${passage.slice(0, PASSAGE_CHARS)}…` : passage;
      const out = await this.chat.generate({
        system: SYSTEM,
        user: `Query: ${query}\n\nPassage:\n${text}\n\nGrade:`,
        maxTokens: 16,
        temperature: 0,
        jsonSchema: SCHEMA as unknown as Record<string, unknown>,
        ...(signal ? { signal } : {}),
      });
      const grade = (out.json as { grade?: unknown } | undefined)?.grade;
      // A grade outside 0–3 is no grade: the interface promises scores in [0, 1].
      scores.push(typeof grade === 'number' && Number.isInteger(grade) && grade >= 0 && grade <= 3 ? grade / 3 : 0);
    }
    // Passages left unjudged (cancelled) keep the lowest score; the caller keeps their fused order.
    while (scores.length < passages.length) scores.push(0);
    return scores;
  }

  unload(): Promise<void> {
    return Promise.resolve();
  }
}
