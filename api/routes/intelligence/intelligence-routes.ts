// Intelligence analytics: the entity explorer (list, detail by id and by natural
// key, activity sparkline, one-hop neighbours), indicators, the relationship graph and its PNG, and
// the quick search. Masking and researcher rules: services/intelligence/intelligence-views.ts.
import { z } from 'zod';
import { GRAPH_ENTITY_TYPES, RELATIONSHIP_KINDS, type GraphEntityType } from '../../../domain/intelligence/entity-types';
import { normalizeEntity } from '../../../domain/intelligence/normalize-entity';
import { seesBankDetails } from '../../../domain/intelligence/entity-masking';
import { INTEL_ENTITY_ORDERS, listIntelEntities, type IntelEntityCursor, type IntelEntityOrder } from '../../../db/repositories/intelligence/intel-entity-repository';
import {
  ACTIVITY_BUCKETS,
  entityActivity,
  entityNeighborsByValue,
  entityNodeByValue,
  entityNodes,
  getIndicator,
  getIntelEntityDetail,
  listIndicators,
  searchEntities,
  type IntelEntityDetail,
} from '../../../db/repositories/intelligence/intel-read-repository';
import { traverseRelationshipGraph } from '../../../services/intelligence/graph-projection';
import { renderGraphPng } from '../../../services/intelligence/graph-png';
import { entityDetailView, entityView, indicatorView, nodeView, rolesOf } from '../../../services/intelligence/intelligence-views';
import type { AppDeps } from '../../app-deps';
import { BadRequestError, NotFoundError } from '../../errors';
import { cursorParam, pageSchema } from '../../pagination';
import { defineRoute } from '../../route-definition';
import { ErrorSchema } from '../../common-schemas';
import { ActivitySchema, EntityDetailSchema, EntitySchema, GraphSchema, IndicatorSchema, NeighborsSchema, SearchSchema } from './intelligence-schemas';

/** Every role reads the explorer (researchers with masked values); by-key detail and indicator detail exclude researchers. */
export const INTEL_READERS = ['admin', 'analyst', 'researcher', 'reviewer'] as const;
export const INTEL_DETAIL_READERS = ['admin', 'analyst', 'reviewer'] as const;

const b64 = (v: unknown) => Buffer.from(JSON.stringify(v), 'utf8').toString('base64url');
function unb64(c: string): unknown {
  try {
    return JSON.parse(Buffer.from(c, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
}
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const KEY_FORMS: Record<IntelEntityOrder, RegExp> = {
  risk: /^-?\d{1,3}$/,
  loss: /^\d{1,18}(\.\d{1,2})?$/,
  last_seen: /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?Z$/,
  sightings: /^\d{1,10}$/,
};

function decodeEntityCursor(c: string): IntelEntityCursor | null {
  const v = unb64(c);
  if (!Array.isArray(v) || v.length !== 3) return null;
  const [order, key, id] = v as unknown[];
  if (typeof order !== 'string' || !(INTEL_ENTITY_ORDERS as readonly string[]).includes(order)) return null;
  if (typeof key !== 'string' || !KEY_FORMS[order as IntelEntityOrder].test(key) || typeof id !== 'string' || !UUID.test(id)) return null;
  if (order === 'last_seen' && Number.isNaN(Date.parse(key))) return null;
  return { order: order as IntelEntityOrder, key, id };
}

function decodeIndicatorCursor(c: string): { key: string; id: string } | null {
  const v = unb64(c);
  if (!Array.isArray(v) || v.length !== 2) return null;
  const [key, id] = v as unknown[];
  return typeof key === 'string' && /^\d{1,3}$/.test(key) && typeof id === 'string' && UUID.test(id) ? { key, id } : null;
}

const limitParam = (def: number, max: number) => z.coerce.number().int().min(1).max(max).default(def).describe(`Page size (1-${max}, default ${def})`);

const EntityListQuery = z.object({
  entity_type: z.enum(GRAPH_ENTITY_TYPES).optional(),
  min_loss: z
    .string()
    .regex(/^\d{1,18}(\.\d{1,2})?$/, 'a non-negative decimal with at most 2 decimals')
    .optional()
    .describe('keeps entities whose largest per-currency loss total is at least this'),
  order_by: z.enum(INTEL_ENTITY_ORDERS).default('risk').describe('descending; default risk'),
  limit: limitParam(50, 500),
  cursor: cursorParam(decodeEntityCursor),
});

const IdParam = z.object({ id: z.string().uuid() });
// A path or query longer than Node's 16 KB header limit is refused before the router (431); 1,000
// characters stay under it even percent-encoded. Longer values (URLs up to 2,048) are reached by id.
const KEY_VALUE_MAX = 1000;
const SEED_MAX = 200;
const KeyParam = z.object({
  type: z.enum(GRAPH_ENTITY_TYPES),
  value: z.string().min(1).max(KEY_VALUE_MAX).describe(`the value as found or normalized (at most ${KEY_VALUE_MAX} characters; reach longer ones by id)`),
});

const ActivityQuery = z.object({
  bucket: z.enum(ACTIVITY_BUCKETS).default('day'),
  since: z.iso
    .datetime({ offset: true })
    .optional()
    .describe('start (ISO 8601); default 30 days, 26 weeks or 12 months back for day, week, month'),
});
const MAX_BUCKETS = 1000;
const DEFAULT_SPAN: Record<(typeof ACTIVITY_BUCKETS)[number], number> = { day: 30, week: 26 * 7, month: 365 };
const BUCKET_DAYS: Record<(typeof ACTIVITY_BUCKETS)[number], number> = { day: 1, week: 7, month: 28 };

const NeighborsQuery = z.object({ limit: limitParam(100, 500).describe('most edges (heaviest first), 1-500, default 100') });

const listOf = <T extends z.ZodType>(item: T) =>
  z
    .union([item, z.array(item)])
    .transform((v) => (Array.isArray(v) ? v : [v]) as Array<z.infer<T>>);

const GraphQuery = z.object({
  seed: z
    // Several seeds share one query string: each at most 200 characters (longer values by id).
    .union([z.string().min(1).max(SEED_MAX), z.array(z.string().min(1).max(SEED_MAX)).min(1).max(5)])
    .transform((v) => (Array.isArray(v) ? v : [v]))
    .describe('repeatable (at most 5): an entity id, or type:value (for example domain:pay.example), at most 200 characters'),
  depth: z.coerce.number().int().min(1).max(4).default(2),
  max_nodes: z.coerce.number().int().min(1).max(2000).default(500),
  edge_kinds: listOf(z.enum(RELATIONSHIP_KINDS)).optional().describe('repeatable; default every kind'),
  min_weight: z.coerce.number().int().min(0).max(1_000_000).default(0),
});
const GraphPngQuery = GraphQuery.extend({
  width: z.coerce.number().int().min(320).max(4000).default(1600),
  height: z.coerce.number().int().min(240).max(4000).default(1200),
});

const SearchQuery = z.object({
  q: z.string().trim().min(3).max(200).describe('3+ characters: prefix or substring of an entity value (case-insensitive)'),
  entity_type: z.enum(GRAPH_ENTITY_TYPES).optional(),
  limit: limitParam(20, 100),
});

const IndicatorListQuery = z.object({
  category: z.string().min(1).max(200).optional(),
  min_confidence: z.coerce.number().int().min(0).max(100).optional(),
  limit: limitParam(50, 500),
  cursor: cursorParam(decodeIndicatorCursor),
});

/** A natural key's value normalized as the graph stores it; 400 for a value that is not one of its type. */
function normalizedValue(type: GraphEntityType, raw: string): string {
  const n = normalizeEntity(type, raw);
  if (!n) throw new BadRequestError('invalid_value', `invalid params: params.value: not a valid ${type}`, [{ path: 'params.value', message: `not a valid ${type}` }]);
  return n.value;
}

/**
 * The seeds' entity ids: type:value seeds are looked up here (400 or 404 for a bad one); id seeds
 * are checked by graphOf against the answer's nodes, which saves a query per graph request.
 */
async function resolveSeeds(deps: AppDeps, seeds: string[]): Promise<{ ids: string[]; byId: Array<{ index: number; raw: string; id: string }> }> {
  const ids: string[] = [];
  const byId: Array<{ index: number; raw: string; id: string }> = [];
  for (const [i, s] of seeds.entries()) {
    if (UUID.test(s)) {
      ids.push(s.toLowerCase());
      byId.push({ index: i, raw: s, id: s.toLowerCase() });
      continue;
    }
    const colon = s.indexOf(':');
    const type = s.slice(0, colon);
    if (colon <= 0 || !(GRAPH_ENTITY_TYPES as readonly string[]).includes(type)) {
      throw new BadRequestError('invalid_seed', `invalid query: query.seed.${i}: an entity id or type:value`, [{ path: `query.seed.${i}`, message: 'an entity id or type:value' }]);
    }
    const n = normalizeEntity(type as GraphEntityType, s.slice(colon + 1));
    const e = n ? await entityNodeByValue(deps.knex, type as GraphEntityType, n.value) : undefined;
    if (!e) throw new NotFoundError(`query.seed.${i}: no ${type} entity ${s.slice(colon + 1)}`);
    ids.push(e.id);
  }
  return { ids: [...new Set(ids)], byId };
}

function entityDetail(d: IntelEntityDetail, roles: ReturnType<typeof rolesOf>) {
  return entityDetailView(d.entity, { cases: d.cases, sightings: d.sightings }, roles);
}

async function graphOf(deps: AppDeps, q: z.infer<typeof GraphQuery>) {
  const { ids: seeds, byId } = await resolveSeeds(deps, q.seed);
  const g = await traverseRelationshipGraph(
    deps.knex,
    seeds,
    { depth: q.depth, maxNodes: q.max_nodes, edgeKinds: q.edge_kinds, minWeight: q.min_weight },
    { inMemory: deps.config.analytics.graph_in_memory, nodeCache: deps.config.analytics.graph_node_cache, log: deps.log },
  );
  // An id seed names an entity when the answer holds it (every kept seed is a node); one the
  // answer lacks is unknown, or was cut by a max_nodes below the number of seeds: ask.
  const answered = new Set(g.nodes.filter((n) => n.depth === 0).map((n) => n.id));
  const unanswered = byId.filter((s) => !answered.has(s.id));
  if (unanswered.length > 0) {
    const known = new Set((await entityNodes(deps.knex, unanswered.map((s) => s.id))).map((n) => n.id));
    const unknown = unanswered.find((s) => !known.has(s.id));
    if (unknown) throw new NotFoundError(`query.seed.${unknown.index}: no entity ${unknown.raw}`);
  }
  return { seeds, g };
}

const notFound = { description: 'No such entity', schema: ErrorSchema };

export const intelligenceRoutes = [
  defineRoute<Record<string, never>, z.infer<typeof EntityListQuery>>({
    method: 'get',
    path: '/intelligence/entities',
    summary: 'Entity explorer: entities by risk, loss, last sighting or sightings (filters entity_type, min_loss)',
    tags: ['intelligence'],
    access: { roles: INTEL_READERS },
    request: { query: EntityListQuery },
    responses: { 200: { description: 'A page of entities (values masked per role)', schema: pageSchema(EntitySchema, 'IntelEntityPage') } },
    handler: async ({ query, principal, deps }) => {
      const roles = rolesOf(principal);
      const page = await listIntelEntities(deps.knex, { entityType: query.entity_type, minLoss: query.min_loss, orderBy: query.order_by }, { limit: query.limit, after: query.cursor });
      return { body: { items: page.rows.map((r) => entityView(r, roles)), next_cursor: page.next ? b64([page.next.order, page.next.key, page.next.id]) : null } };
    },
  }),
  defineRoute<z.infer<typeof IdParam>>({
    method: 'get',
    path: '/intelligence/entities/{id}',
    summary: 'Entity detail: risk score explained factor by factor, linked cases, sightings per source kind, loss per currency',
    tags: ['intelligence'],
    access: { roles: INTEL_READERS },
    request: { params: IdParam },
    responses: { 200: { description: 'The entity', schema: EntityDetailSchema }, 404: notFound },
    handler: async ({ params, principal, deps }) => {
      const d = await getIntelEntityDetail(deps.knex, { id: params.id });
      if (!d) throw new NotFoundError(`no entity ${params.id}`);
      return { body: entityDetail(d, rolesOf(principal)) };
    },
  }),
  defineRoute<z.infer<typeof KeyParam>, z.infer<typeof ActivityQuery>>({
    method: 'get',
    path: '/intelligence/entities/{type}/{value}/activity',
    summary: 'Sightings of an entity per day, week or month (sparkline points, zeros included)',
    tags: ['intelligence'],
    access: { roles: INTEL_READERS },
    request: { params: KeyParam, query: ActivityQuery },
    responses: { 200: { description: 'Sparkline points', schema: ActivitySchema }, 404: notFound },
    handler: async ({ params, query, deps }) => {
      const value = normalizedValue(params.type, params.value);
      const e = await entityNodeByValue(deps.knex, params.type, value);
      if (!e) throw new NotFoundError(`no ${params.type} entity ${value}`);
      const until = new Date();
      const since = query.since ? new Date(query.since) : new Date(until.getTime() - DEFAULT_SPAN[query.bucket] * 86_400_000);
      if (since > until) throw new BadRequestError('invalid_since', 'invalid query: query.since: must not be in the future', [{ path: 'query.since', message: 'must not be in the future' }]);
      if ((until.getTime() - since.getTime()) / 86_400_000 / BUCKET_DAYS[query.bucket] > MAX_BUCKETS) {
        throw new BadRequestError('too_many_buckets', `invalid query: query.since: at most ${MAX_BUCKETS} ${query.bucket} buckets`, [{ path: 'query.since', message: `at most ${MAX_BUCKETS} buckets` }]);
      }
      const points = await entityActivity(deps.knex, e.id, query.bucket, since, until);
      return { body: { entity_id: e.id, bucket: query.bucket, since: points[0]?.t ?? since, points: points.map((p) => ({ t: p.t, sightings: p.sightings })) } };
    },
  }),
  defineRoute<z.infer<typeof KeyParam>, z.infer<typeof NeighborsQuery>>({
    method: 'get',
    path: '/intelligence/entities/{type}/{value}/neighbors',
    summary: 'One-hop graph of an entity: its heaviest edges (any kind, both directions) and the entities at their other ends',
    tags: ['intelligence'],
    access: { roles: INTEL_READERS },
    request: { params: KeyParam, query: NeighborsQuery },
    responses: { 200: { description: 'The entity, its neighbours and the edges with weights', schema: NeighborsSchema }, 404: notFound },
    handler: async ({ params, query, principal, deps }) => {
      const roles = rolesOf(principal);
      const value = normalizedValue(params.type, params.value);
      const hood = await entityNeighborsByValue(deps.knex, params.type, value, query.limit);
      if (!hood) throw new NotFoundError(`no ${params.type} entity ${value}`);
      return { body: { entity: nodeView(hood.entity, roles), nodes: hood.nodes.map((n) => nodeView(n, roles)), edges: hood.edges } };
    },
  }),
  defineRoute<z.infer<typeof KeyParam>>({
    method: 'get',
    path: '/intelligence/entities/{type}/{value}',
    summary: 'Entity detail by natural key (value normalized as the graph stores it); 403 for researchers',
    tags: ['intelligence'],
    access: { roles: INTEL_DETAIL_READERS },
    request: { params: KeyParam },
    responses: { 200: { description: 'The entity', schema: EntityDetailSchema }, 404: notFound },
    handler: async ({ params, principal, deps }) => {
      const value = normalizedValue(params.type, params.value);
      const d = await getIntelEntityDetail(deps.knex, { type: params.type, value });
      if (!d) throw new NotFoundError(`no ${params.type} entity ${value}`);
      return { body: entityDetail(d, rolesOf(principal)) };
    },
  }),
  defineRoute<Record<string, never>, z.infer<typeof IndicatorListQuery>>({
    method: 'get',
    path: '/intelligence/indicators',
    summary: 'Indicator registry (url, domain, ip, email, wallet), highest confidence first (filters category, min_confidence)',
    tags: ['intelligence'],
    access: { roles: INTEL_READERS },
    request: { query: IndicatorListQuery },
    responses: { 200: { description: 'A page of indicators', schema: pageSchema(IndicatorSchema, 'IndicatorPage') } },
    handler: async ({ query, principal, deps }) => {
      const roles = rolesOf(principal);
      const page = await listIndicators(deps.knex, { category: query.category, minConfidence: query.min_confidence }, { limit: query.limit, after: query.cursor });
      return { body: { items: page.rows.map((r) => indicatorView(r, roles)), next_cursor: page.next ? b64([page.next.key, page.next.id]) : null } };
    },
  }),
  defineRoute<z.infer<typeof IdParam>>({
    method: 'get',
    path: '/intelligence/indicators/{id}',
    summary: 'One indicator (id = its entity id); 403 for researchers',
    tags: ['intelligence'],
    access: { roles: INTEL_DETAIL_READERS },
    request: { params: IdParam },
    responses: { 200: { description: 'The indicator', schema: IndicatorSchema }, 404: { description: 'No such indicator', schema: ErrorSchema } },
    handler: async ({ params, principal, deps }) => {
      const i = await getIndicator(deps.knex, params.id);
      if (!i) throw new NotFoundError(`no indicator ${params.id}`);
      return { body: indicatorView(i, rolesOf(principal)) };
    },
  }),
  defineRoute<Record<string, never>, z.infer<typeof GraphQuery>>({
    method: 'get',
    path: '/intelligence/graph',
    summary: 'Relationship graph by breadth-first traversal from seeds (depth 1-4, capped at max_nodes; truncated when a cap cut it)',
    tags: ['intelligence'],
    access: { roles: INTEL_READERS },
    request: { query: GraphQuery },
    responses: { 200: { description: 'Nodes and edges with the depth at which each was reached', schema: GraphSchema }, 404: { description: 'A seed names no entity', schema: ErrorSchema } },
    handler: async ({ query, principal, deps }) => {
      const roles = rolesOf(principal);
      const { seeds, g } = await graphOf(deps, query);
      return {
        body: { seeds, depth: query.depth, max_nodes: query.max_nodes, truncated: g.truncated, nodes: g.nodes.map((n) => ({ ...nodeView(n, roles), depth: n.depth })), edges: g.edges },
      };
    },
  }),
  defineRoute<Record<string, never>, z.infer<typeof GraphPngQuery>>({
    method: 'get',
    path: '/intelligence/graph.png',
    summary: 'The graph of GET /intelligence/graph as a PNG: force layout, colours per entity type with a legend, labels, edge weight as width',
    tags: ['intelligence'],
    access: { roles: INTEL_READERS },
    request: { query: GraphPngQuery },
    responses: { 200: { description: 'The picture', contentType: 'image/png' }, 404: { description: 'A seed names no entity', schema: ErrorSchema } },
    handler: async ({ query, principal, deps, ctx }) => {
      const roles = rolesOf(principal);
      const { g } = await graphOf(deps, query);
      const png = await renderGraphPng(
        g.nodes.map((n) => ({ id: n.id, type: n.type, label: nodeView(n, roles).display_value, depth: n.depth })),
        g.edges.map((e) => ({ src: e.src, dst: e.dst, weight: e.weight })),
        { width: query.width, height: query.height },
      );
      ctx.type = 'image/png';
      ctx.set('X-Graph-Truncated', String(g.truncated));
      return { body: png };
    },
  }),
  defineRoute<Record<string, never>, z.infer<typeof SearchQuery>>({
    method: 'get',
    path: '/discovery/search',
    summary: 'Quick search over entity values (exact, then prefix, then substring); bank accounts only for analysts',
    tags: ['intelligence'],
    access: { roles: INTEL_READERS },
    request: { query: SearchQuery },
    responses: { 200: { description: 'Matching entities', schema: SearchSchema } },
    handler: async ({ query, principal, deps }) => {
      const roles = rolesOf(principal);
      // Partial matching over bank details would let a non-analyst read them digit by digit.
      const hits = await searchEntities(deps.knex, query.q, { type: query.entity_type, excludeTypes: seesBankDetails(roles) ? [] : ['bank_account'], limit: query.limit });
      return { body: { q: query.q, items: hits.map((h) => ({ ...nodeView(h, roles), sighting_count: h.sighting_count, match: h.match })) } };
    },
  }),
];
