import pino, { type DestinationStream, type Logger } from 'pino';

export type { Logger };

/** Structured JSON logs. Secrets (API keys, proxy assertions, cookies, contact data) are redacted. */
export function createLogger(level: string, name = 'fip', destination?: DestinationStream): Logger {
  return pino({
    name,
    level,
    base: { pid: process.pid },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: {
      paths: [
        'req.headers["x-api-key"]',
        'req.headers["x-goog-iap-jwt-assertion"]',
        'req.headers.authorization',
        'req.headers.cookie',
        '*.password',
        '*.api_key',
        '*.apiKey',
        'config.anthropic_api_key',
        'config.temporal_api_key',
        '*.temporal_api_key',
        'config.smtp.url',
        'config.database_url',
        'config.vault.master_key',
        'config.evidence.signing_key',
        'config.vault.previous_master_keys',
        '*.reporter_name',
        '*.contact_email',
        '*.contact_phone',
        'config.blobs.secret_access_key',
        '*.secret_access_key',
        '*.secretAccessKey',
      ],
      censor: '[redacted]',
    },
  }, destination);
}
