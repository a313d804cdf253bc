// Who stands behind the dashboards' taxonomy figures, so that researchers are shown a figure only
// when enough distinct victims rest under it (domain/analytics/small-group-suppression.ts). One row
// per (stored taxonomy path, currency, victim):
// - currency '': every victim of the cases of that path (the case counts, the tree, the Sankey);
// - currency XXX: the victims behind that path's losses in XXX, the same loss records as
//   analytics_taxonomy_loss (a case's own loss stands for the case's victims; a linked intake's
//   loss for that intake; an intake in no case is unclassified, '').
// A victim is `intake:<id>`, or `case:<id>` for a case without an attached intake (intakes.case_id
// or a case link). The roll-up to parent nodes counts distinct victims at read time
// (db/repositories/analytics/victim-repository.ts): one victim in two child nodes is one victim.
import type { Knex } from 'knex';

const CASE_VICTIMS = (c: string) => `(
  SELECT COALESCE(a.victim, 'case:' || ${c}.id::text) AS victim
    FROM (SELECT 1) one
    LEFT JOIN (SELECT 'intake:' || i.id::text AS victim FROM intakes i WHERE i.case_id = ${c}.id
               UNION SELECT 'intake:' || cl.target_id FROM case_links cl WHERE cl.case_id = ${c}.id AND cl.target_type = 'intake') a ON true
)`;

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE MATERIALIZED VIEW analytics_taxonomy_victims AS
    SELECT DISTINCT taxonomy, currency, victim FROM (
      SELECT coalesce(c.taxonomy, '') AS taxonomy, ''::text AS currency, v.victim
        FROM cases c CROSS JOIN LATERAL ${CASE_VICTIMS('c')} v
      UNION ALL
      SELECT coalesce(c.taxonomy, ''), c.loss_currency::text, v.victim
        FROM cases c CROSS JOIN LATERAL ${CASE_VICTIMS('c')} v
       WHERE c.loss_amount IS NOT NULL AND c.loss_currency IS NOT NULL
      UNION ALL
      SELECT coalesce(c.taxonomy, ''), i.loss_currency::text, 'intake:' || i.id::text
        FROM intakes i JOIN case_links cl ON cl.target_type = 'intake' AND cl.target_id = i.id::text JOIN cases c ON c.id = cl.case_id
       WHERE i.loss_amount IS NOT NULL AND i.loss_currency IS NOT NULL
      UNION ALL
      SELECT '', i.loss_currency::text, 'intake:' || i.id::text FROM intakes i
       WHERE i.loss_amount IS NOT NULL AND i.loss_currency IS NOT NULL
         AND NOT EXISTS (SELECT 1 FROM case_links cl WHERE cl.target_type = 'intake' AND cl.target_id = i.id::text)
    ) r`);
  await knex.raw('CREATE UNIQUE INDEX analytics_taxonomy_victims_key ON analytics_taxonomy_victims (taxonomy, currency, victim)');
  await knex('analytics_view_refreshes').insert({ view_name: 'analytics_taxonomy_victims', refreshed_at: knex.fn.now() }).onConflict('view_name').ignore();
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP MATERIALIZED VIEW IF EXISTS analytics_taxonomy_victims');
  await knex('analytics_view_refreshes').where({ view_name: 'analytics_taxonomy_victims' }).delete();
}
