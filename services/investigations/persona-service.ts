// The funnel agent's personas as use cases:
//   ensureScanPersona   the scan's persona: the site's existing one (a revisit) or a new one, sealed in
//                       the vault, its mailbox registered for the inbound mail receiver
//   openScanPersona     the values, for the activity that types them (never logged, never returned to a workflow)
//   readScanPersona     the values for an analyst (GET /investigations/ssi/{scan_id}/persona), audited
//   requireSymbolsInPassword   the site asks for symbols: the persona's password gets some (re-sealed; kept for revisits)
//   loadPersonaSession / savePersonaSession   the persona's browser session (cookies, storage), sealed
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { AppConfig } from '../../config/config';
import { recordAuditEvent } from '../../db/repositories/audit/audit-event-repository';
import { findInvestigation } from '../../db/repositories/investigations/investigation-repository';
import { registerPersonaMailbox } from '../../db/repositories/investigations/mailbox-repository';
import {
  claimPersona, findPersonaBySite, findScanPersona, linkScanPersona, markPersonaRegistered, touchPersonaSession, type PersonaRow,
} from '../../db/repositories/investigations/persona-repository';
import { findVaultSecret, insertVaultSecret, upsertSealedRecord } from '../../db/repositories/vault/vault-secret-repository';
import { principalName } from '../../domain/accounts/principal-name';
import type { Principal } from '../../domain/accounts/roles';
import { personaSite, type PersonaValues } from '../../domain/investigations/persona';
import { vaultFor } from '../../infra/vault';
import { NotFoundError } from '../errors';
import { makePassword, makePersona } from './persona-factory';

type Deps = { knex: Knex; config: AppConfig };

const valuesOwner = (personaId: string) => ({ kind: 'persona', id: personaId });
const sessionOwner = (personaId: string) => ({ kind: 'persona_session', id: personaId });
const valuesContext = (personaId: string) => `persona:${personaId}`;
const sessionContext = (personaId: string) => `persona-session:${personaId}`;

export interface ScanPersona {
  personaId: string;
  site: string;
  /** The site's persona from an earlier investigation. */
  reused: boolean;
  /** It registered on the site before (a revisit logs in). */
  registered: boolean;
  hasSession: boolean;
}

function view(row: PersonaRow, reused: boolean): ScanPersona {
  return { personaId: row.id, site: row.site, reused, registered: row.registered_at !== null, hasSession: row.session_saved_at !== null };
}

/** The scan's persona (idempotent: a retry answers the same one). */
export async function ensureScanPersona(deps: Deps, input: { scanId: string; url: string }): Promise<ScanPersona> {
  const linked = await findScanPersona(deps.knex, input.scanId);
  if (linked) return view(linked, linked.reused);
  const site = personaSite(input.url);
  const existing = await findPersonaBySite(deps.knex, site);
  if (existing) {
    await linkScanPersona(deps.knex, { scanId: input.scanId, personaId: existing.id, reused: true });
    return view(existing, true);
  }
  const id = randomUUID();
  const values = makePersona(deps.config.ssi.persona_email_domain);
  const row = await deps.knex.transaction(async (trx) => {
    const claimed = await claimPersona(trx, { id, site, scanId: input.scanId });
    if (claimed.id === id) {
      await insertVaultSecret(trx, valuesOwner(id), vaultFor(deps.config).seal(Buffer.from(JSON.stringify(values), 'utf8'), valuesContext(id)));
      await registerPersonaMailbox(trx as unknown as Knex, { address: values.email, scanId: input.scanId });
    }
    await linkScanPersona(trx, { scanId: input.scanId, personaId: claimed.id, reused: claimed.id !== id });
    return claimed;
  });
  return view(row, row.id !== id);
}

async function openValues(deps: Deps, personaId: string): Promise<PersonaValues> {
  const secret = await findVaultSecret(deps.knex, valuesOwner(personaId));
  if (!secret) throw new NotFoundError('the persona has no sealed values');
  return JSON.parse(vaultFor(deps.config).open(secret, valuesContext(personaId)).toString('utf8')) as PersonaValues;
}

export async function openScanPersona(deps: Deps, scanId: string): Promise<{ personaId: string; values: PersonaValues } | null> {
  const row = await findScanPersona(deps.knex, scanId);
  return row ? { personaId: row.id, values: await openValues(deps, row.id) } : null;
}

/**
 * The site wants a symbol in the password: a persona whose password has none gets a new one with
 * symbols, sealed in the vault in its place (a revisit types the same). Answers whether it changed
 * (idempotent: a password with a symbol is kept).
 */
export async function requireSymbolsInPassword(deps: Deps, personaId: string): Promise<boolean> {
  const values = await openValues(deps, personaId);
  if (/[^A-Za-z0-9]/.test(values.password)) return false;
  const next = { ...values, password: makePassword(true) };
  await upsertSealedRecord(deps.knex, valuesOwner(personaId), vaultFor(deps.config).seal(Buffer.from(JSON.stringify(next), 'utf8'), valuesContext(personaId)));
  return true;
}

export async function markScanPersonaRegistered(deps: Deps, personaId: string): Promise<void> {
  await markPersonaRegistered(deps.knex, personaId);
}

export async function loadPersonaSession(deps: Deps, personaId: string): Promise<string | null> {
  const secret = await findVaultSecret(deps.knex, sessionOwner(personaId));
  return secret ? vaultFor(deps.config).open(secret, sessionContext(personaId)).toString('utf8') : null;
}

export async function savePersonaSession(deps: Deps, personaId: string, state: string): Promise<void> {
  await upsertSealedRecord(deps.knex, sessionOwner(personaId), vaultFor(deps.config).seal(Buffer.from(state, 'utf8'), sessionContext(personaId)));
  await touchPersonaSession(deps.knex, personaId);
}

export interface PersonaReveal {
  scan_id: string;
  site: string;
  reused: boolean;
  registered: boolean;
  values: PersonaValues;
}

/** The scan's persona for an analyst; every read is an audit event with its purpose. 404 without one. */
export async function readScanPersona(deps: Deps, principal: Principal | null, input: { scanId: string; purpose: string }): Promise<PersonaReveal> {
  if (!(await findInvestigation(deps.knex, input.scanId))) throw new NotFoundError(`no investigation ${input.scanId}`);
  const row = await findScanPersona(deps.knex, input.scanId);
  await recordAuditEvent(deps.knex, {
    actor: principalName(principal), action: 'investigation.persona.read', target_type: 'investigation', target_id: input.scanId, purpose: input.purpose,
    details: { had_persona: Boolean(row), persona_id: row?.id ?? null },
  });
  if (!row) throw new NotFoundError(`investigation ${input.scanId} used no persona`);
  return { scan_id: input.scanId, site: row.site, reused: row.reused, registered: row.registered_at !== null, values: await openValues(deps, row.id) };
}
