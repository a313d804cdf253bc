// The read-only TAXII 2.1 server's use cases (OASIS TAXII 2.1, sections 4 and 5):
// - taxiiDiscovery: the discovery resource (one API root)
// - taxiiApiRoot: the API root
// - taxiiCollections: the collections indicators, wallets and campaigns
// - taxiiCollection: one collection (404 when unknown)
// - taxiiObjects: a page of a collection's objects (added_after, limit, next, match[...]), audited
// - taxiiManifest: the same page as a manifest, audited
// - taxiiObject: Get An Object (404 when the collection has no such object), audited
// - taxiiObjectVersions: Get Object Versions (each object keeps its current version), audited
// A collection is one ordered stream: its fixed objects first (the producer identity, the TLP
// markings, the wallet SCO's definition; date_added 2026-01-01), then its rows in the feed's order
// (db/repositories/exports/feed-repository.ts), so every page size returns each object exactly once
// and paging never skips or repeats an object while writers add objects. Every filter narrows the
// stream before it is cut into pages: a page holds `limit` matching objects whenever that many
// follow. Content negotiation (406), envelopes and error messages are the API's
// (api/routes/exports/taxii-routes.ts).
import { recordAuditEvent } from '../../db/repositories/audit/audit-event-repository';
import { readCampaignFeed, readIndicatorFeed, type FeedRow } from '../../db/repositories/exports/feed-repository';
import { principalName } from '../../domain/accounts/principal-name';
import type { Principal } from '../../domain/accounts/roles';
import { observable, producerIdentity, stixCampaign, stixIndicator, stixTime, tlpMarkingDefinitions, walletExtensionDefinition, type StixObject } from '../../domain/exports/stix-objects';
import {
  TAXII_API_ROOT,
  TAXII_COLLECTIONS,
  TAXII_MEDIA_TYPE,
  findCollection,
  matchesFilter,
  objectVersion,
  splitMatch,
  versionTimes,
  type MatchFilter,
  type TaxiiCollection,
  type TaxiiNext,
} from '../../domain/exports/taxii';
import { NotFoundError } from '../errors';
import type { ServiceDeps } from '../service-deps';

/** The date the fixed objects were added to every collection (stable, before any row). */
const FIXED_ADDED = '2026-01-01T00:00:00.000Z';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Rows read per query while a wallet id filter scans (a wallet's id is a hash of its address). */
const WALLET_SCAN_BATCH = 1000;

export interface TaxiiObjectsQuery {
  /** ISO 8601: only objects added strictly after this time. */
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

function fixedObjects(c: TaxiiCollection): StixObject[] {
  if (c.key === 'indicators') return [producerIdentity(), ...tlpMarkingDefinitions()];
  if (c.key === 'wallets') return [producerIdentity(), walletExtensionDefinition()];
  return [producerIdentity()];
}

/** The STIX type of a collection's rows. */
const ROW_TYPE: Record<TaxiiCollection['key'], string> = { indicators: 'indicator', wallets: 'cryptocurrency-wallet', campaigns: 'campaign' };

interface Filters {
  match: MatchFilter;
  addedAfter?: Date;
}

function filtersOf(q: Pick<TaxiiObjectsQuery, 'added_after' | 'match[type]' | 'match[id]' | 'match[version]' | 'match[spec_version]'>): Filters {
  return {
    match: { types: splitMatch(q['match[type]']), ids: splitMatch(q['match[id]']), versions: splitMatch(q['match[version]']), spec_versions: splitMatch(q['match[spec_version]']) },
    // Before year 1 (which the database cannot hold) every object is added after.
    addedAfter: q.added_after && new Date(q.added_after).getUTCFullYear() >= 1 ? new Date(q.added_after) : undefined,
  };
}

interface Positioned extends TaxiiAdded {
  position: TaxiiNext;
}

/** Up to `limit` matching rows of the collection after a position, and whether more match. */
async function readRows(deps: Pick<ServiceDeps, 'knex'>, c: TaxiiCollection, f: Filters, after: TaxiiNext | undefined, limit: number): Promise<{ rows: Positioned[]; more: boolean }> {
  const type = ROW_TYPE[c.key];
  const { match, addedAfter } = f;
  if (match.types && !match.types.includes(type)) return { rows: [], more: false };
  if (match.spec_versions && !match.spec_versions.includes('2.1')) return { rows: [], more: false };
  const ids = match.ids?.filter((i) => i.startsWith(`${type}--`)).map((i) => i.slice(type.length + 2));
  if (ids && !ids.length) return { rows: [], more: false };
  const times = versionTimes(match.versions);
  if (c.key === 'campaigns') {
    const page = await readCampaignFeed(deps.knex, {
      after: after?.kind === 'c' ? { ts: after.ts, id: after.id } : undefined,
      limit,
      changed_after: addedAfter,
      ids: ids?.filter((i) => UUID.test(i)),
      versions: times,
    });
    return { rows: page.rows.map((r) => ({ object: stixCampaign(r), date_added: stixTime(r.updated_at), position: { kind: 'c', ts: r.keyset_ts, id: r.id } })), more: page.more };
  }
  const feedAfter = after?.kind === 'f' ? { xid: after.xid, revision: after.revision } : undefined;
  const positioned = (r: FeedRow, object: StixObject): Positioned => ({ object, date_added: stixTime(r.updated_at), position: { kind: 'f', xid: r.write_xid, revision: r.revision } });
  if (c.key === 'indicators') {
    const page = await readIndicatorFeed(deps.knex, { after: feedAfter, limit, changed_after: addedAfter, entity_ids: ids?.filter((i) => UUID.test(i)), versions: times ? { of: 'modified', at: times } : undefined });
    return { rows: page.rows.map((r) => positioned(r, stixIndicator(r))), more: page.more };
  }
  const walletQuery = { types: ['wallet'], changed_after: addedAfter, versions: times ? { of: 'updated_at' as const, at: times } : undefined };
  if (!ids) {
    const page = await readIndicatorFeed(deps.knex, { ...walletQuery, after: feedAfter, limit });
    return { rows: page.rows.map((r) => positioned(r, observable('wallet', r.value))), more: page.more };
  }
  // A wallet SCO's id is a UUIDv5 of its address, which SQL cannot compute without an extension:
  // the wanted ids are matched here, reading on in order until the page is full (or the end).
  const wanted = new Set(match.ids);
  const found: Positioned[] = [];
  let position = feedAfter;
  for (;;) {
    const page = await readIndicatorFeed(deps.knex, { ...walletQuery, after: position, limit: WALLET_SCAN_BATCH });
    for (const r of page.rows) {
      const object = observable('wallet', r.value);
      if (wanted.has(object.id)) found.push(positioned(r, object));
    }
    if (found.length > limit || !page.more || !page.next) break;
    position = page.next;
  }
  return { rows: found.slice(0, limit), more: found.length > limit };
}

function fixedMatches(o: StixObject, f: Filters): boolean {
  if (f.addedAfter && !(Date.parse(FIXED_ADDED) > f.addedAfter.getTime())) return false;
  return matchesFilter(o, f.match);
}

/** One page of a collection's ordered stream (fixed objects, then rows), every filter applied before paging. */
async function collectionPage(deps: Pick<ServiceDeps, 'knex'>, c: TaxiiCollection, f: Filters, limit: number, next: TaxiiNext | undefined): Promise<TaxiiPage> {
  const items: TaxiiAdded[] = [];
  let position: TaxiiNext | null = next ?? null;
  if (!next || next.kind === 'h') {
    const fixed = fixedObjects(c);
    const start = next?.kind === 'h' ? next.index : 0;
    const remaining = fixed.map((object, index) => ({ object, index })).filter((x) => x.index >= start && fixedMatches(x.object, f));
    const taken = remaining.slice(0, limit);
    items.push(...taken.map((x) => ({ object: x.object, date_added: FIXED_ADDED })));
    position = { kind: 'h', index: taken.length ? taken[taken.length - 1]!.index + 1 : fixed.length };
    if (taken.length === limit) {
      const more = remaining.length > limit || (await readRows(deps, c, f, undefined, 1)).rows.length > 0;
      return { items, more, next: position };
    }
    // Past the fixed objects (those left out match no filter): the rows from their start.
    position = { kind: 'h', index: fixed.length };
  }
  const rowsAfter = next && next.kind !== 'h' ? next : undefined;
  const page = await readRows(deps, c, f, rowsAfter, limit - items.length);
  items.push(...page.rows);
  const last = page.rows[page.rows.length - 1];
  // `next` also when more is false: a client polling later passes it to get only what was added
  // since, without added_after's dependence on clocks.
  return { items: items.map(({ object, date_added }) => ({ object, date_added })), more: page.more, next: last ? last.position : position };
}

type AuditedWhat = 'objects' | 'manifest' | 'object' | 'versions';

async function audit(deps: Pick<ServiceDeps, 'knex'>, principal: Principal | null, what: AuditedWhat, collectionId: string, q: object, rows: number): Promise<void> {
  const filters = Object.fromEntries(Object.entries(q).filter(([k, v]) => (k === 'added_after' || k.startsWith('match[')) && v !== undefined));
  await recordAuditEvent(deps.knex, {
    actor: principalName(principal),
    action: `taxii.${what}`,
    target_type: 'taxii_collection',
    target_id: collectionId,
    details: { filters, rows, outcome: 'complete' },
  });
}

export async function taxiiObjects(deps: Pick<ServiceDeps, 'knex'>, principal: Principal | null, collectionId: string, q: TaxiiObjectsQuery): Promise<TaxiiPage> {
  const page = await collectionPage(deps, collectionOf(collectionId), filtersOf(q), q.limit, q.next);
  await audit(deps, principal, 'objects', collectionId, q, page.items.length);
  return page;
}

export async function taxiiManifest(deps: Pick<ServiceDeps, 'knex'>, principal: Principal | null, collectionId: string, q: TaxiiObjectsQuery): Promise<TaxiiPage> {
  const page = await collectionPage(deps, collectionOf(collectionId), filtersOf(q), q.limit, q.next);
  await audit(deps, principal, 'manifest', collectionId, q, page.items.length);
  return page;
}

export interface TaxiiObjectQuery {
  added_after?: string;
  limit: number;
  next?: TaxiiNext;
  'match[version]'?: string;
  'match[spec_version]'?: string;
}

/** The page of one object's versions that match; 404 when the collection has no such object at all. */
async function objectPage(deps: Pick<ServiceDeps, 'knex'>, c: TaxiiCollection, objectId: string, q: TaxiiObjectQuery): Promise<TaxiiPage> {
  const exists = await collectionPage(deps, c, filtersOf({ 'match[id]': objectId, 'match[version]': 'all' }), 1, undefined);
  if (!exists.items.length) throw new NotFoundError(`the collection ${c.id} has no object ${objectId}`);
  return collectionPage(deps, c, filtersOf({ ...q, 'match[id]': objectId }), q.limit, q.next);
}

/** Get An Object (TAXII 2.1, 5.5): the object's versions that match (its current one), as an envelope page. */
export async function taxiiObject(deps: Pick<ServiceDeps, 'knex'>, principal: Principal | null, collectionId: string, objectId: string, q: TaxiiObjectQuery): Promise<TaxiiPage> {
  const page = await objectPage(deps, collectionOf(collectionId), objectId, q);
  await audit(deps, principal, 'object', collectionId, { ...q, 'match[id]': objectId }, page.items.length);
  return page;
}

/** Get Object Versions (TAXII 2.1, 5.8): the version timestamps of an object (match[version] does not apply). */
export async function taxiiObjectVersions(deps: Pick<ServiceDeps, 'knex'>, principal: Principal | null, collectionId: string, objectId: string, q: Omit<TaxiiObjectQuery, 'match[version]'>): Promise<TaxiiPage & { versions: string[] }> {
  const page = await objectPage(deps, collectionOf(collectionId), objectId, { ...q, 'match[version]': 'all' });
  await audit(deps, principal, 'versions', collectionId, { ...q, 'match[id]': objectId }, page.items.length);
  return { ...page, versions: page.items.map((i) => objectVersion(i.object, i.date_added)) };
}
