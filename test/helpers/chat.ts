import type { ChatModel, GenerateOptions, Generation } from '../../src/engine/llm/chat.ts';

/**
 * A chat model for UI and transport tests: it answers with the first sentence of the first source
 * in the prompt and cites it as [1], streaming word by word (`delayMs` apart), and its critic
 * approves. Deterministic, no model file: the transports and screens are under test, not a model.
 */
export class QuotingChat implements ChatModel {
  readonly name = 'quoting-test-model';
  readonly prompts: string[] = [];
  constructor(private readonly delayMs = 0) {}
  async contextSize() {
    return 4096;
  }
  async countTokens(text: string) {
    return Math.ceil(text.length / 4);
  }
  async generate(options: GenerateOptions): Promise<Generation> {
    this.prompts.push(options.user);
    const base = { tokensIn: 10, firstTokenMs: 1, tokensPerS: 100 };
    if (options.jsonSchema) {
      const json = { verdict: 'APPROVE', unsupported: [], feedback: '' };
      return { ...base, text: JSON.stringify(json), json, tokensOut: 5, aborted: false };
    }
    const source = /\[1\][^\n]*\n`{3,}[^\n]*\n([\s\S]*?)\n`{3,}/.exec(options.user)?.[1] ?? '';
    // Prose only: no headings, front matter or list markers.
    const prose = source
      .split('\n')
      .filter((l) => l.trim() && !/^(#|---|[\w-]+:\s|[-*|>])/.test(l.trim()))
      .join(' ');
    const sentence = (/[^.!?]+[.!?]/.exec(prose)?.[0] ?? prose.slice(0, 120)).trim();
    const text = sentence ? `${sentence} [1]` : 'I could not find this in your notes.';
    let written = '';
    for (const piece of text.split(/(?<= )/)) {
      if (options.signal?.aborted) break;
      if (this.delayMs) await new Promise((r) => setTimeout(r, this.delayMs));
      written += piece;
      options.onText?.(piece);
    }
    return { ...base, text: written, tokensOut: written.split(' ').length, aborted: options.signal?.aborted ?? false };
  }
  async unload() {}
}

/**
 * A chat model for graph extraction tests: it returns `facts` (entities and relations) for a prompt
 * that holds `when`, and nothing for any other note.
 */
export function extractingChat(when: string, facts: { entities: unknown[]; relations: unknown[] }): ChatModel {
  return {
    name: 'scripted',
    contextSize: async () => 4096,
    countTokens: async (text: string) => Math.ceil(text.length / 4),
    generate: async (options: GenerateOptions): Promise<Generation> => {
      const answer = options.user.includes(when) ? facts : { entities: [], relations: [] };
      return { text: JSON.stringify(answer), json: answer, tokensIn: 10, tokensOut: 10, firstTokenMs: 1, tokensPerS: 100, aborted: false };
    },
    unload: async () => {},
  };
}
