// Persona mailboxes: which investigation an address at the persona domain belongs to.
import type { Knex } from 'knex';

/** Registers (idempotently) `address` as the mailbox of `scanId`; a retried write changes nothing. */
export async function registerPersonaMailbox(knex: Knex, input: { address: string; scanId: string }): Promise<void> {
  await knex('persona_mailboxes').insert({ address: input.address.toLowerCase(), scan_id: input.scanId }).onConflict('address').ignore();
}

/** The investigation whose persona uses `address`, or null. */
export async function findMailboxScan(knex: Knex, address: string): Promise<string | null> {
  const row = await knex('persona_mailboxes').where({ address: address.toLowerCase() }).first('scan_id');
  return (row?.scan_id as string | undefined) ?? null;
}
