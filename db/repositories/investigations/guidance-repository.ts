// Guidance requests: the funnel agent's questions to a human. The answer is never a column here (it
// is sealed in vault_secrets); a row says whether and by whom a question was answered.
import type { Knex } from 'knex';
import type { GuidanceKind } from '../../../domain/investigations/funnel';

export const GUIDANCE_STATUSES = ['pending', 'answered', 'aborted', 'expired'] as const;
export type GuidanceStatus = (typeof GUIDANCE_STATUSES)[number];

export interface GuidanceRequestRow {
  request_id: string;
  scan_id: string;
  kind: GuidanceKind;
  question: string;
  field: string | null;
  screenshot_key: string | null;
  status: GuidanceStatus;
  asked_at: Date;
  answered_by: string | null;
  answered_at: Date | null;
  closed_at: Date | null;
}

/** Opens a request once: a retried write answers the row stored first. */
export async function insertGuidanceRequest(
  knex: Knex,
  req: Pick<GuidanceRequestRow, 'request_id' | 'scan_id' | 'kind' | 'question' | 'field' | 'screenshot_key'>,
): Promise<GuidanceRequestRow> {
  await knex('guidance_requests').insert(req).onConflict('request_id').ignore();
  return (await knex<GuidanceRequestRow>('guidance_requests').where({ request_id: req.request_id }).first())!;
}

export async function findGuidanceRequest(knex: Knex | Knex.Transaction, scanId: string, requestId: string, forUpdate = false): Promise<GuidanceRequestRow | undefined> {
  const q = knex<GuidanceRequestRow>('guidance_requests').where({ scan_id: scanId, request_id: requestId });
  if (forUpdate) q.forUpdate();
  return q.first();
}

/** The scan's newest pending request, if any. */
export async function findPendingGuidance(knex: Knex, scanId: string): Promise<GuidanceRequestRow | undefined> {
  return knex<GuidanceRequestRow>('guidance_requests').where({ scan_id: scanId, status: 'pending' }).orderBy([{ column: 'asked_at', order: 'desc' }, { column: 'request_id', order: 'desc' }]).first();
}

/** A human's reply to a pending request: `answered` (by whom) or `aborted`. False when it was no longer pending. */
export async function replyToGuidance(trx: Knex.Transaction, requestId: string, status: 'answered' | 'aborted', by: string): Promise<boolean> {
  const n = await trx('guidance_requests')
    .where({ request_id: requestId, status: 'pending' })
    .update({ status, answered_by: by, answered_at: trx.fn.now(), ...(status === 'aborted' ? { closed_at: trx.fn.now() } : {}) });
  return n === 1;
}

/**
 * The workflow closes its request: a pending one takes `status` (expired when nobody answered in
 * time); one a human already answered or aborted keeps that status. Idempotent.
 */
export async function closeGuidance(knex: Knex, scanId: string, requestId: string, status: GuidanceStatus): Promise<GuidanceRequestRow | undefined> {
  await knex('guidance_requests').where({ scan_id: scanId, request_id: requestId, status: 'pending' }).update({ status, closed_at: knex.fn.now() });
  await knex('guidance_requests').where({ scan_id: scanId, request_id: requestId }).whereNull('closed_at').update({ closed_at: knex.fn.now() });
  return findGuidanceRequest(knex, scanId, requestId);
}
