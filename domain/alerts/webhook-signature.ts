// Alert webhooks are signed: `X-FIP-Signature: sha256=<hex>` is the HMAC-SHA256 of the exact
// request body under the watchlist's secret (shown once, when the watchlist is created). The body
// carries `sent_at`, so a receiver can refuse old replays; docs/alerts.md has a verification snippet.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_HEADER = 'X-FIP-Signature';

export function signWebhookBody(secret: string, body: string | Buffer): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

export function verifyWebhookSignature(secret: string, body: string | Buffer, header: string | undefined): boolean {
  if (!header) return false;
  const expected = Buffer.from(signWebhookBody(secret, body));
  const given = Buffer.from(header);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

/** A fresh webhook secret: 32 random bytes, base64url, prefixed so that it is recognisable in a leak scan. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}
