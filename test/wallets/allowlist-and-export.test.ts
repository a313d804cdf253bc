// Allowlist loading/validation and the export writers (CSV, XLSX, JSON) with formula-injection
// neutralisation, parsed back.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';
import { AllowlistError, loadWalletAllowlist, parseAllowlist } from '../../config/wallet-allowlist';
import { writeWalletExport } from '../../services/wallets/wallet-export';
import { type WalletRecord } from '../../domain/wallets/wallet-export-rows';
import { neutralizeFormula as neutralizeCell } from '../../domain/spreadsheet-safety';
import { NETWORKS } from '../../domain/wallets/network-catalog';
import { promisedAllowlistPairs } from '../support/doc-promises';
import { parseCsv } from '../support/wallet-test-io';

async function collect(format: 'csv' | 'xlsx' | 'json', rows: WalletRecord[]): Promise<Buffer> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (c: Buffer) => chunks.push(c));
  const ended = new Promise((resolve) => out.on('end', resolve));
  async function* gen(): AsyncGenerator<WalletRecord> { for (const r of rows) yield r; }
  await writeWalletExport(format, gen(), out);
  if (!out.writableEnded) out.end();
  await ended;
  return Buffer.concat(chunks);
}

const ROWS: WalletRecord[] = [
  { scan_id: 's1', address: 'TJRyWwFs9wTFGZg3JbrVriFbNfCug5tDeC', token: 'USDT', network: 'Tron', confidence: 'high', source: 'attr:data-clipboard-text', context: '=HYPERLINK("http://evil","click") deposit', page_url: 'https://scam.example/', found_at: new Date('2026-11-22T10:00:00Z') },
  { scan_id: 's1', address: '-1:83dfd552e63729b472fcbccc45ebcc6691702558b68ec7527e1ba403a0f31a8b', token: 'TON', network: 'TON', confidence: 'low', source: '@text', context: '+cmd|"/c calc"!A1, "quoted"\r\nnext line', page_url: null, found_at: new Date('2026-11-22T10:00:01Z') },
];
/** An exchange deposit address with its destination tag (memo column). */
const XRP_ROW: WalletRecord = { scan_id: 's1', address: 'rN7n7otQDd6FczFgLdSqtcsAUxDkw6fzRH', token: 'XRP', network: 'XRP Ledger', confidence: 'high', source: 'text', context: 'XRP deposit, destination tag 1234567', page_url: null, found_at: new Date('2026-11-22T10:00:02Z'), memo: '1234567', network_basis: 'format' };

describe('wallet allowlist', () => {
  it('loads the shipped file with exactly the 286 token-network pairs (78 listed, the native coin of each Cosmos-SDK chain from one cosmos-* entry) the documentation promises, covering every network', () => {
    const list = loadWalletAllowlist('config/wallet_allowlist.json');
    assert.equal(promisedAllowlistPairs(), 286);
    assert.equal(list.pairs.length, promisedAllowlistPairs());
    for (const n of NETWORKS) assert.ok(list.pairs.some((p) => p.network === n.id), `no pair for ${n.id}`);
    assert.ok(list.pairs.some((p) => p.token === 'USDT' && p.network === 'tron'));
    assert.ok(list.pairs.some((p) => p.token === 'USDC' && p.network === 'solana'));
    assert.ok(list.pairs.some((p) => p.token === 'KAVA' && p.network === 'cosmos-kava'), 'cosmos-* expands to the native coin of each registry chain');
  });

  it('takes token * only with network cosmos-*, naming the entry otherwise', () => {
    assert.throws(() => parseAllowlist(JSON.stringify({ version: 1, pairs: [{ token: '*', network: 'tron' }] }), 'x.json'), /pairs\[0\]\.token.*token \* goes only with network cosmos-\*/s);
    assert.throws(() => parseAllowlist(JSON.stringify({ version: 1, pairs: [{ token: 'USDT', network: 'cosmos-*' }] }), 'x.json'), /pairs\[0\]\.token/);
  });

  it('names the bad entry (index and field) of a malformed file', () => {
    assert.throws(() => parseAllowlist('{"version":1,"pairs":[{"token":"BTC","network":"bitcoin"},{"token":"USDT","network":"tronn"}]}', 'x.json'),
      (e: unknown) => e instanceof AllowlistError && /pairs\[1\]\.network/.test(e.message) && /tronn/.test(e.message));
    assert.throws(() => parseAllowlist('{"version":1,"pairs":[{"token":"XYZ","network":"bitcoin"}]}'), /pairs\[0\]\.token.*not recognised on bitcoin/s);
    assert.throws(() => parseAllowlist('{"version":1,"pairs":[{"token":"BTC","network":"bitcoin","colour":"red"}]}'), /pairs\[0\].*colour/s);
    assert.throws(() => parseAllowlist('{"version":1,"pairs":[{"token":"BTC","network":"bitcoin"},{"token":"BTC","network":"bitcoin"}]}'), /pairs\[1\].*duplicate/s);
    assert.throws(() => parseAllowlist('{"version":1,'), /not valid JSON/);
  });

  it('reads the file again on every load (edits are picked up)', () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'allow-')), 'a.json');
    fs.writeFileSync(file, '{"version":1,"pairs":[{"token":"BTC","network":"bitcoin"}]}');
    assert.equal(loadWalletAllowlist(file).pairs.length, 1);
    fs.writeFileSync(file, '{"version":1,"pairs":[{"token":"BTC","network":"bitcoin"},{"token":"ETH","network":"ethereum"}]}');
    assert.equal(loadWalletAllowlist(file).pairs.length, 2);
  });
});

describe('wallet export writers', () => {
  it('neutralises cells starting with = + - @ tab CR NUL', () => {
    for (const s of ['=1+1', '+1', '-1', '@SUM(A1)', '\tx', '\rx', '\0x']) assert.equal(neutralizeCell(s), `'${s}`);
    assert.equal(neutralizeCell('TJRy'), 'TJRy');
    assert.equal(neutralizeCell(''), '');
  });

  it('CSV: header, rows, neutralised formulas, quotes and newlines round-trip', async () => {
    const rows = parseCsv((await collect('csv', [...ROWS, XRP_ROW])).toString('utf8'));
    assert.deepEqual(rows[0], ['address', 'token', 'network', 'confidence', 'source', 'context', 'page_url', 'found_at', 'memo', 'network_basis']);
    assert.equal(rows.length, 4);
    assert.equal(rows[1][0], 'TJRyWwFs9wTFGZg3JbrVriFbNfCug5tDeC');
    assert.equal(rows[1][5], `'=HYPERLINK("http://evil","click") deposit`);
    assert.equal(rows[2][0], "'-1:83dfd552e63729b472fcbccc45ebcc6691702558b68ec7527e1ba403a0f31a8b");
    assert.equal(rows[2][4], "'@text");
    assert.equal(rows[2][5], `'+cmd|"/c calc"!A1, "quoted"\r\nnext line`);
    assert.equal(rows[1][7], '2026-11-22T10:00:00.000Z');
    assert.deepEqual([rows[3][0], rows[3][8], rows[3][9]], [XRP_ROW.address, '1234567', 'format']);
  });

  it('XLSX: readable by exceljs, every value byte-identical in a string cell, no formula', async () => {
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load((await collect('xlsx', ROWS)) as unknown as ArrayBuffer);
    const ws = wb.getWorksheet('wallets');
    assert.ok(ws);
    assert.equal(ws.getRow(1).getCell(1).value, 'address');
    assert.equal(ws.getRow(2).getCell(6).value, '=HYPERLINK("http://evil","click") deposit');
    assert.equal(ws.getRow(3).getCell(1).value, '-1:83dfd552e63729b472fcbccc45ebcc6691702558b68ec7527e1ba403a0f31a8b');
    assert.equal(ws.getRow(3).getCell(5).value, '@text');
    // XML reads a CRLF line break back as LF; the rest of the value is exact.
    assert.equal(ws.getRow(3).getCell(6).value, '+cmd|"/c calc"!A1, "quoted"\nnext line');
    for (const [row, col] of [[2, 6], [3, 1], [3, 5], [3, 6]]) {
      const cell = ws.getRow(row).getCell(col);
      assert.equal(cell.type, ExcelJS.ValueType.String, `${cell.address} is a string cell`);
      assert.equal(cell.formula, undefined, `${cell.address} has no formula`);
    }
    assert.equal(ws.rowCount, 3);
  });

  it('JSON: exact values (no spreadsheet to protect)', async () => {
    const parsed = JSON.parse((await collect('json', [...ROWS, XRP_ROW])).toString('utf8')) as Array<Record<string, string | null>>;
    assert.equal(parsed.length, 3);
    assert.equal(parsed[0].context, '=HYPERLINK("http://evil","click") deposit');
    assert.equal(parsed[1].page_url, null);
    assert.equal(parsed[1].memo, null);
    assert.equal(parsed[2].memo, '1234567');
    assert.deepEqual(JSON.parse((await collect('json', [])).toString('utf8')), []);
  });
});
