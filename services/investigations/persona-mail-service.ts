// Persona mail as use cases (the inbound SMTP receiver calls the first two; the API the rest):
//   personaMailboxScan    which investigation a recipient at the persona domain belongs to (null: refuse it)
//   receivePersonaMail    store the raw message as evidence, read its codes and links, signal `ssi-<scan_id>`
//   openPersonaMail       one mail's raw message (.eml), streamed, with a custody entry and an audit event
// Nothing here logs a persona's address, a code or a link: log lines name the scan and the mail id.
import type { Readable } from 'node:stream';
import { WorkflowNotFoundError } from '@temporalio/client';
import { simpleParser } from 'mailparser';
import { findMailboxScan } from '../../db/repositories/investigations/mailbox-repository';
import { findInvestigation } from '../../db/repositories/investigations/investigation-repository';
import {
  findPersonaMail,
  insertPersonaMail,
  listPersonaMail,
  markPersonaMailSignalled,
  type PersonaMailRow,
} from '../../db/repositories/investigations/persona-mail-repository';
import { principalName } from '../../domain/accounts/principal-name';
import type { Principal } from '../../domain/accounts/roles';
import { investigationTaskId } from '../../domain/investigations/investigation-request';
import { anchorHrefs, extractVerificationCodes, extractVerificationLinks, personaMailbox } from '../../domain/investigations/verification-mail';
import { BlobNotFoundError } from '../../infra/blob-store';
import { recordDownloadCustody } from '../evidence/download-custody';
import { mailPath } from '../evidence/evidence-bundle';
import { NotFoundError } from '../errors';
import type { ServiceDeps } from '../service-deps';
import { personaMailSignal } from '../../workflows/investigations/funnel-signals';

export type { PersonaMailRow } from '../../db/repositories/investigations/persona-mail-repository';

/** The scan whose persona owns `address` at SVC_SSI__PERSONA_EMAIL_DOMAIN, or null (another domain, no such mailbox). */
export async function personaMailboxScan(deps: Pick<ServiceDeps, 'knex' | 'config'>, address: string): Promise<string | null> {
  const mailbox = personaMailbox(address, deps.config.ssi.persona_email_domain);
  return mailbox ? findMailboxScan(deps.knex, mailbox) : null;
}

export interface ReceivedMail {
  mail: PersonaMailRow;
  /** false: the same Message-ID reached this scan before (stored once). */
  created: boolean;
  /** Whether the workflow got the signal (false: it has ended; the mail is kept all the same). */
  signalled: boolean;
}

/**
 * One accepted mail for one scan: the raw message goes to the blob store (content-addressed), a
 * `persona_mail` row (once per Message-ID and scan) holds what was read from it, and the scan's
 * workflow gets `personaMailSignal {mailId, codes, links}`. A mail without a Message-ID is keyed by
 * its SHA-256. A repeat of a mail already signalled is not signalled again.
 */
export async function receivePersonaMail(
  deps: Pick<ServiceDeps, 'knex' | 'blobs' | 'temporal' | 'log'>,
  input: { scanId: string; recipient: string; raw: Buffer },
): Promise<ReceivedMail> {
  const stored = await deps.blobs.put(input.raw);
  const parsed = await simpleParser(input.raw, { skipImageLinks: true, skipTextToHtml: true });
  const inv = await findInvestigation(deps.knex, input.scanId);
  const fromAddress = parsed.from?.value[0]?.address ?? '';
  const html = typeof parsed.html === 'string' ? parsed.html : '';
  const text = parsed.text ?? '';
  const codes = extractVerificationCodes(parsed.subject, text || html.replace(/<[^>]+>/g, ' '));
  const sites = [inv?.domain, inv?.final_url ? new URL(inv.final_url).hostname : undefined, fromAddress.split('@')[1]].filter((s): s is string => !!s);
  const links = extractVerificationLinks({ text, hrefs: anchorHrefs(html), sites });
  const { row, created } = await insertPersonaMail(deps.knex, {
    scan_id: input.scanId,
    recipient: input.recipient.toLowerCase(),
    message_id: (parsed.messageId ?? `sha256:${stored.sha256}`).slice(0, 998),
    from: (parsed.from?.text ?? '').slice(0, 998),
    subject: (parsed.subject ?? '').slice(0, 998),
    blob_key: stored.key,
    sha256: stored.sha256,
    size_bytes: stored.size,
    codes,
    links,
  });
  if (row.signalled) return { mail: row, created, signalled: true };
  const signalled = await signalMail(deps, row);
  return { mail: { ...row, signalled }, created, signalled };
}

async function signalMail(deps: Pick<ServiceDeps, 'knex' | 'temporal' | 'log'>, row: PersonaMailRow): Promise<boolean> {
  const workflowId = investigationTaskId(row.scan_id);
  try {
    await deps.temporal.workflow.getHandle(workflowId).signal(personaMailSignal, { mailId: row.id, codes: row.codes, links: row.links });
  } catch (err) {
    if (!(err instanceof WorkflowNotFoundError)) throw err;
    deps.log.info({ scan_id: row.scan_id, mail_id: row.id, workflow_id: workflowId }, 'persona mail kept as evidence; its investigation is no longer running');
    return false;
  }
  await markPersonaMailSignalled(deps.knex, row.id);
  deps.log.info({ scan_id: row.scan_id, mail_id: row.id, codes: row.codes.length, links: row.links.length }, 'persona mail signalled to its investigation');
  return true;
}

export interface MailDownload {
  stream: Readable;
  mail: PersonaMailRow;
  /** Its place among the scan's mail (1-based; it names the download and the bundle's file). */
  seq: number;
}

/** One mail's raw message, streamed; a custody entry and an `evidence.download` audit event are written first. */
export async function openPersonaMail(
  deps: Pick<ServiceDeps, 'knex' | 'blobs'>,
  principal: Principal | null,
  scanId: string,
  mailId: string,
  purpose: string | undefined,
): Promise<MailDownload> {
  const mail = await findPersonaMail(deps.knex, scanId, mailId);
  const missing = () => new NotFoundError(`no mail ${mailId} of investigation ${scanId}`);
  if (!mail) throw missing();
  const seq = (await listPersonaMail(deps.knex, scanId)).findIndex((m) => m.id === mail.id) + 1;
  const stream = await deps.blobs.get(mail.blob_key).catch((err: unknown) => {
    throw err instanceof BlobNotFoundError ? missing() : err;
  });
  try {
    await recordDownloadCustody(deps.knex, {
      subjectKind: 'investigation', subjectId: scanId, actor: principalName(principal), artifact: `mail ${seq}`, purpose: purpose ?? 'download',
      files: [{ path: mailPath(seq), sha256: mail.sha256, blobKey: mail.blob_key }],
      audit: { action: 'evidence.download', target_type: 'investigation', target_id: scanId, details: { artifact: mailPath(seq), mail_id: mail.id, sha256: mail.sha256 } },
    });
  } catch (err) {
    stream.destroy();
    throw err;
  }
  return { stream, mail, seq };
}
