import type { Knex } from 'knex';

export type DeliveryStatus = 'pending' | 'sent' | 'skipped' | 'failed';

export interface ReportDeliveryRow {
  id: string;
  report_id: string;
  recipients: string[];
  status: DeliveryStatus;
  attempts: number;
  last_error: string | null;
  message_id: string | null;
  updated_at: Date;
}

/** The delivery record of a report, created pending on first use. */
export async function ensureDelivery(knex: Knex, reportId: string, recipients: string[]): Promise<ReportDeliveryRow> {
  await knex('report_deliveries').insert({ report_id: reportId, recipients, status: 'pending' }).onConflict('report_id').ignore();
  return (await knex<ReportDeliveryRow>('report_deliveries').where({ report_id: reportId }).first())!;
}

export async function recordDeliveryAttempt(
  knex: Knex,
  reportId: string,
  outcome: { status: DeliveryStatus; error?: string; messageId?: string },
): Promise<void> {
  await knex('report_deliveries')
    .where({ report_id: reportId })
    .whereNot({ status: 'sent' })
    .update({
      status: outcome.status,
      attempts: knex.raw('attempts + 1'),
      last_error: outcome.error ?? null,
      message_id: outcome.messageId ?? null,
      updated_at: knex.fn.now(),
    });
}
