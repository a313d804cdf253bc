// Campaigns (shared/DATA-MODEL.md): named groups of cases and entities run by the same actors.
import type { Knex } from 'knex';

export async function campaignExists(knex: Knex | Knex.Transaction, id: string): Promise<boolean> {
  return Boolean(await knex('campaigns').where({ id }).first('id'));
}
