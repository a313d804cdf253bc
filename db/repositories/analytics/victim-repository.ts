// How many distinct victims stand behind each taxonomy figure of the dashboards (the view
// analytics_taxonomy_victims, migration 20261126000100), rolled up the taxonomy tree at read time so
// that one victim under two child nodes counts once in their parent. Read for researchers only:
// their answers leave out figures resting on too few victims.
import type { Knex } from 'knex';
import { analyticsRelation, type AggregationSource } from './analytics-view-repository';

/** Every victim, whatever the node (the platform-wide figures). */
export const ALL_NODES = '*';
/** The victims of the cases of a node (any figure about its cases), as opposed to a currency's losses. */
export const ANY_CASE = '';
/** The victims behind a node's losses, whatever the currency. */
export const ANY_LOSS = '+';

/**
 * The victims a case stands for, as keys (`intake:<id>`, `case:<id>`): its attached intakes (by
 * intakes.case_id or a case link), else the case itself. A LATERAL subquery over the case `c`.
 */
export const CASE_VICTIMS_SQL = (c: string) => `(
  SELECT COALESCE(a.victim, 'case:' || ${c}.id::text) AS victim
    FROM (SELECT 1) one
    LEFT JOIN (SELECT 'intake:' || i.id::text AS victim FROM intakes i WHERE i.case_id = ${c}.id
               UNION SELECT 'intake:' || cl.target_id FROM case_links cl WHERE cl.case_id = ${c}.id AND cl.target_type = 'intake') a ON true
)`;

export interface NodeVictims {
  node: string;
  /** ANY_CASE, ANY_LOSS, or an ISO 4217 currency: the victims behind that currency's losses. */
  currency: string;
  victims: number;
}

/**
 * Distinct victims per taxonomy node and currency. `lineage` maps each known stored path to the
 * nodes it rolls up to (itself and its ancestors); any other path counts under `unclassified`.
 */
export async function taxonomyVictims(knex: Knex, source: AggregationSource, lineage: Array<{ path: string; node: string }>, unclassified: string): Promise<NodeVictims[]> {
  const rel = await analyticsRelation(knex, 'analytics_taxonomy_victims', source);
  const { rows } = await knex.raw<{ rows: NodeVictims[] }>(
    `WITH map AS (SELECT * FROM jsonb_to_recordset(?::jsonb) AS m(path text, node text)),
          v AS (SELECT taxonomy, currency, victim FROM ${rel}),
          nodes AS (SELECT coalesce(m.node, ?::text) AS node, v.currency, v.victim FROM v LEFT JOIN map m ON m.path = v.taxonomy
                    UNION ALL SELECT ?::text, v.currency, v.victim FROM v)
     SELECT node, currency, count(DISTINCT victim)::int AS victims FROM (
       SELECT node, currency, victim FROM nodes
       UNION ALL SELECT node, ?::text, victim FROM nodes WHERE currency <> ''
     ) x GROUP BY node, currency`,
    [JSON.stringify(lineage), unclassified, ALL_NODES, ANY_LOSS],
  );
  return rows;
}
