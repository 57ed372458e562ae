import { describe, expect, it } from 'vitest';
import { prng } from '../../shared/prng.ts';
import type { AdjacentRelationRow, GraphEntityRow } from '../store/queries/graph.ts';
import { rowsByNode, type NodeToRead } from './stored-edges.ts';

const entity = (id: number): GraphEntityRow => ({ id, key: `e${id}`, type: 'name', name: `E${id}`, node_key: `e${id}` });
const row = (doc: number, seq: number, src: number | null, dst: number): AdjacentRelationRow => ({ doc, seq, src, dst, type: 'mentions', start: 1, end: 1, fragment: null, origin: 'rule', path: `n${doc}.md` });

describe('relations shared out to the nodes read together', () => {
  it('gives each node the relations to or from its entities, or stated by its own notes, in order', () => {
    const nodes: NodeToRead[] = [
      { id: 'note:n1.md', ns: 'note', key: 'n1.md', notes: [{ id: 1, path: 'n1.md', title: null, meta_json: '{}' }] },
      { id: 'entity:e7', ns: 'entity', key: 'e7', notes: [] },
    ];
    const owned = new Map([
      ['note:n1.md', [entity(5)]],
      ['entity:e7', [entity(7)]],
    ]);
    const rows = [row(1, 0, null, 7), row(2, 0, null, 5), row(2, 1, 5, 9), row(3, 0, null, 8), row(1, 1, 9, 8)];
    expect(rowsByNode(nodes, owned, rows)).toEqual([[rows[0], rows[1], rows[2]], [rows[0]]]);
  });

  it('holds each node’s share to the rows that match it, on random nodes and relations', () => {
    const random = prng(5);
    const int = (n: number) => Math.floor(random() * n);
    for (let round = 0; round < 200; round++) {
      const nodes: NodeToRead[] = [];
      const owned = new Map<string, GraphEntityRow[]>();
      for (let i = 0; i < 1 + int(6); i++) {
        const note = random() < 0.5;
        const id = note ? `note:n${i}.md` : `entity:x${i}`;
        nodes.push({ id, ns: note ? 'note' : 'entity', key: id.slice(id.indexOf(':') + 1), notes: note ? [{ id: 100 + i, path: `n${i}.md`, title: null, meta_json: '{}' }] : [] });
        owned.set(id, Array.from({ length: int(3) }, () => entity(int(12))));
      }
      const rows = Array.from({ length: int(40) }, (_, s) => row(random() < 0.5 ? 100 + int(7) : int(5), s, random() < 0.5 ? null : int(12), int(12)));
      const shares = rowsByNode(nodes, owned, rows);
      nodes.forEach((n, i) => {
        const ids = new Set(owned.get(n.id)!.map((e) => e.id));
        const docs = new Set(n.notes.map((d) => d.id));
        expect(shares[i]).toEqual(rows.filter((r) => ids.has(r.dst) || (r.src !== null && ids.has(r.src)) || (r.src === null && docs.has(r.doc))));
      });
    }
  });
});
