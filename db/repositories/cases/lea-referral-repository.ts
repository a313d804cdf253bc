// LEA referrals (one per case) and their status history. The only SQL for referrals.
import type { Knex } from 'knex';
import { allowedReferralStatuses, canSetReferralStatus, type LeaReferralStatus } from '../../../domain/cases/lea-referral-states';

export interface LeaReferralRow {
  id: string;
  case_id: string;
  status: LeaReferralStatus;
  agency: string | null;
  jurisdiction: string | null;
  contact: string | null;
  reference: string | null;
  review_id: string | null;
  created_by: string;
  created_at: Date;
  updated_at: Date;
}

export interface LeaReferralEventRow {
  id: string;
  referral_id: string;
  from_status: LeaReferralStatus | null;
  to_status: LeaReferralStatus;
  actor: string;
  at: Date;
}

export async function findReferral(knex: Knex | Knex.Transaction, caseId: string): Promise<{ referral: LeaReferralRow; events: LeaReferralEventRow[] } | null> {
  const referral = await knex<LeaReferralRow>('lea_referrals').where({ case_id: caseId }).first();
  if (!referral) return null;
  const events = await knex<LeaReferralEventRow>('lea_referral_events').where({ referral_id: referral.id }).orderBy([{ column: 'at' }, { column: 'id' }]);
  return { referral, events };
}

/** A draft referral for a case unless it has one (a refer_to_lea decision); true when created. */
export async function createDraftReferral(trx: Knex.Transaction, caseId: string, reviewId: string | null, by: string): Promise<boolean> {
  const [created] = await trx('lea_referrals')
    .insert({ case_id: caseId, status: 'draft', review_id: reviewId, created_by: by, created_at: trx.raw('clock_timestamp()'), updated_at: trx.raw('clock_timestamp()') })
    .onConflict('case_id')
    .ignore()
    .returning('id');
  if (!created) return false;
  await trx('lea_referral_events').insert({ referral_id: (created as { id: string }).id, from_status: null, to_status: 'draft', actor: by });
  return true;
}

export interface ReferralInput {
  agency: string;
  jurisdiction: string;
  contact: string;
  reference?: string | null;
  status: LeaReferralStatus;
}

export type ReferralSaveResult =
  | { ok: true; created: boolean; referral: LeaReferralRow }
  | { ok: false; reason: 'case_not_found' }
  | { ok: false; reason: 'illegal_transition'; from: LeaReferralStatus | null; to: LeaReferralStatus; allowed: readonly LeaReferralStatus[] };

/** Creates (as a draft) or updates the case's referral; a status change follows the machine and is recorded. */
export async function saveReferral(knex: Knex, caseId: string, input: ReferralInput, by: string): Promise<ReferralSaveResult> {
  return knex.transaction(async (trx) => {
    // The case row lock serializes saves of one case's referral (and its creation).
    const found = await trx('cases').where({ id: caseId }).forUpdate().first('id');
    if (!found) return { ok: false, reason: 'case_not_found' } as const;
    const current = await trx<LeaReferralRow>('lea_referrals').where({ case_id: caseId }).first();
    const from = current?.status ?? null;
    if (!canSetReferralStatus(from, input.status)) {
      return { ok: false, reason: 'illegal_transition', from, to: input.status, allowed: allowedReferralStatuses(from) } as const;
    }
    const fields = { agency: input.agency, jurisdiction: input.jurisdiction, contact: input.contact, status: input.status, updated_at: trx.raw('clock_timestamp()') };
    let row: LeaReferralRow;
    if (current) {
      const changes = input.reference === undefined ? fields : { ...fields, reference: input.reference };
      [row] = (await trx('lea_referrals').where({ id: current.id }).update(changes).returning('*')) as LeaReferralRow[];
    } else {
      [row] = (await trx('lea_referrals')
        .insert({ ...fields, case_id: caseId, reference: input.reference ?? null, created_by: by, created_at: trx.raw('clock_timestamp()') })
        .returning('*')) as LeaReferralRow[];
    }
    if (from !== input.status) await trx('lea_referral_events').insert({ referral_id: row.id, from_status: from, to_status: input.status, actor: by });
    return { ok: true, created: !current, referral: row } as const;
  });
}
