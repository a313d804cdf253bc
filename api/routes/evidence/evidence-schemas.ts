// The request schemas of the evidence downloads (./evidence-routes.ts): the scan, and why its
// evidence is taken.
import { z } from 'zod';

export { ScanParam } from '../investigations/investigation-schemas';

export const PurposeQuery = z.object({
  purpose: z
    .string()
    .trim()
    .min(1)
    .max(200)
    .refine((s) => ![...s].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f), 'printable text (no control characters)')
    .optional()
    .describe('why the evidence is taken (written to the custody log and the audit log); default `download`'),
});
export type PurposeQueryT = z.infer<typeof PurposeQuery>;

export const SigningKeySchema = z
  .object({
    key_id: z.string().describe('`ecdsa-p384:<32 hex>`, or `ed25519:<32 hex>` for a key kept only to verify older packages'),
    fingerprint: z.string().describe('SHA-256 (64 hex digits) of the public key\'s SPKI DER: `openssl pkey -pubin -in signature/public-key.pem -outform DER | sha256sum`'),
    algorithm: z.enum(['ecdsa-p384-sha256', 'ed25519']),
    active: z.boolean().describe('signs new packages; the others only verify packages signed before'),
    created_at: z.string().nullable(),
    retired_at: z.string().nullable(),
    public_key: z.string().describe('SPKI PEM'),
  })
  .meta({ id: 'EvidenceSigningKey' });

export const SigningKeyListSchema = z.object({ items: z.array(SigningKeySchema) }).meta({ id: 'EvidenceSigningKeyList' });
