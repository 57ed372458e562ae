/**
 * The graph namespace: neighbourhoods, paths, the overview and subgraphs of the link graph, and
 * the model stage of graph extraction.
 */
import { z } from 'zod';

/** A note, tag or entity in the link graph. */
export const GraphNodeSchema = z.object({
  id: z.string(),
  label: z.string(),
  kind: z.enum(['note', 'tag', 'entity']),
  /** 'note', or the entity's type: person, project, organization, entity (a name), date, module, symbol, section, status, … */
  type: z.string(),
  /**
   * What the node stands for, for colouring it: person, project or organization, for an entity of
   * that type or a note that visible notes name in such a field (`people:`, `project:`, `company:`)
   * or that is tagged so; null when nothing says. Absent where a query does not work it out (the overview).
   */
  role: z.enum(['person', 'project', 'organization']).nullable().optional(),
  /** Distance from the start (hops), or the position on a path. */
  hops: z.number().int(),
  /** The note's path; null for entities and tags. */
  locator: z.string().nullable(),
  degree: z.number().int(),
});
export type GraphNode = z.infer<typeof GraphNodeSchema>;
/** One stated relation: labels and ids of both ends in reading order, and the lines that state it. */
export const GraphEdgeSchema = z.object({
  source: z.string(),
  target: z.string(),
  source_id: z.string(),
  target_id: z.string(),
  relation: z.string(),
  locator: z.string(),
  /** 'rule': links, tags, front matter, names; 'llm': extracted by the chat model. */
  origin: z.enum(['rule', 'llm']),
});
export type GraphEdge = z.infer<typeof GraphEdgeSchema>;
export const GraphViewSchema = z.object({ nodes: z.array(GraphNodeSchema), edges: z.array(GraphEdgeSchema) });
export type GraphView = z.infer<typeof GraphViewSchema>;

/** An entity's neighbourhood in the link graph; each edge carries the locator of the line that makes it. */
export const GraphNeighborsSchema = GraphViewSchema.extend({
  entity: z.string(),
  found: z.boolean(),
  /** Where the notes name the entity (not a note itself): the lines, in note order, at most 50. */
  mentioned_in: z.array(z.object({ path: z.string(), line: z.number().int(), locator: z.string() })),
  /** With found false: names in the graph that contain the asked one. */
  suggestions: z.array(z.string()),
});
export const GraphPathSchema = GraphViewSchema.extend({
  from: z.string(),
  to: z.string(),
  found: z.boolean(),
  /** The names that match nothing in the graph (found false); empty when both exist but nothing joins them. */
  missing: z.array(z.string()),
  suggestions: z.array(z.string()),
});
export type GraphPath = z.infer<typeof GraphPathSchema>;
export const GraphOverviewSchema = z.object({
  notes: z.number().int(),
  entities: z.number().int(),
  tags: z.number().int(),
  edges: z.number().int(),
  /** PageRank over the whole graph, highest first. */
  central: z.array(GraphNodeSchema.extend({ score: z.number() })),
  /** Louvain communities, largest first, each with its most central members. */
  communities: z.array(z.object({ id: z.number().int(), size: z.number().int(), notes: z.number().int(), members: z.array(z.string()) })),
});
export type GraphOverview = z.infer<typeof GraphOverviewSchema>;
/**
 * The whole vault's graph before any centre is picked: every visible note (the most connected past
 * a cap) and the entities joining the most notes, each with its cluster, its place and its rank.
 */
export const GlobalGraphSchema = z.object({
  /** Visible notes, and how many are shown. */
  notes: z.number().int(),
  shown_notes: z.number().int(),
  entities: z.number().int(),
  clusters: z.number().int(),
  /** Most central first (PageRank over the drawn graph): the view labels the first ones. */
  nodes: z.array(
    z.object({
      id: z.string(),
      label: z.string(),
      kind: z.enum(['note', 'tag', 'entity']),
      type: z.string(),
      locator: z.string().nullable(),
      degree: z.number().int(),
      /** The cluster (0 the largest), -1 for a note linked to nothing shown. */
      cluster: z.number().int(),
      score: z.number(),
      x: z.number(),
      y: z.number(),
    }),
  ),
  /** Pairs of node ids. */
  edges: z.array(z.tuple([z.string(), z.string()])),
  truncated: z.boolean(),
});
export type GlobalGraph = z.infer<typeof GlobalGraphSchema>;

/** What a run of the model stage of graph extraction did (graph/extract). */
export const GraphExtractReportSchema = z.object({
  documents_done: z.number().int(),
  chunks_read: z.number().int(),
  entities_found: z.number().int(),
  relations_found: z.number().int(),
  /** Notes still waiting for the model; the next run continues with them. */
  documents_pending: z.number().int(),
  elapsed_ms: z.number().int(),
  stopped_by_budget: z.boolean(),
});
export type GraphExtractReport = z.infer<typeof GraphExtractReportSchema>;
export const GraphSubgraphSchema = GraphViewSchema.extend({ missing: z.array(z.string()) });
export type GraphNeighbors = z.infer<typeof GraphNeighborsSchema>;

/** The one error for a neighbourhood's depth, whichever entry (RPC, CLI, library) is given a bad one. */
const NEIGHBOUR_HOPS = 'hops must be 1, 2 or 3';

export const graphMethods = {
  'graph/neighbors': {
    request: z.object({ entity: z.string().min(1, 'entity is empty').max(300), hops: z.number().int(NEIGHBOUR_HOPS).min(1, NEIGHBOUR_HOPS).max(3, NEIGHBOUR_HOPS).default(1), allow_sensitivity: z.array(z.string().min(1)).default([]) }).strict(),
    response: GraphNeighborsSchema,
  },
  'graph/path': {
    request: z.object({ from: z.string().min(1, 'from is empty').max(300), to: z.string().min(1, 'to is empty').max(300), allow_sensitivity: z.array(z.string().min(1)).default([]) }).strict(),
    response: GraphPathSchema,
  },
  'graph/overview': {
    request: z.object({ limit: z.number().int().min(1).max(100).default(10), allow_sensitivity: z.array(z.string().min(1)).default([]) }).strict(),
    response: GraphOverviewSchema,
  },
  'graph/subgraph': {
    request: z
      .object({
        entity: z.string().min(1).max(300).optional(),
        paths: z.array(z.string().min(1).max(1000)).max(100).optional(),
        hops: z.number().int().min(0).max(3).default(1),
        max_nodes: z.number().int().min(1).max(1000).default(200),
        allow_sensitivity: z.array(z.string().min(1)).default([]),
      })
      .strict()
      .refine((r) => r.entity !== undefined || (r.paths?.length ?? 0) > 0, 'give an entity or the paths of a result set'),
    response: GraphSubgraphSchema,
  },
  'graph/global': {
    request: z.object({ max_notes: z.number().int().min(1).max(20_000).optional(), allow_sensitivity: z.array(z.string().min(1)).default([]) }).strict(),
    response: GlobalGraphSchema,
  },
  'graph/extract': {
    request: z.object({ budget_ms: z.number().int().min(1).max(3_600_000).optional() }).strict(),
    response: GraphExtractReportSchema,
  },
} as const;
