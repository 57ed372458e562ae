import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { TempDirs } from '../../../test/helpers/tmp.ts';
import { createEngine } from '../engine.ts';
import type { ChatModel, GenerateOptions, Generation } from '../llm/chat.ts';

const temp = new TempDirs();
afterAll(() => temp.cleanup());

/** A chat model that answers the extraction prompt from a script keyed by a word of the chunk. */
class ScriptedExtractor implements ChatModel {
  readonly name = 'scripted-extractor';
  readonly prompts: string[] = [];
  constructor(private readonly script: Record<string, unknown>) {}
  async contextSize() {
    return 4096;
  }
  async countTokens(text: string) {
    return Math.ceil(text.length / 4);
  }
  async generate(options: GenerateOptions): Promise<Generation> {
    this.prompts.push(options.user);
    expect(options.jsonSchema).toBeDefined();
    const key = Object.keys(this.script).find((k) => options.user.includes(k));
    const json = key ? this.script[key] : { entities: [], relations: [] };
    return { text: JSON.stringify(json), json, tokensIn: 100, tokensOut: 20, firstTokenMs: 1, tokensPerS: 100, aborted: false };
  }
  async unload() {}
}

const VAULT = {
  'meetings/Kickoff.md': '# Kickoff\n\nWe agreed on the plan.\nMaya Chen will lead Kestrel, built on SQLite.\n',
  'notes/Other.md': '# Other\n\nKestrel ships in June.\n',
  'hr/Secret.md': '---\nsensitivity: restricted\n---\n# Secret\n\nMaya Chen salary.\n',
};

const SCRIPT = {
  'lead Kestrel': {
    entities: [
      { name: 'Maya Chen', type: 'person' },
      { name: 'Kestrel', type: 'project' },
      { name: 'SQLite', type: 'technology' },
      { name: 'Invented Person', type: 'person' },
    ],
    relations: [
      { source: 'Maya Chen', relation: 'works_on', target: 'Kestrel' },
      { source: 'Kestrel', relation: 'depends_on', target: 'SQLite' },
      { source: 'Invented Person', relation: 'works_on', target: 'Kestrel' },
    ],
  },
  'ships in June': { entities: [{ name: 'Kestrel', type: 'project' }], relations: [] },
};

describe('graph extraction with a chat model', () => {
  it('adds grounded entities and relations with their lines, skips restricted notes, resumes within a budget, and forgets them when a note changes', async () => {
    const vault = temp.make('syn-llm-graph-', VAULT);
    const chat = new ScriptedExtractor(SCRIPT);
    const engine = createEngine({ dataDir: temp.make(), env: { SYN_EMBED_MODEL: '', SYN_CHAT_MODEL: '' } as NodeJS.ProcessEnv, chat });
    try {
      await engine.index([vault]);
      // Off by default: indexing alone asks the model nothing.
      expect(chat.prompts).toHaveLength(0);

      const first = await engine.extractGraphWithModel({ budget_ms: 60_000 });
      expect(first).toMatchObject({ documents_done: 2, documents_pending: 0, stopped_by_budget: false, entities_found: 4, relations_found: 2 });
      // The restricted note was never shown to the model.
      expect(chat.prompts.some((p) => p.includes('salary'))).toBe(false);

      const g = engine.graphNeighbors('Kestrel', 1);
      expect(g.found).toBe(true);
      const works = g.edges.find((e) => e.relation === 'works_on');
      expect(works).toMatchObject({ source: 'Maya Chen', target: 'Kestrel', origin: 'llm', locator: 'meetings/Kickoff.md#L4-L4' });
      expect(g.edges.find((e) => e.relation === 'depends_on')).toMatchObject({ source: 'Kestrel', target: 'SQLite', origin: 'llm' });
      // The invented name was dropped (it is not in the text), and so was its relation.
      expect(engine.graphNeighbors('Invented Person').found).toBe(false);
      // Two notes now share Kestrel: a path joins them.
      expect(engine.graphPath('Kickoff', 'Other').nodes.map((n) => n.label)).toEqual(['Kickoff', 'Kestrel', 'Other']);

      // Nothing left to read: a second run asks nothing.
      const asked = chat.prompts.length;
      expect(await engine.extractGraphWithModel({ budget_ms: 60_000 })).toMatchObject({ documents_done: 0, documents_pending: 0 });
      expect(chat.prompts).toHaveLength(asked);

      // An edit drops the model's facts of that note; they come back only from a new model run.
      fs.writeFileSync(path.join(vault, 'meetings', 'Kickoff.md'), '# Kickoff\n\nWe agreed on the plan.\n');
      await engine.index([vault]);
      expect(engine.graphNeighbors('Kestrel', 1).edges.some((e) => e.relation === 'works_on')).toBe(false);
      expect((await engine.extractGraphWithModel({ budget_ms: 60_000 })).documents_done).toBe(1);
    } finally {
      await engine.dispose();
    }
  });

  it('stops at the budget and continues where it stopped; without a chat model it says what is missing', async () => {
    const vault = temp.make('syn-llm-graph-budget-', Object.fromEntries(Array.from({ length: 6 }, (_, i) => [`n${i}.md`, `# Note ${i}\n\nKestrel ships in June.\n`])));
    class Slow extends ScriptedExtractor {
      override async generate(options: GenerateOptions) {
        await new Promise((r) => setTimeout(r, 40));
        return super.generate(options);
      }
    }
    const engine = createEngine({ dataDir: temp.make(), env: { SYN_EMBED_MODEL: '', SYN_CHAT_MODEL: '' } as NodeJS.ProcessEnv, chat: new Slow(SCRIPT) });
    try {
      await engine.index([vault]);
      const first = await engine.extractGraphWithModel({ budget_ms: 60 });
      expect(first.stopped_by_budget).toBe(true);
      expect(first.documents_done).toBeGreaterThan(0);
      expect(first.documents_done).toBeLessThan(6);
      expect(first.documents_pending).toBe(6 - first.documents_done);
      const rest = await engine.extractGraphWithModel({ budget_ms: 60_000 });
      expect(rest.documents_done).toBe(6 - first.documents_done);
      expect(rest.documents_pending).toBe(0);
      await expect(engine.extractGraphWithModel({ budget_ms: 0 })).rejects.toThrow(/budget_ms must be a positive integer/);
    } finally {
      await engine.dispose();
    }
    const noChat = createEngine({ dataDir: temp.make(), env: { SYN_EMBED_MODEL: '', SYN_CHAT_MODEL: '' } as NodeJS.ProcessEnv });
    try {
      await expect(noChat.extractGraphWithModel()).rejects.toMatchObject({ code: 'E_SYN_MODEL_UNAVAILABLE' });
    } finally {
      await noChat.dispose();
    }
  });

  it('with SYN_GRAPH_LLM on, runs after every index run within its budget', async () => {
    const vault = temp.make('syn-llm-graph-auto-', VAULT);
    const chat = new ScriptedExtractor(SCRIPT);
    const engine = createEngine({ dataDir: temp.make(), env: { SYN_EMBED_MODEL: '', SYN_CHAT_MODEL: '', SYN_GRAPH_LLM: 'true', SYN_GRAPH_LLM_BUDGET_MS: '60000' } as NodeJS.ProcessEnv, chat });
    try {
      await engine.index([vault]);
      expect(chat.prompts.length).toBeGreaterThan(0);
      expect(engine.graphNeighbors('Kestrel', 1).edges.some((e) => e.relation === 'works_on' && e.origin === 'llm')).toBe(true);
      expect(await engine.extractGraphWithModel()).toMatchObject({ documents_done: 0, documents_pending: 0 });
    } finally {
      await engine.dispose();
    }
  });
});
