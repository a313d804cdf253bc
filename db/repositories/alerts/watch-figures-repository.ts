// The figures a watch rule compares (domain/alerts/watch-rules.ts): for an entity, its sightings,
// the URL and domain entities linked to it, its loss per currency and its risk score; for a
// campaign, the same over its member entities.
import type { Knex } from 'knex';
import type { WatchFigures } from '../../../domain/alerts/watch-rules';

const SITE_TYPES = ['url', 'domain'];

function losses(rows: Array<{ loss_by_currency: Record<string, string | number> | null }>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const r of rows) for (const [c, v] of Object.entries(r.loss_by_currency ?? {})) out[c] = (out[c] ?? 0) + Number(v);
  return out;
}

async function linkedSites(knex: Knex, entityIds: string[]): Promise<string[]> {
  if (entityIds.length === 0) return [];
  const rows = (await knex
    .select('e.id')
    .from('relationships as r')
    .join('entities as e', function () {
      this.on(knex.raw('e.id = CASE WHEN r.src_entity_id = ANY(?::uuid[]) THEN r.dst_entity_id ELSE r.src_entity_id END', [entityIds]));
    })
    .where((w) => w.whereRaw('r.src_entity_id = ANY(?::uuid[])', [entityIds]).orWhereRaw('r.dst_entity_id = ANY(?::uuid[])', [entityIds]))
    .whereIn('e.type', SITE_TYPES)
    .whereRaw('NOT (e.id = ANY(?::uuid[]))', [entityIds])
    .distinct()) as Array<{ id: string }>;
  return rows.map((r) => r.id).sort();
}

export async function entityFigures(knex: Knex, entityId: string): Promise<WatchFigures | null> {
  const e = (await knex('entities').select('id', 'sighting_count', 'loss_by_currency', 'risk_score').where({ id: entityId }).first()) as
    | { id: string; sighting_count: number; loss_by_currency: Record<string, string>; risk_score: number | null }
    | undefined;
  if (!e) return null;
  return { sightings: e.sighting_count, linked_sites: await linkedSites(knex, [e.id]), loss_by_currency: losses([e]), risk: e.risk_score };
}

export async function campaignFigures(knex: Knex, campaignId: string): Promise<WatchFigures | null> {
  const c = await knex('campaigns').select('id').where({ id: campaignId }).first();
  if (!c) return null;
  const members = (await knex('entities as e')
    .join('campaign_entities as ce', 'ce.entity_id', 'e.id')
    .where('ce.campaign_id', campaignId)
    .select('e.id', 'e.type', 'e.sighting_count', 'e.loss_by_currency', 'e.risk_score')) as Array<{
    id: string;
    type: string;
    sighting_count: number;
    loss_by_currency: Record<string, string>;
    risk_score: number | null;
  }>;
  const ids = members.map((m) => m.id);
  const sites = new Set([...members.filter((m) => SITE_TYPES.includes(m.type)).map((m) => m.id), ...(await linkedSites(knex, ids))]);
  const risks = members.map((m) => m.risk_score).filter((r): r is number => r !== null);
  return {
    sightings: members.reduce((n, m) => n + m.sighting_count, 0),
    linked_sites: [...sites].sort(),
    loss_by_currency: losses(members),
    risk: risks.length ? Math.max(...risks) : null,
  };
}

export async function entityExists(knex: Knex, id: string): Promise<boolean> {
  return Boolean(await knex('entities').select('id').where({ id }).first());
}

/** An entity's type and display value (the caller masks the value for whoever reads the label). */
export async function entityLabel(knex: Knex, id: string): Promise<{ type: string; value: string } | null> {
  const e = (await knex('entities').select('type', 'display_value').where({ id }).first()) as { type: string; display_value: string } | undefined;
  return e ? { type: e.type, value: e.display_value } : null;
}
