import pino, { type DestinationStream, type Logger } from 'pino';

export type { Logger };

const MAX_DEPTH = 6;

/**
 * Error objects anywhere in a log line (`err`, `error`, the Temporal SDK's `temporal.error`, an
 * array of causes) as `{type, message, stack, code, cause...}`: JSON.stringify turns an Error into
 * `{}`, which hid why a step failed. Objects without an Error inside are returned as they are.
 */
export function serializeErrors(value: unknown, depth = 0): unknown {
  if (value instanceof Error) return pino.stdSerializers.errWithCause(value);
  if (depth >= MAX_DEPTH || value === null || typeof value !== 'object' || ArrayBuffer.isView(value)) return value;
  if (Array.isArray(value)) {
    let out: unknown[] | null = null;
    value.forEach((v, i) => {
      const s = serializeErrors(v, depth + 1);
      if (s !== v) (out ??= [...value])[i] = s;
    });
    return out ?? value;
  }
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return value;
  let out: Record<string, unknown> | null = null;
  for (const [k, v] of Object.entries(value)) {
    const s = serializeErrors(v, depth + 1);
    if (s !== v) (out ??= { ...(value as Record<string, unknown>) })[k] = s;
  }
  return out ?? value;
}

/** Structured JSON logs. Secrets (API keys, proxy assertions, cookies, contact data) are redacted. */
export function createLogger(level: string, name = 'fip', destination?: DestinationStream): Logger {
  return pino({
    name,
    level,
    base: { pid: process.pid },
    timestamp: pino.stdTimeFunctions.isoTime,
    // The formatter has serialized every Error already; pino's default `err` serializer would
    // serialize the result again (and name its type "Object").
    serializers: { err: (e: unknown) => serializeErrors(e) },
    formatters: { log: (object) => serializeErrors(object) as Record<string, unknown> },
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
        'config.ssi.proxy_url',
        'config.database_url',
        'config.vault.master_key',
        'config.evidence.signing_key',
        'config.vault.previous_master_keys',
        // `*.key` matches one level down only; the top-level keys of a line are listed too.
        'password',
        'api_key',
        'reporter_name',
        'contact_email',
        'contact_phone',
        '*.reporter_name',
        '*.contact_email',
        '*.contact_phone',
        'config.blobs.secret_access_key',
        '*.secret_access_key',
        '*.secretAccessKey',
        // A human's answer to the funnel agent (a captcha's text): never in a log line.
        'answer',
        '*.answer',
      ],
      censor: '[redacted]',
    },
  }, destination);
}
