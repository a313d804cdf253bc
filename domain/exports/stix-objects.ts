// STIX 2.1 mapping of the intelligence graph (pure): the producer identity, TLP 2.0 marking
// definitions, the extension-definition that declares the custom `cryptocurrency-wallet` SCO (as
// OpenCTI exports wallets), observables with the deterministic ids the standard defines (UUIDv5 in
// the STIX namespace over the canonical JSON of the id-contributing properties), indicators with
// STIX patterns, relationships and campaigns. Checked by the OASIS validator in strict mode
// (test/exports/*).
import { hash } from 'node:crypto';
import { sha256 } from '@noble/hashes/sha2.js';
import type { TlpLabel } from '../intelligence/indicators';
import { isoTime } from '../iso-time';

export type StixObject = Record<string, unknown> & { type: string; id: string };

/** The namespace of STIX 2.1 deterministic SCO ids (STIX 2.1, section 2.9). */
export const STIX_SCO_NAMESPACE = '00abedb4-aa42-466c-9c01-fed23315a9b7';
export const STIX_MEDIA_TYPE = 'application/stix+json;version=2.1';

/** This platform as the producer of everything it exports (a fixed id, so partners can de-duplicate). */
export const PRODUCER_IDENTITY_ID = 'identity--6f4b1c1e-4f0a-4d5e-9a57-3c2d1b0e8f11';
const PRODUCER_CREATED = '2026-01-01T00:00:00.000Z';

/** The extension-definition that declares the `cryptocurrency-wallet` SCO (new-sco). */
export const WALLET_EXTENSION_ID = 'extension-definition--2d0e4b8a-6c1f-4a3e-8b5d-7f9a1c3e5b20';

/** TLP 2.0 marking definitions: the standard ids and objects published with the TLP 2.0 extension. */
const TLP_EXTENSION_ID = 'extension-definition--60a3c5c5-0d10-413e-aab3-9e08dde9e88d';
export const TLP_MARKING_IDS: Record<TlpLabel, string> = {
  clear: 'marking-definition--94868c89-83c2-464b-929b-a1a8aa3c8487',
  green: 'marking-definition--bab4a63c-aed9-4cf5-a766-dfca5abac2bb',
  amber: 'marking-definition--55d920b0-5e8b-4f79-9ee9-91f868d9b421',
  'amber+strict': 'marking-definition--939a9414-2ddd-4d32-a0cd-375ea402b003',
  red: 'marking-definition--e828b379-4e03-4974-9ac4-e53a884c97c1',
};

export function tlpMarkingDefinitions(): StixObject[] {
  return (Object.keys(TLP_MARKING_IDS) as TlpLabel[]).map((label) => ({
    type: 'marking-definition',
    spec_version: '2.1',
    id: TLP_MARKING_IDS[label],
    created: '2022-10-01T00:00:00.000Z',
    name: `TLP:${label.toUpperCase()}`,
    extensions: { [TLP_EXTENSION_ID]: { extension_type: 'property-extension', tlp_2_0: label } },
  }));
}

export function producerIdentity(): StixObject {
  return {
    type: 'identity',
    spec_version: '2.1',
    id: PRODUCER_IDENTITY_ID,
    created: PRODUCER_CREATED,
    modified: PRODUCER_CREATED,
    name: 'Fraud Intelligence Platform',
    identity_class: 'organization',
    description: 'Producer of the fraud intelligence shared by this platform',
  };
}

export function walletExtensionDefinition(): StixObject {
  return {
    type: 'extension-definition',
    spec_version: '2.1',
    id: WALLET_EXTENSION_ID,
    created_by_ref: PRODUCER_IDENTITY_ID,
    created: PRODUCER_CREATED,
    modified: PRODUCER_CREATED,
    name: 'cryptocurrency-wallet',
    description: 'A cryptocurrency wallet address (the custom SCO cryptocurrency-wallet, as OpenCTI exports it); value is the address, its id a UUIDv5 of the value',
    schema: 'https://github.com/OpenCTI-Platform/opencti/blob/master/opencti-platform/opencti-graphql/src/schema/stixCyberObservable.ts',
    version: '1.0.0',
    extension_types: ['new-sco'],
  };
}

/** The objects every bundle starts with: the producer, the TLP markings, the wallet SCO's definition. */
export function bundleHeadObjects(): StixObject[] {
  return [producerIdentity(), ...tlpMarkingDefinitions(), walletExtensionDefinition()];
}

/** RFC 8785 canonical JSON for the plain values SCO ids are made of (sorted keys, no whitespace). */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/**
 * A UUID in version-4 form derived from a name (SHA-256, version and variant bits set): SDOs and
 * SROs need UUIDv4 ids, and one derived from what the object states keeps it stable across exports.
 */
export function stableUuidV4(name: string): string {
  const b = sha256(new TextEncoder().encode(name)).slice(0, 16);
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const hex = Buffer.from(b).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

const STIX_SCO_NAMESPACE_BYTES = Buffer.from(STIX_SCO_NAMESPACE.replace(/-/g, ''), 'hex');
/** The namespace followed by the name, reused by every call (synchronous, so never shared between two). */
const UUID_V5_INPUT = Buffer.alloc(16 * 1024);
STIX_SCO_NAMESPACE_BYTES.copy(UUID_V5_INPUT);
const RFC_4122_VARIANT = '89ab';

/**
 * RFC 4122 UUIDv5 of `name` (UTF-8) in the STIX SCO namespace: SHA-1 over the namespace's 16 bytes
 * and the name, version 5 and the RFC variant set. The namespace bytes are parsed once and the name
 * is hashed in one call (the uuid package re-parses the namespace and re-encodes the name on every
 * call, and createHash builds a hash object: hot spots of million-object exports).
 */
export function stixUuidV5(name: string): string {
  const input = name.length * 3 <= UUID_V5_INPUT.length - 16 ? UUID_V5_INPUT.subarray(0, 16 + UUID_V5_INPUT.write(name, 16, 'utf8')) : Buffer.concat([STIX_SCO_NAMESPACE_BYTES, Buffer.from(name, 'utf8')]);
  const hex = hash('sha1', input, 'hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${RFC_4122_VARIANT[parseInt(hex[16]!, 16) & 3]}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** `<type>--<UUIDv5>` of an SCO from its id-contributing properties (STIX 2.1, 2.9). */
export function scoId(type: string, idContributing: Record<string, unknown>): string {
  return `${type}--${stixUuidV5(canonicalJson(idContributing))}`;
}

/** Graph entity types that become STIX observables, and their SCO type. */
export type ObservableEntityType = 'url' | 'domain' | 'ip' | 'email' | 'wallet';

export function scoType(entityType: ObservableEntityType, value: string): string {
  switch (entityType) {
    case 'url':
      return 'url';
    case 'domain':
      return 'domain-name';
    case 'ip':
      return value.includes(':') ? 'ipv6-addr' : 'ipv4-addr';
    case 'email':
      return 'email-addr';
    case 'wallet':
      return 'cryptocurrency-wallet';
  }
}

export function observable(entityType: ObservableEntityType, value: string): StixObject {
  const type = scoType(entityType, value);
  const sco: StixObject = { type, spec_version: '2.1', id: scoId(type, { value }), value };
  if (type === 'cryptocurrency-wallet') sco.extensions = { [WALLET_EXTENSION_ID]: { extension_type: 'new-sco' } };
  return sco;
}

const WALLET_EXTENSIONS_JSON = JSON.stringify({ [WALLET_EXTENSION_ID]: { extension_type: 'new-sco' } });

/**
 * `JSON.stringify(observable(entityType, value))`, written directly: the two objects of each row
 * of a million-row export cost more to build and walk than to write as text. The value's JSON is
 * also its canonical id-contributing JSON. test/exports/stix-objects.test.ts checks both agree.
 */
export function observableJson(entityType: ObservableEntityType, value: string): string {
  const type = scoType(entityType, value);
  const valueJson = JSON.stringify(value);
  const id = `${type}--${stixUuidV5(`{"value":${valueJson}}`)}`;
  const extensions = type === 'cryptocurrency-wallet' ? `,"extensions":${WALLET_EXTENSIONS_JSON}` : '';
  return `{"type":"${type}","spec_version":"2.1","id":"${id}","value":${valueJson}${extensions}}`;
}

/** A string literal of the STIX patterning language (quotes and backslashes escaped). */
export function patternString(value: string): string {
  return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

export function indicatorPattern(entityType: ObservableEntityType, value: string): string {
  return `[${scoType(entityType, value)}:value = ${patternString(value)}]`;
}

/** STIX timestamps: RFC 3339 in UTC with milliseconds. */
export function stixTime(at: Date | string): string {
  return isoTime(at instanceof Date ? at : new Date(at));
}

export interface IndicatorSource {
  /** entities.id (a UUIDv4): the indicator's id is indicator--<entity id>, stable across exports. */
  entity_id: string;
  type: ObservableEntityType;
  value: string;
  category: string;
  confidence: number;
  tlp: TlpLabel;
  valid_from: Date | string;
  created_at: Date | string;
  updated_at: Date | string;
}

const CATEGORY_LABEL = /[^a-z0-9-]+/g;

/** `at` as a STIX timestamp, reusing `known` (the timestamp of `knownAt`) when both are the same instant. */
function stixTimeLike(at: Date | string, knownAt: Date | string, known: string): string {
  return at instanceof Date && knownAt instanceof Date && at.getTime() === knownAt.getTime() ? known : stixTime(at);
}

/** The computed fields of an indicator (stixIndicator and stixIndicatorJson write the same ones). */
function indicatorFields(row: IndicatorSource) {
  const created = stixTime(row.created_at);
  // An indicator never changed has updated_at = created_at (and often valid_from too): format once.
  const modified = stixTimeLike(row.updated_at, row.created_at, created);
  return {
    id: `indicator--${row.entity_id}`,
    created,
    // A modified before created is invalid STIX; an indicator changed in the same microsecond keeps created.
    modified: modified < created ? created : modified,
    name: `${scoType(row.type, row.value)}: ${row.value}`.slice(0, 250),
    description: `${row.type} observed in fraud reports; category ${row.category}, confidence ${row.confidence}`,
    pattern: indicatorPattern(row.type, row.value),
    valid_from: stixTimeLike(row.valid_from, row.created_at, created),
    label: row.category.toLowerCase().replace(CATEGORY_LABEL, '-').replace(/^-+|-+$/g, '') || 'unclassified',
    marking: TLP_MARKING_IDS[row.tlp],
  };
}

export function stixIndicator(row: IndicatorSource): StixObject {
  const f = indicatorFields(row);
  return {
    type: 'indicator',
    spec_version: '2.1',
    id: f.id,
    created_by_ref: PRODUCER_IDENTITY_ID,
    created: f.created,
    modified: f.modified,
    name: f.name,
    description: f.description,
    indicator_types: ['malicious-activity'],
    pattern: f.pattern,
    pattern_type: 'stix',
    pattern_version: '2.1',
    valid_from: f.valid_from,
    confidence: row.confidence,
    labels: [f.label],
    object_marking_refs: [f.marking],
  };
}

/** `JSON.stringify(stixIndicator(row))`, written directly (see observableJson); the same fields in the same order. */
export function stixIndicatorJson(row: IndicatorSource): string {
  // Only a number is written as it is (JSON.stringify would leave out an undefined property).
  if (typeof row.confidence !== 'number') return JSON.stringify(stixIndicator(row));
  const f = indicatorFields(row);
  return (
    `{"type":"indicator","spec_version":"2.1","id":${JSON.stringify(f.id)},"created_by_ref":"${PRODUCER_IDENTITY_ID}",` +
    `"created":${JSON.stringify(f.created)},"modified":${JSON.stringify(f.modified)},"name":${JSON.stringify(f.name)},` +
    `"description":${JSON.stringify(f.description)},"indicator_types":["malicious-activity"],"pattern":${JSON.stringify(f.pattern)},` +
    `"pattern_type":"stix","pattern_version":"2.1","valid_from":${JSON.stringify(f.valid_from)},"confidence":${JSON.stringify(row.confidence)},` +
    `"labels":[${JSON.stringify(f.label)}],"object_marking_refs":[${JSON.stringify(f.marking) ?? 'null'}]}`
  );
}

export interface RelationshipSource {
  id: string;
  kind: string;
  src: { type: ObservableEntityType; value: string };
  dst: { type: ObservableEntityType; value: string };
  first_seen_at: Date | string;
  last_seen_at: Date | string;
}

/** A graph edge between two exported observables (`related-to`; the graph's kind in the description). */
export function stixRelationship(edge: RelationshipSource): StixObject {
  const created = stixTime(edge.first_seen_at);
  const modified = stixTime(edge.last_seen_at);
  return {
    type: 'relationship',
    spec_version: '2.1',
    id: `relationship--${edge.id}`,
    created_by_ref: PRODUCER_IDENTITY_ID,
    created,
    modified: modified < created ? created : modified,
    relationship_type: 'related-to',
    description: `graph edge: ${edge.kind}`,
    source_ref: observable(edge.src.type, edge.src.value).id,
    target_ref: observable(edge.dst.type, edge.dst.value).id,
  };
}

export interface CampaignSource {
  id: string;
  name: string;
  description: string;
  taxonomy: string | null;
  created_at: Date | string;
  updated_at: Date | string;
}

export function stixCampaign(c: CampaignSource): StixObject {
  const created = stixTime(c.created_at);
  const modified = stixTime(c.updated_at);
  const object: StixObject = {
    type: 'campaign',
    spec_version: '2.1',
    id: `campaign--${c.id}`,
    created_by_ref: PRODUCER_IDENTITY_ID,
    created,
    modified: modified < created ? created : modified,
    name: c.name,
  };
  if (c.description) object.description = c.description;
  if (c.taxonomy) object.labels = [c.taxonomy.toLowerCase().replace(/[^a-z0-9/-]+/g, '-')];
  return object;
}

/** An indicator `indicates` a campaign its entity is a member of (a relationship the standard suggests). */
export function stixIndicatesCampaign(entityId: string, campaignId: string, at: Date | string): StixObject {
  const time = stixTime(at);
  return {
    type: 'relationship',
    spec_version: '2.1',
    id: `relationship--${stableUuidV4(`indicates:${entityId}:${campaignId}`)}`,
    created_by_ref: PRODUCER_IDENTITY_ID,
    created: time,
    modified: time,
    relationship_type: 'indicates',
    source_ref: `indicator--${entityId}`,
    target_ref: `campaign--${campaignId}`,
  };
}
