import type { Knex } from 'knex';

export type DeliveryStatus = 'pending' | 'sending' | 'sent' | 'skipped' | 'failed';

export interface ReportDeliveryRow {
  id: string;
  report_id: string;
  recipients: string[];
  status: DeliveryStatus;
  attempts: number;
  last_error: string | null;
  message_id: string | null;
  updated_at: Date;
  /** Set while a sender holds the delivery (status 'sending'). */
  claim_token: string | null;
  claim_owner: string | null;
  claimed_at: Date | null;
}

/** The delivery record of a report, created pending on first use. */
export async function ensureDelivery(knex: Knex, reportId: string, recipients: string[]): Promise<ReportDeliveryRow> {
  await knex('report_deliveries').insert({ report_id: reportId, recipients, status: 'pending' }).onConflict('report_id').ignore();
  return (await knex<ReportDeliveryRow>('report_deliveries').where({ report_id: reportId }).first())!;
}

/**
 * Claims the delivery for sending, atomically: only one caller wins a pending or failed delivery.
 * A 'sending' claim is taken over when its lease has run out (its sender died), or by the same
 * owner (a retry of the same Temporal activity, which Temporal only issues once the previous
 * attempt has failed or timed out). Returns the claim, or null and the current row for a loser.
 */
export async function claimDelivery(
  knex: Knex,
  reportId: string,
  claim: { owner: string; leaseSeconds: number },
): Promise<{ claimed: ReportDeliveryRow | null; current: ReportDeliveryRow }> {
  const [claimed] = await knex('report_deliveries')
    .where({ report_id: reportId })
    .where((w) =>
      w
        .whereIn('status', ['pending', 'failed'])
        .orWhere((s) =>
          s.where('status', 'sending').where((o) =>
            o.where('claimed_at', '<', knex.raw(`now() - make_interval(secs => ?)`, [claim.leaseSeconds])).orWhere('claim_owner', claim.owner),
          ),
        ),
    )
    .update({
      status: 'sending',
      claim_token: knex.raw('gen_random_uuid()'),
      claim_owner: claim.owner,
      claimed_at: knex.raw('clock_timestamp()'),
      updated_at: knex.fn.now(),
    })
    .returning('*');
  if (claimed) return { claimed: claimed as ReportDeliveryRow, current: claimed as ReportDeliveryRow };
  return { claimed: null, current: (await knex<ReportDeliveryRow>('report_deliveries').where({ report_id: reportId }).first())! };
}

/**
 * Records the outcome of a send (or a skip). With `claimToken`, only while that claim still holds
 * the delivery, so a sender whose claim was taken over cannot overwrite the new sender's outcome.
 */
export async function recordDeliveryAttempt(
  knex: Knex,
  reportId: string,
  outcome: { status: DeliveryStatus; error?: string; messageId?: string; claimToken?: string },
): Promise<void> {
  const q = knex('report_deliveries').where({ report_id: reportId }).whereNot({ status: 'sent' });
  if (outcome.claimToken) q.where({ claim_token: outcome.claimToken });
  await q
    .update({
      claim_token: null,
      claim_owner: null,
      claimed_at: null,
      status: outcome.status,
      attempts: knex.raw('attempts + 1'),
      last_error: outcome.error ?? null,
      message_id: outcome.messageId ?? null,
      updated_at: knex.fn.now(),
    });
}
