// Request and response schemas of the exports and sharing: the entity and indicator exports, the
// researchers' aggregate, the partner indicator feed and the TAXII 2.1 server.
import { z } from 'zod';
import { decodeFeedCursor } from '../../../domain/exports/feed-position';
import { decodeTaxiiNext } from '../../../domain/exports/taxii';
import { GRAPH_ENTITY_TYPES } from '../../../domain/intelligence/entity-types';
import { INTEL_ENTITY_ORDERS } from '../../../domain/intelligence/entity-explorer';
import { cursorParam } from '../../pagination';

// --- Exports ---

const since = z.iso.datetime({ offset: true }).optional().describe('ISO 8601 time: only rows seen/changed at or after it');

export const EntityExportQuery = z.object({
  fmt: z.enum(['csv', 'xlsx']).default('csv').describe('csv (UTF-8, header row, formula-safe) or xlsx'),
  entity_type: z.enum(GRAPH_ENTITY_TYPES).optional(),
  min_loss: z.string().regex(/^\d{1,18}(\.\d{1,2})?$/, 'a decimal amount such as 1000 or 1000.50').optional().describe('as the entity list: largest per-currency loss at least this'),
  order_by: z.enum(INTEL_ENTITY_ORDERS).default('risk').describe('as the entity list (descending)'),
  since,
});

export const IndicatorExportQuery = z.object({
  fmt: z.enum(['csv', 'xlsx', 'stix']).default('csv').describe('csv, xlsx, or stix (a STIX 2.1 bundle)'),
  category: z.string().min(1).max(100).optional(),
  min_confidence: z.coerce.number().int().min(0).max(100).optional(),
  since,
  campaign_id: z.string().uuid().optional().describe("a campaign's indicators only: its own entities and its cases' (with `indicates` relationships to it)"),
});

export const ResearcherQuery = z.object({
  fmt: z.enum(['json', 'csv']).default('json'),
  entity_type: z.enum(GRAPH_ENTITY_TYPES).optional(),
});

const ResearcherGroupSchema = z.object({
  entity_type: z.string(),
  network: z.string().describe('wallet network, empty for other types'),
  taxonomy: z.string().describe('scam-taxonomy path of the cases that mention the entities, empty when none'),
  country: z.string().describe('ISO 3166 country (phones, IBANs), empty when unknown'),
  month: z.string().describe('YYYY-MM the entities were first seen'),
  entity_count: z.number().int(),
  victim_count: z.number().int().describe('distinct victims behind the group: intakes, and cases without an attached intake; at least min_group_size'),
  losses: z.array(z.object({ currency: z.string(), amount: z.string().describe('decimal') })).describe('losses reported by the intakes and cases mentioning them, each source once'),
});

export const ResearcherExportSchema = z
  .object({
    min_group_size: z.number().int(),
    suppressed_groups: z.number().int().describe('groups left out: fewer distinct victims than min_group_size'),
    groups: z.array(ResearcherGroupSchema),
  })
  .meta({ id: 'ResearcherExport' });

// --- The partner indicator feed ---

export const FeedQuery = z.object({
  since: z.iso.datetime({ offset: true }).optional().describe('First page: indicator changes at or after this time (default: from the beginning)'),
  cursor: cursorParam(decodeFeedCursor),
  limit: z.coerce.number().int().min(1).max(1000).default(100).describe('Indicators per page (1-1000, default 100)'),
  format: z.enum(['json', 'csv', 'stix']).default('json'),
  category: z.string().min(1).max(100).optional(),
  min_confidence: z.coerce.number().int().min(0).max(100).optional(),
});

const FeedItemSchema = z.object({
  id: z.string().describe('the indicator (its entity id)'),
  type: z.string(),
  value: z.string(),
  category: z.string(),
  confidence: z.number().int(),
  tlp: z.string(),
  valid_from: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
  revision: z.string().describe('the change this row is (grows with every change of the indicator)'),
});

export const FeedPageSchema = z
  .object({
    items: z.array(FeedItemSchema),
    next_cursor: z.string().nullable().describe('pass as cursor for the next page (also when more is false: poll it later for new changes)'),
    more: z.boolean().describe('true: the next page already has changes'),
    complete_until: z.string().nullable().describe('when more is false: every indicator change made before this time is in the pages read so far'),
  })
  .meta({ id: 'IndicatorFeedPage' });

// --- TAXII 2.1 ---

export const TaxiiCollectionParams = z.object({ id: z.string().uuid().describe('collection id (see GET /taxii2/api/collections/)') });

export const TaxiiObjectParams = TaxiiCollectionParams.extend({
  object_id: z.string().regex(/^[a-z0-9-]{1,250}--[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/, 'a STIX id such as indicator--<uuid>').describe('a STIX object id'),
});

// Bounded so that a request stays under Node's 16 KB header limit even fully percent-encoded
// (a longer query is a 431 from the HTTP server, before any route).
const taxiiPaging = {
  added_after: z.iso.datetime({ offset: true }).optional().describe('only objects added strictly after this time (a previous X-TAXII-Date-Added-Last)'),
  limit: z.coerce.number().int().min(1).max(1000).default(100).describe('objects per page (1-1000, default 100); every filter applies before paging'),
  next: cursorParam(decodeTaxiiNext).describe('`next` of the previous page'),
  'match[spec_version]': z.string().max(50).optional().describe('comma-separated STIX versions (every object is 2.1)'),
};
const matchVersion = z.string().max(200).optional().describe('`last` (default), `first`, `all` or comma-separated timestamps; each object keeps its current version');

export const TaxiiObjectsQuerySchema = z.object({
  ...taxiiPaging,
  'match[type]': z.string().max(200).optional().describe('comma-separated STIX types'),
  'match[id]': z.string().max(1000).optional().describe('comma-separated STIX ids'),
  'match[version]': matchVersion,
});

export const TaxiiObjectQuerySchema = z.object({ ...taxiiPaging, 'match[version]': matchVersion });
export const TaxiiVersionsQuerySchema = z.object(taxiiPaging);

export const TaxiiDiscoverySchema = z.object({ title: z.string(), description: z.string(), default: z.string(), api_roots: z.array(z.string()) }).meta({ id: 'TaxiiDiscovery' });
export const TaxiiApiRootSchema = z.object({ title: z.string(), description: z.string(), versions: z.array(z.string()), max_content_length: z.number().int() }).meta({ id: 'TaxiiApiRoot' });
export const TaxiiCollectionSchema = z
  .object({ id: z.string(), title: z.string(), description: z.string(), can_read: z.boolean(), can_write: z.boolean(), media_types: z.array(z.string()) })
  .meta({ id: 'TaxiiCollection' });
export const TaxiiCollectionsSchema = z.object({ collections: z.array(TaxiiCollectionSchema) }).meta({ id: 'TaxiiCollections' });
export const TaxiiEnvelopeSchema = z
  .object({ more: z.boolean(), next: z.string().optional(), objects: z.array(z.object({ type: z.string(), id: z.string() }).loose()) })
  .meta({ id: 'TaxiiEnvelope' });
export const TaxiiManifestSchema = z
  .object({
    more: z.boolean(),
    next: z.string().optional(),
    objects: z.array(z.object({ id: z.string(), date_added: z.string(), version: z.string(), media_type: z.string() })),
  })
  .meta({ id: 'TaxiiManifest' });
export const TaxiiVersionsSchema = z
  .object({ more: z.boolean(), next: z.string().optional(), versions: z.array(z.string()) })
  .meta({ id: 'TaxiiVersions' });
export const TaxiiErrorSchema = z
  .object({
    title: z.string(),
    description: z.string().optional(),
    error_id: z.string().optional().describe('the request id'),
    error_code: z.string().optional().describe('the platform error code (not_found, unauthenticated, ...)'),
    http_status: z.string().optional(),
    details: z.record(z.string(), z.unknown()).optional(),
  })
  .meta({ id: 'TaxiiError' });
