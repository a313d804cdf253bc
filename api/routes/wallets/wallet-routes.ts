// Wallets across investigations: the cross-scan search (GET /investigations/ssi/wallets and the
// standalone API's GET /wallets, one engine) and per-scan CSV/XLSX downloads, streamed with the
// export code the CLI uses (services/wallets/wallet-export.ts; CSV cells are formula-neutralized).
// The use cases are services/wallets/wallet-service.ts; the schemas ./wallet-schemas.ts.
//
// Access: admin and analyst, and API keys with investigations:read or investigations:write.
// Researchers get aggregate, anonymized data only (spec, "Authentication"), and a wallet address
// with the scans that found it is identifying detail, so researchers (and reviewers) get 403.
//
// Register these BEFORE GET /investigations/ssi/{scan_id} (route order decides which handler gets
// /investigations/ssi/wallets).
import type { z } from 'zod';
import { downloadScanWallets, searchCrossScanWallets, type WalletAggregateRow, type WalletScanSighting } from '../../../services/wallets/wallet-service';
import { WALLET_EXPORT_CONTENT_TYPES } from '../../../services/wallets/wallet-export';
import { encodeCursor, pageSchema } from '../../pagination';
import { defineRoute, type AccessPolicy, type RouteDef } from '../../route-definition';
import { ErrorSchema } from '../../common-schemas';
import { CrossScanWalletSchema, scanIdParams, SearchQuerySchema, type SearchQuery } from './wallet-schemas';

const ACCESS: AccessPolicy = { roles: ['admin', 'analyst'], scopes: ['investigations:read', 'investigations:write'] };

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
      const page = await searchCrossScanWallets(deps, {
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

function exportRoute(path: string, param: 'scan_id' | 'id', format: 'csv' | 'xlsx'): RouteDef {
  return defineRoute<Record<string, string>>({
    method: 'get',
    path,
    summary: `The scan's wallets as ${format.toUpperCase()} (streamed, oldest first${format === 'csv' ? '; cells starting with = + - @ are neutralized' : '; cells are typed strings'})`,
    tags: ['investigations'],
    access: ACCESS,
    request: { params: scanIdParams(param) },
    responses: {
      200: { description: `The wallets; Content-Disposition names wallets-<scan id>.${format}`, contentType: WALLET_EXPORT_CONTENT_TYPES[format] },
      404: { description: 'No such scan', schema: ErrorSchema },
    },
    handler: async ({ params, deps, ctx }) => {
      const scanId = params[param]!;
      const body = await downloadScanWallets(deps, scanId, format);
      ctx.type = WALLET_EXPORT_CONTENT_TYPES[format];
      ctx.attachment(`wallets-${scanId}.${format}`);
      ctx.set('Cache-Control', 'no-store');
      ctx.set('X-Content-Type-Options', 'nosniff');
      return { body };
    },
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
