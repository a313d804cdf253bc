// VERIFY_CONTACT end to end: fixture sites mail a six-digit code or an activation link to the
// persona (nodemailer to a local SMTP sink); the test hands the mail's code or link to the scan's
// workflow with personaMailSignal, as the platform's inbound mail receiver does, and the scan goes on
// through the same browser session (and so the same egress policy) to the deposit page.
import assert from 'node:assert/strict';
import { personaMailSignal } from '../../workflows/investigations/funnel-signals';
import { http } from '../support/http';
import { startFunnelStack, type FunnelStack } from '../support/funnel-stack';
import { testTemporal } from '../support/platform';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink';
import { waitFor } from '../support/wait-for';

describe('the funnel agent verifies the persona\'s e-mail (code and activation link)', function () {
  this.timeout(600_000);
  let stack: FunnelStack;
  let sink: SmtpSink;
  before(async () => {
    sink = await startSmtpSink();
    const smtp = new URL(sink.url);
    stack = await startFunnelStack('funnelmail', { code: 'email-code', link: 'activation-link' }, {}, { smtp: { host: smtp.hostname, port: Number(smtp.port) } });
  });
  after(async () => {
    await stack?.close();
    await sink?.close();
  });

  async function runWithMail(origin: string, fromMail: (text: string) => { codes: string[]; links: string[] }) {
    const analyst = stack.users.analyst;
    const start = await http(`${stack.url}/investigations/ssi`, { method: 'POST', headers: analyst, json: { url: `${origin}/`, playbook_id: null, options: { max_pages: 4 } } });
    assert.equal(start.status, 202, start.text);
    const scanId = start.body.scan_id as string;
    await waitFor('VERIFY_CONTACT', async () => {
      const t = await http(`${stack.url}/tasks/ssi-${scanId}`, { headers: analyst });
      if (['completed', 'failed', 'cancelled'].includes(t.body.status)) throw new Error(`the scan ended before VERIFY_CONTACT: ${t.text}`);
      return t.body.progress?.stage === 'VERIFY_CONTACT' ? true : null;
    }, 180_000, 300);
    const persona = await http(`${stack.url}/investigations/ssi/${scanId}/persona?purpose=mail%20test`, { headers: analyst });
    assert.equal(persona.status, 200, persona.text);
    const mail = await sink.waitFor((m) => (m.to && 'text' in m.to ? m.to.text : '').includes(persona.body.values.email), 30_000);
    await (await testTemporal()).workflow.getHandle(`ssi-${scanId}`).signal(personaMailSignal, { mailId: mail.messageId ?? 'fixture-mail', ...fromMail(mail.text ?? '') });
    const done = await waitFor('investigation ends', async () => {
      const t = await http(`${stack.url}/tasks/ssi-${scanId}`, { headers: analyst });
      return ['completed', 'failed', 'cancelled'].includes(t.body.status) ? t.body : null;
    }, 300_000, 500);
    assert.equal(done.status, 'completed', JSON.stringify(done.error));
    const d = await http(`${stack.url}/investigations/ssi/${scanId}`, { headers: analyst });
    return d.body as { wallets: Array<{ address: string }>; agent_actions: Array<{ state: string; action: string; target: string; outcome: string }> };
  }

  it('an e-mailed six-digit code is typed into the site\'s verification form, then the deposit page is read', async () => {
    const site = stack.sites.code!;
    const detail = await runWithMail(site.origin, (text) => ({ codes: [/\b(\d{6})\b/.exec(text)![1]!], links: [] }));
    const entered = detail.agent_actions.filter((a) => a.action === 'enter_state').map((a) => a.target);
    assert.deepEqual(entered, ['NAVIGATE', 'CAPTURE', 'EXPLORE', 'REGISTER', 'VERIFY_CONTACT', 'LOGIN', 'NAVIGATE_DEPOSIT', 'DISCOVER_COIN_TABS', 'EXTRACT_WALLETS', 'COMPLETE']);
    assert.ok(detail.agent_actions.some((a) => a.state === 'VERIFY_CONTACT' && a.target.startsWith('typed the mailed verification code into')), JSON.stringify(detail.agent_actions));
    const found = new Set(detail.wallets.map((w) => w.address));
    for (const coin of ['BTC', 'ETH', 'USDT'] as const) assert.ok(found.has(site.wallets[coin]), `${coin} found`);
  });

  it('an e-mailed activation link is opened through the session, then the persona logs in and reads the deposit page', async () => {
    const site = stack.sites.link!;
    const detail = await runWithMail(site.origin, (text) => ({ codes: [], links: [/(http:\/\/\S+\/activate\?token=[a-f0-9]+)/.exec(text)![1]!] }));
    const entered = detail.agent_actions.filter((a) => a.action === 'enter_state').map((a) => a.target);
    assert.deepEqual(entered, ['NAVIGATE', 'CAPTURE', 'EXPLORE', 'REGISTER', 'VERIFY_CONTACT', 'LOGIN', 'NAVIGATE_DEPOSIT', 'DISCOVER_COIN_TABS', 'EXTRACT_WALLETS', 'COMPLETE']);
    assert.equal(site.logins(), 1, 'logged in after the activation');
    const found = new Set(detail.wallets.map((w) => w.address));
    for (const coin of ['BTC', 'ETH', 'USDT'] as const) assert.ok(found.has(site.wallets[coin]), `${coin} found: ${JSON.stringify(detail.agent_actions.map((a) => `${a.state} ${a.action} ${a.target} ${a.outcome}`))}`);
  });
});
