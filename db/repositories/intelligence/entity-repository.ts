// The one upsert path of the intelligence graph (docs/data-model.md): "source X mentions these
// entities (and knows these links)" becomes entities, sightings and edges in one transaction.
// Every feature calls recordSourceEntities; none writes `entities` by hand.
//
// Idempotent: a retried activity or a replayed submission adds nothing. Sightings are unique per
// (entity, source); an edge's weight counts the distinct sources that evidence it
// (relationship_evidence), so it grows once per source however often the source is recorded.
// Calls for the same source are serialized by an advisory lock; entity rows are upserted in a fixed
// order (type, value), so concurrent calls for different sources cannot deadlock on them.
import type { Knex } from 'knex';
import {
  MAX_COOCCURRING_ENTITIES_PER_SOURCE,
  isUndirected,
  type GraphEntityType,
  type RelationshipKind,
  type SourceKind,
} from '../../../domain/intelligence/entity-types';
import { DEFAULT_TLP, UNCLASSIFIED_CATEGORY, confidenceFromSightings, isIndicatorType } from '../../../domain/intelligence/indicators';
import { normalizeEntity } from '../../../domain/intelligence/normalize-entity';

export interface EntityMention {
  type: GraphEntityType;
  /** As found; normalized here (domain/intelligence/normalize-entity.ts). */
  value: string;
  /** Merged into the entity's attributes (for example network and token of a wallet). */
  attributes?: Record<string, unknown>;
  /** Stored on the sighting: where in the source it was seen (page URL, file name, field, ...). */
  context?: Record<string, unknown>;
}

export interface EntityLink {
  src: { type: GraphEntityType; value: string };
  dst: { type: GraphEntityType; value: string };
  kind: Exclude<RelationshipKind, 'co_occurs'>;
}

export interface SourceRef {
  kind: SourceKind;
  id: string;
  /** When the source saw them; default now. */
  observedAt?: Date;
}

export interface RecordedEntity {
  id: string;
  type: GraphEntityType;
  value: string;
  display_value: string;
  /** True when this call added the sighting (false on a repeat). */
  new_sighting: boolean;
}

export interface RecordResult {
  entities: RecordedEntity[];
  rejected: Array<{ type: string; value: string; reason: string }>;
  /** Edges whose weight this call raised (a repeat raises none). */
  edges_added: number;
}

export interface EntityRow {
  id: string;
  type: GraphEntityType;
  value: string;
  display_value: string;
  attributes: Record<string, unknown>;
  first_seen_at: Date;
  last_seen_at: Date;
  sighting_count: number;
  risk_score: number | null;
}

const CHUNK = 1000;

interface Prepared {
  type: GraphEntityType;
  value: string;
  display: string;
  attributes: Record<string, unknown>;
  context: Record<string, unknown>;
}

const keyOf = (type: string, value: string) => `${type}\u0000${value}`;

function prepare(mentions: EntityMention[], links: EntityLink[]): { rows: Prepared[]; rejected: RecordResult['rejected']; linkKeys: Array<[string, string, EntityLink['kind']]> } {
  const byKey = new Map<string, Prepared>();
  const rejected: RecordResult['rejected'] = [];
  const add = (m: EntityMention): string | null => {
    const n = normalizeEntity(m.type, m.value, m.attributes ?? {});
    if (!n) {
      rejected.push({ type: m.type, value: String(m.value).slice(0, 200), reason: `not a valid ${m.type}` });
      return null;
    }
    const key = keyOf(m.type, n.value);
    const attributes = { ...n.attributes, ...(m.attributes ?? {}) };
    delete attributes.default_country;
    const seen = byKey.get(key);
    if (seen) {
      Object.assign(seen.attributes, attributes);
      Object.assign(seen.context, m.context ?? {});
    } else {
      byKey.set(key, { type: m.type, value: n.value, display: n.display, attributes, context: { ...(m.context ?? {}) } });
    }
    return key;
  };
  for (const m of mentions) add(m);
  const linkKeys: Array<[string, string, EntityLink['kind']]> = [];
  for (const l of links) {
    const a = add(l.src);
    const b = add(l.dst);
    if (a && b && a !== b) linkKeys.push([a, b, l.kind]);
  }
  const rows = [...byKey.values()].sort((x, y) => (x.type === y.type ? (x.value < y.value ? -1 : x.value > y.value ? 1 : 0) : x.type < y.type ? -1 : 1));
  return { rows, rejected, linkKeys };
}

function chunks<T>(items: T[], size = CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** Upserts edges and their evidence for this source; answers how many edges gained weight. */
async function addEdges(trx: Knex.Transaction, source: SourceRef, observedAt: Date, edges: Array<[string, string, RelationshipKind]>): Promise<number> {
  let added = 0;
  for (const part of chunks(edges)) {
    const upserted = (await trx('relationships')
      .insert(part.map(([src, dst, kind]) => ({ src_entity_id: src, dst_entity_id: dst, kind, weight: 0, first_seen_at: observedAt, last_seen_at: observedAt })))
      .onConflict(['src_entity_id', 'dst_entity_id', 'kind'])
      .merge({
        first_seen_at: trx.raw('LEAST(relationships.first_seen_at, excluded.first_seen_at)'),
        last_seen_at: trx.raw('GREATEST(relationships.last_seen_at, excluded.last_seen_at)'),
      })
      .returning('id')) as Array<{ id: string }>;
    const fresh = (await trx('relationship_evidence')
      .insert(upserted.map((r) => ({ relationship_id: r.id, source_kind: source.kind, source_id: source.id, observed_at: observedAt })))
      .onConflict(['relationship_id', 'source_kind', 'source_id'])
      .ignore()
      .returning('relationship_id')) as Array<{ relationship_id: string }>;
    if (fresh.length) {
      await trx('relationships').whereIn('id', fresh.map((r) => r.relationship_id)).increment('weight', 1);
      added += fresh.length;
    }
  }
  return added;
}

/**
 * Keeps one indicator per url/domain/ip/email/wallet entity (docs/data-model.md): created on the
 * entity's first sighting (valid from then, category unclassified, default TLP); its confidence
 * follows the number of independent sightings (domain/intelligence/indicators.ts) and every change takes a
 * new revision, so feeds see it again. A repeat (no new sighting) changes nothing.
 */
async function upsertIndicators(trx: Knex.Transaction, entityIds: string[], newSightings: Set<string>): Promise<void> {
  const changed = entityIds.filter((id) => newSightings.has(id));
  for (const part of chunks(changed)) {
    const counts = (await trx('entities').whereIn('id', part).select('id', 'sighting_count', 'first_seen_at')) as Array<{ id: string; sighting_count: number; first_seen_at: Date }>;
    await trx('indicators')
      .insert(counts.map((e) => ({ entity_id: e.id, confidence: confidenceFromSightings(e.sighting_count), valid_from: e.first_seen_at, category: UNCLASSIFIED_CATEGORY, tlp: DEFAULT_TLP })))
      .onConflict('entity_id')
      .merge({
        // Never lowers what an analyst set; corroboration only raises it.
        confidence: trx.raw('GREATEST(indicators.confidence, excluded.confidence)'),
        valid_from: trx.raw('LEAST(indicators.valid_from, excluded.valid_from)'),
        revision: trx.raw("nextval('indicator_revision_seq')"),
        updated_at: trx.fn.now(),
      });
  }
}

export async function recordSourceEntities(knex: Knex, source: SourceRef, mentions: EntityMention[], links: EntityLink[] = []): Promise<RecordResult> {
  const { rows, rejected, linkKeys } = prepare(mentions, links);
  if (rows.length === 0) return { entities: [], rejected, edges_added: 0 };
  const observedAt = source.observedAt ?? new Date();
  return knex.transaction(async (trx) => {
    await trx.raw('SELECT pg_advisory_xact_lock(hashtextextended(?, 0))', [`graph-source:${source.kind}:${source.id}`]);

    const idByKey = new Map<string, { id: string; display_value: string }>();
    for (const part of chunks(rows)) {
      const upserted = (await trx('entities')
        .insert(
          part.map((r) => ({
            type: r.type,
            value: r.value,
            display_value: r.display,
            attributes: JSON.stringify(r.attributes),
            first_seen_at: observedAt,
            last_seen_at: observedAt,
          })),
        )
        .onConflict(['type', 'value'])
        .merge({
          attributes: trx.raw('entities.attributes || excluded.attributes'),
          first_seen_at: trx.raw('LEAST(entities.first_seen_at, excluded.first_seen_at)'),
          last_seen_at: trx.raw('GREATEST(entities.last_seen_at, excluded.last_seen_at)'),
        })
        .returning(['id', 'type', 'value', 'display_value'])) as Array<{ id: string; type: string; value: string; display_value: string }>;
      for (const u of upserted) idByKey.set(keyOf(u.type, u.value), { id: u.id, display_value: u.display_value });
    }

    const newSightings = new Set<string>();
    for (const part of chunks(rows)) {
      const inserted = (await trx('sightings')
        .insert(
          part.map((r) => ({
            entity_id: idByKey.get(keyOf(r.type, r.value))!.id,
            source_kind: source.kind,
            source_id: source.id,
            observed_at: observedAt,
            context: JSON.stringify(r.context),
          })),
        )
        .onConflict(['entity_id', 'source_kind', 'source_id'])
        .ignore()
        .returning('entity_id')) as Array<{ entity_id: string }>;
      for (const i of inserted) newSightings.add(i.entity_id);
    }
    if (newSightings.size) await trx('entities').whereIn('id', [...newSightings]).increment('sighting_count', 1);
    await upsertIndicators(trx, rows.filter((r) => isIndicatorType(r.type)).map((r) => idByKey.get(keyOf(r.type, r.value))!.id), newSightings);

    // Co-occurrence: pairs among the source's first MAX entities in which at least one sighting is new.
    let edges: Array<[string, string, RelationshipKind]> = [];
    if (newSightings.size) {
      const members = (
        (await trx('sightings')
          .where({ source_kind: source.kind, source_id: source.id })
          .orderBy([{ column: 'observed_at' }, { column: 'entity_id' }])
          .limit(MAX_COOCCURRING_ENTITIES_PER_SOURCE)
          .select('entity_id')) as Array<{ entity_id: string }>
      ).map((m) => m.entity_id);
      const pairs = new Set<string>();
      for (const a of members) {
        if (!newSightings.has(a)) continue;
        for (const b of members) {
          if (a === b) continue;
          const [x, y] = a < b ? [a, b] : [b, a];
          pairs.add(`${x}|${y}`);
        }
      }
      edges = [...pairs].sort().map((p) => [...(p.split('|') as [string, string]), 'co_occurs']);
    }
    for (const [a, b, kind] of linkKeys) {
      const src = idByKey.get(a)!.id;
      const dst = idByKey.get(b)!.id;
      edges.push(isUndirected(kind) && dst < src ? [dst, src, kind] : [src, dst, kind]);
    }
    const unique = [...new Map(edges.map((e) => [e.join('|'), e] as const)).values()];
    const edgesAdded = unique.length ? await addEdges(trx, source, observedAt, unique) : 0;

    return {
      entities: rows.map((r) => {
        const e = idByKey.get(keyOf(r.type, r.value))!;
        return { id: e.id, type: r.type, value: r.value, display_value: e.display_value, new_sighting: newSightings.has(e.id) };
      }),
      rejected,
      edges_added: edgesAdded,
    };
  });
}

export async function findEntityByValue(knex: Knex, type: GraphEntityType, rawValue: string): Promise<EntityRow | undefined> {
  const n = normalizeEntity(type, rawValue);
  if (!n) return undefined;
  return knex<EntityRow>('entities').where({ type, value: n.value }).first();
}

/** The entities a source mentions, with the sighting's context. */
export async function listSourceEntities(knex: Knex, kind: SourceKind, id: string): Promise<Array<EntityRow & { context: Record<string, unknown>; observed_at: Date }>> {
  return knex('sightings as s')
    .join('entities as e', 'e.id', 's.entity_id')
    .where({ 's.source_kind': kind, 's.source_id': id })
    .orderBy([{ column: 'e.type' }, { column: 'e.value' }])
    .select('e.*', 's.context', 's.observed_at');
}
