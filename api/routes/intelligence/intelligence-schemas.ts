// Request and response schemas of the intelligence routes (api/routes/intelligence/intelligence-routes.ts).
import { z } from 'zod';
import { ACTIVITY_BUCKETS, INTEL_ENTITY_ORDERS } from '../../../domain/intelligence/entity-explorer';
import { GRAPH_ENTITY_TYPES, RELATIONSHIP_KINDS, SOURCE_KINDS } from '../../../domain/intelligence/entity-types';
import { RISK_FACTORS } from '../../../domain/intelligence/risk-score';
import { decodeEntityCursor, decodeIndicatorCursor } from '../../../services/intelligence/intelligence-service';
import { cursorParam } from '../../pagination';

// ---- requests ---------------------------------------------------------------------------------

const limitParam = (def: number, max: number) => z.coerce.number().int().min(1).max(max).default(def).describe(`Page size (1-${max}, default ${def})`);

export const EntityListQuery = z.object({
  entity_type: z.enum(GRAPH_ENTITY_TYPES).optional(),
  min_loss: z
    .string()
    .regex(/^\d{1,18}(\.\d{1,2})?$/, 'a non-negative decimal with at most 2 decimals')
    .optional()
    .describe('keeps entities whose largest per-currency loss total is at least this (researchers: only among entities with at least SVC_EXPORTS__MIN_GROUP_SIZE victims)'),
  order_by: z.enum(INTEL_ENTITY_ORDERS).default('risk').describe('descending; default risk (researchers: order_by=loss lists only entities with at least SVC_EXPORTS__MIN_GROUP_SIZE victims)'),
  limit: limitParam(50, 500),
  cursor: cursorParam(decodeEntityCursor),
});

export const IdParam = z.object({ id: z.string().uuid() });
// A path or query longer than Node's 16 KB header limit is refused before the router (431); 1,000
// characters stay under it even percent-encoded. Longer values (URLs up to 2,048) are reached by id.
const KEY_VALUE_MAX = 1000;
const SEED_MAX = 200;
export const KeyParam = z.object({
  type: z.enum(GRAPH_ENTITY_TYPES),
  value: z.string().min(1).max(KEY_VALUE_MAX).describe(`the value as found or normalized (at most ${KEY_VALUE_MAX} characters; reach longer ones by id)`),
});

export const ActivityQuery = z.object({
  bucket: z.enum(ACTIVITY_BUCKETS).default('day'),
  since: z.iso
    .datetime({ offset: true })
    .optional()
    .describe('start (ISO 8601); default 30 days, 26 weeks or 12 months back for day, week, month'),
});

export const NeighborsQuery = z.object({ limit: limitParam(100, 500).describe('most edges (heaviest first), 1-500, default 100') });

const listOf = <T extends z.ZodType>(item: T) =>
  z
    .union([item, z.array(item)])
    .transform((v) => (Array.isArray(v) ? v : [v]) as Array<z.infer<T>>);

export const GraphQuery = z.object({
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
export const GraphPngQuery = GraphQuery.extend({
  width: z.coerce.number().int().min(320).max(4000).default(1600),
  height: z.coerce.number().int().min(240).max(4000).default(1200),
});

export const SearchQuery = z.object({
  q: z.string().trim().min(3).max(200).describe('3+ characters: prefix or substring of an entity value (case-insensitive)'),
  entity_type: z.enum(GRAPH_ENTITY_TYPES).optional(),
  limit: limitParam(20, 100),
});

export const IndicatorListQuery = z.object({
  category: z.string().min(1).max(200).optional(),
  min_confidence: z.coerce.number().int().min(0).max(100).optional(),
  limit: limitParam(50, 500),
  cursor: cursorParam(decodeIndicatorCursor),
});

// ---- responses --------------------------------------------------------------------------------

const ts = z.string().describe('ISO 8601, UTC');
const EntityType = z.enum(GRAPH_ENTITY_TYPES);
const Decimal = z.string().describe('decimal string (2 decimals)');

export const EntitySchema = z
  .object({
    id: z.string().uuid(),
    type: EntityType,
    value: z.string().describe('normalized value; bank accounts masked for all but analysts, every value masked for researchers'),
    display_value: z.string(),
    attributes: z.record(z.string(), z.unknown()),
    first_seen_at: ts,
    last_seen_at: ts,
    sighting_count: z.number().int(),
    risk_score: z.number().int().min(0).max(100).nullable().describe('null until first computed'),
    loss: z
      .object({
        max: Decimal.describe('the largest per-currency total: what min_loss and order_by=loss compare'),
        by_currency: z.record(z.string(), Decimal).describe('per ISO 4217 currency: sum over the distinct cases and intakes that mention the entity'),
      })
      .nullable()
      .describe('null for researchers when fewer victims than SVC_EXPORTS__MIN_GROUP_SIZE mention the entity')
      .meta({ id: 'EntityLoss' }),
    victim_count: z.number().int().nullable().describe('distinct intakes that mention the entity; null for researchers when fewer than SVC_EXPORTS__MIN_GROUP_SIZE'),
  })
  .meta({ id: 'IntelEntity' });

export const RiskFactorSchema = z
  .object({
    factor: z.enum(RISK_FACTORS),
    input: z.number(),
    points: z.number(),
    max: z.number(),
    rule: z.string(),
  })
  .meta({ id: 'RiskFactor' });

export const EntityDetailSchema = EntitySchema.extend({
  risk: z.object({ score: z.number().int().nullable(), computed_at: ts.nullable(), factors: z.array(RiskFactorSchema) }),
  loss_by_currency: z.array(z.object({ currency: z.string(), amount: Decimal })),
  sightings_by_source: z.array(z.object({ source_kind: z.enum(SOURCE_KINDS), sightings: z.number().int(), first_observed_at: ts, last_observed_at: ts })),
  linked_case_count: z.number().int(),
  linked_cases: z
    .array(
      z.object({
        id: z.string().uuid(),
        title: z.string(),
        status: z.string(),
        campaign_id: z.string().uuid().nullable(),
        loss_amount: Decimal.nullable(),
        loss_currency: z.string().nullable(),
        via: z.array(z.enum(['sighting', 'link', 'intake'])),
      }),
    )
    .describe('empty for researchers (they get the count)'),
}).meta({ id: 'IntelEntityDetail' });

export const ActivitySchema = z
  .object({
    entity_id: z.string().uuid(),
    bucket: z.enum(['day', 'week', 'month']),
    since: ts.describe('start of the first bucket'),
    points: z.array(z.object({ t: ts.describe('bucket start'), sightings: z.number().int() })),
  })
  .meta({ id: 'EntityActivity' });

export const GraphNodeSchema = z
  .object({
    id: z.string().uuid(), type: EntityType, value: z.string(), display_value: z.string(), risk_score: z.number().int().nullable(),
    shared_infrastructure: z.literal(true).optional().describe('An address or domain a warning list names (CDN, hosting, parking, URL shortener, public mail, loopback): shared by unrelated sites, no link by itself'),
  })
  .meta({ id: 'GraphNode' });

export const GraphEdgeSchema = z
  .object({ id: z.string().uuid(), src: z.string().uuid(), dst: z.string().uuid(), kind: z.enum(RELATIONSHIP_KINDS), weight: z.number().int() })
  .meta({ id: 'GraphEdge' });

export const NeighborsSchema = z.object({ entity: GraphNodeSchema, nodes: z.array(GraphNodeSchema), edges: z.array(GraphEdgeSchema) }).meta({ id: 'EntityNeighbors' });

export const GraphSchema = z
  .object({
    seeds: z.array(z.string().uuid()),
    depth: z.number().int(),
    max_nodes: z.number().int(),
    truncated: z.boolean().describe('a cap (max_nodes) cut nodes or edges'),
    nodes: z.array(GraphNodeSchema.extend({ depth: z.number().int().describe('0 for seeds') })),
    edges: z.array(GraphEdgeSchema.extend({ depth: z.number().int().describe('the BFS level that traversed it') })),
  })
  .meta({ id: 'IntelGraph' });

export const IndicatorSchema = z
  .object({
    id: z.string().uuid().describe('the entity id'),
    type: EntityType,
    value: z.string(),
    display_value: z.string(),
    category: z.string(),
    confidence: z.number().int(),
    valid_from: ts,
    tlp: z.string(),
    revision: z.string().describe('bigint as a string'),
    risk_score: z.number().int().nullable(),
    created_at: ts,
    updated_at: ts,
  })
  .meta({ id: 'Indicator' });

export const SearchSchema = z
  .object({
    q: z.string(),
    items: z.array(GraphNodeSchema.extend({ sighting_count: z.number().int(), match: z.enum(['exact', 'prefix', 'substring']) })),
  })
  .meta({ id: 'DiscoverySearch' });
