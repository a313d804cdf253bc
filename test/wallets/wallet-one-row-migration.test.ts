// Migration 20261122002600: wallets stored before it (one row per scan, network, TOKEN and address)
// are merged into one row per scan, network and address, keeping the strongest reading.
import assert from 'node:assert/strict';
import path from 'node:path';
import type { Knex } from 'knex';
import { createKnex } from '../../db/connection';
import { emptyDatabase } from '../support/empty-database';

const config: Knex.MigratorConfig = { directory: path.join(__dirname, '..', '..', 'db', 'migrations'), loadExtensions: ['.ts'], tableName: 'knex_migrations' };
const MIGRATION = '20261122002600_wallet_one_row_per_address.ts';

describe('migration: one wallet row per address and network', function () {
  this.timeout(120_000);

  it('merges the token rows of one address, keeping the strongest (then the earliest) and the first wallet state', async () => {
    const db = await emptyDatabase();
    const knex = createKnex(db.url, 2);
    try {
      // Every migration before this one.
      for (;;) {
        const [, pending] = (await knex.migrate.list(config)) as [unknown[], Array<{ file: string }>];
        if (pending[0]?.file === MIGRATION) break;
        await knex.migrate.up(config);
      }
      const scan = 'scan-before';
      const row = (token: string, confidence: string, foundAt: string) => ({ scan_id: scan, address: 'TSameAddress', network: 'tron', token, confidence, source: 'text', found_at: foundAt });
      await knex('wallets').insert([
        row('USDT', 'medium', '2026-01-02T00:00:00Z'),
        row('TRX', 'high', '2026-01-03T00:00:00Z'),
        row('USDC', 'high', '2026-01-01T00:00:00Z'),
        { ...row('USDT', 'low', '2026-01-01T00:00:00Z'), address: 'TOtherAddress' },
      ]);
      const scanId = '00000000-0000-4000-8000-0000000000aa';
      await knex('investigations').insert({ scan_id: scanId, url: 'https://scam.example/', domain: 'scam.example', requested_by: 'a@example.org' });
      await knex('investigation_wallet_states').insert([
        { scan_id: scanId, network: 'tron', token: 'USDT', address: 'TSameAddress', state: 'deposit', first_seen_at: '2026-01-02T00:00:00Z' },
        { scan_id: scanId, network: 'tron', token: 'TRX', address: 'TSameAddress', state: 'landing', first_seen_at: '2026-01-01T00:00:00Z' },
      ]);

      await knex.migrate.up(config);

      const rows = await knex('wallets').where({ scan_id: scan }).orderBy('address').select('address', 'token', 'confidence');
      assert.deepEqual(rows, [
        { address: 'TOtherAddress', token: 'USDT', confidence: 'low' },
        { address: 'TSameAddress', token: 'USDC', confidence: 'high' },
      ]);
      assert.deepEqual(await knex('investigation_wallet_states').select('token', 'state'), [{ token: 'TRX', state: 'landing' }]);
      await assert.rejects(knex('wallets').insert(row('BTC', 'low', '2026-01-04T00:00:00Z')), /wallets_scan_network_address_uq/);
    } finally {
      await knex.destroy();
      await db.drop();
    }
  });
});
