import { afterAll, describe, expect, it } from 'vitest';
import { TempDirs } from '../../../test/helpers/tmp.ts';
import { createEngine } from '../engine.ts';

const temp = new TempDirs();
afterAll(() => temp.cleanup());

const noModels = { env: { SYN_EMBED_MODEL: '', SYN_CHAT_MODEL: '' } as NodeJS.ProcessEnv };

describe('graph/global', () => {
  it('draws every visible note and the names joining them, one node per name form, no status values, titles told apart by folder', async () => {
    const vault = temp.make('syn-global-', {
      'a/Plan.md': '---\nstatus: accepted\n---\n# Plan\n\nThe [[WebSocket]] relay and [[Gateway]].\n',
      'b/Plan.md': '---\nstatus: accepted\n---\n# Plan\n\nMore [[WebSockets]] and the [[Gateway]].\n',
      'c/Notes.md': '---\nstatus: accepted\n---\n# Notes\n\nAbout [[WebSocket]], see [[a/Plan|Plan]].\n',
      'Gateway.md': '# Gateway\n\nA gateway.\n',
      'Alone.md': '# Alone\n\nNothing links here.\n',
      'hr/Secret.md': '---\nsensitivity: restricted\n---\n# Secret\n\n[[WebSocket]] salaries.\n',
    });
    const engine = createEngine({ dataDir: temp.make(), ...noModels });
    try {
      await engine.index([vault]);
      const g = await engine.call('graph/global', {});
      expect(g.notes).toBe(5);
      const labels = g.nodes.map((n) => n.label);
      expect(labels.filter((l) => l.startsWith('Plan'))).toEqual(expect.arrayContaining(['Plan (a)', 'Plan (b)']));
      // WebSocket and WebSockets: one node, joining three notes.
      const ws = g.nodes.filter((n) => /websocket/i.test(n.label));
      expect(ws).toHaveLength(1);
      expect(ws[0]!.degree).toBe(3);
      // Shown by the form most notes use (two of three write "WebSocket").
      expect(ws[0]!.label).toBe('WebSocket');
      // "accepted" is a status value, not a thing.
      expect(labels).not.toContain('accepted');
      expect(labels).not.toContain('Secret');
      expect(g.nodes.find((n) => n.label === 'Alone')).toMatchObject({ cluster: -1, kind: 'note' });
      for (const n of g.nodes) expect(Number.isFinite(n.x) && Number.isFinite(n.y)).toBe(true);
      const ids = new Set(g.nodes.map((n) => n.id));
      for (const [a, b] of g.edges) expect(ids.has(a) && ids.has(b)).toBe(true);
      // Ranked: the most central first.
      expect(g.nodes.map((n) => n.score)).toEqual([...g.nodes.map((n) => n.score)].sort((x, y) => y - x));
      // The list of the most connected beside it, too: no status, each plan by its folder.
      const o = await engine.call('graph/overview', { limit: 20 });
      const central = o.central.map((n) => n.label);
      expect(central).not.toContain('accepted');
      expect(central).toEqual(expect.arrayContaining(['Plan (a)', 'Plan (b)', 'WebSocket']));
      expect(o.communities.flatMap((c) => c.members)).not.toContain('accepted');
      const allowed = await engine.call('graph/global', { allow_sensitivity: ['restricted'] });
      expect(allowed.nodes.map((n) => n.label)).toContain('Secret');
    } finally {
      await engine.dispose();
    }
  });
});

describe('graph/subgraph', () => {
  it('tells two notes of one title apart by their folder in a neighbourhood too', async () => {
    const vault = temp.make('syn-global-sub-', {
      'a/Plan.md': '---\nstatus: accepted\n---\n# Plan\n\nAbout [[Gateway]].\n',
      'b/Plan.md': '---\nstatus: accepted\n---\n# Plan\n\nAlso [[Gateway]].\n',
      'Gateway.md': '# Gateway\n\nA gateway.\n',
    });
    const engine = createEngine({ dataDir: temp.make(), ...noModels });
    try {
      await engine.index([vault]);
      const v = await engine.call('graph/subgraph', { entity: 'Gateway' });
      expect(v.nodes.map((n) => n.label).sort()).toEqual(['Gateway', 'Plan (a)', 'Plan (b)']);
      expect(v.edges.map((e) => e.source).sort()).toEqual(['Plan (a)', 'Plan (b)']);
      // Both plans are "accepted": the status is no node of the view.
      const plan = await engine.call('graph/subgraph', { paths: ['a/Plan.md'], hops: 2 });
      expect(plan.nodes.map((n) => n.type)).not.toContain('status');
    } finally {
      await engine.dispose();
    }
  });
});
