// The read-only TAXII 2.1 server's use cases (OASIS TAXII 2.1, as the reference server medallion
// answers):
// - taxiiDiscovery: the discovery resource (one API root)
// - taxiiApiRoot: the API root
// - taxiiCollections: the collections indicators, wallets and campaigns
// - taxiiCollection: one collection (404 when unknown)
// - taxiiObjects: a page of a collection's objects (added_after, limit, next, match[...]), audited
// - taxiiManifest: the same page as a manifest, audited
// The indicator and wallet collections page with the feed's position
// (db/repositories/exports/feed-repository.ts), so paging never skips or repeats an object while
// writers add objects. Content negotiation (406) and the envelopes are the API's
// (api/routes/exports/taxii-routes.ts).
import { recordAuditEvent } from '../../db/repositories/audit/audit-event-repository';
import { readCampaignFeed, readIndicatorFeed } from '../../db/repositories/exports/feed-repository';
import { principalName } from '../../domain/accounts/principal-name';
import type { Principal } from '../../domain/accounts/roles';
import { observable, producerIdentity, stixCampaign, stixIndicator, stixTime, tlpMarkingDefinitions, walletExtensionDefinition, type StixObject } from '../../domain/exports/stix-objects';
import {
  TAXII_API_ROOT,
  TAXII_COLLECTIONS,
  TAXII_MEDIA_TYPE,
  findCollection,
  matchesFilter,
  splitMatch,
  type MatchFilter,
  type TaxiiCollection,
  type TaxiiNext,
} from '../../domain/exports/taxii';
import { NotFoundError } from '../errors';
import type { ServiceDeps } from '../service-deps';

const PRODUCER_ADDED = '2026-01-01T00:00:00.000Z';

export interface TaxiiObjectsQuery {
  /** ISO 8601: only objects added after this time. */
  added_after?: string;
  limit: number;
  /** `next` of the previous page. */
  next?: TaxiiNext;
  'match[type]'?: string;
  'match[id]'?: string;
  'match[version]'?: string;
  'match[spec_version]'?: string;
}

/** An object of a page and the date it was added to its collection. */
export interface TaxiiAdded {
  object: StixObject;
  date_added: string;
}

export interface TaxiiPage {
  items: TaxiiAdded[];
  more: boolean;
  /** Also when more is false: a client polling later passes it to get only what was added since. */
  next: TaxiiNext | null;
}

/** `origin` is the scheme and host the client reached this server at. */
export function taxiiDiscovery(origin: string) {
  const root = `${origin}${TAXII_API_ROOT}`;
  return { title: 'Fraud Intelligence Platform TAXII 2.1', description: 'Read-only indicators, wallets and campaigns as STIX 2.1', default: root, api_roots: [root] };
}

export function taxiiApiRoot(deps: Pick<ServiceDeps, 'config'>) {
  return { title: 'Fraud intelligence', description: 'Indicators, cryptocurrency wallets and campaigns', versions: [TAXII_MEDIA_TYPE], max_content_length: deps.config.api.body_limit_mb * 1024 * 1024 };
}

function collectionResource(c: TaxiiCollection) {
  return { id: c.id, title: c.title, description: c.description, can_read: true, can_write: false, media_types: c.media_types };
}

export function taxiiCollections() {
  return { collections: TAXII_COLLECTIONS.map(collectionResource) };
}

function collectionOf(id: string): TaxiiCollection {
  const c = findCollection(id);
  if (!c) throw new NotFoundError(`no TAXII collection ${id}`);
  return c;
}

export function taxiiCollection(id: string) {
  return collectionResource(collectionOf(id));
}

function headObjects(c: TaxiiCollection): StixObject[] {
  if (c.key === 'indicators') return [producerIdentity(), ...tlpMarkingDefinitions()];
  if (c.key === 'wallets') return [producerIdentity(), walletExtensionDefinition()];
  return [producerIdentity()];
}

/** One page of a collection: objects with their date added, whether more follow, and the next position. */
async function collectionPage(deps: Pick<ServiceDeps, 'knex'>, c: TaxiiCollection, q: TaxiiObjectsQuery): Promise<TaxiiPage> {
  const match: MatchFilter = {
    types: splitMatch(q['match[type]']),
    ids: splitMatch(q['match[id]']),
    versions: splitMatch(q['match[version]']),
    spec_versions: splitMatch(q['match[spec_version]']),
  };
  const addedAfter = q.added_after ? new Date(q.added_after) : undefined;
  const items: TaxiiAdded[] = [];
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

/** A page of the collection, audited as `taxii.<what>` (the filters, the objects answered). */
async function auditedPage(deps: Pick<ServiceDeps, 'knex'>, principal: Principal | null, what: 'objects' | 'manifest', collectionId: string, q: TaxiiObjectsQuery): Promise<TaxiiPage> {
  const page = await collectionPage(deps, collectionOf(collectionId), q);
  await recordAuditEvent(deps.knex, {
    actor: principalName(principal),
    action: `taxii.${what}`,
    target_type: 'taxii_collection',
    target_id: collectionId,
    details: { filters: { added_after: q.added_after ?? null, match: Object.fromEntries(Object.entries(q).filter(([k, v]) => k.startsWith('match[') && v !== undefined)) }, rows: page.items.length, outcome: 'complete' },
  });
  return page;
}

export function taxiiObjects(deps: Pick<ServiceDeps, 'knex'>, principal: Principal | null, collectionId: string, q: TaxiiObjectsQuery): Promise<TaxiiPage> {
  return auditedPage(deps, principal, 'objects', collectionId, q);
}

export function taxiiManifest(deps: Pick<ServiceDeps, 'knex'>, principal: Principal | null, collectionId: string, q: TaxiiObjectsQuery): Promise<TaxiiPage> {
  return auditedPage(deps, principal, 'manifest', collectionId, q);
}
