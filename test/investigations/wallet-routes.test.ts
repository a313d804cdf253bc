// Cross-scan wallet search and per-scan wallet downloads against the real API and PostgreSQL.
// Every test writes its own scans with unique ids and addresses, and filters on them.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import ExcelJS from 'exceljs';
import { upsertWallets, type WalletFindingInput } from '../../db/repositories/wallets/wallet-repository';
import { asUser, http } from '../support/http';
import { createTestApiKey, usersForEveryRole } from '../support/identities';
import { startTestApi, testKnex } from '../support/platform';

type Row = {
  network: string;
  address: string;
  token: string;
  tokens: string[];
  scan_count: number;
  scans: Array<{ scan_id: string; url: string | null; page_url: string | null; first_seen_at: string }>;
  first_seen_at: string;
  last_seen_at: string;
};

describe('investigation wallet routes', function () {
  this.timeout(60_000);
  let url: string;
  let analyst: Record<string, string>;
  let researcher: Record<string, string>;
  let reviewer: Record<string, string>;
  let readKey: Record<string, string>;
  let writeKey: Record<string, string>;

  const finding = (address: string, token: string, pageUrl: string, over: Partial<WalletFindingInput> = {}): WalletFindingInput => ({
    address, token, network: 'tron', confidence: 'high', source: 'dom', context: 'deposit here', pageUrl, ...over,
  });
  /** Sets found_at of a scan's rows (the table's default is now()). */
  const at = (scanId: string, iso: string) => testKnex()('wallets').where({ scan_id: scanId }).update({ found_at: iso });

  before(async () => {
    const users = await usersForEveryRole();
    analyst = asUser(users.analyst);
    researcher = asUser(users.researcher);
    reviewer = asUser(users.reviewer);
    readKey = { 'X-API-KEY': await createTestApiKey(['investigations:read']) };
    writeKey = { 'X-API-KEY': await createTestApiKey(['investigations:write']) };
    url = (await startTestApi({ SVC_AUTH__TRUST_PROXY_HEADER: 'true' })).url;
  });

  describe('cross-scan search', () => {
    const tag = randomUUID().replace(/-/g, '').slice(0, 12);
    const shared = `TSHARED${tag}`; // seen by three scans
    const multi = `TMULTI${tag}`; // two scans, one token each
    const scans = [`s1-${tag}`, `s2-${tag}`, `s3-${tag}`, `s4-${tag}`];

    before(async () => {
      await upsertWallets(testKnex(), scans[0], [finding(shared, 'USDT', 'https://a.scam.test/deposit'), finding(multi, 'USDT', 'https://a.scam.test/pay')]);
      await at(scans[0], '2026-01-01T00:00:00.000Z');
      await upsertWallets(testKnex(), scans[3], [finding(multi, 'TRX', 'https://d.scam.test/pay')]);
      await at(scans[3], '2026-01-05T00:00:00.000Z');
      await upsertWallets(testKnex(), scans[1], [finding(shared, 'USDT', 'https://b.scam.test/')]);
      await at(scans[1], '2026-02-01T00:00:00.000Z');
      await upsertWallets(testKnex(), scans[2], [finding(shared, 'USDT', 'https://c.scam.test/wallet')]);
      await at(scans[2], '2026-03-01T00:00:00.000Z');
    });

    it('answers one row per (network, address) with token(s), scan count, scans and first/last seen, most recent first', async () => {
      const res = await http<{ items: Row[]; next_cursor: string | null }>(`${url}/investigations/ssi/wallets?address=${tag}`, { headers: analyst });
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(res.body.items.map((r) => r.address), [shared, multi]);
      const [a, m] = res.body.items;
      assert.equal(a.network, 'tron');
      assert.equal(a.token, 'USDT');
      assert.deepEqual(a.tokens, ['USDT']);
      assert.equal(a.scan_count, 3);
      assert.deepEqual(a.scans, [
        { scan_id: scans[2], url: null, page_url: 'https://c.scam.test/wallet', first_seen_at: '2026-03-01T00:00:00.000Z' },
        { scan_id: scans[1], url: null, page_url: 'https://b.scam.test/', first_seen_at: '2026-02-01T00:00:00.000Z' },
        { scan_id: scans[0], url: null, page_url: 'https://a.scam.test/deposit', first_seen_at: '2026-01-01T00:00:00.000Z' },
      ]);
      assert.equal(a.first_seen_at, '2026-01-01T00:00:00.000Z');
      assert.equal(a.last_seen_at, '2026-03-01T00:00:00.000Z');
      assert.equal(m.scan_count, 2);
      assert.deepEqual(m.tokens, ['TRX', 'USDT']);
      assert.equal(m.token, 'TRX', 'the token of the most recent sighting');
      assert.equal(m.last_seen_at, '2026-01-05T00:00:00.000Z');
      assert.equal(res.body.next_cursor, null);
    });

    it('GET /wallets is the same engine with the same answer', async () => {
      const a = await http(`${url}/investigations/ssi/wallets?address=${tag}`, { headers: readKey });
      const b = await http(`${url}/wallets?address=${tag}`, { headers: readKey });
      assert.equal(b.status, 200);
      assert.deepEqual(b.body, a.body);
    });

    it('filters by token and network (case-insensitive) and address substring (case-insensitive)', async () => {
      const usdt = await http<{ items: Row[] }>(`${url}/wallets?address=${tag.toUpperCase()}&token=usdt`, { headers: analyst });
      assert.deepEqual(usdt.body.items.map((r) => [r.address, r.tokens]), [[shared, ['USDT']], [multi, ['USDT']]]);
      const trx = await http<{ items: Row[] }>(`${url}/wallets?address=${tag}&token=TRX`, { headers: analyst });
      assert.deepEqual(trx.body.items.map((r) => r.address), [multi]);
      assert.equal(trx.body.items[0].last_seen_at, '2026-01-05T00:00:00.000Z');
      const onlyShared = await http<{ items: Row[] }>(`${url}/wallets?address=${`shared${tag}`.toLowerCase()}&network=TRON`, { headers: analyst });
      assert.deepEqual(onlyShared.body.items.map((r) => r.address), [shared]);
      const eth = await http<{ items: Row[] }>(`${url}/wallets?address=${tag}&network=ethereum`, { headers: analyst });
      assert.deepEqual(eth.body.items, []);
      const like = await http<{ items: Row[] }>(`${url}/wallets?address=${tag}%25_`, { headers: analyst });
      assert.deepEqual(like.body.items, [], '% and _ are literal characters, not wildcards');
    });

    it('pages with keyset cursors without repeats or gaps', async () => {
      const first = await http<{ items: Row[]; next_cursor: string | null }>(`${url}/wallets?address=${tag}&limit=1`, { headers: analyst });
      assert.deepEqual(first.body.items.map((r) => r.address), [shared]);
      assert.ok(first.body.next_cursor);
      const second = await http<{ items: Row[]; next_cursor: string | null }>(`${url}/wallets?address=${tag}&limit=1&cursor=${first.body.next_cursor}`, { headers: analyst });
      assert.deepEqual(second.body.items.map((r) => r.address), [multi]);
      assert.equal(second.body.next_cursor, null);
    });

    it('answers 400 naming the bad query field', async () => {
      for (const [q, path] of [['address=ab', 'query.address'], ['limit=0', 'query.limit'], ['cursor=nope', 'query.cursor'], ['token=', 'query.token']] as const) {
        const res = await http(`${url}/wallets?${q}`, { headers: analyst });
        assert.equal(res.status, 400, q);
        assert.equal(res.body.error.details[0].path, path, q);
      }
    });
  });

  describe('per-scan downloads', () => {
    const scanId = `dl-${randomUUID()}`;
    const evil = '=HYPERLINK("http://evil.test","x")';
    before(async () => {
      const findings: WalletFindingInput[] = [finding(`TDL${scanId}`, 'USDT', 'https://a.scam.test/deposit', { context: evil })];
      for (let i = 0; i < 1200; i += 1) findings.push(finding(`TBULK${i}-${scanId}`, 'USDT', '+cmd|calc', { confidence: 'medium', source: 'coin-tab' }));
      await upsertWallets(testKnex(), scanId, findings);
    });

    for (const base of ['/investigations/ssi', '/investigations']) {
      it(`${base}/{id}/wallets.csv streams every row, formula-safe, as an attachment`, async () => {
        const res = await http(`${url}${base}/${scanId}/wallets.csv`, { headers: analyst });
        assert.equal(res.status, 200);
        assert.match(res.headers.get('content-type') ?? '', /^text\/csv/);
        assert.equal(res.headers.get('content-disposition'), `attachment; filename="wallets-${scanId}.csv"`);
        const lines = res.text.trim().split('\n');
        assert.equal(lines[0], 'address,token,network,confidence,source,context,page_url,found_at,memo,network_basis');
        assert.equal(lines.length, 1 + 1201, 'header and every row (beyond one 1000-row batch)');
        assert.ok(lines.some((l) => l.startsWith(`TDL${scanId},USDT,tron,high,dom,"'=HYPERLINK(""http://evil.test"",""x"")",https://a.scam.test/deposit,`)), 'the formula is neutralized');
        assert.ok(lines.filter((l) => l.includes("'+cmd|calc")).length === 1200);
        assert.ok(!lines.some((l) => l.includes(',+cmd|calc')));
      });

      it(`${base}/{id}/wallets.xlsx streams a workbook with exact string cells`, async () => {
        const res = await fetch(`${url}${base}/${scanId}/wallets.xlsx`, { headers: readKey });
        assert.equal(res.status, 200);
        assert.equal(res.headers.get('content-type'), 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
        assert.equal(res.headers.get('content-disposition'), `attachment; filename="wallets-${scanId}.xlsx"`);
        const wb = new ExcelJS.Workbook();
        await wb.xlsx.load(Buffer.from(await res.arrayBuffer()) as unknown as ArrayBuffer);
        const sheet = wb.getWorksheet('wallets')!;
        assert.equal(sheet.rowCount, 1 + 1201);
        const rows: unknown[][] = [];
        sheet.eachRow((row) => rows.push(row.values as unknown[]));
        const target = rows.filter((v) => v[1] === `TDL${scanId}`);
        assert.equal(target.length, 1);
        assert.equal(target[0][6], evil, 'an XLSX string cell keeps the exact value');
        assert.equal(rows.filter((v) => v[7] === '+cmd|calc').length, 1200);
      });
    }

    it('answers 404 for a scan with no wallets and 400 for a malformed scan id', async () => {
      const missing = await http(`${url}/investigations/ssi/nope-${randomUUID()}/wallets.csv`, { headers: analyst });
      assert.equal(missing.status, 404);
      assert.equal(missing.body.error.code, 'not_found');
      assert.equal((await http(`${url}/investigations/nope-${randomUUID()}/wallets.xlsx`, { headers: analyst })).status, 404);
      const bad = await http(`${url}/investigations/ssi/a%20b/wallets.csv`, { headers: analyst });
      assert.equal(bad.status, 400);
      assert.equal(bad.body.error.details[0].path, 'params.scan_id');
    });
  });

  it('admits admins, analysts and investigations keys; researchers and reviewers get 403, no identity 401', async () => {
    for (const path of ['/wallets', '/investigations/ssi/wallets', `/investigations/ssi/x-${randomUUID()}/wallets.csv`, `/investigations/x-${randomUUID()}/wallets.xlsx`]) {
      assert.equal((await http(`${url}${path}`, { headers: researcher })).status, 403, path);
      assert.equal((await http(`${url}${path}`, { headers: reviewer })).status, 403, path);
      assert.equal((await http(`${url}${path}`)).status, 401, path);
    }
    assert.equal((await http(`${url}/wallets?limit=1`, { headers: writeKey })).status, 200);
    assert.equal((await http(`${url}/investigations/ssi/wallets?limit=1`, { headers: readKey })).status, 200);
  });
});
