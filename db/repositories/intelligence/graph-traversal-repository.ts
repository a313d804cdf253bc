// Breadth-first traversal of the relationship graph, one SQL query per level with caps (never an
// uncapped recursive CTE): from the frontier, each node's heaviest edges in both directions (at most
// `remaining + 1` per node and direction, through relationships_src_weight_id_idx / _dst_weight_id_idx),
// filtered by kind and weight, ties by edge id; new nodes are taken heaviest edge first (then by
// edge id) until max_nodes.
// GET /intelligence/graph walks the in-memory projection (services/intelligence/graph-projection.ts)
// with the same semantics; this is the reference the tests compare it with, and the fallback while
// the projection is being built.
// `truncated` says a cap cut the answer: more new nodes than room, or a node with more edges than
// were read.
import type { Knex } from 'knex';
import type { RelationshipKind } from '../../../domain/intelligence/entity-types';
import { prepared } from '../../prepared-query';
import { entityNodes, type GraphEdgeRow, type GraphNodeRow } from './intel-read-repository';

export interface TraversalOptions {
  depth: number;
  maxNodes: number;
  edgeKinds?: RelationshipKind[];
  minWeight?: number;
}

export interface TraversalResult {
  nodes: Array<GraphNodeRow & { depth: number }>;
  edges: Array<GraphEdgeRow & { depth: number }>;
  truncated: boolean;
}

interface LevelEdge extends GraphEdgeRow {
  from_id: string;
  other: string;
}

export async function traverseGraph(knex: Knex, seeds: string[], opts: TraversalOptions): Promise<TraversalResult> {
  const depthOf = new Map<string, number>();
  for (const s of seeds.slice(0, opts.maxNodes)) depthOf.set(s, 0);
  let truncated = seeds.length > opts.maxNodes;
  const edges = new Map<string, GraphEdgeRow & { depth: number }>();
  let frontier = [...depthOf.keys()];
  const kinds = opts.edgeKinds?.length ? opts.edgeKinds : null;
  const minWeight = opts.minWeight ?? 0;

  for (let level = 1; level <= opts.depth && frontier.length > 0; level++) {
    const remaining = opts.maxNodes - depthOf.size;
    // Even with no room left, read one edge per node to know whether the cap cut anything, and the
    // edges between nodes already kept.
    const perNode = Math.max(remaining, 0) + 1;
    const filter = `${kinds ? 'AND r.kind = ANY(CAST(? AS text[]))' : ''} AND r.weight >= ?`;
    const filterArgs = kinds ? [kinds, minWeight] : [minWeight];
    const { rows } = (await prepared(
      knex.raw(
      `SELECT x.* FROM unnest(CAST(? AS uuid[])) AS f(id)
         CROSS JOIN LATERAL (
           (SELECT r.id, r.src_entity_id AS src, r.dst_entity_id AS dst, r.kind, r.weight, f.id AS from_id, r.dst_entity_id AS other
              FROM relationships r WHERE r.src_entity_id = f.id ${filter} ORDER BY r.weight DESC, r.id LIMIT ?)
           UNION ALL
           (SELECT r.id, r.src_entity_id, r.dst_entity_id, r.kind, r.weight, f.id, r.src_entity_id
              FROM relationships r WHERE r.dst_entity_id = f.id ${filter} ORDER BY r.weight DESC, r.id LIMIT ?)
         ) x
        ORDER BY x.weight DESC, x.id`,
      [frontier, ...filterArgs, perNode, ...filterArgs, perNode],
      ),
    )) as { rows: LevelEdge[] };
    // A node that filled a direction's quota may have more edges than were read.
    const perDirection = new Map<string, number>();
    for (const r of rows) {
      const k = `${r.from_id}|${r.src === r.from_id ? 'out' : 'in'}`;
      perDirection.set(k, (perDirection.get(k) ?? 0) + 1);
    }
    if ([...perDirection.values()].some((n) => n >= perNode)) truncated = true;

    const next: string[] = [];
    for (const r of rows) {
      if (!depthOf.has(r.other)) {
        if (depthOf.size >= opts.maxNodes) {
          truncated = true;
          continue;
        }
        depthOf.set(r.other, level);
        next.push(r.other);
      }
      if (!edges.has(r.id)) edges.set(r.id, { id: r.id, src: r.src, dst: r.dst, kind: r.kind, weight: r.weight, depth: level });
    }
    frontier = next;
  }

  const nodes = await entityNodes(knex, [...depthOf.keys()]);
  return {
    nodes: nodes.map((n) => ({ ...n, depth: depthOf.get(n.id)! })).sort((a, b) => a.depth - b.depth || (a.id < b.id ? -1 : 1)),
    edges: [...edges.values()].filter((e) => depthOf.has(e.src) && depthOf.has(e.dst)).sort((a, b) => a.depth - b.depth || b.weight - a.weight || (a.id < b.id ? -1 : 1)),
    truncated,
  };
}
