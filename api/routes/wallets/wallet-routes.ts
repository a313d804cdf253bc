// Wallets across investigations: the cross-scan search (GET /investigations/ssi/wallets and the
// standalone API's GET /wallets, one engine) and per-scan CSV/XLSX downloads, streamed with the
// export code the CLI uses (services/wallets/wallet-export.ts; CSV cells are formula-neutralized).
//
// Access: admin and analyst, and API keys with investigations:read or investigations:write.
// Researchers get aggregate, anonymized data only (spec, "Authentication"), and a wallet address
// with the scans that found it is identifying detail, so researchers (and reviewers) get 403.
//
// Register these BEFORE GET /investigations/ssi/{scan_id} (route order decides which handler gets
// /investigations/ssi/wallets).
import { PassThrough } from 'node:stream';
import { z } from 'zod';
import { streamWalletsForScan } from '../../../db/repositories/wallets/wallet-repository';
import { scanExists, searchWalletAggregates, type WalletAggregateRow, type WalletScanSighting } from '../../../db/repositories/wallets/wallet-search-repository';
import type { Keyset } from '../../../domain/keyset';
import { WALLET_EXPORT_CONTENT_TYPES, writeWalletExport, type WalletExportFormat } from '../../../services/wallets/wallet-export';
import { NotFoundError } from '../../errors';
import { encodeCursor, pageQueryShape, pageSchema } from '../../pagination';
import { defineRoute, type AccessPolicy, type HandlerInput, type RouteDef } from '../../route-definition';
import { ErrorSchema } from '../../common-schemas';

const ACCESS: AccessPolicy = { roles: ['admin', 'analyst'], scopes: ['investigations:read', 'investigations:write'] };

const ScanIdSchema = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,128}$/, 'a scan id (letters, digits, "-" and "_", at most 128)')
  .describe('The investigation\'s scan id');

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

const SearchQuerySchema = z.object({
  token: z.string().trim().min(1).max(20).optional().describe('Token symbol, e.g. USDT (case-insensitive)'),
  network: z.string().trim().min(1).max(40).optional().describe('Network id, e.g. tron (case-insensitive)'),
  address: z.string().trim().min(3).max(200).optional().describe('Address substring (case-insensitive, at least 3 characters)'),
  ...pageQueryShape,
});
type SearchQuery = { token?: string; network?: string; address?: string; limit: number; cursor?: Keyset };

const iso = (d: Date) => d.toISOString();
function view(r: WalletAggregateRow & { scans: WalletScanSighting[] }): z.infer<typeof CrossScanWalletSchema> {
  return {
    network: r.network,
    address: r.address,
    token: r.token,
    tokens: r.tokens,
    scan_count: r.scan_count,
    scans: r.scans.map((s) => ({ scan_id: s.scan_id, url: s.url, page_url: s.page_url, first_seen_at: iso(s.first_seen_at) })),
    first_seen_at: iso(r.first_seen_at),
    last_seen_at: iso(r.last_seen_at),
  };
}

function searchRoute(path: string, summary: string): RouteDef {
  return defineRoute<Record<string, never>, SearchQuery>({
    method: 'get',
    path,
    summary,
    tags: ['investigations'],
    access: ACCESS,
    request: { query: SearchQuerySchema },
    responses: { 200: { description: 'A page of wallets, most recently seen first', schema: pageSchema(CrossScanWalletSchema, 'CrossScanWalletPage') } },
    handler: async ({ query, deps }) => {
      const page = await searchWalletAggregates(deps.knex, {
        token: query.token,
        network: query.network,
        addressContains: query.address,
        limit: query.limit,
        after: query.cursor,
      });
      return { body: { items: page.rows.map(view), next_cursor: encodeCursor(page.next) } };
    },
  });
}

async function streamScanWallets(format: Extract<WalletExportFormat, 'csv' | 'xlsx'>, scanId: string, { deps, ctx }: HandlerInput<unknown, unknown, unknown>) {
  // An existing scan with no wallets answers an empty export; an unknown scan id is 404.
  if (!(await scanExists(deps.knex, scanId))) throw new NotFoundError(`no scan ${scanId}`);
  const out = new PassThrough();
  ctx.type = WALLET_EXPORT_CONTENT_TYPES[format];
  ctx.attachment(`wallets-${scanId}.${format}`);
  ctx.set('Cache-Control', 'no-store');
  ctx.set('X-Content-Type-Options', 'nosniff');
  writeWalletExport(format, streamWalletsForScan(deps.knex, scanId), out)
    .then(() => {
      if (format === 'csv') out.end();
    })
    .catch((err: unknown) => {
      deps.log.error({ err, scanId, format }, 'wallet export failed mid-stream');
      out.destroy(err instanceof Error ? err : new Error('wallet export failed'));
    });
  return { body: out };
}

function exportRoute(path: string, param: 'scan_id' | 'id', format: 'csv' | 'xlsx'): RouteDef {
  return defineRoute<Record<string, string>>({
    method: 'get',
    path,
    summary: `The scan's wallets as ${format.toUpperCase()} (streamed, oldest first${format === 'csv' ? '; cells starting with = + - @ are neutralized' : '; cells are typed strings'})`,
    tags: ['investigations'],
    access: ACCESS,
    request: { params: z.object({ [param]: ScanIdSchema }) as z.ZodType<Record<string, string>> },
    responses: {
      200: { description: `The wallets; Content-Disposition names wallets-<scan id>.${format}`, contentType: WALLET_EXPORT_CONTENT_TYPES[format] },
      404: { description: 'No such scan', schema: ErrorSchema },
    },
    handler: async (input) => streamScanWallets(format, input.params[param], input as HandlerInput<unknown, unknown, unknown>),
  });
}

export const investigationWalletRoutes: RouteDef[] = [
  searchRoute('/investigations/ssi/wallets', 'Wallets across all scans: one row per (network, address) with the scans that found it; filters token, network, address substring'),
  searchRoute('/wallets', 'Standalone investigation API: the same cross-scan wallet search as /investigations/ssi/wallets'),
  exportRoute('/investigations/ssi/{scan_id}/wallets.csv', 'scan_id', 'csv'),
  exportRoute('/investigations/ssi/{scan_id}/wallets.xlsx', 'scan_id', 'xlsx'),
  exportRoute('/investigations/{id}/wallets.csv', 'id', 'csv'),
  exportRoute('/investigations/{id}/wallets.xlsx', 'id', 'xlsx'),
];
