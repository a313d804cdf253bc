// Linking an existing investigation to a case (and unlinking it): the same case_links rows the case
// page and dossiers already read, so a linked scan shows in the case's investigations, its timeline
// and its dossiers' evidence. Both are audited in the transaction that changes the link.
import type { Principal } from '../../domain/accounts/roles';
import { principalName } from '../../domain/accounts/principal-name';
import { recordAuditEvent } from '../../db/repositories/audit/audit-event-repository';
import { findCase, linkToCase, unlinkFromCase, type CaseLinkRow } from '../../db/repositories/cases/case-repository';
import { findInvestigation } from '../../db/repositories/investigations/investigation-repository';
import { ConflictError, NotFoundError } from '../errors';
import type { ServiceDeps } from '../service-deps';

/** Links the scan to the case: 404 for an unknown case or scan, 409 when it is already linked. */
export async function linkInvestigationToCase(
  deps: Pick<ServiceDeps, 'knex'>,
  principal: Principal | null,
  input: { caseId: string; scanId: string },
): Promise<CaseLinkRow> {
  const actor = principalName(principal);
  return deps.knex.transaction(async (trx) => {
    if (!(await findCase(trx, input.caseId))) throw new NotFoundError(`no case ${input.caseId}`);
    if (!(await findInvestigation(trx, input.scanId))) throw new NotFoundError(`no investigation ${input.scanId}`);
    const out = await linkToCase(trx, input.caseId, { type: 'investigation', id: input.scanId }, actor);
    if (!out!.linked) {
      throw new ConflictError(`investigation ${input.scanId} is already linked to this case`, { linked_by: out!.link.linked_by, linked_at: out!.link.linked_at.toISOString() });
    }
    await recordAuditEvent(trx, { actor, action: 'case.investigation.link', target_type: 'case', target_id: input.caseId, details: { scan_id: input.scanId } });
    return out!.link;
  });
}

/** Removes the link: 404 for an unknown case or when the scan is not linked to it. */
export async function unlinkInvestigationFromCase(
  deps: Pick<ServiceDeps, 'knex'>,
  principal: Principal | null,
  input: { caseId: string; scanId: string },
): Promise<void> {
  const actor = principalName(principal);
  await deps.knex.transaction(async (trx) => {
    if (!(await findCase(trx, input.caseId))) throw new NotFoundError(`no case ${input.caseId}`);
    if (!(await unlinkFromCase(trx, input.caseId, { type: 'investigation', id: input.scanId }))) {
      throw new NotFoundError(`investigation ${input.scanId} is not linked to case ${input.caseId}`);
    }
    await recordAuditEvent(trx, { actor, action: 'case.investigation.unlink', target_type: 'case', target_id: input.caseId, details: { scan_id: input.scanId } });
  });
}
