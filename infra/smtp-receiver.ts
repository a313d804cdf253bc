// An inbound SMTP server (smtp-server) that asks its owner which recipients exist and hands over
// each accepted message whole. No authentication and no TLS: it is meant for loopback or for the
// operator's MX to relay to (docs/security.md). Limits: message size (SIZE, 552 past it),
// recipients per message, connections at once, idle time.
import type { AddressInfo } from 'node:net';
import { SMTPServer, type SMTPServerAddress } from 'smtp-server';

export interface SmtpReceiverOptions {
  host: string;
  port: number;
  maxBytes: number;
  /** A name for the greeting (`220 <name> ESMTP`). */
  name: string;
  /** Whether mail for this recipient is wanted; false answers 550. A throw answers 451 (try later). */
  acceptRecipient(address: string): Promise<boolean>;
  /** One accepted message for the accepted recipients; a throw answers 451 so the sender retries. */
  deliver(message: { recipients: string[]; raw: Buffer }): Promise<void>;
  onError(err: Error): void;
}

export interface SmtpReceiver {
  host: string;
  port: number;
  close(): Promise<void>;
}

const smtpError = (code: number, message: string) => Object.assign(new Error(message), { responseCode: code });

export async function startSmtpReceiver(opts: SmtpReceiverOptions): Promise<SmtpReceiver> {
  const server = new SMTPServer({
    name: opts.name,
    banner: 'persona mail only',
    size: opts.maxBytes,
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    logger: false,
    maxClients: 20,
    socketTimeout: 60_000,
    closeTimeout: 5_000,
    onRcptTo(address: SMTPServerAddress, session, callback) {
      if (session.envelope.rcptTo.length >= 20) return callback(smtpError(452, 'too many recipients'));
      opts.acceptRecipient(address.address).then(
        (ok) => callback(ok ? undefined : smtpError(550, 'no such mailbox')),
        (err: unknown) => {
          opts.onError(err instanceof Error ? err : new Error(String(err)));
          callback(smtpError(451, 'try again later'));
        },
      );
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('error', (err) => callback(err));
      stream.on('end', () => {
        if ((stream as unknown as { sizeExceeded?: boolean }).sizeExceeded) {
          return callback(smtpError(552, `message exceeds the limit of ${opts.maxBytes} bytes`));
        }
        const recipients = session.envelope.rcptTo.map((r) => r.address);
        opts.deliver({ recipients, raw: Buffer.concat(chunks) }).then(
          () => callback(),
          (err: unknown) => {
            opts.onError(err instanceof Error ? err : new Error(String(err)));
            callback(smtpError(451, 'try again later'));
          },
        );
      });
    },
  });
  server.on('error', (err) => opts.onError(err));
  await new Promise<void>((resolve, reject) => {
    const failed = (err: Error) => reject(err);
    server.server.once('error', failed);
    server.listen(opts.port, opts.host, () => {
      server.server.off('error', failed);
      resolve();
    });
  });
  const address = server.server.address() as AddressInfo;
  return {
    host: opts.host,
    port: address.port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Splits `host:port` (`[::1]:2525` too). */
export function parseBind(bind: string): { host: string; port: number } {
  const m = /^(?:\[([0-9a-fA-F:]+)\]|([A-Za-z0-9.-]+)):(\d{1,5})$/.exec(bind);
  if (!m) throw new Error(`not host:port: ${bind}`);
  return { host: m[1] ?? m[2]!, port: Number(m[3]) };
}
