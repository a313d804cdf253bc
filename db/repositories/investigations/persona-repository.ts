// Personas of the funnel agent (ids and sites only; the values are sealed in vault_secrets), the
// persona each investigation uses, and the PII exposures of an investigation.
import type { Knex } from 'knex';
import type { PiiExposure } from '../../../domain/investigations/funnel';

export interface PersonaRow {
  id: string;
  site: string;
  created_by_scan: string;
  created_at: Date;
  registered_at: Date | null;
  session_saved_at: Date | null;
}

export async function findPersonaBySite(knex: Knex | Knex.Transaction, site: string): Promise<PersonaRow | null> {
  return ((await knex<PersonaRow>('personas').where({ site }).first()) as PersonaRow | undefined) ?? null;
}

/** Inserts the site's persona unless one exists; answers the one that stands (a race's winner). */
export async function claimPersona(knex: Knex.Transaction, input: { id: string; site: string; scanId: string }): Promise<PersonaRow> {
  await knex('personas').insert({ id: input.id, site: input.site, created_by_scan: input.scanId }).onConflict('site').ignore();
  return (await findPersonaBySite(knex, input.site))!;
}

export async function linkScanPersona(knex: Knex | Knex.Transaction, input: { scanId: string; personaId: string; reused: boolean }): Promise<void> {
  await knex('investigation_personas').insert({ scan_id: input.scanId, persona_id: input.personaId, reused: input.reused }).onConflict('scan_id').ignore();
}

export async function findScanPersona(knex: Knex, scanId: string): Promise<(PersonaRow & { reused: boolean }) | null> {
  const row = await knex('investigation_personas as ip').join('personas as p', 'p.id', 'ip.persona_id').where('ip.scan_id', scanId).first('p.*', 'ip.reused');
  return (row as (PersonaRow & { reused: boolean }) | undefined) ?? null;
}

export async function markPersonaRegistered(knex: Knex, personaId: string): Promise<void> {
  await knex('personas').where({ id: personaId }).whereNull('registered_at').update({ registered_at: knex.fn.now() });
}

export async function touchPersonaSession(knex: Knex, personaId: string): Promise<void> {
  await knex('personas').where({ id: personaId }).update({ session_saved_at: knex.fn.now() });
}

export async function insertPiiExposures(knex: Knex, scanId: string, rows: readonly PiiExposure[]): Promise<void> {
  if (!rows.length) return;
  await knex('investigation_pii_exposures')
    .insert(rows.map((r) => ({ scan_id: scanId, kind: r.kind, page_url: r.page_url, state: r.state, field: r.field ?? '' })))
    .onConflict(['scan_id', 'kind', 'page_url', 'field'])
    .ignore();
}

export async function listPiiExposures(knex: Knex, scanId: string): Promise<PiiExposure[]> {
  const rows = (await knex('investigation_pii_exposures').where({ scan_id: scanId }).orderBy('id').select('kind', 'page_url', 'state', 'field')) as Array<{ kind: PiiExposure['kind']; page_url: string; state: string; field: string }>;
  return rows.map((r) => ({ kind: r.kind, page_url: r.page_url, state: r.state, field: r.field || null }));
}
