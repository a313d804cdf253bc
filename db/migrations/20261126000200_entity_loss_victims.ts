// The fewest distinct victims behind any one currency of an entity's loss (loss_victims), kept
// beside loss_by_currency and victim_count by the same refresh (refreshEntityLoss). Researchers see
// an entity's loss only when every currency of it rests on at least SVC_EXPORTS__MIN_GROUP_SIZE
// victims: five intakes without a loss and one case with one would otherwise show that case's
// loss. Null until the entity's loss is next refreshed (or when it has none): researchers then see
// no loss for it.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE entities ADD COLUMN loss_victims integer');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE entities DROP COLUMN IF EXISTS loss_victims');
}
