// The append-only chain of custody (table evidence_custody; the database refuses UPDATE/DELETE).
import type { Knex } from 'knex';

export interface CustodyEntryInput {
  subjectKind: 'investigation' | 'dossier';
  subjectId: string;
  /** Set for entries written once (e.g. `capture`); a second write with the same key adds nothing. */
  entryKey?: string | null;
  at?: Date;
  actor: string;
  action: string;
  artifact?: string;
  purpose?: string;
  hashes: Record<string, string>;
  verified: boolean;
  details?: Record<string, unknown>;
}

export interface CustodyEntryRow {
  id: string;
  subject_kind: string;
  subject_id: string;
  entry_key: string | null;
  at: Date;
  actor: string;
  action: string;
  artifact: string;
  purpose: string;
  hashes: Record<string, string>;
  verified: boolean;
  details: Record<string, unknown>;
}

export async function appendCustodyEntry(knex: Knex | Knex.Transaction, entry: CustodyEntryInput): Promise<void> {
  const row = {
    subject_kind: entry.subjectKind,
    subject_id: entry.subjectId,
    entry_key: entry.entryKey ?? null,
    ...(entry.at ? { at: entry.at } : {}),
    actor: entry.actor,
    action: entry.action,
    artifact: entry.artifact ?? '',
    purpose: entry.purpose ?? '',
    hashes: JSON.stringify(entry.hashes),
    verified: entry.verified,
    details: JSON.stringify(entry.details ?? {}),
  };
  if (entry.entryKey) await knex('evidence_custody').insert(row).onConflict(['subject_kind', 'subject_id', 'entry_key']).ignore();
  else await knex('evidence_custody').insert(row);
}

/** Every entry of a subject, oldest first. */
export async function listCustodyEntries(knex: Knex, subjectKind: string, subjectId: string): Promise<CustodyEntryRow[]> {
  return (await knex('evidence_custody').where({ subject_kind: subjectKind, subject_id: subjectId }).orderBy('id', 'asc')) as CustodyEntryRow[];
}
