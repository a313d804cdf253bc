// Persona mail: the verification mails the inbound receiver stored as evidence of a scan.
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';

export interface PersonaMailRow {
  id: string;
  scan_id: string;
  recipient: string;
  message_id: string;
  from: string;
  subject: string;
  received_at: Date;
  blob_key: string;
  sha256: string;
  size_bytes: string | number;
  codes: string[];
  links: string[];
  signalled: boolean;
}

export type NewPersonaMail = Omit<PersonaMailRow, 'id' | 'received_at' | 'signalled'>;

/** Stores a mail once per scan and Message-ID; a repeat answers the row stored first (`created` false). */
export async function insertPersonaMail(knex: Knex, mail: NewPersonaMail): Promise<{ row: PersonaMailRow; created: boolean }> {
  const inserted = await knex<PersonaMailRow>('persona_mail')
    .insert({ ...mail, id: randomUUID(), codes: JSON.stringify(mail.codes) as never, links: JSON.stringify(mail.links) as never })
    .onConflict(['scan_id', 'message_id'])
    .ignore()
    .returning('*');
  if (inserted[0]) return { row: inserted[0], created: true };
  const row = await knex<PersonaMailRow>('persona_mail').where({ scan_id: mail.scan_id, message_id: mail.message_id }).first();
  return { row: row!, created: false };
}

export async function markPersonaMailSignalled(knex: Knex, id: string): Promise<void> {
  await knex('persona_mail').where({ id }).update({ signalled: true });
}

/** A scan's mail, oldest first. */
export async function listPersonaMail(knex: Knex, scanId: string): Promise<PersonaMailRow[]> {
  return knex<PersonaMailRow>('persona_mail').where({ scan_id: scanId }).orderBy([{ column: 'received_at' }, { column: 'id' }]);
}

export async function findPersonaMail(knex: Knex, scanId: string, id: string): Promise<PersonaMailRow | undefined> {
  return knex<PersonaMailRow>('persona_mail').where({ scan_id: scanId, id }).first();
}
