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
 * Where a page of a collection stopped: `h` after the first `index` fixed objects (the producer
 * identity, markings, the wallet SCO's definition), which come first in every collection's order;
 * then a feed position (indicators, wallets) or a campaign's (updated_at, id) keyset.
 */
export type TaxiiNext = { kind: 'h'; index: number } | { kind: 'f'; xid: string; revision: string } | { kind: 'c'; ts: string; id: string };

export function encodeTaxiiNext(n: TaxiiNext): string {
  const parts = n.kind === 'h' ? ['h', String(n.index), ''] : n.kind === 'f' ? ['f', n.xid, n.revision] : ['c', n.ts, n.id];
  return Buffer.from(JSON.stringify(parts), 'utf8').toString('base64url');
}

export function decodeTaxiiNext(value: string): TaxiiNext | null {
  try {
    const v: unknown = JSON.parse(Buffer.from(value, 'base64url').toString('utf8'));
    if (!Array.isArray(v) || v.length !== 3 || !v.every((x) => typeof x === 'string')) return null;
    const [kind, a, b] = v as [string, string, string];
    if (kind === 'h' && /^\d{1,3}$/.test(a) && b === '') return { kind, index: Number(a) };
    if (kind === 'f' && FEED_POSITION_PATTERN.test(a) && FEED_POSITION_PATTERN.test(b)) return { kind, xid: a, revision: b };
    if (kind === 'c' && !Number.isNaN(Date.parse(a)) && /^[0-9a-f-]{36}$/i.test(b)) return { kind, ts: a, id: b };
  } catch {
    // fall through
  }
  return null;
}

/** The match[version] filter as the queries apply it: no constraint, or these `modified` times (ms). */
export function versionTimes(versions: string[] | undefined): Date[] | undefined {
  if (!versions || versions.some((v) => ['first', 'last', 'all'].includes(v))) return undefined;
  // A value that is no timestamp (or outside years 1-9999, which no version has) matches no version.
  return versions.map((v) => new Date(v)).filter((d) => !Number.isNaN(d.getTime()) && d.getUTCFullYear() >= 1 && d.getUTCFullYear() <= 9999);
}

/**
 * A TAXII 2.1 error message (section 3.6.1) for an API error: `http_status` as a string, the
 * platform's error code, the request id as `error_id`, the details as a dictionary.
 */
export function taxiiErrorMessage(status: number, code: string, message: string, details: unknown, requestId: string | undefined) {
  return {
    title: TAXII_ERROR_TITLES[status] ?? (status >= 500 ? 'Internal error' : 'Request error'),
    description: message,
    ...(requestId ? { error_id: requestId } : {}),
    error_code: code,
    http_status: String(status),
    ...(details === undefined ? {} : { details: details !== null && typeof details === 'object' && !Array.isArray(details) ? details : { items: details } }),
  };
}

const TAXII_ERROR_TITLES: Record<number, string> = {
  400: 'Bad request',
  401: 'Authentication required',
  403: 'Forbidden',
  404: 'Not found',
  405: 'Method not allowed',
  406: 'Not acceptable',
  413: 'Payload too large',
  415: 'Unsupported media type',
  422: 'Unprocessable request',
  500: 'Internal error',
  503: 'Service unavailable',
};

/** Paths answered as TAXII (errors as TAXII error messages in the TAXII media type, Basic challenge on 401). */
export function isTaxiiPath(path: string): boolean {
  return path === '/taxii2' || path.startsWith('/taxii2/');
}

/** The realm of the Basic challenge on a TAXII 401 (the API key is the password, any user name). */
export const TAXII_BASIC_REALM = 'Fraud Intelligence Platform TAXII (API key as password)';
