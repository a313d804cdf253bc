// Mails a takedown's recipients through the platform's SMTP settings (SVC_SMTP__*): the short text,
// with the XARF report attached as JSON. Each recipient row is marked when its mail is accepted, so
// a retried or repeated send skips it; the Message-ID is derived from the takedown and the
// recipient, so a desk that received the same mail twice (a crash between sending and marking)
// sees one message.
import nodemailer, { type Transporter } from 'nodemailer';
import type { Knex } from 'knex';
import type { AppConfig } from '../../config/config';
import {
  appendTakedownEvent,
  findRecipient,
  findTakedown,
  listRecipients,
  markRecipientSent,
  recordRecipientFailure,
  updateTakedown,
} from '../../db/repositories/takedowns/takedown-repository';

export function createTakedownDelivery(deps: { knex: Knex; config: AppConfig }) {
  let transporter: Transporter | null = null;
  return {
    /** The recipients not yet mailed. */
    async pendingRecipients(takedownId: string): Promise<string[]> {
      return (await listRecipients(deps.knex, takedownId)).filter((r) => !r.sent_at).map((r) => r.id);
    },
    /** Mails one recipient unless it already was; throws (to be retried) when the server refuses. */
    async mailRecipient(takedownId: string, recipientId: string): Promise<'sent' | 'already'> {
      const [t, r] = await Promise.all([findTakedown(deps.knex, takedownId), findRecipient(deps.knex, recipientId)]);
      if (!t || !r || r.takedown_id !== takedownId) throw new Error(`no recipient ${recipientId} of takedown ${takedownId}`);
      if (r.sent_at) return 'already';
      if (!deps.config.smtp.url) throw new Error('SVC_SMTP__URL is not set: takedown mail cannot be sent');
      transporter ??= nodemailer.createTransport(deps.config.smtp.url);
      const reportId = String(t.xarf.report_id);
      const messageId = `<takedown-${t.id}-${r.id}@${deps.config.takedown.reporter_domain}>`;
      try {
        await transporter.sendMail({
          from: deps.config.smtp.from,
          to: r.email,
          replyTo: deps.config.takedown.reporter_contact,
          subject: `Abuse report (XARF ${String(t.xarf.type)}): ${t.domain}`,
          text: t.summary,
          messageId,
          attachments: [{ filename: `xarf-${reportId}.json`, content: JSON.stringify(t.xarf, null, 2), contentType: 'application/json' }],
        });
      } catch (err) {
        await recordRecipientFailure(deps.knex, r.id, err instanceof Error ? err.message : String(err));
        throw err;
      }
      await markRecipientSent(deps.knex, r.id, messageId);
      return 'sent';
    },
    /** Ends a send: `sent` when every recipient was mailed, else back to `approved` (a later send retries the rest). */
    async finishSend(takedownId: string): Promise<{ sent: number; pending: number }> {
      const recipients = await listRecipients(deps.knex, takedownId);
      const sent = recipients.filter((r) => r.sent_at).length;
      const pending = recipients.length - sent;
      await deps.knex.transaction(async (trx) => {
        const t = await findTakedown(trx, takedownId, true);
        if (!t || t.status === 'sent') return;
        await updateTakedown(trx, takedownId, pending === 0 ? { status: 'sent', sent_at: new Date() } : { status: 'approved' });
        await appendTakedownEvent(trx, { takedownId, kind: pending === 0 ? 'sent' : 'send_incomplete', actor: 'system', detail: { sent, pending } });
      });
      return { sent, pending };
    },
  };
}
