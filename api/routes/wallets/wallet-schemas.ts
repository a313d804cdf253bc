// The request and response schemas of the cross-scan wallet search and the per-scan wallet
// downloads (./wallet-routes.ts).
import { z } from 'zod';
import type { Keyset } from '../../../domain/keyset';
import { pageQueryShape } from '../../pagination';

export const ScanIdSchema = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,128}$/, 'a scan id (letters, digits, "-" and "_", at most 128)')
  .describe('The investigation\'s scan id');

/** The path parameters of a per-scan download: the scan id under the path's own name. */
export function scanIdParams(param: 'scan_id' | 'id'): z.ZodType<Record<string, string>> {
  return z.object({ [param]: ScanIdSchema }) as z.ZodType<Record<string, string>>;
}

const WalletScanSchema = z.object({
  scan_id: z.string(),
  url: z.string().nullable().describe('The investigated URL of the scan (null when not known)'),
  page_url: z.string().nullable().describe('The first page of that scan where the wallet was found'),
  first_seen_at: z.string().describe('ISO 8601 UTC'),
});

export const CrossScanWalletSchema = z
  .object({
    network: z.string(),
    address: z.string(),
    token: z.string().describe('Token of the most recent sighting'),
    tokens: z.array(z.string()).describe('Every token the address was seen with'),
    scan_count: z.number().int().describe('How many scans found this wallet'),
    scans: z.array(WalletScanSchema).describe('The scans that found it, newest first (at most 50; scan_count has the total)'),
    first_seen_at: z.string().describe('ISO 8601 UTC'),
    last_seen_at: z.string().describe('ISO 8601 UTC'),
  })
  .meta({ id: 'CrossScanWallet' });

export const SearchQuerySchema = z.object({
  token: z.string().trim().min(1).max(20).optional().describe('Token symbol, e.g. USDT (case-insensitive)'),
  network: z.string().trim().min(1).max(40).optional().describe('Network id, e.g. tron (case-insensitive)'),
  address: z.string().trim().min(3).max(200).optional().describe('Address substring (case-insensitive, at least 3 characters)'),
  ...pageQueryShape,
});
export type SearchQuery = { token?: string; network?: string; address?: string; limit: number; cursor?: Keyset };
