// The MISP core format (MISP JSON, misp-rfc) of a case or a campaign (pure): one event with the
// subject's entities as attributes (domain, url, ip-dst, email-src, phone-number, iban /
// bank-account-nr) and each wallet as a `coin-address` object; exactly one TLP tag (the most
// restrictive marking of what the event holds); the scam taxonomy as tags. Every uuid is a UUIDv5
// of stable ids in this platform's MISP namespace, so a re-export (and a feed fetched again) has the
// same uuids and MISP updates its copy instead of adding one. Masked values (bank details for every
// role but analyst) get their own uuids and the `text` type: a masked account is no account number.
import { hash } from 'node:crypto';
import { taxonomyLineage } from '../analytics/scam-taxonomy';
import { DEFAULT_TLP, TLP_LABELS, type TlpLabel } from '../intelligence/indicators';
import { maskBankAccount } from '../intelligence/entity-masking';
import { NETWORKS, resolveNetworkName } from '../wallets/network-catalog';

/** The namespace of every uuid this platform writes into MISP (fixed: uuids must not change). */
export const MISP_UUID_NAMESPACE = '3b0f6c1e-52a4-4f7d-9c28-8e1a6d4b7f90';

/** This platform as the creator organisation of its events (Orgc). */
export const MISP_ORGC = { name: 'Fraud Intelligence Platform', uuid: '6f4b1c1e-4f0a-4d5e-9a57-3c2d1b0e8f11' } as const;

/** The coin-address object template (MISP/misp-objects) these events fill. */
export const COIN_ADDRESS_TEMPLATE = { name: 'coin-address', uuid: 'd0e6997e-78da-4815-a6a1-cfc1c1cb8a46', version: '7', meta_category: 'financial' } as const;

/** RFC 4122 UUIDv5 of `name` in `namespace`. */
export function uuidV5(namespace: string, name: string): string {
  const hex = hash('sha1', Buffer.concat([Buffer.from(namespace.replace(/-/g, ''), 'hex'), Buffer.from(name, 'utf8')]), 'hex');
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

export const mispUuid = (name: string): string => uuidV5(MISP_UUID_NAMESPACE, name);

/** The event uuid of a case or a campaign. */
export const mispEventUuid = (subject: { kind: 'case' | 'campaign'; id: string }): string => mispUuid(`${subject.kind}:${subject.id}`);

export interface MispSubjectEntity {
  id: string;
  type: string;
  value: string;
  attributes: Record<string, unknown>;
  first_seen_at: Date;
  last_seen_at: Date;
  risk_score: number | null;
  /** The indicator's marking; null: the entity has no indicator (it counts as the default, amber). */
  tlp: TlpLabel | null;
}

export interface MispSubject {
  kind: 'case' | 'campaign';
  id: string;
  /** The case's title or the campaign's name. */
  name: string;
  /** Case: open, in_review, referred, closed; campaign: active, dormant, closed. */
  status: string;
  /** Case priority (low..critical); campaigns have none. */
  priority: string | null;
  /** Scam-taxonomy paths (the case's; the campaign's and its cases'). */
  taxonomies: string[];
  created_at: Date;
  /** The latest change of the subject itself (and, for a campaign, of its cases). */
  updated_at: Date;
}

export interface MispAttribute {
  uuid: string;
  type: string;
  category: string;
  value: string;
  to_ids: boolean;
  disable_correlation: boolean;
  comment: string;
  timestamp: string;
  first_seen?: string;
  last_seen?: string;
  object_relation?: string;
}

export interface MispObject {
  uuid: string;
  name: string;
  'meta-category': string;
  description: string;
  template_uuid: string;
  template_version: string;
  timestamp: string;
  comment: string;
  first_seen: string;
  last_seen: string;
  Attribute: MispAttribute[];
}

export interface MispEvent {
  Event: {
    uuid: string;
    info: string;
    date: string;
    threat_level_id: string;
    analysis: string;
    distribution: string;
    published: boolean;
    timestamp: string;
    publish_timestamp: string;
    Orgc: { name: string; uuid: string };
    Tag: Array<{ name: string }>;
    Attribute: MispAttribute[];
    Object: MispObject[];
  };
}

const TLP_ORDER: Record<TlpLabel, number> = Object.fromEntries(TLP_LABELS.map((t, i) => [t, i])) as Record<TlpLabel, number>;

/** The event's one TLP: the most restrictive marking of its entities (an entity without an indicator counts as the default, amber). */
export function eventTlp(entities: ReadonlyArray<{ tlp: TlpLabel | null }>): TlpLabel {
  let tlp: TlpLabel | null = null;
  for (const e of entities) {
    const t = e.tlp ?? DEFAULT_TLP;
    if (tlp === null || TLP_ORDER[t] > TLP_ORDER[tlp]) tlp = t;
  }
  return tlp ?? DEFAULT_TLP;
}

/** MISP distribution from the TLP: clear = all communities (3), green = this community (1), amber and above = this organisation only (0). */
export function distributionOf(tlp: TlpLabel): number {
  return tlp === 'clear' ? 3 : tlp === 'green' ? 1 : 0;
}

/** MISP threat level (1 high, 2 medium, 3 low, 4 undefined): a case's priority; a campaign's riskiest entity (≥ 70 high, ≥ 40 medium). */
export function threatLevelOf(subject: Pick<MispSubject, 'kind' | 'priority'>, entities: ReadonlyArray<{ risk_score: number | null }>): number {
  if (subject.kind === 'case') return subject.priority === 'critical' || subject.priority === 'high' ? 1 : subject.priority === 'medium' ? 2 : subject.priority === 'low' ? 3 : 4;
  const scores = entities.map((e) => e.risk_score).filter((s): s is number => s !== null);
  if (!scores.length) return 4;
  const max = Math.max(...scores);
  return max >= 70 ? 1 : max >= 40 ? 2 : 3;
}

/** MISP analysis (0 initial, 1 ongoing, 2 completed): a referred or closed case, a closed campaign are completed. */
export function analysisOf(subject: Pick<MispSubject, 'status'>): number {
  return subject.status === 'closed' || subject.status === 'referred' ? 2 : 1;
}

/** Machine tags of the scam taxonomy: each path and its parents, `fip:scam-taxonomy="investment/crypto"`. */
export function taxonomyTags(paths: readonly string[]): string[] {
  const out = new Set<string>();
  for (const p of paths) for (const node of taxonomyLineage(p).length ? taxonomyLineage(p) : [p]) out.add(`fip:scam-taxonomy="${node.replace(/"/g, '')}"`);
  return [...out].sort();
}

const epoch = (d: Date): string => String(Math.floor(d.getTime() / 1000));
const iso = (d: Date): string => d.toISOString();

/**
 * The coin-address relation and type for a wallet's network: btc and xmr where MISP has the type,
 * else the generic text address. A Monero integrated address (106 characters, a payment id inside)
 * is not the 95-character standard address MISP's xmr type takes: it stays generic.
 */
export function coinAddressRelation(network: string | null, address = ''): { relation: 'address' | 'address-xmr' | 'address-crypto'; type: 'btc' | 'xmr' | 'text' } {
  const ids = network ? resolveNetworkName(network) : [];
  if (ids.length === 1 && ids[0] === 'bitcoin') return { relation: 'address', type: 'btc' };
  if (ids.length === 1 && ids[0] === 'monero' && (address === '' || address.length === 95)) return { relation: 'address-xmr', type: 'xmr' };
  return { relation: 'address-crypto', type: 'text' };
}

/** The symbol of a wallet: its token when known, else its network's native coin. */
function walletSymbol(attributes: Record<string, unknown>): string | null {
  if (typeof attributes.token === 'string' && attributes.token) return attributes.token.toUpperCase();
  const ids = typeof attributes.network === 'string' ? resolveNetworkName(attributes.network) : [];
  return ids.length === 1 ? (NETWORKS.find((n) => n.id === ids[0])?.native ?? null) : null;
}

const IBAN = /^[A-Z]{2}\d{2}[A-Z0-9]{8,30}$/;

/** Entity types an event holds (persons are left out: a name is no indicator, and it is personal data). */
const MISP_ENTITY_TYPES = new Set(['wallet', 'domain', 'url', 'ip', 'email', 'phone', 'bank_account', 'social_handle', 'organization']);

/** One MISP attribute of a non-wallet entity; null for entities MISP events leave out (persons). */
function entityAttribute(eventUuid: string, e: MispSubjectEntity, clearBankDetails: boolean): MispAttribute | null {
  const base = { comment: '', timestamp: epoch(e.last_seen_at), first_seen: iso(e.first_seen_at), last_seen: iso(e.last_seen_at) };
  const make = (type: string, category: string, value: string, to_ids: boolean, extra: Partial<MispAttribute> = {}, uuidSuffix = ''): MispAttribute => ({
    uuid: mispUuid(`${eventUuid}/attribute/${e.id}${uuidSuffix}`),
    type,
    category,
    value,
    to_ids,
    disable_correlation: false,
    ...base,
    ...extra,
  });
  switch (e.type) {
    case 'domain':
      return make('domain', 'Network activity', e.value, true);
    case 'url':
      return make('url', 'Network activity', e.value, true);
    case 'ip':
      return make('ip-dst', 'Network activity', e.value, true);
    case 'email':
      return make('email-src', 'Payload delivery', e.value, true);
    case 'phone':
      return make('phone-number', 'Financial fraud', e.value, false);
    case 'bank_account': {
      if (!clearBankDetails) return make('text', 'Financial fraud', maskBankAccount(e.value), false, { disable_correlation: true, comment: 'bank account (masked)' }, '/masked');
      const compact = e.value.replace(/[\s-]/g, '').toUpperCase();
      return IBAN.test(compact) ? make('iban', 'Financial fraud', compact, true) : make('bank-account-nr', 'Financial fraud', compact, true);
    }
    case 'social_handle': {
      const platform = typeof e.attributes.platform === 'string' ? e.attributes.platform : null;
      return make('text', 'Social network', e.value, false, { comment: platform ? `social media handle (${platform})` : 'social media handle' });
    }
    case 'organization':
      return make('text', 'Attribution', e.value, false, { comment: 'organization named by the fraud' });
    default:
      return null;
  }
}

/** A wallet as a coin-address object: the address (btc, xmr or generic), its symbol, and its network as text. */
function walletObject(eventUuid: string, e: MispSubjectEntity): MispObject {
  const objectUuid = mispUuid(`${eventUuid}/object/${e.id}`);
  const network = typeof e.attributes.network === 'string' && e.attributes.network ? e.attributes.network : null;
  const { relation, type } = coinAddressRelation(network, e.value);
  const ts = epoch(e.last_seen_at);
  const attr = (object_relation: string, t: string, value: string, to_ids: boolean, disable_correlation: boolean): MispAttribute => ({
    uuid: mispUuid(`${objectUuid}/${object_relation}`),
    object_relation,
    type: t,
    category: 'Financial fraud',
    value,
    to_ids,
    disable_correlation,
    comment: '',
    timestamp: ts,
  });
  const attributes = [attr(relation, type, e.value, true, false)];
  const symbol = walletSymbol(e.attributes);
  if (symbol) attributes.push(attr('symbol', 'text', symbol, false, true));
  if (network) attributes.push(attr('text', 'text', `network: ${network}`, false, true));
  return {
    uuid: objectUuid,
    name: COIN_ADDRESS_TEMPLATE.name,
    'meta-category': COIN_ADDRESS_TEMPLATE.meta_category,
    description: 'An address used in a cryptocurrency',
    template_uuid: COIN_ADDRESS_TEMPLATE.uuid,
    template_version: COIN_ADDRESS_TEMPLATE.version,
    timestamp: ts,
    comment: '',
    first_seen: iso(e.first_seen_at),
    last_seen: iso(e.last_seen_at),
    Attribute: attributes,
  };
}

/** The MISP event of a case or campaign and its entities, bank details as the caller may see them. */
export function mispEvent(subject: MispSubject, all: readonly MispSubjectEntity[], opts: { clearBankDetails: boolean }): MispEvent {
  const uuid = mispEventUuid(subject);
  // The marking comes from what the event holds: a person left out does not raise it.
  const entities = all.filter((e) => MISP_ENTITY_TYPES.has(e.type));
  const tlp = eventTlp(entities);
  const attributes: MispAttribute[] = [];
  const objects: MispObject[] = [];
  let latest = subject.updated_at.getTime();
  for (const e of entities) {
    latest = Math.max(latest, e.last_seen_at.getTime());
    if (e.type === 'wallet') objects.push(walletObject(uuid, e));
    else {
      const a = entityAttribute(uuid, e, opts.clearBankDetails);
      if (a) attributes.push(a);
    }
  }
  const timestamp = epoch(new Date(latest));
  return {
    Event: {
      uuid,
      info: `${subject.kind === 'case' ? 'Case' : 'Campaign'}: ${subject.name}`.slice(0, 65535),
      date: iso(subject.created_at).slice(0, 10),
      threat_level_id: String(threatLevelOf(subject, entities)),
      analysis: String(analysisOf(subject)),
      distribution: String(distributionOf(tlp)),
      published: true,
      timestamp,
      publish_timestamp: timestamp,
      Orgc: { ...MISP_ORGC },
      Tag: [{ name: `tlp:${tlp}` }, ...taxonomyTags(subject.taxonomies).map((name) => ({ name }))],
      Attribute: attributes,
      Object: objects,
    },
  };
}

/** The manifest.json entry of an event (what MISP reads before fetching the event file). */
export function mispManifestEntry(e: MispEvent): Record<string, unknown> {
  const ev = e.Event;
  return {
    [ev.uuid]: { Orgc: ev.Orgc, Tag: ev.Tag, info: ev.info, date: ev.date, analysis: Number(ev.analysis), threat_level_id: Number(ev.threat_level_id), timestamp: Number(ev.timestamp) },
  };
}

/** hashes.csv lines of an event: `md5(value),event_uuid` per attribute value (object attributes included; each part of a composite `a|b` type). */
export function mispHashLines(e: MispEvent): string[] {
  const lines: string[] = [];
  const add = (a: MispAttribute): void => {
    const parts = a.type.includes('|') ? a.value.split('|') : [a.value];
    for (const p of parts) lines.push(`${hash('md5', p, 'hex')},${e.Event.uuid}`);
  };
  for (const a of e.Event.Attribute) add(a);
  for (const o of e.Event.Object) for (const a of o.Attribute) add(a);
  return lines;
}

/** The number of attributes of an event (objects' included): the audited row count. */
export function mispAttributeCount(e: MispEvent): number {
  return e.Event.Attribute.length + e.Event.Object.reduce((n, o) => n + o.Attribute.length, 0);
}
