import { describe, expect, it } from 'vitest';
import type { ChatModel, GenerateOptions, Generation } from './chat.ts';
import { ChatJudgeReranker } from './chat-judge.ts';

/**
 * A chat model that answers each generation with the next of `answers` (the parsed JSON, or
 * undefined for none) and records what it was asked. `onGenerate` runs before it answers.
 */
class ScriptedChat implements ChatModel {
  readonly name = 'scripted-judge';
  readonly calls: GenerateOptions[] = [];
  constructor(
    private readonly answers: unknown[],
    private readonly onGenerate?: (call: number) => void,
  ) {}
  async contextSize() {
    return 4096;
  }
  async countTokens(text: string) {
    return text.length;
  }
  async generate(options: GenerateOptions): Promise<Generation> {
    this.calls.push(options);
    this.onGenerate?.(this.calls.length);
    const json = this.answers[this.calls.length - 1];
    return { text: json === undefined ? '' : JSON.stringify(json), ...(json === undefined ? {} : { json }), tokensIn: 10, tokensOut: 3, firstTokenMs: 1, tokensPerS: 100, aborted: false };
  }
  async unload() {}
}

describe('ChatJudgeReranker', () => {
  it('is named after its chat model', () => {
    expect(new ChatJudgeReranker(new ScriptedChat([])).name).toBe('scripted-judge (as judge)');
  });

  it('maps each grade to grade / 3, in input order, one generation per passage', async () => {
    const chat = new ScriptedChat([{ grade: 3 }, { grade: 0 }, { grade: 2 }, { grade: 1 }]);
    const scores = await new ChatJudgeReranker(chat).rank('what is rrf', ['p0', 'p1', 'p2', 'p3']);
    expect(scores).toEqual([1, 0, 2 / 3, 1 / 3]);
    expect(chat.calls).toHaveLength(4);
    // Each generation saw its own passage, in order, with the query.
    chat.calls.forEach((call, i) => {
      expect(call.user).toContain('Query: what is rrf');
      expect(call.user).toContain(`Passage:\np${i}\n`);
    });
  });

  it('scores 0 for a generation without a valid grade', async () => {
    const chat = new ScriptedChat([undefined, { verdict: 3 }, { grade: '3' }, null, { grade: 2 }]);
    const scores = await new ChatJudgeReranker(chat).rank('q', ['a', 'b', 'c', 'd', 'e']);
    expect(scores).toEqual([0, 0, 0, 0, 2 / 3]);
  });

  it('cuts a long passage before sending it, and sends a short one whole', async () => {
    const chat = new ScriptedChat([{ grade: 1 }, { grade: 1 }]);
    const long = `${'a'.repeat(1200)}TAIL-NOT-SENT${'b'.repeat(3000)}`;
    const short = 'short passage, sent whole';
    await new ChatJudgeReranker(chat).rank('q', [long, short]);
    const sent = chat.calls[0]!.user;
    expect(sent).not.toContain('TAIL-NOT-SENT');
    expect(sent).toContain(`${'a'.repeat(1200)}…`);
    expect(sent.length).toBeLessThan(1400);
    expect(chat.calls[1]!.user).toContain(`Passage:\n${short}\n`);
  });

  it('asks for JSON with a grade schema, at temperature 0, with a small token budget', async () => {
    const chat = new ScriptedChat([{ grade: 2 }]);
    await new ChatJudgeReranker(chat).rank('q', ['p']);
    const call = chat.calls[0]!;
    expect(call.temperature).toBe(0);
    expect(call.maxTokens).toBeLessThanOrEqual(32);
    expect(call.jsonSchema).toMatchObject({ type: 'object', properties: { grade: { enum: [0, 1, 2, 3] } }, required: ['grade'] });
    expect(call.system).toMatch(/grade/i);
  });

  it('stops judging once the signal is aborted and pads the unjudged passages with 0', async () => {
    const controller = new AbortController();
    // The second generation is the last: the request is cancelled while it runs.
    const chat = new ScriptedChat([{ grade: 3 }, { grade: 3 }, { grade: 3 }, { grade: 3 }], (call) => {
      if (call === 2) controller.abort();
    });
    const scores = await new ChatJudgeReranker(chat).rank('q', ['a', 'b', 'c', 'd'], controller.signal);
    expect(scores).toEqual([1, 1, 0, 0]);
    expect(chat.calls).toHaveLength(2);
    // The signal is handed to the model so a running generation can stop too.
    expect(chat.calls[0]!.signal).toBe(controller.signal);
  });

  it('judges nothing when the signal is already aborted, and nothing for no passages', async () => {
    const chat = new ScriptedChat([{ grade: 3 }]);
    const judge = new ChatJudgeReranker(chat);
    expect(await judge.rank('q', ['a', 'b'], AbortSignal.abort())).toEqual([0, 0]);
    expect(await judge.rank('q', [])).toEqual([]);
    expect(chat.calls).toHaveLength(0);
  });
});

describe('ChatJudgeReranker with a grade out of range', () => {
  it('scores it 0, keeping every score in [0, 1]', async () => {
    const scores = await new ChatJudgeReranker(new ScriptedChat([{ grade: 5 }, { grade: -1 }, { grade: 1.5 }, { grade: 3 }])).rank('q', ['a', 'b', 'c', 'd']);
    expect(scores).toEqual([0, 0, 0, 1]);
  });
});
