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
