// Intelligence use cases (the API's /intelligence/* and /discovery/search routes): each reads for
// one caller, whose roles decide the masking (intelligence-views.ts).
// - listEntities: the entity explorer, a page by risk, loss, last sighting or sightings
// - getEntity / getEntityByKey: one entity's detail by id or by natural key (404)
// - entityActivitySeries: sightings of an entity per day, week or month (400, 404)
// - entityNeighbourhood: an entity's heaviest edges and the entities at their other ends (404)
// - listIndicatorPage / getIndicatorView: the indicator registry (404)
// - relationshipGraph / relationshipGraphPng: the graph from seeds, as JSON or as a PNG (400, 403 for a
//   researcher's type:value seed, 404)
// - quickSearch: entity values by exact, prefix or substring match (no bank accounts but for analysts;
//   researchers match the masked values they are shown, never the hidden characters)
// The explorer's cursors are opaque to clients: encoded and decoded here.
import type { Role, Principal } from '../../domain/accounts/roles';
import { INTEL_ENTITY_ORDERS, type ActivityBucket, type IntelEntityCursor, type IntelEntityOrder } from '../../domain/intelligence/entity-explorer';
import { GRAPH_ENTITY_TYPES, type GraphEntityType, type RelationshipKind } from '../../domain/intelligence/entity-types';
import { maskingFor } from '../../domain/masking/masking-policy';
import { normalizeEntity } from '../../domain/intelligence/normalize-entity';
import { listIntelEntities } from '../../db/repositories/intelligence/intel-entity-repository';
import {
  entityActivity,
  entityNeighborsByValue,
  entityNodeByValue,
  entityNodes,
  getIndicator,
  getIntelEntityDetail,
  listIndicators,
  searchEntities,
  type IntelEntityDetail,
} from '../../db/repositories/intelligence/intel-read-repository';
import { searchMaskedEntities } from '../../db/repositories/intelligence/masked-search-repository';
import { BadRequestError, ForbiddenError, NotFoundError } from '../errors';
import type { ServiceDeps } from '../service-deps';
import { traverseRelationshipGraph } from './graph-projection';
import { renderGraphPng } from './graph-png';
import { entityDetailView, entityView, indicatorView, nodeView, rolesOf } from './intelligence-views';

// ---- cursors ----------------------------------------------------------------------------------

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

export function decodeEntityCursor(c: string): IntelEntityCursor | null {
  const v = unb64(c);
  if (!Array.isArray(v) || v.length !== 3) return null;
  const [order, key, id] = v as unknown[];
  if (typeof order !== 'string' || !(INTEL_ENTITY_ORDERS as readonly string[]).includes(order)) return null;
  if (typeof key !== 'string' || !KEY_FORMS[order as IntelEntityOrder].test(key) || typeof id !== 'string' || !UUID.test(id)) return null;
  if (order === 'last_seen' && Number.isNaN(Date.parse(key))) return null;
  return { order: order as IntelEntityOrder, key, id };
}

export function decodeIndicatorCursor(c: string): { key: string; id: string } | null {
  const v = unb64(c);
  if (!Array.isArray(v) || v.length !== 2) return null;
  const [key, id] = v as unknown[];
  return typeof key === 'string' && /^\d{1,3}$/.test(key) && typeof id === 'string' && UUID.test(id) ? { key, id } : null;
}

// ---- the entity explorer ----------------------------------------------------------------------

/** A natural key's value normalized as the graph stores it; 400 for a value that is not one of its type. */
function normalizedValue(type: GraphEntityType, raw: string): string {
  const n = normalizeEntity(type, raw);
  if (!n) throw new BadRequestError('invalid_value', `invalid params: params.value: not a valid ${type}`, [{ path: 'params.value', message: `not a valid ${type}` }]);
  return n.value;
}

function entityDetail(d: IntelEntityDetail, roles: Role[], minVictims: number) {
  return entityDetailView(d.entity, { cases: d.cases, sightings: d.sightings }, roles, minVictims);
}

/** Researchers see no loss or victim figure resting on fewer victims than this (SVC_EXPORTS__MIN_GROUP_SIZE). */
const minVictimsOf = (deps: Pick<ServiceDeps, 'config'>) => deps.config.exports.min_group_size;

export async function listEntities(
  deps: Pick<ServiceDeps, 'knex' | 'config'>,
  principal: Principal | null,
  q: { entity_type?: GraphEntityType; min_loss?: string; order_by: IntelEntityOrder; limit: number; cursor?: IntelEntityCursor },
) {
  const roles = rolesOf(principal);
  const minVictims = minVictimsOf(deps);
  // A loss filter or order over entities whose loss researchers may not see would tell it to them,
  // one threshold at a time: for researchers both range over the entities they see it for.
  const byLoss = q.min_loss !== undefined || q.order_by === 'loss';
  const filters = { entityType: q.entity_type, minLoss: q.min_loss, orderBy: q.order_by, ...(byLoss && maskingFor(roles).aggregateOnly ? { minVictims } : {}) };
  const page = await listIntelEntities(deps.knex, filters, { limit: q.limit, after: q.cursor });
  return { items: page.rows.map((r) => entityView(r, roles, minVictims)), next_cursor: page.next ? b64([page.next.order, page.next.key, page.next.id]) : null };
}

export async function getEntity(deps: Pick<ServiceDeps, 'knex' | 'config'>, principal: Principal | null, id: string) {
  const d = await getIntelEntityDetail(deps.knex, { id });
  if (!d) throw new NotFoundError(`no entity ${id}`);
  return entityDetail(d, rolesOf(principal), minVictimsOf(deps));
}

export async function getEntityByKey(deps: Pick<ServiceDeps, 'knex' | 'config'>, principal: Principal | null, key: { type: GraphEntityType; value: string }) {
  const value = normalizedValue(key.type, key.value);
  const d = await getIntelEntityDetail(deps.knex, { type: key.type, value });
  if (!d) throw new NotFoundError(`no ${key.type} entity ${value}`);
  return entityDetail(d, rolesOf(principal), minVictimsOf(deps));
}

const MAX_BUCKETS = 1000;
const DEFAULT_SPAN: Record<ActivityBucket, number> = { day: 30, week: 26 * 7, month: 365 };
const BUCKET_DAYS: Record<ActivityBucket, number> = { day: 1, week: 7, month: 28 };

/** Sparkline points from `since` (default per bucket: 30 days, 26 weeks, 12 months back) to now, zeros included. */
export async function entityActivitySeries(deps: Pick<ServiceDeps, 'knex'>, key: { type: GraphEntityType; value: string }, q: { bucket: ActivityBucket; since?: string }) {
  const value = normalizedValue(key.type, key.value);
  const e = await entityNodeByValue(deps.knex, key.type, value);
  if (!e) throw new NotFoundError(`no ${key.type} entity ${value}`);
  const until = new Date();
  const since = q.since ? new Date(q.since) : new Date(until.getTime() - DEFAULT_SPAN[q.bucket] * 86_400_000);
  if (since > until) throw new BadRequestError('invalid_since', 'invalid query: query.since: must not be in the future', [{ path: 'query.since', message: 'must not be in the future' }]);
  if ((until.getTime() - since.getTime()) / 86_400_000 / BUCKET_DAYS[q.bucket] > MAX_BUCKETS) {
    throw new BadRequestError('too_many_buckets', `invalid query: query.since: at most ${MAX_BUCKETS} ${q.bucket} buckets`, [{ path: 'query.since', message: `at most ${MAX_BUCKETS} buckets` }]);
  }
  const points = await entityActivity(deps.knex, e.id, q.bucket, since, until);
  return { entity_id: e.id, bucket: q.bucket, since: points[0]?.t ?? since, points: points.map((p) => ({ t: p.t, sightings: p.sightings })) };
}

export async function entityNeighbourhood(deps: Pick<ServiceDeps, 'knex'>, principal: Principal | null, key: { type: GraphEntityType; value: string }, limit: number) {
  const roles = rolesOf(principal);
  const value = normalizedValue(key.type, key.value);
  const hood = await entityNeighborsByValue(deps.knex, key.type, value, limit);
  if (!hood) throw new NotFoundError(`no ${key.type} entity ${value}`);
  return { entity: nodeView(hood.entity, roles), nodes: hood.nodes.map((n) => nodeView(n, roles)), edges: hood.edges };
}

// ---- indicators -------------------------------------------------------------------------------

export async function listIndicatorPage(
  deps: Pick<ServiceDeps, 'knex'>,
  principal: Principal | null,
  q: { category?: string; min_confidence?: number; limit: number; cursor?: { key: string; id: string } },
) {
  const roles = rolesOf(principal);
  const page = await listIndicators(deps.knex, { category: q.category, minConfidence: q.min_confidence }, { limit: q.limit, after: q.cursor });
  return { items: page.rows.map((r) => indicatorView(r, roles)), next_cursor: page.next ? b64([page.next.key, page.next.id]) : null };
}

export async function getIndicatorView(deps: Pick<ServiceDeps, 'knex'>, principal: Principal | null, entityId: string) {
  const i = await getIndicator(deps.knex, entityId);
  if (!i) throw new NotFoundError(`no indicator ${entityId}`);
  return indicatorView(i, rolesOf(principal));
}

// ---- the relationship graph -------------------------------------------------------------------

export interface GraphRequest {
  /** Entity ids, or type:value. */
  seed: string[];
  depth: number;
  max_nodes: number;
  edge_kinds?: RelationshipKind[];
  min_weight: number;
}

type GraphDeps = Pick<ServiceDeps, 'knex' | 'config' | 'log'>;

/**
 * The seeds' entity ids: type:value seeds are looked up here (400 or 404 for a bad one); id seeds
 * are checked by graphOf against the answer's nodes, which saves a query per graph request.
 */
async function resolveSeeds(deps: Pick<ServiceDeps, 'knex'>, seeds: string[]): Promise<{ ids: string[]; byId: Array<{ index: number; raw: string; id: string }> }> {
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

/**
 * Researchers seed the graph by entity id only: a type:value seed answers 200 or 404 depending on
 * whether the value exists, which would let them test guesses at values they only see masked. The
 * refusal comes before any lookup or normalization, so it is the same for every value.
 */
function checkSeedsFor(roles: readonly Role[], seeds: readonly string[]): void {
  if (!maskingFor(roles).aggregateOnly) return;
  const i = seeds.findIndex((s) => !UUID.test(s));
  if (i >= 0) throw new ForbiddenError(`query.seed.${i}: researchers seed the graph by entity id only, not by type:value`);
}

async function graphOf(deps: GraphDeps, roles: readonly Role[], q: GraphRequest) {
  checkSeedsFor(roles, q.seed);
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

export async function relationshipGraph(deps: GraphDeps, principal: Principal | null, q: GraphRequest) {
  const roles = rolesOf(principal);
  const { seeds, g } = await graphOf(deps, roles, q);
  return { seeds, depth: q.depth, max_nodes: q.max_nodes, truncated: g.truncated, nodes: g.nodes.map((n) => ({ ...nodeView(n, roles), depth: n.depth })), edges: g.edges };
}

/** The graph of relationshipGraph drawn as a PNG, and whether a cap cut it. */
export async function relationshipGraphPng(deps: GraphDeps, principal: Principal | null, q: GraphRequest & { width: number; height: number }): Promise<{ png: Buffer; truncated: boolean }> {
  const roles = rolesOf(principal);
  const { g } = await graphOf(deps, roles, q);
  const png = await renderGraphPng(
    g.nodes.map((n) => ({ id: n.id, type: n.type, label: nodeView(n, roles).display_value, depth: n.depth })),
    g.edges.map((e) => ({ src: e.src, dst: e.dst, weight: e.weight })),
    { width: q.width, height: q.height },
  );
  return { png, truncated: g.truncated };
}

// ---- quick search -----------------------------------------------------------------------------

export async function quickSearch(deps: Pick<ServiceDeps, 'knex'>, principal: Principal | null, q: { q: string; entity_type?: GraphEntityType; limit: number }) {
  const roles = rolesOf(principal);
  // Partial matching over bank details would let a non-analyst read them digit by digit; for the
  // same reason a researcher's query matches only the masked values a researcher is shown.
  const policy = maskingFor(roles);
  const opts = { type: q.entity_type, excludeTypes: policy.sees('bank_account') ? [] : (['bank_account'] as GraphEntityType[]), limit: q.limit };
  const hits = policy.aggregateOnly ? await searchMaskedEntities(deps.knex, q.q, opts) : await searchEntities(deps.knex, q.q, opts);
  return { q: q.q, items: hits.map((h) => ({ ...nodeView(h, roles), sighting_count: h.sighting_count, match: h.match })) };
}
