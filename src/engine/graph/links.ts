/**
 * The link graph of the notes, from deterministic rules only: [[wikilinks]] and markdown links
 * between notes, #tags, and front-matter fields that name people, projects and the like. Every edge
 * keeps the locator of the line that makes it. Names are resolved case- and accent-insensitively,
 * and a note's aliases (front matter `aliases`) resolve to the note. Built from the store on demand
 * and cached until the index changes; documents the caller may not see are left out entirely.
 */
import path from 'node:path';
import type { Database } from 'better-sqlite3';
import type { GraphNeighbors } from '../../shared/contract.ts';
import { frontmatterList } from '../ingest/markdown.ts';

/** Front-matter fields whose values are entities, and the relation each makes from the note. */
const FIELD_RELATIONS: Record<string, string> = {
  people: 'mentions',
  person: 'mentions',
  attendees: 'attended_by',
  participants: 'attended_by',
  author: 'authored_by',
  authors: 'authored_by',
  owner: 'owned_by',
  owners: 'owned_by',
  decided_by: 'decided_by',
  decider: 'decided_by',
  project: 'part_of',
  projects: 'part_of',
  company: 'part_of',
  team: 'part_of',
  related: 'related_to',
  depends_on: 'depends_on',
  manager: 'reports_to',
  reports_to: 'reports_to',
};

const WIKILINK = /\[\[([^\]|#^\n]+)(?:[#^][^\]|\n]*)?(?:\|[^\]\n]*)?\]\]/g;
const MDLINK = /\[[^\]\n]*\]\(([^)\s]+\.md)(?:#[^)\s]*)?\)/gi;

export function normalizeName(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/ё/g, 'е')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim();
}

export interface GraphNode {
  id: string;
  label: string;
  kind: 'note' | 'tag' | 'entity';
  locator: string | null;
}

export interface GraphEdge {
  source: string;
  target: string;
  relation: string;
  locator: string;
}

export interface LinkGraph {
  nodes: Map<string, GraphNode>;
  /** Edges by node id, both directions (each edge is stored once per endpoint). */
  edges: Map<string, GraphEdge[]>;
}

interface DocRow {
  id: number;
  path: string;
  title: string | null;
  sensitivity: string | null;
  meta_json: string;
}

type Meta = { frontmatter?: Record<string, unknown>; aliases?: string[] };

function parseMeta(json: string): Meta {
  try {
    return JSON.parse(json) as Meta;
  } catch {
    return {};
  }
}

const stripLink = (v: string) => v.replace(/^\[\[/, '').replace(/\]\]$/, '').split('|')[0]!.trim();

export function buildLinkGraph(db: Database, visible: (sensitivity: string | null) => boolean): LinkGraph {
  const docs = (db.prepare("SELECT id, path, title, sensitivity, meta_json FROM documents WHERE status = 'indexed' ORDER BY id").all() as DocRow[]).filter((d) => visible(d.sensitivity));
  const nodes = new Map<string, GraphNode>();
  const edges = new Map<string, GraphEdge[]>();
  // Every name a note answers to: title, file name, aliases.
  const noteByName = new Map<string, string>();
  const noteIdOf = new Map<number, string>();
  const metaOf = new Map(docs.map((d) => [d.id, parseMeta(d.meta_json)]));
  for (const d of docs) {
    const label = d.title ?? path.basename(d.path, path.extname(d.path));
    const id = `note:${d.path}`;
    noteIdOf.set(d.id, id);
    nodes.set(id, { id, label, kind: 'note', locator: d.path });
    for (const name of [label, path.basename(d.path, path.extname(d.path)), d.path.replace(/\.[^.]+$/, ''), ...(metaOf.get(d.id)!.aliases ?? [])]) {
      const key = normalizeName(name);
      if (key && !noteByName.has(key)) noteByName.set(key, id);
    }
  }
  const resolve = (name: string): string => {
    const key = normalizeName(name);
    const note = noteByName.get(key) ?? noteByName.get(normalizeName(path.basename(name)));
    if (note) return note;
    const id = `entity:${key}`;
    if (!nodes.has(id)) nodes.set(id, { id, label: name.trim(), kind: 'entity', locator: null });
    return id;
  };
  const tagNode = (tag: string): string => {
    const t = normalizeName(tag.replace(/^#/, ''));
    const id = `tag:${t}`;
    if (!nodes.has(id)) nodes.set(id, { id, label: `#${t}`, kind: 'tag', locator: null });
    return id;
  };
  const seen = new Set<string>();
  const addEdge = (source: string, target: string, relation: string, locator: string) => {
    if (source === target) return;
    const key = `${source}\u0000${target}\u0000${relation}`;
    if (seen.has(key)) return;
    seen.add(key);
    const edge = { source, target, relation, locator };
    for (const end of [source, target]) {
      const list = edges.get(end) ?? [];
      list.push(edge);
      edges.set(end, list);
    }
  };

  const chunksOf = db.prepare('SELECT start_line, end_line, text FROM chunks WHERE document_id = ? ORDER BY ordinal');
  for (const d of docs) {
    const from = noteIdOf.get(d.id)!;
    const chunks = chunksOf.all(d.id) as { start_line: number; end_line: number; text: string }[];
    const bodyStart = chunks[0]?.start_line ?? 1;
    const fmLocator = `${d.path}#L1-L${Math.max(1, bodyStart - 1)}`;
    const fm = metaOf.get(d.id)!.frontmatter ?? {};
    for (const [field, value] of Object.entries(fm)) {
      const relation = FIELD_RELATIONS[field.toLowerCase()];
      if (relation) for (const v of frontmatterList(value)) addEdge(from, resolve(stripLink(v)), relation, fmLocator);
      if (field.toLowerCase() === 'tags') for (const t of frontmatterList(value)) addEdge(from, tagNode(t), 'tagged', fmLocator);
    }
    for (const c of chunks) {
      const lines = c.text.split('\n');
      const exact = lines.length === c.end_line - c.start_line + 1;
      lines.forEach((line, i) => {
        const n = exact ? c.start_line + i : c.start_line;
        const locator = `${d.path}#L${n}-L${exact ? n : c.end_line}`;
        for (const m of line.matchAll(WIKILINK)) addEdge(from, resolve(m[1]!.trim()), 'links_to', locator);
        for (const m of line.matchAll(MDLINK)) {
          if (/^[a-z]+:/i.test(m[1]!)) continue;
          const target = decodeURIComponent(m[1]!).replace(/\.md$/i, '');
          addEdge(from, resolve(path.posix.basename(target)), 'links_to', locator);
        }
        for (const m of line.matchAll(/(?:^|\s)#([\p{L}\p{N}_][\p{L}\p{N}_/-]*)/gu)) {
          if (/^\d+$/.test(m[1]!)) continue;
          addEdge(from, tagNode(m[1]!), 'tagged', locator);
        }
      });
    }
  }
  return { nodes, edges };
}

/** The nodes within `hops` links of the entity (breadth first, both directions), with the edges among them. */
export function neighbors(graph: LinkGraph, entity: string, hops: number, maxNodes = 200): GraphNeighbors {
  const wanted = normalizeName(entity.replace(/^\[\[|\]\]$/g, ''));
  const start =
    [...graph.nodes.values()].find((n) => n.kind === 'note' && normalizeName(n.label) === wanted) ??
    graph.nodes.get(`tag:${normalizeName(entity.replace(/^#/, ''))}`) ??
    [...graph.nodes.values()].find((n) => normalizeName(n.label) === wanted || n.id === `note:${entity}`);
  if (!start) {
    const suggestions = [...graph.nodes.values()]
      .filter((n) => wanted.length >= 3 && normalizeName(n.label).includes(wanted))
      .slice(0, 5)
      .map((n) => n.label);
    return { entity, found: false, nodes: [], edges: [], suggestions };
  }
  const depth = new Map<string, number>([[start.id, 0]]);
  let frontier = [start.id];
  for (let h = 1; h <= hops && frontier.length > 0 && depth.size < maxNodes; h++) {
    const next: string[] = [];
    for (const id of frontier) {
      for (const e of graph.edges.get(id) ?? []) {
        const other = e.source === id ? e.target : e.source;
        if (depth.has(other) || depth.size >= maxNodes) continue;
        depth.set(other, h);
        next.push(other);
      }
    }
    frontier = next;
  }
  const edges = new Map<GraphEdge, true>();
  for (const id of depth.keys()) for (const e of graph.edges.get(id) ?? []) if (depth.has(e.source) && depth.has(e.target)) edges.set(e, true);
  const label = (id: string) => graph.nodes.get(id)!.label;
  return {
    entity: start.label,
    found: true,
    nodes: [...depth].map(([id, h]) => ({ id, label: label(id), kind: graph.nodes.get(id)!.kind, hops: h, locator: graph.nodes.get(id)!.locator })).sort((a, b) => a.hops - b.hops || a.label.localeCompare(b.label)),
    edges: [...edges.keys()].map((e) => ({ source: label(e.source), target: label(e.target), relation: e.relation, locator: e.locator })),
    suggestions: [],
  };
}
