// Precomputed aggregations of the dashboards and widget views. Each is a
// materialized view with a unique index, so that the analytics-refresh job (a Temporal Schedule,
// services/analytics/analytics-refresh.ts) can `REFRESH MATERIALIZED VIEW CONCURRENTLY` without blocking
// readers; analytics_view_refreshes holds when each was last refreshed (the answers' `as_of`).
// entity_countries holds the country each entity points to (phone, IBAN, ccTLD), derived in code
// (domain/analytics/entity-country.ts) by the same job, once per entity (values never change).
import type { Knex } from 'knex';

const UTC = (col: string) => `(${col} AT TIME ZONE 'UTC')`;

const ANALYTICS_VIEW_SQL: Record<string, { sql: string; unique: string }> = {
  analytics_daily_activity: {
    sql: `SELECT metric, day, count(*)::bigint AS n FROM (
            SELECT 'intakes'::text AS metric, ${UTC('created_at')}::date AS day FROM intakes
            UNION ALL SELECT 'cases', ${UTC('created_at')}::date FROM cases
            UNION ALL SELECT 'reviews', ${UTC('created_at')}::date FROM reviews
            UNION ALL SELECT 'decisions', ${UTC('decided_at')}::date FROM reviews WHERE decided_at IS NOT NULL
            UNION ALL SELECT 'referrals', ${UTC('created_at')}::date FROM lea_referrals
            UNION ALL SELECT 'investigations', ${UTC('created_at')}::date FROM investigations
            UNION ALL SELECT 'sightings', ${UTC('observed_at')}::date FROM sightings
            UNION ALL SELECT 'entities', ${UTC('first_seen_at')}::date FROM entities
          ) a GROUP BY metric, day`,
    unique: '(metric, day)',
  },
  analytics_activity_heatmap: {
    sql: `SELECT source, weekday, hour, count(*)::bigint AS n FROM (
            SELECT 'intakes'::text AS source, extract(isodow FROM ${UTC('created_at')})::int AS weekday, extract(hour FROM ${UTC('created_at')})::int AS hour FROM intakes
            UNION ALL SELECT 'sightings', extract(isodow FROM ${UTC('observed_at')})::int, extract(hour FROM ${UTC('observed_at')})::int FROM sightings
          ) h GROUP BY source, weekday, hour`,
    unique: '(source, weekday, hour)',
  },
  analytics_taxonomy_counts: {
    sql: `SELECT taxonomy, sum(cases)::bigint AS cases, sum(open_cases)::bigint AS open_cases, sum(campaigns)::bigint AS campaigns FROM (
            SELECT coalesce(taxonomy, '') AS taxonomy, 1 AS cases, (status <> 'closed')::int AS open_cases, 0 AS campaigns FROM cases
            UNION ALL SELECT coalesce(taxonomy, ''), 0, 0, 1 FROM campaigns
          ) t GROUP BY taxonomy`,
    unique: '(taxonomy)',
  },
  // A case's loss is its own plus its linked intakes' (as GET /cases/{id} total_loss); intakes in no
  // case count as unclassified ('').
  analytics_taxonomy_loss: {
    sql: `SELECT taxonomy, currency, sum(amount)::numeric(38,2) AS amount, count(*)::bigint AS losses, count(DISTINCT case_id)::bigint AS cases FROM (
            SELECT coalesce(c.taxonomy, '') AS taxonomy, c.loss_currency::text AS currency, c.loss_amount AS amount, c.id AS case_id
              FROM cases c WHERE c.loss_amount IS NOT NULL
            UNION ALL
            SELECT coalesce(c.taxonomy, ''), i.loss_currency::text, i.loss_amount, c.id
              FROM intakes i JOIN case_links cl ON cl.target_type = 'intake' AND cl.target_id = i.id::text JOIN cases c ON c.id = cl.case_id
             WHERE i.loss_amount IS NOT NULL AND i.loss_currency IS NOT NULL
            UNION ALL
            SELECT '', i.loss_currency::text, i.loss_amount, NULL::uuid FROM intakes i
             WHERE i.loss_amount IS NOT NULL AND i.loss_currency IS NOT NULL
               AND NOT EXISTS (SELECT 1 FROM case_links cl WHERE cl.target_type = 'intake' AND cl.target_id = i.id::text)
          ) l GROUP BY taxonomy, currency`,
    unique: '(taxonomy, currency)',
  },
  analytics_entity_summary: {
    sql: `SELECT type, count(*)::bigint AS entities, count(*) FILTER (WHERE risk_score >= 70)::bigint AS high_risk,
                 coalesce(sum(sighting_count), 0)::bigint AS sightings
            FROM entities GROUP BY type`,
    unique: '(type)',
  },
  analytics_indicator_summary: {
    sql: `SELECT category, tlp, count(*)::bigint AS indicators FROM indicators GROUP BY category, tlp`,
    unique: '(category, tlp)',
  },
  analytics_country_entities: {
    sql: `SELECT ec.country, e.type, count(*)::bigint AS entities, coalesce(sum(e.sighting_count), 0)::bigint AS sightings,
                 count(*) FILTER (WHERE e.risk_score >= 70)::bigint AS high_risk
            FROM entity_countries ec JOIN entities e ON e.id = ec.entity_id
           WHERE ec.country IS NOT NULL GROUP BY ec.country, e.type`,
    unique: '(country, type)',
  },
  analytics_country_intakes: {
    sql: `SELECT ec.country, count(DISTINCT s.source_id)::bigint AS intakes
            FROM entity_countries ec JOIN sightings s ON s.entity_id = ec.entity_id AND s.source_kind = 'intake'
           WHERE ec.country IS NOT NULL GROUP BY ec.country`,
    unique: '(country)',
  },
};

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('entity_countries', (t) => {
    t.uuid('entity_id').primary().references('entities.id').onDelete('CASCADE');
    // null: classified, no country (a .com domain, an account number without a country).
    t.specificType('country', 'char(2)');
    t.text('basis');
    t.timestamp('classified_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['country'], 'entity_countries_country_idx');
  });
  await knex.schema.createTable('analytics_view_refreshes', (t) => {
    t.text('view_name').primary();
    t.timestamp('refreshed_at', { useTz: true }).notNullable();
  });
  for (const [name, def] of Object.entries(ANALYTICS_VIEW_SQL)) {
    await knex.raw(`CREATE MATERIALIZED VIEW ${name} AS ${def.sql}`);
    await knex.raw(`CREATE UNIQUE INDEX ${name}_key ON ${name} ${def.unique}`);
    await knex('analytics_view_refreshes').insert({ view_name: name, refreshed_at: knex.fn.now() });
  }
  // The dashboards' own reads on the live tables: the riskiest entities (top_entities), the activity timeline.
  await knex.raw('CREATE INDEX IF NOT EXISTS entities_risk_rank_idx ON entities (risk_score DESC NULLS LAST, sighting_count DESC, id)');
  await knex.raw('CREATE INDEX IF NOT EXISTS reviews_decided_at_idx ON reviews (decided_at) WHERE decided_at IS NOT NULL');
  await knex.raw('CREATE INDEX IF NOT EXISTS lea_referrals_created_idx ON lea_referrals (created_at)');
}

export async function down(knex: Knex): Promise<void> {
  for (const name of Object.keys(ANALYTICS_VIEW_SQL).reverse()) await knex.raw(`DROP MATERIALIZED VIEW IF EXISTS ${name}`);
  await knex.raw('DROP INDEX IF EXISTS entities_risk_rank_idx');
  await knex.raw('DROP INDEX IF EXISTS reviews_decided_at_idx');
  await knex.raw('DROP INDEX IF EXISTS lea_referrals_created_idx');
  await knex.schema.dropTableIfExists('analytics_view_refreshes');
  await knex.schema.dropTableIfExists('entity_countries');
}
