// LEA referral use cases (one referral per case; its status machine is in
// domain/cases/lea-referral-states.ts), used by the API:
// - saveLeaReferral: create the case's referral (as a draft) or update it; a status change follows the machine
// - getLeaReferral: the case's referral with its status history
import type { Principal } from '../../domain/accounts/roles';
import { maskingFor } from '../../domain/masking/masking-policy';
import { principalName } from '../../domain/accounts/principal-name';
import { findReferral, saveReferral, type LeaReferralEventRow, type LeaReferralRow, type ReferralInput } from '../../db/repositories/cases/lea-referral-repository';
import { ConflictError, NotFoundError } from '../errors';
import type { ServiceDeps } from '../service-deps';

export type { LeaReferralEventRow, LeaReferralRow, ReferralInput };

export interface LeaReferralWithHistory {
  referral: LeaReferralRow;
  events: LeaReferralEventRow[];
}

/** A referral as the caller may see it (domain/masking/masking-policy.ts): bank details in its text masked. */
function masked<T extends LeaReferralWithHistory>(r: T, principal: Principal | null): T {
  const policy = maskingFor(principal);
  return { ...r, referral: { ...r.referral, reference: policy.text(r.referral.reference), contact: policy.text(r.referral.contact), agency: policy.text(r.referral.agency) } };
}

/**
 * Creates (status draft) or updates the case's referral: 404 when there is no such case, 409
 * (naming the allowed statuses) when the machine does not allow the status. `created` tells which.
 */
export async function saveLeaReferral(
  deps: Pick<ServiceDeps, 'knex'>,
  principal: Principal | null,
  caseId: string,
  input: ReferralInput,
): Promise<LeaReferralWithHistory & { created: boolean }> {
  const result = await saveReferral(deps.knex, caseId, input, principalName(principal));
  if (!result.ok && result.reason === 'case_not_found') throw new NotFoundError(`no case ${caseId}`);
  if (!result.ok) {
    const allowed = result.allowed.length ? result.allowed.join(', ') : 'none (closed is final)';
    const from = result.from ? `a ${result.from} referral` : 'a new referral';
    throw new ConflictError(`${from} cannot become ${result.to}; allowed: ${allowed}`, { from: result.from, to: result.to, allowed: result.allowed });
  }
  const saved = await findReferral(deps.knex, caseId);
  if (!saved) throw new NotFoundError(`no LEA referral for case ${caseId}`);
  return masked({ ...saved, created: result.created }, principal);
}

/** 404 when the case has no referral, or does not exist. */
export async function getLeaReferral(deps: Pick<ServiceDeps, 'knex'>, principal: Principal | null, caseId: string): Promise<LeaReferralWithHistory> {
  const found = await findReferral(deps.knex, caseId);
  if (!found) throw new NotFoundError(`case ${caseId} has no LEA referral (or does not exist)`);
  return masked(found, principal);
}
