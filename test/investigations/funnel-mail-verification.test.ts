// VERIFY_CONTACT end to end: fixture sites mail a six-digit code or an activation link to the
// persona (nodemailer) through the platform's own inbound SMTP receiver, which stores the mail as
// evidence and signals the scan's workflow; the scan goes on through the same browser session (and so
// the same egress policy) to the deposit page. Nothing in the test hands the code over.
import assert from 'node:assert/strict';
import { http } from '../support/http';
import { startFunnelStack, type FunnelStack } from '../support/funnel-stack';
import { startTestMailReceiver } from '../support/platform';
import { waitFor } from '../support/wait-for';

describe('the funnel agent verifies the persona\'s e-mail (code and activation link)', function () {
  this.timeout(600_000);
  let stack: FunnelStack;
  before(async () => {
    const receiver = await startTestMailReceiver();
    stack = await startFunnelStack('funnelmail', { code: 'email-code', link: 'activation-link' }, {}, { smtp: { host: receiver.host, port: receiver.port } });
  });
  after(async () => {
    await stack?.close();
  });

  async function runWithMail(origin: string) {
    const analyst = stack.users.analyst;
    const start = await http(`${stack.url}/investigations/ssi`, { method: 'POST', headers: analyst, json: { url: `${origin}/`, playbook_id: null, options: { max_pages: 4 } } });
    assert.equal(start.status, 202, start.text);
    const scanId = start.body.scan_id as string;
    const done = await waitFor('investigation ends', async () => {
      const t = await http(`${stack.url}/tasks/ssi-${scanId}`, { headers: analyst });
      return ['completed', 'failed', 'cancelled'].includes(t.body.status) ? t.body : null;
    }, 300_000, 500);
    assert.equal(done.status, 'completed', JSON.stringify(done.error));
    const d = await http(`${stack.url}/investigations/ssi/${scanId}`, { headers: analyst });
    const detail = d.body as { wallets: Array<{ address: string }>; agent_actions: Array<{ state: string; action: string; target: string; outcome: string }>; mail: Array<{ sha256: string; download_path: string }> };
    // The verification mail is evidence of the scan: listed, and downloadable byte for byte.
    assert.equal(detail.mail.length, 1, JSON.stringify(detail.mail));
    const eml = await http(`${stack.url}${detail.mail[0]!.download_path}?purpose=${encodeURIComponent('check the verification mail')}`, { headers: analyst });
    assert.equal(eml.status, 200, eml.text);
    assert.equal(eml.headers.get('x-content-sha256'), detail.mail[0]!.sha256);
    return detail;
  }

  it('an e-mailed six-digit code is typed into the site\'s verification form, then the deposit page is read', async () => {
    const site = stack.sites.code!;
    const detail = await runWithMail(site.origin);
    const entered = detail.agent_actions.filter((a) => a.action === 'enter_state').map((a) => a.target);
    assert.deepEqual(entered, ['NAVIGATE', 'CAPTURE', 'EXPLORE', 'REGISTER', 'VERIFY_CONTACT', 'LOGIN', 'NAVIGATE_DEPOSIT', 'DISCOVER_COIN_TABS', 'EXTRACT_WALLETS', 'COMPLETE']);
    assert.ok(detail.agent_actions.some((a) => a.state === 'VERIFY_CONTACT' && a.target.startsWith('typed the mailed verification code into')), JSON.stringify(detail.agent_actions));
    const found = new Set(detail.wallets.map((w) => w.address));
    for (const coin of ['BTC', 'ETH', 'USDT'] as const) assert.ok(found.has(site.wallets[coin]), `${coin} found`);
  });

  it('an e-mailed activation link is opened through the session, then the persona logs in and reads the deposit page', async () => {
    const site = stack.sites.link!;
    const detail = await runWithMail(site.origin);
    const entered = detail.agent_actions.filter((a) => a.action === 'enter_state').map((a) => a.target);
    assert.deepEqual(entered, ['NAVIGATE', 'CAPTURE', 'EXPLORE', 'REGISTER', 'VERIFY_CONTACT', 'LOGIN', 'NAVIGATE_DEPOSIT', 'DISCOVER_COIN_TABS', 'EXTRACT_WALLETS', 'COMPLETE']);
    assert.equal(site.logins(), 1, 'logged in after the activation');
    const found = new Set(detail.wallets.map((w) => w.address));
    for (const coin of ['BTC', 'ETH', 'USDT'] as const) assert.ok(found.has(site.wallets[coin]), `${coin} found: ${JSON.stringify(detail.agent_actions.map((a) => `${a.state} ${a.action} ${a.target} ${a.outcome}`))}`);
  });
});
