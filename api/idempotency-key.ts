// The Idempotency-Key request header: its format, and the hash of a request it is bound to.
import { createHash } from 'node:crypto';
import { z } from 'zod';

export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';

/** 1-200 printable ASCII characters (no control characters). */
export const IdempotencyKeySchema = z
  .string()
  .regex(/^[\x20-\x7E]{1,200}$/, 'must be 1-200 printable ASCII characters')
  .describe(
    'Optional. Repeating a request with the same key (per caller) answers the first request\'s task instead of starting another; ' +
      'the same key with a different body is refused (422 idempotency_key_reused). 1-200 printable ASCII characters.',
  );

/** The request headers of a POST that takes an Idempotency-Key (investigations, reports, dossiers, intakes). */
export const IdempotencyHeaders = z.object({ 'idempotency-key': IdempotencyKeySchema.optional() });

/** JSON with object keys sorted at every level, so equal requests hash equally whatever their key order. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** SHA-256 of the canonical JSON of a (validated) request body. */
export function requestHash(body: unknown): string {
  return createHash('sha256').update(canonicalJson(body)).digest('hex');
}
