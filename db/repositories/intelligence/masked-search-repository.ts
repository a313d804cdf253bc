// The quick search as a researcher may use it: over the masked renderings they are shown, never over
// the values behind them. A query that matched the real value while the answer showed a masked one
// would be an oracle: extending a prefix one character at a time recovers the hidden characters.
import type { Knex } from 'knex';
import type { GraphEntityType } from '../../../domain/intelligence/entity-types';
import type { EntitySearchHit } from './intel-read-repository';

/**
 * maskOpaque (domain/masking/masking-policy.ts) in SQL: a value of up to six characters is
 * `****`, a longer one keeps its first two and last two characters around `****`. PostgreSQL counts
 * characters as maskOpaque does (code points); the tests hold the two to the same answers.
 */
export const opaqueMask = (col: string) => `(CASE WHEN char_length(${col}) <= 6 THEN '****' ELSE left(${col}, 2) || '****' || right(${col}, 2) END)`;

/**
 * Entities whose masked value or masked display value contains `term` (case-insensitive, literally:
 * `*` matches the mask's stars, `%` and `_` are plain characters): exact, then prefix, then
 * substring, each by risk, sightings, masked value and id: every key one the caller can see, so
 * neither the set, nor the order, nor the count depends on a hidden character. The answer's
 * value and display_value are the stored ones: the caller's view masks them.
 */
export async function searchMaskedEntities(
  knex: Knex,
  term: string,
  opts: { type?: GraphEntityType; excludeTypes?: GraphEntityType[]; limit: number },
): Promise<EntitySearchHit[]> {
  const { rows } = await knex.raw(
    `SELECT id, type, value, display_value, risk_score, sighting_count,
            CASE rank WHEN 0 THEN 'exact' WHEN 1 THEN 'prefix' ELSE 'substring' END AS match
       FROM (
         SELECT id, type, value, display_value, risk_score, sighting_count, masked,
                CASE WHEN masked = t OR masked_display = t THEN 0
                     WHEN starts_with(masked, t) OR starts_with(masked_display, t) THEN 1 ELSE 2 END AS rank
           FROM (SELECT e.*, lower(${opaqueMask('e.value')}) AS masked, lower(${opaqueMask('e.display_value')}) AS masked_display, lower(?::text) AS t
                   FROM entities e
                  WHERE (?::text IS NULL OR e.type = ?::text) AND e.type <> ALL(CAST(? AS text[]))) m
          WHERE strpos(masked, t) > 0 OR strpos(masked_display, t) > 0
       ) hits
      ORDER BY rank, COALESCE(risk_score, -1) DESC, sighting_count DESC, masked, id
      LIMIT ?`,
    [term, opts.type ?? null, opts.type ?? null, opts.excludeTypes ?? [], opts.limit],
  );
  return rows as EntitySearchHit[];
}
