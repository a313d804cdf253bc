// Case use cases, used by the API (the LEA referral of a case: lea-referral-service.ts):
// - listCases: a page of cases, newest first, filtered by status, priority, assignee, campaign, text
// - getCase: a case with its links, entities, reviews, LEA referral and loss totals per currency
// - createCase: a new open case (the campaign it names must exist)
// - updateCase: change a case; a status change follows the case status machine
// Every answer goes through the caller's masking policy (domain/masking/masking-policy.ts): bank
// details in entities, titles, descriptions, review reasons and rationales are masked for every
// caller but an analyst, and such a caller's `q` matches the masked text only.
import type { Knex } from 'knex';
import type { Principal } from '../../domain/accounts/roles';
import { maskingFor, type MaskingPolicy } from '../../domain/masking/masking-policy';
import { principalName } from '../../domain/accounts/principal-name';
import type { CasePriority, CaseStatus } from '../../domain/cases/case-states';
import type { Keyset, KeysetPage } from '../../domain/keyset';
import * as caseRepo from '../../db/repositories/cases/case-repository';
import type { CaseEntity, CaseFilters, CaseLinkRow, CaseRow, LossTotal } from '../../db/repositories/cases/case-repository';
import { campaignExists } from '../../db/repositories/campaigns/campaign-repository';
import { findReferral } from '../../db/repositories/cases/lea-referral-repository';
import { listCaseReviews } from '../../db/repositories/reviews/review-repository';
import { ConflictError, NotFoundError, ValidationError } from '../errors';
import type { ServiceDeps } from '../service-deps';
import type { LeaReferralWithHistory } from './lea-referral-service';
import type { ReviewRow } from '../reviews/review-service';

export type { CaseEntity, CaseFilters, CaseLinkRow, CaseRow, LossTotal };

/** A loss as the API takes it: a decimal string with its ISO 4217 currency. */
export interface Loss {
  amount: string;
  currency: string;
}

export interface NewCaseInput {
  title: string;
  description?: string;
  priority?: CasePriority;
  /** An e-mail address, stored in lower case. */
  assignee?: string;
  campaign_id?: string;
  loss?: Loss;
}

/** What to change; an absent field is left alone, null clears it. */
export interface CaseChanges {
  title?: string;
  description?: string;
  status?: CaseStatus;
  priority?: CasePriority;
  assignee?: string | null;
  campaign_id?: string | null;
  taxonomy?: string | null;
  loss?: Loss | null;
}

export interface CaseDetail {
  case: CaseRow;
  links: CaseLinkRow[];
  entities: CaseEntity[];
  reviews: ReviewRow[];
  referral: LeaReferralWithHistory | null;
  totalLoss: LossTotal[];
}

export async function listCases(deps: Pick<ServiceDeps, 'knex'>, principal: Principal | null, filters: CaseFilters, page: { limit: number; after?: Keyset }): Promise<KeysetPage<CaseRow>> {
  const policy = maskingFor(principal);
  const found = await caseRepo.listCases(deps.knex, { ...filters, maskedText: !policy.sees('bank_account') }, page);
  return { ...found, rows: found.rows.map((c) => maskCase(c, policy)) };
}

/** A case row as the caller may see it. */
export function maskCase(c: CaseRow, policy: MaskingPolicy): CaseRow {
  return { ...c, title: policy.text(c.title), description: policy.text(c.description) };
}

/** The case with everything linked to it, as the caller may see it; 404 when there is no such case. */
export async function getCase(deps: Pick<ServiceDeps, 'knex'>, principal: Principal | null, caseId: string): Promise<CaseDetail> {
  const policy = maskingFor(principal);
  const c = await caseRepo.findCase(deps.knex, caseId);
  if (!c) throw new NotFoundError(`no case ${caseId}`);
  const [links, entities, reviews, referral, totalLoss] = await Promise.all([
    caseRepo.listCaseLinks(deps.knex, c.id),
    caseRepo.caseEntities(deps.knex, c.id),
    listCaseReviews(deps.knex, c.id),
    findReferral(deps.knex, c.id),
    caseRepo.caseLossTotals(deps.knex, c.id),
  ]);
  return {
    case: maskCase(c, policy),
    links,
    entities: entities.map((e) => policy.entity(e)),
    reviews: reviews.map((r) => ({ ...r, reason: policy.text(r.reason), rationale: policy.text(r.rationale) })),
    referral: referral ? { ...referral, referral: { ...referral.referral, reference: policy.text(referral.referral.reference), contact: policy.text(referral.referral.contact) } } : null,
    totalLoss,
  };
}

/** Creates an open case, created by the caller. */
export async function createCase(deps: Pick<ServiceDeps, 'knex'>, principal: Principal | null, input: NewCaseInput): Promise<CaseRow> {
  await requireCampaign(deps.knex, input.campaign_id);
  const created = await caseRepo.createCase(
    deps.knex,
    {
      title: input.title,
      description: input.description,
      priority: input.priority,
      assignee: input.assignee?.toLowerCase(),
      campaign_id: input.campaign_id,
      ...lossFields(input.loss),
    },
    principalName(principal),
  );
  return maskCase(created, maskingFor(principal));
}

/** Changes a case: 404 when there is none, 409 (naming the allowed statuses) for an illegal move. */
export async function updateCase(deps: Pick<ServiceDeps, 'knex'>, principal: Principal | null, caseId: string, changes: CaseChanges): Promise<CaseRow> {
  await requireCampaign(deps.knex, changes.campaign_id);
  const result = await caseRepo.updateCase(deps.knex, caseId, {
    title: changes.title,
    description: changes.description,
    status: changes.status,
    priority: changes.priority,
    assignee: changes.assignee === undefined ? undefined : (changes.assignee?.toLowerCase() ?? null),
    campaign_id: changes.campaign_id,
    taxonomy: changes.taxonomy,
    ...lossFields(changes.loss),
  });
  if (!result.ok && result.reason === 'not_found') throw new NotFoundError(`no case ${caseId}`);
  if (!result.ok) {
    const allowed = result.allowed.length ? result.allowed.join(', ') : 'none';
    throw new ConflictError(`a ${result.from} case cannot move to ${result.to}; allowed: ${allowed}`, { from: result.from, to: result.to, allowed: result.allowed });
  }
  return maskCase(result.row, maskingFor(principal));
}

/** The loss columns to write: none when the loss is not given, both null when it is cleared. */
const lossFields = (loss: Loss | null | undefined) =>
  loss === undefined ? {} : { loss_amount: loss?.amount ?? null, loss_currency: loss?.currency ?? null };

/** A case can only name a campaign that exists (cases.campaign_id is a foreign key). */
async function requireCampaign(knex: Knex, campaignId: string | null | undefined): Promise<void> {
  if (campaignId && !(await campaignExists(knex, campaignId))) {
    throw new ValidationError('no such campaign', [{ path: 'body.campaign_id', message: `no campaign ${campaignId}` }]);
  }
}
