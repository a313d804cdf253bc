// What a caller who sees bank details only masked may search: the same records, through a second
// full-text document with every bank detail taken out, so no match, rank, count or highlight can
// depend on a hidden character.
// - fip_mask_bank_details(text): replaces IBAN-like runs (two letters, two digits, then up to 34
//   letters or digits with up to three spaces, dots or dashes between any two) by their first four
//   characters and `****`, and runs of eight or more digits by `****`. It is deliberately wider than
//   the answer's masking (domain/masking/bank-details.ts): whatever that hides, this hides too.
// - `search_tsv_masked`: a generated, stored tsvector beside each `search_tsv`, built from the
//   masked text; bank_account entities contribute nothing. GIN-indexed like its sibling.
// - Case and intake list filters (`q`) of such callers match the masked text as well.
import type { Knex } from 'knex';

const SEP = '[\\s.-]{0,3}';
const IBAN_LIKE = `(?<![A-Za-z0-9])([A-Za-z])${SEP}([A-Za-z])${SEP}([0-9])${SEP}([0-9])(?:${SEP}[A-Za-z0-9]){4,34}`;
const DIGIT_RUN = '(?<![A-Za-z0-9])[0-9](?:[ \\t-]{0,2}[0-9]){7,}';

const m = (col: string) => `fip_mask_bank_details(coalesce(${col}, ''))`;

const TSV: Array<[string, string]> = [
  ['cases', `setweight(to_tsvector('english', ${m('title')}), 'A') || setweight(to_tsvector('english', ${m('description')}), 'B') || setweight(to_tsvector('english', ${m('taxonomy')}), 'C')`],
  ['intakes', `setweight(to_tsvector('english', ${m('summary')}), 'A') || setweight(to_tsvector('english', ${m('details')}), 'B')`],
  ['investigations', `setweight(to_tsvector('english', ${m('label')}), 'A') || setweight(to_tsvector('english', ${m('domain')}), 'A') || setweight(to_tsvector('english', ${m('url')}), 'B')`],
  ['entities', `CASE WHEN type = 'bank_account' THEN ''::tsvector ELSE setweight(to_tsvector('english', ${m("display_value || CASE WHEN value = display_value THEN '' ELSE ' ' || value END")}), 'A') END`],
  ['wallets', `setweight(to_tsvector('english', ${m('address')}), 'A') || setweight(to_tsvector('english', coalesce(network, '') || ' ' || coalesce(token, '')), 'B') || setweight(to_tsvector('english', ${m('context')}), 'C')`],
];

export async function up(knex: Knex): Promise<void> {
  // knex.raw reads ? as a binding placeholder: the regexps' (?<! and (?: are escaped as \\?.
  const fn = `CREATE OR REPLACE FUNCTION fip_mask_bank_details(t text) RETURNS text
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    AS $$ SELECT regexp_replace(regexp_replace(t, '${IBAN_LIKE}', '\\1\\2\\3\\4 ****', 'g'), '${DIGIT_RUN}', '****', 'g') $$`;
  await knex.raw(fn.replaceAll('?', '\\?'));
  for (const [table, expr] of TSV) {
    await knex.raw(`ALTER TABLE ${table} ADD COLUMN search_tsv_masked tsvector GENERATED ALWAYS AS (${expr}) STORED`);
    await knex.raw(`CREATE INDEX ${table}_search_tsv_masked_idx ON ${table} USING gin (search_tsv_masked)`);
  }
}

export async function down(knex: Knex): Promise<void> {
  for (const [table] of TSV) await knex.raw(`ALTER TABLE ${table} DROP COLUMN IF EXISTS search_tsv_masked`);
  await knex.raw('DROP FUNCTION IF EXISTS fip_mask_bank_details(text)');
}
