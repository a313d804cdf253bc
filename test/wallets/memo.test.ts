// Memo and destination tags: the XRP destination tag, Stellar / TON / EOS memo
// next to an exchange deposit address identifies the victim's account; it is recorded as `memo` on
// the wallet row (extraction result, scan --json, database, exports).
import assert from 'node:assert/strict';
import type { Knex } from 'knex';
import { createKnex } from '../../db/connection';
import { listWalletsForScan, upsertWallets } from '../../db/repositories/wallets/wallet-repository';
import { extractWallets } from '../../domain/wallets/extract-wallets';
import type { ExtractionResult } from '../../domain/wallets/wallet-types';
import { makeAddresses } from '../support/wallet-address-factory';
import { runFip } from '../support/wallet-test-io';

const a = makeAddresses(301);
const b = makeAddresses(302);

const memoOf = (r: ExtractionResult, address: string): string | undefined => {
  const rows = r.findings.filter((f) => f.address === address);
  assert.equal(rows.length, 1, `${address}: ${rows.length} rows`);
  return rows[0].memo;
};

describe('wallet memo / destination tag (class 7)', function () {
  this.timeout(60000);

  it('reads the XRP destination tag, Stellar memo and TON comment written next to the address', () => {
    const html = `<div class="exchange"><h3>XRP</h3><p>Address: <code>${a.xrp}</code></p><p>Destination tag: <b>1234567</b></p></div>
      <div><h3>Stellar (XLM)</h3><p>${a.xlm}</p><p>Memo (required): 998877</p></div>
      <div><h3>TON</h3><p>${a.ton}</p><p>Comment: 7HX2KQ</p></div>`;
    const r = extractWallets({ html });
    assert.equal(memoOf(r, a.xrp), '1234567');
    assert.equal(memoOf(r, a.xlm), '998877');
    assert.equal(memoOf(r, a.ton), '7HX2KQ');
  });

  it('reads memos from payment URIs: ripple ?dt=, web+stellar memo=, ton://transfer text=', () => {
    const html = `<a href="ripple:${b.xrp}?dt=42&amount=100">pay</a>
      <a href="web+stellar:pay?destination=${b.xlm}&amount=5&memo=555111&memo_type=MEMO_ID">pay</a>
      <a href="ton://transfer/${b.ton}?amount=1000&text=user-8812">pay</a>`;
    const r = extractWallets({ html });
    assert.equal(memoOf(r, b.xrp), '42');
    assert.equal(memoOf(r, b.xlm), '555111');
    assert.equal(memoOf(r, b.ton), 'user-8812');
  });

  it('does not give one address the memo of its neighbour, nor a memo to networks without memos', () => {
    const html = `<div><p>XRP: ${a.xrp}</p><p>XRP (second account): ${b.xrp}</p><p>Destination tag: 31337</p></div>
      <div><p>BTC: ${a.btcSegwit}</p><p>Memo: 777</p></div>`;
    const r = extractWallets({ html });
    assert.equal(memoOf(r, a.xrp), undefined);
    assert.equal(memoOf(r, b.xrp), '31337');
    assert.equal(memoOf(r, a.btcSegwit), undefined);
  });

  it('scan --json prints the memo', async () => {
    const r = await runFip(['ssi', 'wallet', 'scan', '-', '--json', '--no-llm'], { input: `<p>XRP deposit ${a.xrp}</p><p>Tag: 424242</p>` });
    assert.equal(r.code, 0, r.stderr);
    const rows = JSON.parse(r.stdout) as Array<{ address: string; memo: string | null }>;
    assert.equal(rows.find((x) => x.address === a.xrp)?.memo, '424242');
  });

  describe('database', () => {
    let knex: Knex;
    before(() => {
      assert.ok(process.env.DATABASE_URL, 'DATABASE_URL is set by test/setup/root-hooks.ts');
      knex = createKnex(process.env.DATABASE_URL, 2);
    });
    after(async () => {
      await knex?.destroy();
    });

    it('stores the memo and network basis of a finding; a later finding without memo keeps it', async () => {
      const scan = `memo-${Date.now().toString(36)}`;
      const r = extractWallets({ html: `<p>XRP deposit address ${a.xrp}</p><p>Destination tag: 8080</p>` });
      await upsertWallets(knex, scan, r.findings);
      const again = extractWallets({ html: `<p>XRP deposit address ${a.xrp}</p>` });
      assert.equal(again.findings[0].memo, undefined);
      await upsertWallets(knex, scan, again.findings);
      const rows = await listWalletsForScan(knex, scan);
      assert.equal(rows.length, 1);
      assert.deepEqual([rows[0].address, rows[0].memo, rows[0].network_basis], [a.xrp, '8080', 'format']);
    });
  });
});
