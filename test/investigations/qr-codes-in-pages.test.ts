// QR codes in investigations: an address shown only as a QR code (an <img>, and a CSS
// background far down a tall page, found only in the full-page screenshot read in bands) is
// recorded with the source `qr`, through the same engine as `fip ssi wallet scan`.
import assert from 'node:assert/strict';
import { http } from '../support/http';
import { startInvestigationStack, waitForScanEnd, type InvestigationStack } from '../support/investigation-stack';

describe('investigations read QR codes in page images and screenshots', function () {
  this.timeout(240_000);
  let stack: InvestigationStack;
  before(async () => {
    stack = await startInvestigationStack('invqr');
  });
  after(async () => stack?.site.close());

  it('records the address of an <img> QR code and of a QR code 5,000 px down the page, source qr, with a QR action in the timeline', async () => {
    const { url, analyst, site } = stack;
    const start = await http(`${url}/investigations/ssi`, { method: 'POST', headers: analyst, json: { url: `${site.origin}/qr-pay`, options: { max_pages: 1, coin_tabs: false } } });
    assert.equal(start.status, 202, start.text);
    const done = await waitForScanEnd(url, start.body.status_url, analyst);
    assert.equal(done.status, 'completed', JSON.stringify(done.error));

    const detail = await http(`${url}/investigations/ssi/${start.body.scan_id}`, { headers: analyst });
    assert.equal(detail.status, 200, detail.text);
    const byAddress = new Map(detail.body.wallets.map((w: { address: string }) => [w.address, w]));
    const img = byAddress.get(site.wallets.qrImage) as { network: string; source: string } | undefined;
    const bg = byAddress.get(site.wallets.qrBackground) as { network: string; source: string } | undefined;
    assert.ok(img, `the <img> QR address is missing: ${JSON.stringify(detail.body.wallets)}`);
    assert.ok(bg, `the background QR address is missing: ${JSON.stringify(detail.body.wallets)}`);
    assert.equal(img.network, 'Bitcoin');
    assert.equal(img.source, 'qr');
    assert.equal(bg.network, 'Tron');
    assert.equal(bg.source, 'qr');

    const qr = detail.body.agent_actions.find((a: { outcome: string }) => /QR code\(s\) in the page's images/.test(a.outcome));
    assert.ok(qr, JSON.stringify(detail.body.agent_actions.map((a: { action: string; outcome: string }) => `${a.action}: ${a.outcome}`)));
    assert.equal(qr.wallets_found, 2);
  });
});
