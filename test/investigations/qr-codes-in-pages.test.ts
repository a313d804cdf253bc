// Issue 15, class 6, in investigations: an address shown only as a QR code (an <img>, and a CSS
// background far down a tall page, found only in the full-page screenshot read in bands) is
// recorded with the source `qr`, through the same engine as `fip ssi wallet scan`.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { asUser, http } from '../support/http';
import { usersForEveryRole } from '../support/identities';
import { startTestApi, startTestWorker } from '../support/platform';
import { startScamSiteFixture, type ScamSiteFixture } from '../support/scam-site-fixture';
import { waitFor } from '../support/wait-for';

describe('investigations read QR codes in page images and screenshots', function () {
  this.timeout(240_000);
  const queue = `invqr-${randomUUID().slice(0, 8)}`;
  let site: ScamSiteFixture;
  let url: string;
  let analyst: Record<string, string>;

  before(async () => {
    site = await startScamSiteFixture();
    const env = { SVC_TEMPORAL__TASK_QUEUE: queue, SVC_AUTH__TRUST_PROXY_HEADER: 'true', SVC_SSI__ALLOW_PRIVATE_TARGETS: `127.0.0.1:${site.port}`, SVC_WORKER__INSTANCE: `t-${queue}` };
    await startTestWorker(queue, env);
    url = (await startTestApi(env)).url;
    analyst = asUser((await usersForEveryRole()).analyst);
  });
  after(async () => site?.close());

  it('records the address of an <img> QR code and of a QR code 5,000 px down the page, source qr, with a QR action in the timeline', async () => {
    const start = await http(`${url}/investigations/ssi`, { method: 'POST', headers: analyst, json: { url: `${site.origin}/qr-pay`, options: { max_pages: 1, coin_tabs: false } } });
    assert.equal(start.status, 202, start.text);
    const done = await waitFor('investigation ends', async () => {
      const t = await http(`${url}${start.body.status_url}`, { headers: analyst });
      return ['completed', 'failed', 'cancelled'].includes(t.body.status) ? t.body : null;
    }, 200_000, 250);
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
