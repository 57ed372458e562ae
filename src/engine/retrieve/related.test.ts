import { afterAll, describe, expect, it } from 'vitest';
import { TempDirs } from '../../../test/helpers/tmp.ts';
import { HashedEmbedder } from '../../cli/bench/hashed-embedder.ts';
import { createEngine } from '../engine.ts';
import type { LinkGraph } from '../graph/stored.ts';
import { distinctiveWords, graphSignals, quotePassage, rankRelated, sharedWeight, wikilinkNames, type GraphSignal, type SimilarSignal } from './related.ts';

const temp = new TempDirs();
afterAll(() => temp.cleanup());

const noModels = { env: { SYN_EMBED_MODEL: '', SYN_CHAT_MODEL: '' } as NodeJS.ProcessEnv };
const g = (path: string, s: Partial<GraphSignal> = {}): GraphSignal => ({ path, title: path, linksHere: null, linkedFromHere: null, shared: [], ...s });
const sim = (path: string, score: number, text = 'a passage'): SimilarSignal => ({ path, title: path, score, locator: `${path}#L1-L2`, text });

describe('rankRelated', () => {
  it('puts a link stated either way above a shared name, and says why', () => {
    const ranked = rankRelated([g('b.md', { shared: [{ label: 'QUIC', weight: 0.5 }] }), g('a.md', { linksHere: 'a.md#L3-L3' })], [], 8);
    expect(ranked.map((r) => r.path)).toEqual(['a.md', 'b.md']);
    expect(ranked[0]!.reasons).toEqual([{ kind: 'links_here', text: 'links here', locator: 'a.md#L3-L3' }]);
    expect(ranked[1]!.reasons[0]).toMatchObject({ kind: 'shares', text: 'shares: QUIC', locator: null });
  });

  it('adds the signals of one note: links, shared names (rarest first, capped) and a similar passage', () => {
    const shared = [
      { label: 'Dana', weight: 0.9 },
      { label: 'QUIC', weight: 1 },
      { label: '#backend', weight: 0.2 },
      { label: 'Relay', weight: 0.3 },
    ];
    const [only] = rankRelated([g('n.md', { linkedFromHere: 'x.md#L1-L1', shared })], [sim('n.md', 0.4, '# Heading\n\nThe relay listens on port 7443 by default and forwards operations to every device')], 8);
    expect(only!.reasons.map((r) => r.text)).toEqual([
      'linked from this note',
      'shares: QUIC, Dana, Relay and 1 more',
      'similar passage: Heading The relay listens on port 7443 by default and forwards operations to every device',
    ]);
    // 0.8 (link) + 1.2 (shared names, capped) + 1 (the only similar passage is the best one).
    expect(only!.score).toBeCloseTo(3, 5);
  });

  it('scores similar passages relative to the best one, each note once, and cuts at k', () => {
    const ranked = rankRelated([], [sim('a.md', 0.8), sim('b.md', 0.4), sim('a.md', 0.7), sim('c.md', 0.2)], 2);
    expect(ranked.map((r) => [r.path, r.score])).toEqual([
      ['a.md', 1],
      ['b.md', 0.5],
    ]);
    expect(ranked[0]!.reasons).toHaveLength(1);
  });

  it('lists nothing for no signal, and nothing without a positive score', () => {
    expect(rankRelated([], [], 8)).toEqual([]);
    expect(rankRelated([g('a.md')], [sim('b.md', 0)], 8)).toEqual([]);
  });
});

describe('graphSignals', () => {
  /** A small graph: note a links to b; a and c share a person, a date and a status. */
  const nodes: Record<string, { label: string; kind: 'note' | 'entity'; type: string; locator: string | null; around: string[] }> = {
    'note:a.md': { label: 'A', kind: 'note', type: 'note', locator: 'a.md', around: ['note:b.md', 'entity:dana', 'date:2026-04-02', 'status:active'] },
    'note:b.md': { label: 'B', kind: 'note', type: 'note', locator: 'b.md', around: ['note:a.md'] },
    'note:c.md': { label: 'C', kind: 'note', type: 'note', locator: 'c.md', around: ['entity:dana', 'date:2026-04-02', 'status:active'] },
    'entity:dana': { label: 'Dana', kind: 'entity', type: 'person', locator: null, around: ['note:a.md', 'note:c.md'] },
    'date:2026-04-02': { label: '2026-04-02', kind: 'entity', type: 'date', locator: null, around: ['note:a.md', 'note:c.md'] },
    'status:active': { label: 'active', kind: 'entity', type: 'status', locator: null, around: ['note:a.md', 'note:c.md'] },
  };
  const g = {
    hasNode: (id: string) => id in nodes,
    attributes: (id: string) => nodes[id]!,
    kind: (id: string) => nodes[id]!.kind,
    type: (id: string) => nodes[id]!.type,
    degree: (id: string) => nodes[id]!.around.length,
    neighbors: (id: string) => [...nodes[id]!.around],
    evidence: (x: string, y: string) => (x === 'note:a.md' && y === 'note:b.md' ? [{ source: 'note:a.md', target: 'note:b.md', relation: 'links_to', locator: 'a.md#L3-L3', origin: 'rule' }] : []),
  } as unknown as LinkGraph;

  it('tells a link from here, and weighs a shared date below a shared person, a status not at all', () => {
    const signals = graphSignals(g, 'a.md');
    expect(signals.find((s) => s.path === 'b.md')).toMatchObject({ linkedFromHere: 'a.md#L3-L3', linksHere: null, shared: [] });
    const c = signals.find((s) => s.path === 'c.md')!;
    expect(c.shared.map((s) => s.label)).toEqual(['Dana', '2026-04-02']);
    expect(c.shared[1]!.weight).toBeCloseTo(c.shared[0]!.weight / 2, 5);
    expect(rankRelated(signals, [], 8).find((n) => n.path === 'c.md')?.reasons[0]?.text).toBe('shares: Dana, 2026-04-02');
  });
});

describe('the helpers of related notes', () => {
  it('quotes a passage on one line, without markdown, cut at a word', () => {
    expect(quotePassage('---\ntags: [x]\n---\n## Key **facts**\n| a | b |', 40)).toBe('Key facts a b');
    const long = quotePassage('word '.repeat(50), 22);
    expect(long).toBe('word word word word…');
  });

  it('picks the words a note is most about, stopwords and numbers dropped', () => {
    expect(distinctiveWords('The relay and the relay port 7443; relay ports are open. An ox.', 3)).toEqual(['relay', 'port', 'open']);
  });

  it('reads [[wikilinks]] with headings and aliases, once each', () => {
    expect(wikilinkNames('See [[Project Aurora]], [[Maya Chen|Maya]] and [[Relay server#Ports]]; again [[Project Aurora]].')).toEqual(['Project Aurora', 'Maya Chen', 'Relay server']);
  });
});

const VAULT = {
  'projects/Relay.md': '---\ntags: [project, backend]\nstatus: active\n---\n# Relay\n\nThe relay forwards operations. Owner: [[Dana Park]]. It speaks QUIC to [[Gateway]].\n',
  'people/Dana Park.md': '---\ntags: [person]\n---\n# Dana Park\n\nDana runs the backend team.\n',
  'projects/Gateway.md': '---\ntags: [project]\n---\n# Gateway\n\nThe gateway terminates TLS in front of the relay fleet and balances operations.\n',
  'notes/Ports.md': '# Ports\n\nThe relay forwards operations on port 7443; the gateway balances operations too.\n',
  'notes/Unrelated.md': '---\nstatus: active\n---\n# Baking\n\nSourdough needs flour, water and time.\n',
  'hr/Review.md': '---\nsensitivity: restricted\ntags: [hr, salary]\n---\n# Review\n\n[[Dana Park]] and the relay operations budget, salary bands for the relay team.\n',
};

describe('source/related', () => {
  it('ranks the notes the graph and shared words join to a note, each with why, never a hidden one', async () => {
    const vault = temp.make('syn-related-', VAULT);
    const engine = createEngine({ dataDir: temp.make(), ...noModels });
    try {
      await engine.index([vault]);
      const r = await engine.call('source/related', { locator: 'people/Dana Park.md#L5-L5' });
      expect(r.path).toBe('people/Dana Park.md');
      expect(r.similarity).toBe('words');
      const relay = r.related.find((n) => n.path === 'projects/Relay.md');
      expect(relay?.reasons[0]).toMatchObject({ kind: 'links_here', text: 'links here' });
      expect(relay?.reasons[0]!.locator).toMatch(/^projects\/Relay\.md#L\d+-L\d+$/);
      expect(r.related.map((n) => n.path)).not.toContain('hr/Review.md');
      expect(JSON.stringify(r)).not.toMatch(/salary|Review/);

      const allowed = await engine.call('source/related', { locator: 'people/Dana Park.md', allow_sensitivity: ['restricted'] });
      expect(allowed.related.find((n) => n.path === 'hr/Review.md')?.reasons.map((x) => x.kind)).toContain('links_here');
      expect(allowed.related.find((n) => n.path === 'hr/Review.md')?.restricted).toBe(true);
      expect(allowed.related.filter((n) => n.restricted).map((n) => n.path)).toEqual(['hr/Review.md']);
    } finally {
      await engine.dispose();
    }
  });

  it('resolves the note\'s [[links]] to visible notes and finds notes alike by words', async () => {
    const vault = temp.make('syn-related-', VAULT);
    const engine = createEngine({ dataDir: temp.make(), ...noModels });
    try {
      await engine.index([vault]);
      const r = await engine.call('source/related', { locator: 'projects/Relay.md', k: 3 });
      expect(r.links).toEqual([
        { name: 'Dana Park', path: 'people/Dana Park.md' },
        { name: 'Gateway', path: 'projects/Gateway.md' },
      ]);
      expect(r.related).toHaveLength(3);
      expect(r.related.map((n) => n.path)).not.toContain('projects/Relay.md');
      // Both are "active": a status joins them in the graph, but does not make them related.
      expect(r.related.map((n) => n.path)).not.toContain('notes/Unrelated.md');
      expect((await engine.call('source/related', { locator: 'notes/Unrelated.md' })).related.flatMap((n) => n.reasons.map((x) => x.text))).not.toContain('shares: active');
      const ports = (await engine.call('source/related', { locator: 'projects/Relay.md', k: 10 })).related.find((n) => n.path === 'notes/Ports.md');
      expect(ports?.reasons[0]).toMatchObject({ kind: 'similar', locator: expect.stringMatching(/^notes\/Ports\.md#L/) });
      expect(ports?.reasons[0]!.text).toMatch(/^similar passage: .*relay forwards operations/);
    } finally {
      await engine.dispose();
    }
  });

  it('never gives as a reason a name most notes hold; rarer shared names come first', async () => {
    // Twelve notes name Obsidian; two name Canvas and Bases too.
    const files: Record<string, string> = {};
    for (let i = 0; i < 10; i++) files[`n${i}.md`] = `# Note ${i}\n\nA page about [[Obsidian]] number ${i}.\n`;
    files['a.md'] = '# A\n\n[[Obsidian]] with [[Canvas]] and [[Bases]].\n';
    files['b.md'] = '# B\n\n[[Obsidian]], [[Canvas]] and [[Bases]] again.\n';
    const engine = createEngine({ dataDir: temp.make(), ...noModels });
    try {
      await engine.index([temp.make('syn-related-common-', files)]);
      const reasons = (await engine.call('source/related', { locator: 'a.md', k: 20 })).related.flatMap((n) => n.reasons.map((x) => x.text));
      expect(reasons).toContain('shares: Bases, Canvas');
      expect(reasons.filter((r) => r.startsWith('shares') && r.includes('Obsidian'))).toEqual([]);
    } finally {
      await engine.dispose();
    }
  });

  it('weighs a shared name by how rare it is among the notes', () => {
    expect(sharedWeight(2, 1000)).toBeGreaterThan(0.85);
    expect(sharedWeight(2, 1000)).toBeGreaterThan(sharedWeight(20, 1000));
    expect(sharedWeight(150, 173)).toBe(0);
    expect(sharedWeight(3, 4)).toBeGreaterThan(0);
  });

  it('finds passages alike in the vector index when an embedder is there', async () => {
    const vault = temp.make('syn-related-', VAULT);
    const engine = createEngine({ dataDir: temp.make(), embedder: new HashedEmbedder(64), env: { SYN_CHAT_MODEL: '' } as NodeJS.ProcessEnv });
    try {
      await engine.index([vault]);
      const r = await engine.call('source/related', { locator: 'notes/Ports.md', k: 10 });
      expect(r.similarity).toBe('vectors');
      expect(r.related.some((n) => n.reasons.some((x) => x.kind === 'similar'))).toBe(true);
      expect(r.related.map((n) => n.path)).not.toContain('hr/Review.md');
      // The restricted note is near in the vector index: the filters, not chance, keep it out.
      const allowed = await engine.call('source/related', { locator: 'notes/Ports.md', k: 10, allow_sensitivity: ['restricted'] });
      expect(allowed.related.find((n) => n.path === 'hr/Review.md')?.reasons.map((x) => x.kind)).toEqual(['similar']);
    } finally {
      await engine.dispose();
    }
  });

  it('answers for a hidden note as for a missing one, and names a bad request', async () => {
    const vault = temp.make('syn-related-', VAULT);
    const engine = createEngine({ dataDir: temp.make(), ...noModels });
    try {
      await engine.index([vault]);
      const hidden = await engine.call('source/related', { locator: 'hr/Review.md' }).catch((e: unknown) => e);
      const missing = await engine.call('source/related', { locator: 'hr/Nothing.md' }).catch((e: unknown) => e);
      expect(hidden).toMatchObject({ code: 'E_SYN_NOT_FOUND' });
      expect((hidden as Error).message).toBe((missing as Error).message.replace('Nothing', 'Review'));
      await expect(engine.call('source/related', { locator: 'a.md', k: 0 })).rejects.toMatchObject({ code: 'E_SYN_BAD_REQUEST', message: expect.stringContaining('k must be 1 to 50') });
    } finally {
      await engine.dispose();
    }
  });
});

describe('search/tags', () => {
  it('lists every visible tag with its count, by prefix, restricted notes\' tags only when allowed', async () => {
    const vault = temp.make('syn-tags-', { ...VAULT, 'notes/Mixed.md': '---\ntags: [Project, backend]\n---\n# Mixed\n\nText #inline-tag here.\n' });
    const engine = createEngine({ dataDir: temp.make(), ...noModels });
    try {
      await engine.index([vault]);
      const all = await engine.call('search/tags', {});
      expect(all.tags).toContainEqual({ tag: 'project', count: 3 });
      expect(all.tags).toContainEqual({ tag: 'backend', count: 2 });
      expect(all.tags).toContainEqual({ tag: 'inline-tag', count: 1 });
      expect(all.tags.map((t) => t.tag)).not.toContain('salary');
      expect(all.tags.map((t) => t.tag)).not.toContain('hr');
      expect(all.tags[0]).toEqual({ tag: 'project', count: 3 });
      expect(all.total).toBe(all.tags.length);

      expect((await engine.call('search/tags', { prefix: '#PRO' })).tags).toEqual([{ tag: 'project', count: 3 }]);
      expect((await engine.call('search/tags', { prefix: 'sal' })).tags).toEqual([]);
      expect((await engine.call('search/tags', { prefix: 'sal', allow_sensitivity: ['restricted'] })).tags).toEqual([{ tag: 'salary', count: 1 }]);
      const cut = await engine.call('search/tags', { limit: 2 });
      expect(cut.tags).toHaveLength(2);
      expect(cut.total).toBe(all.total);
      await expect(engine.call('search/tags', { limit: 0 })).rejects.toMatchObject({ code: 'E_SYN_BAD_REQUEST', message: expect.stringContaining('limit must be 1 to 1000') });
    } finally {
      await engine.dispose();
    }
  });

  it('lists every tag when sensitivity enforcement is off', async () => {
    const vault = temp.make('syn-tags-', VAULT);
    const engine = createEngine({ dataDir: temp.make(), env: { SYN_EMBED_MODEL: '', SYN_CHAT_MODEL: '', SYN_SENSITIVITY_ENABLE: 'false' } as NodeJS.ProcessEnv });
    try {
      await engine.index([vault]);
      expect((await engine.call('search/tags', { prefix: 'sal' })).tags).toEqual([{ tag: 'salary', count: 1 }]);
    } finally {
      await engine.dispose();
    }
  });
});
