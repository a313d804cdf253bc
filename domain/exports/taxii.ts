// TAXII 2.1 (read-only) vocabulary: the media type and its negotiation, the fixed collections, the
// match[...] filters applied to STIX objects, and the `next` token of a page. Pure; the use cases are
// services/exports/taxii-service.ts, the routes api/routes/exports/taxii-routes.ts.
import { FEED_POSITION_PATTERN } from './feed-position';
import type { StixObject } from './stix-objects';

export const TAXII_MEDIA_TYPE = 'application/taxii+json;version=2.1';
export const TAXII_API_ROOT = '/taxii2/api/';

export type CollectionKey = 'indicators' | 'wallets' | 'campaigns';

export interface TaxiiCollection {
  key: CollectionKey;
  id: string;
  title: string;
  description: string;
  media_types: string[];
}

/** Fixed collection ids (documented in the README): partners configure them once. */
export const TAXII_COLLECTIONS: readonly TaxiiCollection[] = [
  {
    key: 'indicators',
    id: '5b1f3c2e-8a4d-4f6b-9c0e-1d2a3b4c5d61',
    title: 'Indicators',
    description: 'STIX indicators (url, domain, ip, e-mail and wallet patterns) of the fraud graph, with the producer identity and TLP markings',
    media_types: ['application/stix+json;version=2.1'],
  },
  {
    key: 'wallets',
    id: '6c2a4d3f-9b5e-4a7c-8d1f-2e3b4c5d6e72',
    title: 'Cryptocurrency wallets',
    description: 'cryptocurrency-wallet observables (custom SCO declared by its extension-definition)',
    media_types: ['application/stix+json;version=2.1'],
  },
  {
    key: 'campaigns',
    id: '7d3b5e4a-0c6f-4b8d-9e2a-3f4c5d6e7f83',
    title: 'Campaigns',
    description: 'Fraud campaigns as STIX campaign objects',
    media_types: ['application/stix+json;version=2.1'],
  },
];

export function findCollection(id: string): TaxiiCollection | undefined {
  return TAXII_COLLECTIONS.find((c) => c.id === id);
}

/**
 * Whether an Accept header admits the TAXII 2.1 media type: absent, `*\/*`, `application/*`,
 * `application/taxii+json` (any version means the latest: 2.1) or with `version=2.1`; a media range
 * with q=0 refuses it.
 */
export function acceptsTaxii(accept: string | undefined): boolean {
  if (accept === undefined || accept.trim() === '') return true;
  return accept.split(',').some((range) => {
    const [type, ...params] = range.split(';').map((p) => p.trim().toLowerCase());
    const kv = new Map(params.map((p) => p.split('=').map((x) => x.trim()) as [string, string]));
    if (kv.get('q') !== undefined && Number(kv.get('q')) === 0) return false;
    if (type === '*/*' || type === 'application/*') return true;
    if (type !== 'application/taxii+json') return false;
    const version = kv.get('version');
    return version === undefined || version === '2.1';
  });
}

export interface MatchFilter {
  types?: string[];
  ids?: string[];
  /** `last` (default), `first`, `all`, or timestamps of `modified`. */
  versions?: string[];
  spec_versions?: string[];
}

/** A comma-separated match[...] value. */
export function splitMatch(value: string | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  const parts = value.split(',').map((v) => v.trim()).filter(Boolean);
  return parts.length ? parts : undefined;
}

/** Objects keep only their current version here, so first/last/all all select it; a timestamp must equal `modified` (or `created`). */
export function matchesFilter(o: StixObject, f: MatchFilter): boolean {
  if (f.types && !f.types.includes(o.type)) return false;
  if (f.ids && !f.ids.includes(o.id)) return false;
  if (f.spec_versions && !f.spec_versions.includes(String(o.spec_version ?? '2.1'))) return false;
  if (f.versions && !f.versions.some((v) => ['first', 'last', 'all'].includes(v))) {
    const version = String(o.modified ?? o.created ?? '');
    if (!f.versions.some((v) => Date.parse(v) === Date.parse(version))) return false;
  }
  return true;
}

/** A TAXII version of an object: its `modified`, else `created`, else (SCOs) the date it was added. */
export function objectVersion(o: StixObject, dateAdded: string): string {
  return String(o.modified ?? o.created ?? dateAdded);
}

/**
 * Where a page of a collection stopped: a feed position (indicators, wallets) or a campaign's
 * (updated_at, id) keyset.
 */
export type TaxiiNext = { kind: 'f'; xid: string; revision: string } | { kind: 'c'; ts: string; id: string };

export function encodeTaxiiNext(n: TaxiiNext): string {
  return Buffer.from(JSON.stringify(n.kind === 'f' ? ['f', n.xid, n.revision] : ['c', n.ts, n.id]), 'utf8').toString('base64url');
}

export function decodeTaxiiNext(value: string): TaxiiNext | null {
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
