// Wallets across investigations as use cases (extraction itself is ./wallet-extraction.ts, the
// file formats ./wallet-export.ts):
//   searchCrossScanWallets  one row per (network, address) over every scan, with the scans that found it; a page
//   downloadScanWallets     a known scan's wallets as CSV or XLSX, streamed (404 for an unknown scan)
//   scanWalletStream        a scan's wallets as a stream of any export format (the download, the LEA package)
//   exportScanWallets       a scan's wallets written to a file or stdout (`fip ssi wallet export`), the row count
import { PassThrough, type Readable, type Writable } from 'node:stream';
import { streamWalletsForScan } from '../../db/repositories/wallets/wallet-repository';
import {
  scanExists,
  searchWalletAggregates,
  type WalletAggregateFilter,
  type WalletAggregateRow,
  type WalletScanSighting,
} from '../../db/repositories/wallets/wallet-search-repository';
import type { KeysetPage } from '../../domain/keyset';
import { NotFoundError } from '../errors';
import type { ServiceDeps } from '../service-deps';
import { writeWalletExport, type WalletExportFormat } from './wallet-export';

export type { WalletAggregateFilter, WalletAggregateRow, WalletScanSighting } from '../../db/repositories/wallets/wallet-search-repository';

export async function searchCrossScanWallets(
  deps: Pick<ServiceDeps, 'knex'>,
  filter: WalletAggregateFilter,
): Promise<KeysetPage<WalletAggregateRow & { scans: WalletScanSighting[] }>> {
  return searchWalletAggregates(deps.knex, filter);
}

/**
 * The scan's wallets in `format` as a stream that ends after the last row (the XLSX writer ends it
 * itself). A failure half-way destroys the stream with `failed(err)`: the bytes already sent
 * cannot be taken back.
 */
export function scanWalletStream(deps: Pick<ServiceDeps, 'knex'>, scanId: string, format: WalletExportFormat, failed: (err: unknown) => Error): Readable {
  const out = new PassThrough();
  writeWalletExport(format, streamWalletsForScan(deps.knex, scanId), out).then(
    () => {
      if (format !== 'xlsx') out.end();
    },
    (err: unknown) => out.destroy(failed(err)),
  );
  return out;
}

/** A known scan's wallets, streamed. An existing scan with no wallets answers an empty export; an unknown scan id is 404. */
export async function downloadScanWallets(deps: Pick<ServiceDeps, 'knex' | 'log'>, scanId: string, format: Extract<WalletExportFormat, 'csv' | 'xlsx'>): Promise<Readable> {
  if (!(await scanExists(deps.knex, scanId))) throw new NotFoundError(`no scan ${scanId}`);
  return scanWalletStream(deps, scanId, format, (err) => {
    deps.log.error({ err, scanId, format }, 'wallet export failed mid-stream');
    return err instanceof Error ? err : new Error('wallet export failed');
  });
}

/**
 * Writes every wallet of the scan to `out` and returns the row count; no check that the scan
 * exists (an unknown scan exports nothing). CSV and JSON leave `out` open; the XLSX writer ends it.
 */
export async function exportScanWallets(deps: Pick<ServiceDeps, 'knex'>, scanId: string, format: WalletExportFormat, out: Writable): Promise<number> {
  return writeWalletExport(format, streamWalletsForScan(deps.knex, scanId), out);
}
