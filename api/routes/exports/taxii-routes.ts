// A read-only TAXII 2.1 server (OASIS TAXII 2.1, as the reference server medallion
// answers): discovery, one API root, the collections indicators, wallets and campaigns, their
// objects (added_after, limit, next, match[type|id|version|spec_version]) and manifests. Answers in
// application/taxii+json;version=2.1; an Accept that admits no TAXII 2.1 is a 406. The indicator and
// wallet collections page with the feed's position (db/repositories/exports/feed-repository.ts), so paging
// never skips or repeats an object while writers add objects.
import type Koa from 'koa';
import { z } from 'zod';
import { recordAuditEvent } from '../../../db/repositories/audit/audit-event-repository';
import { FEED_POSITION_PATTERN, readCampaignFeed, readIndicatorFeed } from '../../../db/repositories/exports/feed-repository';
import {
  STIX_MEDIA_TYPE,
  observable,
  producerIdentity,
  stixCampaign,
  stixIndicator,
  stixTime,
  tlpMarkingDefinitions,
  walletExtensionDefinition,
  type StixObject,
} from '../../../domain/exports/stix-objects';
import {
  TAXII_API_ROOT,
  TAXII_COLLECTIONS,
  TAXII_MEDIA_TYPE,
  acceptsTaxii,
  findCollection,
  matchesFilter,
  objectVersion,
  splitMatch,
  type MatchFilter,
  type TaxiiCollection,
} from '../../../domain/exports/taxii';
import type { AppDeps } from '../../app-deps';
import { ApiError, NotFoundError } from '../../errors';
import { cursorParam } from '../../pagination';
import { principalName } from '../../../domain/accounts/principal-name';
import { defineRoute, type HandlerInput } from '../../route-definition';
import { ErrorSchema } from '../../common-schemas';

type TaxiiNext = { kind: 'f'; xid: string; revision: string } | { kind: 'c'; ts: string; id: string };

function encodeNext(n: TaxiiNext): string {
  return Buffer.from(JSON.stringify(n.kind === 'f' ? ['f', n.xid, n.revision] : ['c', n.ts, n.id]), 'utf8').toString('base64url');
}

function decodeNext(value: string): TaxiiNext | null {
  try {
    const v: unknown = JSON.parse(Buffer.from(value, 'base64url').toString('utf8'));
    if (!Array.isArray(v) || v.length !== 3 || !v.every((x) => typeof x === 'string')) return null;
    const [kind, a, b] = v as [string, string, string];
    if (kind === 'f' && FEED_POSITION_PATTERN.test(a) && FEED_POSITION_PATTERN.test(b)) return { kind, xid: a, revision: b };
    if (kind === 'c' && !Number.isNaN(Date.parse(a)) && /^[0-9a-f-]{36}$/i.test(b)) return { kind, ts: a, id: b };
  } catch {
    // fall through
  }
  return null;
}

const PRODUCER_ADDED = '2026-01-01T00:00:00.000Z';

const CollectionParams = z.object({ id: z.string().uuid().describe('collection id (see GET /taxii2/api/collections/)') });
const ObjectsQuery = z.object({
  added_after: z.iso.datetime({ offset: true }).optional().describe('only objects added after this time'),
  limit: z.coerce.number().int().min(1).max(1000).default(100),
  next: cursorParam(decodeNext).describe('`next` of the previous page'),
  // Bounded so that a request stays under Node's 16 KB header limit even fully percent-encoded
  // (a longer query is a 431 from the HTTP server, before any route).
  'match[type]': z.string().max(200).optional(),
  'match[id]': z.string().max(1000).optional().describe('comma-separated STIX ids'),
  'match[version]': z.string().max(200).optional(),
  'match[spec_version]': z.string().max(50).optional(),
});
type ObjectsQueryT = z.infer<typeof ObjectsQuery>;

const Discovery = z.object({ title: z.string(), description: z.string(), default: z.string(), api_roots: z.array(z.string()) }).meta({ id: 'TaxiiDiscovery' });
const ApiRoot = z.object({ title: z.string(), description: z.string(), versions: z.array(z.string()), max_content_length: z.number().int() }).meta({ id: 'TaxiiApiRoot' });
const Collection = z
  .object({ id: z.string(), title: z.string(), description: z.string(), can_read: z.boolean(), can_write: z.boolean(), media_types: z.array(z.string()) })
  .meta({ id: 'TaxiiCollection' });
const Collections = z.object({ collections: z.array(Collection) }).meta({ id: 'TaxiiCollections' });
const Envelope = z
  .object({ more: z.boolean(), next: z.string().optional(), objects: z.array(z.object({ type: z.string(), id: z.string() }).loose()) })
  .meta({ id: 'TaxiiEnvelope' });
const Manifest = z
  .object({
    more: z.boolean(),
    next: z.string().optional(),
    objects: z.array(z.object({ id: z.string(), date_added: z.string(), version: z.string(), media_type: z.string() })),
  })
  .meta({ id: 'TaxiiManifest' });

const ACCESS = { roles: ['admin', 'analyst'], scopes: ['taxii:read'] } as const;
const notAcceptable = { description: `The Accept header admits no ${TAXII_MEDIA_TYPE}`, schema: ErrorSchema };

function taxii(ctx: Koa.Context): void {
  if (!acceptsTaxii(ctx.get('accept') || undefined)) {
    throw new ApiError(406, 'not_acceptable', `this TAXII server answers ${TAXII_MEDIA_TYPE}; the Accept header admits none`, { accept: ctx.get('accept') });
  }
  ctx.set('Content-Type', TAXII_MEDIA_TYPE);
}

function collectionOf(id: string): TaxiiCollection {
  const c = findCollection(id);
  if (!c) throw new NotFoundError(`no TAXII collection ${id}`);
  return c;
}

function collectionResource(c: TaxiiCollection) {
  return { id: c.id, title: c.title, description: c.description, can_read: true, can_write: false, media_types: c.media_types };
}

interface Added {
  object: StixObject;
  date_added: string;
}

function headObjects(c: TaxiiCollection): StixObject[] {
  if (c.key === 'indicators') return [producerIdentity(), ...tlpMarkingDefinitions()];
  if (c.key === 'wallets') return [producerIdentity(), walletExtensionDefinition()];
  return [producerIdentity()];
}

/** One page of a collection: objects with their date added, whether more follow, and the next position. */
async function collectionPage(deps: AppDeps, c: TaxiiCollection, q: ObjectsQueryT): Promise<{ items: Added[]; more: boolean; next: TaxiiNext | null }> {
  const match: MatchFilter = {
    types: splitMatch(q['match[type]']),
    ids: splitMatch(q['match[id]']),
    versions: splitMatch(q['match[version]']),
    spec_versions: splitMatch(q['match[spec_version]']),
  };
  const addedAfter = q.added_after ? new Date(q.added_after) : undefined;
  const items: Added[] = [];
  let limit = q.limit;
  // The first page starts with the objects the others refer to (producer, markings, the wallet SCO's definition).
  if (!q.next && (!addedAfter || addedAfter.getTime() < Date.parse(PRODUCER_ADDED))) {
    const head = headObjects(c).slice(0, Math.max(0, q.limit - 1));
    items.push(...head.map((object) => ({ object, date_added: PRODUCER_ADDED })));
    limit = Math.max(1, q.limit - head.length);
  }
  let more: boolean;
  let next: TaxiiNext | null;
  if (c.key === 'campaigns') {
    const after = q.next?.kind === 'c' ? { ts: q.next.ts, id: q.next.id } : undefined;
    const ids = match.ids?.filter((i) => /^campaign--[0-9a-f-]{36}$/i.test(i)).map((i) => i.slice('campaign--'.length));
    const page = await readCampaignFeed(deps.knex, { after, limit, changed_after: addedAfter, ids: match.ids ? (ids ?? []) : undefined });
    items.push(...page.rows.map((r) => ({ object: stixCampaign(r), date_added: stixTime(r.updated_at) })));
    more = page.more;
    const last = page.rows[page.rows.length - 1];
    next = last ? { kind: 'c', ts: last.keyset_ts, id: last.id } : (q.next ?? null);
  } else {
    const after = q.next?.kind === 'f' ? { xid: q.next.xid, revision: q.next.revision } : undefined;
    let entityIds: string[] | undefined;
    if (c.key === 'indicators' && match.ids) entityIds = match.ids.filter((i) => /^indicator--[0-9a-f-]{36}$/i.test(i)).map((i) => i.slice('indicator--'.length));
    const page = await readIndicatorFeed(deps.knex, { after, limit, types: c.key === 'wallets' ? ['wallet'] : undefined, changed_after: addedAfter, entity_ids: entityIds });
    for (const r of page.rows) {
      items.push({ object: c.key === 'wallets' ? observable('wallet', r.value) : stixIndicator(r), date_added: stixTime(r.updated_at) });
    }
    more = page.more;
    const last = page.rows[page.rows.length - 1];
    next = last ? { kind: 'f', xid: last.write_xid, revision: last.revision } : (q.next ?? null);
  }
  // `next` also when more is false: a client polling later passes it to get only what was added
  // since, without added_after's dependence on clocks.
  return { items: items.filter((i) => matchesFilter(i.object, match)), more, next };
}

function dateHeaders(ctx: Koa.Context, items: Added[]): void {
  if (!items.length) return;
  const dates = items.map((i) => i.date_added).sort();
  ctx.set('X-TAXII-Date-Added-First', dates[0]!);
  ctx.set('X-TAXII-Date-Added-Last', dates[dates.length - 1]!);
}

async function audit(input: HandlerInput<{ id: string }, ObjectsQueryT, unknown>, what: string, rows: number): Promise<void> {
  await recordAuditEvent(input.deps.knex, {
    actor: principalName(input.principal),
    action: `taxii.${what}`,
    target_type: 'taxii_collection',
    target_id: input.params.id,
    details: { filters: { added_after: input.query.added_after ?? null, match: Object.fromEntries(Object.entries(input.query).filter(([k, v]) => k.startsWith('match[') && v !== undefined)) }, rows, outcome: 'complete' },
  });
}

const taxiiResponses = (schema: z.ZodType, description: string) => ({
  200: { description, schema, contentType: TAXII_MEDIA_TYPE },
  406: notAcceptable,
});

export const taxiiRoutes = [
  defineRoute({
    method: 'get',
    path: '/taxii2/',
    summary: 'TAXII 2.1 discovery',
    tags: ['taxii'],
    access: ACCESS,
    responses: taxiiResponses(Discovery, 'The discovery resource'),
    handler: async ({ ctx }) => {
      taxii(ctx);
      const root = `${ctx.protocol}://${ctx.host}${TAXII_API_ROOT}`;
      return { body: { title: 'Fraud Intelligence Platform TAXII 2.1', description: 'Read-only indicators, wallets and campaigns as STIX 2.1', default: root, api_roots: [root] } };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/taxii2/api/',
    summary: 'TAXII 2.1 API root',
    tags: ['taxii'],
    access: ACCESS,
    responses: taxiiResponses(ApiRoot, 'The API root'),
    handler: async ({ ctx, deps }) => {
      taxii(ctx);
      return { body: { title: 'Fraud intelligence', description: 'Indicators, cryptocurrency wallets and campaigns', versions: [TAXII_MEDIA_TYPE], max_content_length: deps.config.api.body_limit_mb * 1024 * 1024 } };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/taxii2/api/collections/',
    summary: 'TAXII 2.1 collections',
    tags: ['taxii'],
    access: ACCESS,
    responses: taxiiResponses(Collections, 'The collections'),
    handler: async ({ ctx }) => {
      taxii(ctx);
      return { body: { collections: TAXII_COLLECTIONS.map(collectionResource) } };
    },
  }),
  defineRoute<{ id: string }>({
    method: 'get',
    path: '/taxii2/api/collections/{id}/',
    summary: 'One TAXII 2.1 collection',
    tags: ['taxii'],
    access: ACCESS,
    request: { params: CollectionParams },
    responses: { ...taxiiResponses(Collection, 'The collection'), 404: { description: 'No such collection', schema: ErrorSchema } },
    handler: async ({ ctx, params }) => {
      taxii(ctx);
      return { body: collectionResource(collectionOf(params.id)) };
    },
  }),
  defineRoute<{ id: string }, ObjectsQueryT>({
    method: 'get',
    path: '/taxii2/api/collections/{id}/objects/',
    summary: 'Objects of a TAXII 2.1 collection (envelope with more/next; X-TAXII-Date-Added-First/-Last)',
    tags: ['taxii'],
    access: ACCESS,
    request: { params: CollectionParams, query: ObjectsQuery },
    responses: { ...taxiiResponses(Envelope, 'An envelope of STIX 2.1 objects'), 404: { description: 'No such collection', schema: ErrorSchema } },
    handler: async (input) => {
      taxii(input.ctx);
      const page = await collectionPage(input.deps, collectionOf(input.params.id), input.query);
      await audit(input, 'objects', page.items.length);
      dateHeaders(input.ctx, page.items);
      return { body: { more: page.more, ...(page.next ? { next: encodeNext(page.next) } : {}), objects: page.items.map((i) => i.object) } };
    },
  }),
  defineRoute<{ id: string }, ObjectsQueryT>({
    method: 'get',
    path: '/taxii2/api/collections/{id}/manifest/',
    summary: 'Manifest of a TAXII 2.1 collection (id, date_added, version, media_type per object)',
    tags: ['taxii'],
    access: ACCESS,
    request: { params: CollectionParams, query: ObjectsQuery },
    responses: { ...taxiiResponses(Manifest, 'The manifest page'), 404: { description: 'No such collection', schema: ErrorSchema } },
    handler: async (input) => {
      taxii(input.ctx);
      const page = await collectionPage(input.deps, collectionOf(input.params.id), input.query);
      await audit(input, 'manifest', page.items.length);
      dateHeaders(input.ctx, page.items);
      return {
        body: {
          more: page.more,
          ...(page.next ? { next: encodeNext(page.next) } : {}),
          objects: page.items.map((i) => ({ id: i.object.id, date_added: i.date_added, version: objectVersion(i.object, i.date_added), media_type: STIX_MEDIA_TYPE })),
        },
      };
    },
  }),
];
