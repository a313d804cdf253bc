// What the intelligence routes answer, shaped from the repositories' rows for one caller: bank
// details masked for every role but analyst, every value masked for researchers (aggregate-only,
// domain/masking/masking-policy.ts).
import type { Role } from '../../domain/accounts/roles';
import { jsonTime } from '../../domain/iso-time';
import { maskingFor } from '../../domain/masking/masking-policy';
import { showsFigure } from '../../domain/analytics/small-group-suppression';

const visibleEntityValue = (type: string, value: string, roles: readonly Role[]) => maskingFor(roles).value(type, value);
const isAggregateOnly = (roles: readonly Role[]) => maskingFor(roles).aggregateOnly;
import type { IntelEntityRow } from '../../db/repositories/intelligence/intel-entity-repository';
import type { GraphNodeRow, IndicatorRow, IntelEntityDetailRow, LinkedCase, SightingsBySource } from '../../db/repositories/intelligence/intel-read-repository';
import { warnHost, warnIp } from '../../domain/similarity/warning-lists';

// Timestamps go out as the text JSON.stringify would write for them (jsonTime: the same bytes, at a
// fraction of the cost of Date#toJSON).
/**
 * Whether an entity's loss and victim figures are withheld from this caller: researchers see them
 * only when at least `minVictims` (SVC_EXPORTS__MIN_GROUP_SIZE) distinct victims mention the entity
 * and every currency of its loss rests on as many (loss_victims; unknown counts as too few).
 */
export function entityFiguresSuppressed(row: { victim_count: number; loss_max: string; loss_victims: number | null }, roles: readonly Role[], minVictims: number): boolean {
  if (!isAggregateOnly(roles)) return false;
  const hasLoss = Number(row.loss_max) > 0;
  return !showsFigure(row.victim_count, minVictims) || (hasLoss && !showsFigure(row.loss_victims ?? 0, minVictims));
}

export function entityView(row: IntelEntityRow, roles: readonly Role[], minVictims = 0) {
  const aggregateOnly = isAggregateOnly(roles);
  const suppressed = entityFiguresSuppressed(row, roles, minVictims);
  return {
    id: row.id,
    type: row.type,
    value: visibleEntityValue(row.type, row.value, roles),
    display_value: visibleEntityValue(row.type, row.display_value, roles),
    attributes: aggregateOnly || row.type === 'bank_account' && !roles.includes('analyst') ? {} : row.attributes,
    first_seen_at: jsonTime(row.first_seen_at),
    last_seen_at: jsonTime(row.last_seen_at),
    sighting_count: row.sighting_count,
    risk_score: row.risk_score,
    loss: suppressed ? null : { max: row.loss_max, by_currency: row.loss_by_currency },
    victim_count: suppressed ? null : row.victim_count,
  };
}

export function entityDetailView(
  row: IntelEntityDetailRow,
  extra: { cases: LinkedCase[]; sightings: SightingsBySource[] },
  roles: readonly Role[],
  minVictims = 0,
) {
  const aggregateOnly = isAggregateOnly(roles);
  const suppressed = entityFiguresSuppressed(row, roles, minVictims);
  return {
    ...entityView(row, roles, minVictims),
    // The factors carry the loss and the victim count as their inputs.
    risk: { score: row.risk_score, computed_at: jsonTime(row.risk_computed_at), factors: suppressed ? [] : (row.risk_explanation ?? []) },
    loss_by_currency: Object.entries(suppressed ? {} : row.loss_by_currency)
      .map(([currency, amount]) => ({ currency, amount }))
      .sort((a, b) => (a.currency < b.currency ? -1 : 1)),
    sightings_by_source: extra.sightings.map((s) => ({ ...s, first_observed_at: jsonTime(s.first_observed_at), last_observed_at: jsonTime(s.last_observed_at) })),
    linked_case_count: extra.cases.length,
    // Researchers do not read cases: they get the count only.
    linked_cases: aggregateOnly ? [] : extra.cases.map((c) => ({ ...c, title: maskingFor(roles).text(c.title) })),
  };
}

export function nodeView(row: GraphNodeRow, roles: readonly Role[]) {
  return {
    id: row.id,
    type: row.type,
    value: visibleEntityValue(row.type, row.value, roles),
    display_value: visibleEntityValue(row.type, row.display_value, roles),
    risk_score: row.risk_score,
    // An address or domain many unrelated sites share (CDN, hosting, parking, shortener, public
    // mail, loopback): a hub in the graph that says nothing about who runs them.
    ...((row.type === 'ip' && warnIp(row.value)) || (row.type === 'domain' && warnHost(row.value)) ? { shared_infrastructure: true } : {}),
  };
}

export function indicatorView(row: IndicatorRow, roles: readonly Role[]) {
  return {
    id: row.entity_id,
    type: row.type,
    value: visibleEntityValue(row.type, row.value, roles),
    display_value: visibleEntityValue(row.type, row.display_value, roles),
    category: row.category,
    confidence: row.confidence,
    valid_from: row.valid_from,
    tlp: row.tlp,
    revision: row.revision,
    risk_score: row.risk_score,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export function rolesOf(principal: { kind: 'user'; roles: Role[] } | { kind: 'service' } | null): Role[] {
  return principal && principal.kind === 'user' ? principal.roles : [];
}
