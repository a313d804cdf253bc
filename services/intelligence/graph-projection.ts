// The relationship graph in this process's memory (domain/intelligence/adjacency.ts), so that
// GET /intelligence/graph walks it without a query per level: at a million entities and three
// million edges, the SQL traversal costs about 20 ms of CPU per request (two thousand index probes
// and as many rows parsed), the walk in memory a fraction of one.
//
// Freshness: before each traversal the projection reads the change feed (every edge written by a
// transaction at or after the oldest one running at its previous read), so an answer includes every
// edge committed before the request arrived, whichever process wrote it. Concurrent requests share
// those reads: a request waits for a read that began after it arrived, never an older one.
// A delete or truncation of relationships or entities (the platform does neither) makes it rebuild.
//
// The fields each answer gives per node (type, value, display_value, risk_score) come from a cache
// of the entities answered lately (SVC_ANALYTICS__GRAPH_NODE_CACHE entries, oldest out first),
// kept fresh by the same feed: an entity whose fields were written since the last read is updated
// in place before the walk. Entities not in the cache are read from PostgreSQL, and kept only when
// no feed read completed meanwhile (a read that began before theirs could hold older fields, and
// the feed would not hand that entity over again).
//
// Built on first use, in the background: until it is ready (seconds at a million entities),
// requests use the SQL traversal, which answers the same (the tests compare them).
import type { Knex } from 'knex';
import { GraphAdjacency, type AdjacencyTraversal, type AdjacencyTraversalOptions } from '../../domain/intelligence/adjacency';
import { graphChangesSince, loadAllEdges } from '../../db/repositories/intelligence/graph-projection-repository';
import { traverseGraph, type TraversalOptions, type TraversalResult } from '../../db/repositories/intelligence/graph-traversal-repository';
import { entityNodes, type GraphNodeRow } from '../../db/repositories/intelligence/intel-read-repository';
import type { Logger } from '../../infra/logger';

/** SVC_ANALYTICS__GRAPH_NODE_CACHE's default: entities whose node fields are kept (about 25 MB). */
export const DEFAULT_NODE_CACHE = 100_000;

export interface ProjectedTraversal extends AdjacencyTraversal {
  graph: GraphAdjacency;
}

interface Built {
  graph: GraphAdjacency;
  xmin: string;
  resets: number;
}

export class GraphProjection {
  private built: Built | null = null;
  private building: Promise<void> | null = null;
  private syncing: Promise<void> | null = null;
  private queuedSync: Promise<void> | null = null;
  /** When the last build failed: no new build before RETRY_MS. */
  private failedAt = 0;
  private static readonly RETRY_MS = 30_000;
  /** Node fields by entity id, oldest first; at most nodeCacheSize. */
  private readonly nodeCache = new Map<string, GraphNodeRow>();
  /** Feed reads completed, resets seen and builds: a node read from PostgreSQL is cached only if none happened during its read. */
  private feedReads = 0;

  constructor(
    private readonly knex: Knex,
    private readonly log?: Logger,
    private readonly nodeCacheSize = DEFAULT_NODE_CACHE,
    /** How node fields missing from the cache are read (the tests slow it down to order a race). */
    private readonly readNodes: (knex: Knex, ids: string[]) => Promise<GraphNodeRow[]> = entityNodes,
  ) {}

  /** True once built (and not being rebuilt). */
  get ready(): boolean {
    return this.built !== null;
  }

  /** What the projection holds now (null while not built). */
  stats(): { edges: number; nodes: number; overlaidNodes: number; cachedNodeFields: number } | null {
    const g = this.built?.graph;
    return g ? { edges: g.edgeCount, nodes: g.nodeCount, overlaidNodes: g.overlaidNodes, cachedNodeFields: this.nodeCache.size } : null;
  }

  /**
   * The node fields of these entities (those that exist), as of the last feed read at least: call
   * it after traverse(), whose feed read began after the request arrived.
   */
  async nodeFields(ids: readonly string[]): Promise<Map<string, GraphNodeRow>> {
    const fields = new Map<string, GraphNodeRow>();
    const missing: string[] = [];
    for (const id of ids) {
      const row = this.nodeCache.get(id);
      if (row) fields.set(id, row);
      else missing.push(id);
    }
    if (missing.length === 0) return fields;
    const readsBefore = this.feedReads;
    const rows = await this.readNodes(this.knex, missing);
    const keep = this.feedReads === readsBefore && this.built !== null;
    for (const row of rows) {
      fields.set(row.id, row);
      if (keep) this.cacheNode(row);
    }
    return fields;
  }

  private cacheNode(row: GraphNodeRow): void {
    if (this.nodeCacheSize <= 0) return;
    this.nodeCache.set(row.id, row);
    if (this.nodeCache.size > this.nodeCacheSize) this.nodeCache.delete(this.nodeCache.keys().next().value!);
  }

  /** Starts the build if none is under way; resolves when the projection is ready (or failed). */
  warm(): Promise<void> {
    if (this.built) return Promise.resolve();
    if (!this.building && Date.now() - this.failedAt >= GraphProjection.RETRY_MS) {
      this.building = this.build().finally(() => {
        this.building = null;
      });
    }
    return this.building ?? Promise.resolve();
  }

  /**
   * Traverses the graph as it is now (every edge committed before the call), or answers null while
   * the projection is not built yet, so that the caller uses the SQL traversal.
   */
  async traverse(seeds: readonly string[], opts: AdjacencyTraversalOptions): Promise<ProjectedTraversal | null> {
    if (!this.built) {
      void this.warm();
      return null;
    }
    await this.sync();
    const built = this.built as Built | null;
    if (!built) return null; // a reset was seen: rebuilding
    const graph = built.graph;
    const numbers = seeds.map((s, i) => {
      const n = graph.nodeNumber(s);
      return n >= 0 ? n : -1 - i;
    });
    return { graph, ...graph.traverse(numbers, opts) };
  }

  private async build(): Promise<void> {
    const started = Date.now();
    try {
      const graph = new GraphAdjacency();
      const { rows } = (await this.knex.raw('SELECT reltuples::bigint AS n FROM pg_class WHERE oid = CAST(? AS regclass)', ['relationships'])) as { rows: Array<{ n: string }> };
      const estimate = Math.max(Number(rows[0]?.n ?? 0), 0);
      graph.reserve(estimate, Math.ceil(estimate / 3));
      const position = await loadAllEdges(this.knex, (id, src, dst, kind, weight) => graph.loadEdge(id, src, dst, kind, weight));
      await graph.buildIndex();
      this.built = { graph, xmin: position.xmin, resets: position.resets };
      // A node read that began before this build's snapshot is not cached: the feed starts at it.
      this.feedReads++;
      this.log?.info({ edges: graph.edgeCount, nodes: graph.nodeCount, ms: Date.now() - started }, 'graph projection built');
    } catch (err) {
      this.failedAt = Date.now();
      this.log?.warn({ err, ms: Date.now() - started }, 'graph projection build failed; the SQL traversal answers meanwhile');
    }
  }

  /** A read of the change feed that begins after this call. */
  private sync(): Promise<void> {
    if (!this.syncing) {
      this.syncing = this.readChanges().finally(() => {
        this.syncing = null;
      });
      return this.syncing;
    }
    // One is under way, begun before this call: queue one more, shared by every caller until it starts.
    this.queuedSync ??= this.syncing
      .catch(() => undefined)
      .then(() => {
        this.queuedSync = null;
        return this.sync();
      });
    return this.queuedSync;
  }

  private async readChanges(): Promise<void> {
    const built = this.built;
    if (!built) return;
    const feed = await graphChangesSince(this.knex, built.xmin, this.nodeCacheSize > 0);
    if (this.built !== built) return;
    if (feed.resets !== built.resets) {
      this.log?.info({ resets: feed.resets }, 'relationships or entities were deleted or truncated: rebuilding the graph projection');
      this.built = null;
      this.nodeCache.clear();
      this.feedReads++;
      void this.warm();
      return;
    }
    if (feed.changes.length > 0) built.graph.applyChanges(feed.changes);
    for (const node of feed.nodes) if (this.nodeCache.has(node.id)) this.nodeCache.set(node.id, node);
    built.xmin = feed.xmin;
    this.feedReads++;
  }
}

const projections = new WeakMap<Knex, GraphProjection>();

/** The one projection of this database in this process (the first call's settings make it). */
export function graphProjectionFor(knex: Knex, log?: Logger, nodeCacheSize?: number): GraphProjection {
  let p = projections.get(knex);
  if (!p) {
    p = new GraphProjection(knex, log, nodeCacheSize);
    projections.set(knex, p);
  }
  return p;
}

export interface GraphTraversalSettings {
  /** Walk the in-memory projection when it is built (SVC_ANALYTICS__GRAPH_IN_MEMORY, default true). */
  inMemory: boolean;
  /** Entities whose node fields the projection keeps (SVC_ANALYTICS__GRAPH_NODE_CACHE); 0: read them every time. */
  nodeCache?: number;
  log?: Logger;
}

/**
 * GET /intelligence/graph's traversal: in memory when the projection is ready, else (and when
 * disabled) the SQL traversal; the same answer either way. Node fields come from the projection's
 * cache, kept fresh by the feed, or from the entities.
 */
export async function traverseRelationshipGraph(knex: Knex, seeds: string[], opts: TraversalOptions, settings: GraphTraversalSettings): Promise<TraversalResult> {
  const projection = settings.inMemory ? graphProjectionFor(knex, settings.log, settings.nodeCache) : null;
  const walked = projection ? await projection.traverse(seeds, opts) : null;
  if (!projection || !walked) return traverseGraph(knex, seeds, opts);
  const { graph } = walked;
  // Each kept node's id once (edges' ends are kept nodes): the walk answers them in order already,
  // but for seeds with no edge (negative numbers), which take their place among the seeds by id.
  const idOf = new Map<number, string>();
  for (const n of walked.nodes) idOf.set(n.node, n.node >= 0 ? graph.nodes.string(n.node) : seeds[-1 - n.node]!);
  let order = walked.nodes;
  if (order.some((n) => n.node < 0)) order = [...order].sort((a, b) => a.depth - b.depth || (idOf.get(a.node)! < idOf.get(b.node)! ? -1 : 1));
  const fields = await projection.nodeFields([...idOf.values()]);
  const nodes: TraversalResult['nodes'] = [];
  for (const n of order) {
    const row = fields.get(idOf.get(n.node)!);
    if (row) nodes.push({ id: row.id, type: row.type, value: row.value, display_value: row.display_value, risk_score: row.risk_score, depth: n.depth });
  }
  return {
    nodes,
    edges: walked.edges.map(({ edge, depth }) => {
      const f = graph.edgeFields(edge);
      return { id: graph.edgeId(edge), src: idOf.get(f.src)!, dst: idOf.get(f.dst)!, kind: f.kind, weight: f.weight, depth };
    }),
    truncated: walked.truncated,
  };
}
