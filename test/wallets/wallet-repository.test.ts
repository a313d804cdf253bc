// The wallets table and repository (real PostgreSQL from the root hooks), and the CLI export of an
// investigation's wallets read back from the database.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Knex } from 'knex';
import ExcelJS from 'exceljs';
import { createKnex } from '../../db/connection';
import { listWalletsForScan, searchWallets, streamWalletsForScan, upsertWallets, type WalletFindingInput } from '../../db/repositories/wallets/wallet-repository';
import { parseCsv, runFip } from '../support/wallet-test-io';

describe('wallet repository (PostgreSQL)', function () {
  this.timeout(60000);
  let knex: Knex;
  const scan = `scan-${Date.now().toString(36)}`;

  before(function () {
    // The root hooks always start PostgreSQL; a missing URL is a broken setup, not a reason to skip.
    assert.ok(process.env.DATABASE_URL, 'DATABASE_URL is set by test/setup/root-hooks.ts');
    knex = createKnex(process.env.DATABASE_URL, 2);
  });
  after(async () => {
    await knex?.destroy();
  });

  const base: WalletFindingInput = { address: 'TJRyWwFs9wTFGZg3JbrVriFbNfCug5tDeC', token: 'USDT', network: 'Tron', confidence: 'medium', source: 'text', context: 'Deposit USDT TRC20', pageUrl: 'https://scam.example/a' };

  it('upserts idempotently and keeps the strongest confidence', async () => {
    await upsertWallets(knex, scan, [base, { ...base, address: '=cmd|calc', token: 'BTC', network: 'Bitcoin', confidence: 'low', source: '@x', context: '+1' }]);
    await upsertWallets(knex, scan, [base]); // retried activity
    let rows = await listWalletsForScan(knex, scan);
    assert.equal(rows.length, 2);
    await upsertWallets(knex, scan, [{ ...base, confidence: 'high', source: 'attr:data-clipboard-text' }]);
    await upsertWallets(knex, scan, [{ ...base, confidence: 'low', source: 'script' }]);
    rows = await listWalletsForScan(knex, scan);
    const tron = rows.find((r) => r.network === 'Tron');
    assert.equal(tron?.confidence, 'high');
    assert.equal(tron?.source, 'attr:data-clipboard-text');
    assert.equal(rows.length, 2);
  });

  it('keeps one row per address and network: a stronger reading replaces the token, a weaker one changes nothing', async () => {
    const one = `${scan}-one`;
    const tron: WalletFindingInput = { ...base, address: 'TOneRowPerAddress1111111111111111', token: 'TRX', confidence: 'medium', networkBasis: 'format', tokenBasis: 'native', memo: '4242' };
    // Two readings of one address in one batch (two pages): the stronger token evidence wins.
    await upsertWallets(knex, one, [tron, { ...tron, token: 'USDT', tokenBasis: 'coin-tab', memo: null, pageUrl: 'https://scam.example/usdt' }]);
    let rows = await listWalletsForScan(knex, one);
    assert.deepEqual(rows.map((r) => [r.token, r.memo, r.page_url]), [['USDT', '4242', 'https://scam.example/usdt']]);
    // A later, weaker reading (token from nearby words) leaves the row as it is.
    await upsertWallets(knex, one, [{ ...tron, token: 'USDC', tokenBasis: 'context', pageUrl: 'https://scam.example/usdc' }]);
    rows = await listWalletsForScan(knex, one);
    assert.deepEqual(rows.map((r) => [r.token, r.page_url]), [['USDT', 'https://scam.example/usdt']]);
    // A stronger confidence wins over any basis.
    await upsertWallets(knex, one, [{ ...tron, token: 'USDC', confidence: 'high', tokenBasis: 'context', pageUrl: 'https://scam.example/usdc' }]);
    rows = await listWalletsForScan(knex, one);
    assert.deepEqual(rows.map((r) => [r.token, r.confidence, r.memo]), [['USDC', 'high', '4242']]);
    assert.equal((await knex('wallets').where({ scan_id: one }).first('token_basis')).token_basis, 'context');
    // The same address stated on another network is another row.
    await upsertWallets(knex, one, [{ ...tron, network: 'Ethereum' }]);
    assert.equal((await listWalletsForScan(knex, one)).length, 2);
  });

  it('streams a scan in keyset batches, in order, without losing rows', async () => {
    const streamScan = `${scan}-stream`;
    await upsertWallets(knex, streamScan, Array.from({ length: 25 }, (_, i) => ({ ...base, address: `T${String(i).padStart(33, 'x')}` })));
    const seen: string[] = [];
    for await (const row of streamWalletsForScan(knex, streamScan, 7)) seen.push(row.address);
    assert.equal(seen.length, 25);
    assert.equal(new Set(seen).size, 25);
  });

  it('rejects an unknown confidence at the database level', async () => {
    await assert.rejects(knex('wallets').insert({ scan_id: scan, address: 'x', token: 'BTC', network: 'Bitcoin', confidence: 'certain', source: 'text' }));
  });

  it('searches across scans by token, network and address substring with keyset pagination', async () => {
    const other = `${scan}-b`;
    await upsertWallets(knex, other, [base, { ...base, address: 'TXyzOtherAddress111111111111111111', confidence: 'low' }]);
    const page1 = await searchWallets(knex, { token: 'usdt', network: 'tron', addressContains: 'JRyWwFs9', limit: 1 });
    assert.equal(page1.rows.length, 1);
    assert.ok(page1.next);
    const page2 = await searchWallets(knex, { token: 'USDT', network: 'Tron', addressContains: 'jrywwfs9', limit: 1, cursor: page1.next ?? undefined });
    assert.equal(page2.rows.length, 1);
    assert.notEqual(page2.rows[0].id, page1.rows[0].id);
    assert.deepEqual(new Set([page1.rows[0].scan_id, page2.rows[0].scan_id]), new Set([scan, other]));
    const none = await searchWallets(knex, { addressContains: '%', limit: 10 });
    assert.equal(none.rows.length, 0, 'LIKE wildcards in the substring are literal');
  });

  it('fip ssi wallet export writes CSV/XLSX/JSON from the database with neutralised cells', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fip-export-'));
    const env = { DATABASE_URL: process.env.DATABASE_URL as string };
    let r = await runFip(['ssi', 'wallet', 'export', scan, '--format', 'csv'], { env });
    assert.equal(r.code, 0, r.stderr);
    const rows = parseCsv(r.stdout);
    assert.equal(rows.length, 3);
    assert.ok(rows.some((x) => x[0] === "'=cmd|calc" && x[4] === "'@x" && x[5] === "'+1"));
    r = await runFip(['ssi', 'wallet', 'export', scan, '--format', 'xlsx', '--out', path.join(dir, 'w.xlsx')], { env });
    assert.equal(r.code, 0, r.stderr);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(path.join(dir, 'w.xlsx'));
    assert.equal(wb.getWorksheet('wallets')?.rowCount, 3);
    r = await runFip(['ssi', 'wallet', 'export', scan, '--format', 'json', '--out', path.join(dir, 'w.json')], { env });
    assert.equal(r.code, 0, r.stderr);
    const json = JSON.parse(fs.readFileSync(path.join(dir, 'w.json'), 'utf8')) as Array<{ address: string }>;
    assert.ok(json.some((x) => x.address === '=cmd|calc'));
    r = await runFip(['ssi', 'wallet', 'export', 'no-such-scan', '--format', 'json'], { env });
    assert.equal(r.code, 0);
    assert.deepEqual(JSON.parse(r.stdout), []);
  });
});
