// The inbound SMTP receiver of persona mail (SVC_SSI__MAIL_BIND), started with the workers
// (`npm start`, `npm run worker`) and by the tests: infra/smtp-receiver.ts speaks SMTP, the use
// cases of services/investigations/persona-mail-service.ts decide which recipients exist and store
// and signal each mail. Unset, the setting means the development default 127.0.0.1:2525, tried
// once: a port already taken (a second worker on the host) only warns. Set, a failed bind stops start-up.
import type { AppDeps } from '../api/app-deps';
import { parseBind, startSmtpReceiver, type SmtpReceiver } from '../infra/smtp-receiver';
import { personaMailboxScan, receivePersonaMail } from '../services/investigations/persona-mail-service';

export const DEV_MAIL_BIND = '127.0.0.1:2525';

/** Starts the receiver on `bind` (default: the setting); null when it is off (or the dev default's port is taken). */
export async function startPersonaMailReceiver(deps: AppDeps, bind: string | undefined = deps.config.ssi.mail_bind): Promise<SmtpReceiver | null> {
  if (bind === '') return null;
  const { host, port } = parseBind(bind ?? DEV_MAIL_BIND);
  try {
    const receiver = await startSmtpReceiver({
      host,
      port,
      name: deps.config.ssi.persona_email_domain,
      maxBytes: deps.config.ssi.mail_max_kb * 1024,
      acceptRecipient: async (address) => (await personaMailboxScan(deps, address)) !== null,
      deliver: async ({ recipients, raw }) => {
        const scans = new Map<string, string>();
        for (const r of recipients) {
          const scanId = await personaMailboxScan(deps, r);
          if (scanId && !scans.has(scanId)) scans.set(scanId, r);
        }
        for (const [scanId, recipient] of scans) await receivePersonaMail(deps, { scanId, recipient, raw });
      },
      onError: (err) => deps.log.warn({ err: { message: err.message, code: (err as NodeJS.ErrnoException).code } }, 'persona mail receiver: delivery failed (answered 451)'),
    });
    deps.log.info({ host, port: receiver.port, domain: deps.config.ssi.persona_email_domain }, 'persona mail receiver listening');
    return receiver;
  } catch (err) {
    if (bind === undefined && (err as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      deps.log.warn({ bind: DEV_MAIL_BIND }, 'persona mail receiver off: its development default port is taken (set SVC_SSI__MAIL_BIND, or empty to silence this)');
      return null;
    }
    throw new Error(`persona mail receiver: cannot listen on ${bind ?? DEV_MAIL_BIND} (SVC_SSI__MAIL_BIND): ${err instanceof Error ? err.message : String(err)}`, { cause: err });
  }
}
