// Intelligence analytics: what the entity explorer, the risk score and the graph
// read at a million entities.
// - entities gain the derived figures the list sorts and filters on, kept by the risk-score activity
//   (activities/intelligence/risk-scores.ts) whenever an entity's sightings change:
//   loss_by_currency (JSON {"EUR": "1200.00"}: per currency, the sum of loss_amount of the distinct
//   cases and intakes whose sightings mention the entity), loss_max (the largest per-currency total:
//   the one figure `min_loss` and `order_by=loss` compare, no currency conversion), victim_count
//   (distinct intakes), risk_explanation (the score's factors) and risk_computed_at.
// - keyset indexes for each order of GET /intelligence/entities, with and without an entity_type.
// - the graph's BFS reads relationships by src and by dst with the weight, so both are covered.
// - pg_trgm for /discovery/search (prefix and substring over entity values).
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.raw('CREATE EXTENSION IF NOT EXISTS pg_trgm');
  await knex.schema.alterTable('entities', (t) => {
    t.jsonb('loss_by_currency').notNullable().defaultTo('{}');
    t.decimal('loss_max', 20, 2).notNullable().defaultTo(0);
    t.integer('victim_count').notNullable().defaultTo(0);
    t.jsonb('risk_explanation');
    t.timestamp('risk_computed_at', { useTz: true });
  });
  // Keyset orders of the entity list: (key DESC, id DESC), unfiltered and per type.
  await knex.raw('CREATE INDEX entities_risk_idx ON entities ((COALESCE(risk_score, -1)), id)');
  await knex.raw('CREATE INDEX entities_type_risk_idx ON entities (type, (COALESCE(risk_score, -1)), id)');
  await knex.raw('CREATE INDEX entities_loss_idx ON entities (loss_max, id)');
  await knex.raw('CREATE INDEX entities_type_loss_idx ON entities (type, loss_max, id)');
  await knex.raw('CREATE INDEX entities_sightings_idx ON entities (sighting_count, id)');
  await knex.raw('CREATE INDEX entities_type_sightings_idx ON entities (type, sighting_count, id)');
  await knex.raw('CREATE INDEX entities_type_last_seen_idx ON entities (type, last_seen_at, id)');
  // Quick search: substring through the trigram index on entities.value that the search migration
  // (20261122002200) created, and prefix through this one.
  await knex.raw('CREATE INDEX entities_value_prefix_idx ON entities (value text_pattern_ops)');
  // Graph traversal: the neighbours of a frontier from either end, heaviest first, index-only.
  await knex.raw('CREATE INDEX relationships_src_weight_idx ON relationships (src_entity_id, weight DESC) INCLUDE (dst_entity_id, kind, id)');
  await knex.raw('CREATE INDEX relationships_dst_weight_idx ON relationships (dst_entity_id, weight DESC) INCLUDE (src_entity_id, kind, id)');
  // Activity sparkline and per-source rollups of one entity.
  await knex.raw('CREATE INDEX sightings_entity_observed_idx ON sightings (entity_id, observed_at)');
  await knex.raw('CREATE INDEX indicators_confidence_idx ON indicators (confidence, entity_id)');
}

export async function down(knex: Knex): Promise<void> {
  for (const idx of [
    'indicators_confidence_idx',
    'sightings_entity_observed_idx',
    'relationships_dst_weight_idx',
    'relationships_src_weight_idx',
    'entities_value_prefix_idx',
    'entities_type_last_seen_idx',
    'entities_type_sightings_idx',
    'entities_sightings_idx',
    'entities_type_loss_idx',
    'entities_loss_idx',
    'entities_type_risk_idx',
    'entities_risk_idx',
  ]) {
    await knex.raw(`DROP INDEX IF EXISTS ${idx}`);
  }
  await knex.schema.alterTable('entities', (t) => {
    t.dropColumns('loss_by_currency', 'loss_max', 'victim_count', 'risk_explanation', 'risk_computed_at');
  });
}
