// Campaign use cases (the API's /campaigns routes); the analysts' views of campaigns (stats,
// detail, LEA suggestions) are in campaign-intelligence.ts.
// - listCampaigns: a page of campaigns, newest first (filters status, taxonomy, q)
// - getCampaign: one campaign (404 when none)
// - createCampaign: a new campaign with its campaign.create audit event (409 when the name is taken)
// - updateCampaign: rename, describe, status, taxonomy and members, with its campaign.update audit
//   event (404; 409 for a taken name or a case in another campaign; 422 for an unknown member)
import { recordAuditEvent } from '../../db/repositories/audit/audit-event-repository';
import {
  applyCampaignPatch,
  findCampaign,
  insertCampaign,
  isCampaignNameClash,
  listCampaigns as listCampaignRows,
  type CampaignFilters,
  type CampaignPatch,
  type CampaignRow,
  type CampaignUpdateResult,
  type NewCampaign,
} from '../../db/repositories/campaigns/campaign-repository';
import { principalName } from '../../domain/accounts/principal-name';
import type { Principal } from '../../domain/accounts/roles';
import { maskingFor } from '../../domain/masking/masking-policy';
import type { Keyset, KeysetPage } from '../../domain/keyset';
import { ConflictError, NotFoundError, ValidationError } from '../errors';
import type { ServiceDeps } from '../service-deps';

export type { CampaignRow } from '../../db/repositories/campaigns/campaign-repository';

const nameTaken = (name: string | undefined) => new ConflictError(`a campaign named "${name}" exists`, { field: 'body.name' });

/** A campaign as the caller may see it (domain/masking/masking-policy.ts): bank details in its name and description masked. */
export function maskCampaign(row: CampaignRow, principal: Principal | null): CampaignRow {
  const policy = maskingFor(principal);
  return { ...row, name: policy.text(row.name), description: policy.text(row.description) };
}

/** A page of campaigns as the caller may see them; a non-analyst's `q` matches the masked text only. */
export async function listCampaigns(deps: Pick<ServiceDeps, 'knex'>, principal: Principal | null, filters: CampaignFilters, page: { limit: number; after?: Keyset }): Promise<KeysetPage<CampaignRow>> {
  const found = await listCampaignRows(deps.knex, { ...filters, maskedText: !maskingFor(principal).sees('bank_account') }, page);
  return { ...found, rows: found.rows.map((r) => maskCampaign(r, principal)) };
}

export async function getCampaign(deps: Pick<ServiceDeps, 'knex'>, id: string): Promise<CampaignRow> {
  const row = await findCampaign(deps.knex, id);
  if (!row) throw new NotFoundError(`no campaign ${id}`);
  return row;
}

export async function createCampaign(deps: Pick<ServiceDeps, 'knex'>, principal: Principal | null, input: NewCampaign): Promise<CampaignRow> {
  const by = principalName(principal);
  try {
    return await deps.knex.transaction(async (trx) => {
      const c = await insertCampaign(trx, input, by);
      await recordAuditEvent(trx, { actor: by, action: 'campaign.create', target_type: 'campaign', target_id: c.id, details: { name: c.name, status: c.status, taxonomy: c.taxonomy } });
      return maskCampaign(c, principal);
    });
  } catch (err) {
    if (isCampaignNameClash(err)) throw nameTaken(input.name);
    throw err;
  }
}

/** Changes a campaign and its members in one transaction with its audit event; a refused patch writes nothing. */
export async function updateCampaign(deps: Pick<ServiceDeps, 'knex'>, principal: Principal | null, id: string, patch: CampaignPatch): Promise<CampaignRow> {
  const by = principalName(principal);
  let result: CampaignUpdateResult;
  try {
    result = await deps.knex.transaction(async (trx) => {
      const r = await applyCampaignPatch(trx, id, patch, by);
      if (r.ok) await recordAuditEvent(trx, { actor: by, action: 'campaign.update', target_type: 'campaign', target_id: id, details: r.changes });
      return r;
    });
  } catch (err) {
    if (isCampaignNameClash(err)) throw nameTaken(patch.name);
    throw err;
  }
  if (result.ok) return maskCampaign(result.row, principal);
  switch (result.reason) {
    case 'not_found':
      throw new NotFoundError(`no campaign ${id}`);
    case 'unknown_member':
      throw new ValidationError('no such member', [{ path: `body.members.${result.list}[${result.index}].id`, message: `no ${result.ref.type} ${result.ref.id}` }]);
    case 'case_in_other_campaign':
      throw new ConflictError(`case ${result.ref.id} is in campaign ${result.campaign_id}; remove it there first`, { field: `body.members.add[${result.index}].id`, campaign_id: result.campaign_id });
  }
}
