// The funnel agent end to end, without an LLM: real API, worker, Chromium, PostgreSQL and Temporal
// against fixture funnel sites on 127.0.0.1 whose deposit addresses only a logged-in customer sees.
// Each scan registers a synthetic persona, logs in, opens the deposit page and reads its wallets;
// the persona is answered to analysts only (audited) and found nowhere but the vault.
import assert from 'node:assert/strict';
import { testConfig, testKnex, testTemporal } from '../support/platform';
import { http } from '../support/http';
import { runFunnelScan, startFunnelStack, type FunnelScan, type FunnelStack } from '../support/funnel-stack';
import { CAPTCHA_ANSWER } from '../support/funnel-site-fixture';
import { waitFor } from '../support/wait-for';

/** Every string and byte array inside a value, as text (for searching Temporal histories). */
function allText(value: unknown, out: string[] = []): string[] {
  if (value instanceof Uint8Array) out.push(Buffer.from(value).toString('utf8'));
  else if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) value.forEach((v) => allText(v, out));
  else if (value && typeof value === 'object') Object.values(value).forEach((v) => allText(v, out));
  return out;
}

const FUNNEL = ['NAVIGATE', 'CAPTURE', 'EXPLORE', 'REGISTER', 'LOGIN', 'NAVIGATE_DEPOSIT', 'DISCOVER_COIN_TABS', 'EXTRACT_WALLETS', 'COMPLETE'];

function walletsOf(scan: FunnelScan): Map<string, { network: string; found_in_state: string }> {
  return new Map((scan.detail.wallets as Array<{ address: string; network: string; found_in_state: string }>).map((w) => [w.address, w]));
}

function trail(scan: FunnelScan): string {
  const steps = scan.detail.agent_actions.filter((a: { state: string }) => ['EXPLORE', 'REGISTER', 'VERIFY_CONTACT', 'LOGIN', 'NAVIGATE_DEPOSIT'].includes(a.state));
  return JSON.stringify(steps.map((a: { state: string; action: string; target: string; outcome: string }) => `${a.state} ${a.action} ${a.target} ${a.outcome}`), null, 1);
}

function assertDepositWallets(scan: FunnelScan, wallets: Record<string, string>, coins: readonly string[] = ['BTC', 'ETH', 'USDT']): void {
  const found = walletsOf(scan);
  for (const coin of coins) assert.ok(found.has(wallets[coin]!), `${coin} ${wallets[coin]} found; got ${[...found.keys()].join(', ')}; actions: ${JSON.stringify(scan.detail.agent_actions.map((a: { state: string; action: string; target: string; outcome: string }) => `${a.state} ${a.action} ${a.target} ${a.outcome}`))}`);
}

describe('the funnel agent on fixture sites (end to end, heuristics only)', function () {
  this.timeout(600_000);
  let stack: FunnelStack;
  before(async () => {
    stack = await startFunnelStack('funnel', {
      'english-signup': 'english-signup', 'login-wall': 'login-wall', 'zh-wizard': 'zh-wizard', 'spa-cookie-modal': 'spa-cookie-modal', 'qr-deposit': 'qr-deposit', captcha: 'captcha', revisit: 'login-wall',
    });
  });
  after(async () => stack?.close());

  it('English sign-up with a terms checkbox: registers a persona, logs in, opens the deposit page and reads every coin tab; the persona is analysts\' only, audited, and nowhere but the vault', async () => {
    const site = stack.sites['english-signup']!;
    const scan = await runFunnelScan(stack, `${site.origin}/`);
    assert.equal(scan.task.status, 'completed', JSON.stringify(scan.task.error));
    assert.deepEqual(scan.entered, FUNNEL, JSON.stringify(scan.detail.agent_actions.filter((a: { state: string }) => ['EXPLORE', 'REGISTER', 'LOGIN', 'NAVIGATE_DEPOSIT'].includes(a.state)).map((a: { state: string; action: string; target: string; outcome: string }) => `${a.state} ${a.action} ${a.target} ${a.outcome}`), null, 1));
    assertDepositWallets(scan, site.wallets);
    for (const coin of ['BTC', 'ETH', 'USDT']) assert.equal(walletsOf(scan).get(site.wallets[coin as 'BTC'])!.found_in_state, 'DISCOVER_COIN_TABS');
    assert.equal(site.accounts.length, 1, 'one account was created');
    const account = site.accounts[0]!;
    assert.equal(account.terms, 'on');

    // What the site asked for, on which page, never the values.
    const exposures = scan.detail.pii_exposures as Array<{ kind: string; page_url: string; state: string; field: string | null }>;
    assert.deepEqual([...new Set(exposures.map((e) => e.kind))].sort(), ['email', 'name', 'password']);
    for (const e of exposures) {
      assert.equal(e.page_url, `${site.origin}/register`);
      assert.equal(e.state, 'REGISTER');
    }
    assert.ok(exposures.some((e) => e.kind === 'password' && /Confirm password/.test(e.field ?? '')), JSON.stringify(exposures));
    const typed = scan.detail.agent_actions.filter((a: { action: string }) => a.action === 'funnel_fill').map((a: { target: string }) => a.target);
    assert.ok(typed.some((t: string) => /^typed persona email into "Email/.test(t)), JSON.stringify(typed));
    const reveals = scan.detail.agent_actions.filter((a: { action: string; state: string }) => a.action === 'capture_reveal' && ['REGISTER', 'LOGIN', 'NAVIGATE_DEPOSIT'].includes(a.state));
    assert.ok(reveals.length >= 3, 'a screenshot and DOM after the funnel\'s steps');

    // The persona: analysts only, audited with its purpose.
    for (const role of ['admin', 'reviewer', 'researcher'] as const) {
      const denied = await http(`${stack.url}/investigations/ssi/${scan.scanId}/persona?purpose=check`, { headers: stack.users[role] });
      assert.equal(denied.status, 403, `${role}: ${denied.text}`);
    }
    const persona = await http(`${stack.url}/investigations/ssi/${scan.scanId}/persona?purpose=${encodeURIComponent('confirm the sign-up')}`, { headers: stack.users.analyst });
    assert.equal(persona.status, 200, persona.text);
    assert.equal(persona.headers.get('cache-control'), 'no-store');
    const v = persona.body.values;
    assert.equal(v.email, account.email);
    assert.equal(v.password, account.password);
    assert.equal(v.first_name, account.first_name);
    assert.ok(v.email.endsWith(`@${testConfig().ssi.persona_email_domain}`), 'the e-mail is at SVC_SSI__PERSONA_EMAIL_DOMAIN');
    assert.match(v.phone, /^07700 900\d{3}$/);
    assert.equal(persona.body.site, `127.0.0.1:${site.port}`);
    assert.equal(persona.body.reused, false);
    assert.equal(persona.body.registered, true);
    const audit = await http(`${stack.url}/audit/events?target_id=${scan.scanId}&action=investigation.persona.read`, { headers: stack.users.admin });
    assert.equal(audit.status, 200, audit.text);
    assert.equal(audit.body.items.length, 1);
    assert.equal(audit.body.items[0].purpose, 'confirm the sign-up');

    // Persona values: not in the database (but sealed), the workflow history, the logs, the action log.
    const needles = [v.password, v.last_name, v.phone, v.birth_date, v.address_line];
    const knex = testKnex();
    const tables = (await knex('information_schema.tables').where({ table_schema: 'public', table_type: 'BASE TABLE' }).pluck('table_name')) as string[];
    let dump = '';
    for (const t of tables) dump += ((await knex.raw(`SELECT t::text AS row FROM "${t}" t`)).rows as Array<{ row: string }>).map((r) => r.row).join('\n');
    assert.ok(dump.includes(scan.scanId));
    for (const n of needles) {
      assert.ok(!dump.includes(n), `a persona value is in the database dump`);
      assert.ok(!dump.includes(Buffer.from(n).toString('hex')), `a persona value is in the database dump (as bytes)`);
    }
    const sealed = await knex('vault_secrets').where({ owner_kind: 'persona' }).join('investigation_personas as ip', 'ip.persona_id', knex.raw('vault_secrets.owner_id::uuid')).where('ip.scan_id', scan.scanId).first();
    assert.ok(sealed, 'the persona is sealed in the vault');
    const history = allText(await (await testTemporal()).workflow.getHandle(`ssi-${scan.scanId}`).fetchHistory()).join('\n');
    assert.ok(history.includes(scan.scanId));
    for (const n of [...needles, v.email]) assert.ok(!history.includes(n), 'a persona value is in the workflow history');
    const logs = stack.logs();
    assert.ok(logs.length > 0, 'the logs were captured');
    for (const n of [...needles, v.email]) assert.ok(!logs.includes(n), 'a persona value is in the logs');
    for (const n of [...needles, v.email]) assert.ok(!JSON.stringify(scan.detail).includes(n), 'a persona value is in the detail');
  });

  it('a log-in wall with a small "create account" link: signs up, is sent back to log in, logs in and reads the deposit page\'s coin tabs', async () => {
    const site = stack.sites['login-wall']!;
    const scan = await runFunnelScan(stack, `${site.origin}/`);
    assert.equal(scan.task.status, 'completed', JSON.stringify(scan.task.error));
    assert.deepEqual(scan.entered, FUNNEL, trail(scan));
    assertDepositWallets(scan, site.wallets);
    assert.equal(site.accounts.length, 1);
    assert.equal(site.logins(), 1, 'one log-in after the sign-up');
    assert.deepEqual([...new Set(scan.detail.pii_exposures.map((e: { kind: string }) => e.kind))].sort(), ['email', 'password']);
    assert.ok(scan.detail.pii_exposures.some((e: { state: string }) => e.state === 'LOGIN'), 'the log-in form asked too');
  });

  it('a Chinese three-step wizard (e-mail, password twice, nickname and terms) on one page, then 充值', async () => {
    const site = stack.sites['zh-wizard']!;
    const scan = await runFunnelScan(stack, `${site.origin}/`);
    assert.equal(scan.task.status, 'completed', JSON.stringify(scan.task.error));
    assert.deepEqual(scan.entered, FUNNEL, trail(scan));
    assertDepositWallets(scan, site.wallets);
    assert.equal(site.accounts.length, 1);
    assert.equal(site.accounts[0]!.agree, 'on');
    assert.equal(site.accounts[0]!.password, site.accounts[0]!.password2);
    const steps = scan.detail.agent_actions.filter((a: { state: string; action: string; target: string }) => a.state === 'REGISTER' && a.action === 'funnel_click' && /下一步|完成注册/.test(a.target));
    assert.equal(steps.length, 3, trail(scan));
    assert.deepEqual([...new Set(scan.detail.pii_exposures.map((e: { kind: string }) => e.kind))].sort(), ['email', 'name', 'password']);
  });

  it('a single-page app behind a blocking cookie banner with a modal sign-up form: accepts cookies, registers in the modal, follows the client-side deposit route', async () => {
    const site = stack.sites['spa-cookie-modal']!;
    const scan = await runFunnelScan(stack, `${site.origin}/`);
    assert.equal(scan.task.status, 'completed', JSON.stringify(scan.task.error));
    assert.deepEqual(scan.entered, FUNNEL, trail(scan));
    assertDepositWallets(scan, site.wallets);
    const clicks = scan.detail.agent_actions.filter((a: { action: string }) => a.action === 'funnel_click').map((a: { target: string }) => a.target);
    assert.equal(clicks[0], 'clicked "Accept all"', trail(scan));
    assert.ok(clicks.includes('clicked "Register"') && clicks.includes('clicked "Create account"') && clicks.includes('clicked "Deposit"'), trail(scan));
    assert.equal(site.accounts.length, 1);
  });

  it('a deposit address shown only as a QR image is read from the deposit page', async () => {
    const site = stack.sites['qr-deposit']!;
    const scan = await runFunnelScan(stack, `${site.origin}/`);
    assert.equal(scan.task.status, 'completed', JSON.stringify(scan.task.error));
    assert.deepEqual(scan.entered, FUNNEL, trail(scan));
    const w = walletsOf(scan).get(site.wallets.USDT) as { network: string; found_in_state: string; source?: string } | undefined;
    assert.ok(w, trail(scan));
    assert.equal(w.network, 'Tron');
    assert.equal(w.found_in_state, 'NAVIGATE_DEPOSIT');
  });

  it('a captcha on the sign-up form is never solved: the scan waits in AWAITING_GUIDANCE, the analyst\'s answer (GET/POST guidance) is typed into its field and the funnel goes on to the deposit wallets', async () => {
    const site = stack.sites.captcha!;
    const seen: { asked: { request_id: string; kind: string; question: string; screenshot_url: string; field?: string } | null } = { asked: null };
    const scan = await runFunnelScan(stack, `${site.origin}/`, {}, async (scanId) => {
      const path = `${stack.url}/investigations/ssi/${scanId}/guidance`;
      const asked = await waitFor<{ request_id: string; kind: string; question: string; screenshot_url: string; field?: string }>('the agent asks a human', async () => {
        const g = await http(path, { headers: stack.users.analyst });
        if (g.status === 404) return null;
        assert.equal(g.status, 200, g.text);
        return g.body;
      }, 240_000, 500);
      // Nothing was typed or submitted before the human answered.
      assert.equal(site.accounts.length, 0);
      const waiting = await http(`${stack.url}/investigations/ssi/${scanId}`, { headers: stack.users.analyst });
      assert.equal(waiting.body.state, 'AWAITING_GUIDANCE');
      assert.equal(waiting.body.agent_actions.filter((a: { action: string }) => a.action === 'funnel_fill').length, 0);
      seen.asked = asked;
      const shot = await http(`${stack.url}${asked.screenshot_url}`, { headers: stack.users.analyst });
      assert.equal(shot.status, 200);
      assert.equal(shot.headers.get('content-type'), 'image/png');
      const researcher = await http(path, { headers: stack.users.researcher });
      assert.equal(researcher.status, 403);
      const answered = await http(path, { method: 'POST', headers: stack.users.analyst, json: { request_id: asked.request_id, answer: CAPTCHA_ANSWER } });
      assert.equal(answered.status, 202, answered.text);
    });
    assert.equal(seen.asked?.kind, 'captcha');
    assert.ok(seen.asked?.field, 'the question names the field the answer goes into');
    assert.equal(scan.task.status, 'completed', JSON.stringify(scan.task.error));
    // Each state is entered once in the action log (its key), so the return to REGISTER is not listed again.
    assert.deepEqual(scan.entered, ['NAVIGATE', 'CAPTURE', 'EXPLORE', 'REGISTER', 'AWAITING_GUIDANCE', 'LOGIN', 'NAVIGATE_DEPOSIT', 'DISCOVER_COIN_TABS', 'EXTRACT_WALLETS', 'COMPLETE'], trail(scan));
    const ask = scan.detail.agent_actions.find((a: { action: string }) => a.action === 'ask_human');
    assert.match(ask.outcome, /^captcha: /);
    const typed = scan.detail.agent_actions.find((a: { action: string }) => a.action === 'funnel_guidance');
    assert.match(typed?.target ?? '', /^typed the analyst's answer into /, trail(scan));
    assert.equal(typed.outcome, 'ok');
    assert.equal(site.accounts.length, 1, 'the site accepted the sign-up with the human\'s captcha answer');
    assert.equal(site.accounts[0]!.captcha_answer, CAPTCHA_ANSWER);
    assert.ok(!JSON.stringify(scan.detail).includes(CAPTCHA_ANSWER), 'the answer appears nowhere in the detail');
    assertDepositWallets(scan, site.wallets);
  });

  it('agent.register=false investigates as an anonymous visitor: no persona, no form submitted', async () => {
    const site = stack.sites['english-signup']!;
    const before = site.accounts.length;
    const scan = await runFunnelScan(stack, `${site.origin}/`, { agent: { register: false } });
    assert.equal(scan.task.status, 'completed', JSON.stringify(scan.task.error));
    assert.deepEqual(scan.entered, ['NAVIGATE', 'CAPTURE', 'EXPLORE', 'DISCOVER_COIN_TABS', 'EXTRACT_WALLETS', 'COMPLETE']);
    assert.equal(scan.detail.agent_actions.filter((a: { action: string }) => a.action.startsWith('funnel_')).length, 0);
    assert.equal(site.accounts.length, before);
    assert.equal(scan.detail.wallets.length, 0);
    const persona = await http(`${stack.url}/investigations/ssi/${scan.scanId}/persona?purpose=check`, { headers: stack.users.analyst });
    assert.equal(persona.status, 404, persona.text);
    const bad = await http(`${stack.url}/investigations/ssi`, { method: 'POST', headers: stack.users.analyst, json: { url: `${site.origin}/`, agent: { register: 'no' } } });
    assert.equal(bad.status, 400);
    assert.ok(bad.body.error.details.some((d: { path: string }) => d.path === 'body.agent.register'), bad.text);
  });

  it('a revisit of a site reuses its persona and its stored session: no second account, straight to the deposit page', async () => {
    const site = stack.sites.revisit!;
    const first = await runFunnelScan(stack, `${site.origin}/`);
    assert.equal(first.task.status, 'completed', JSON.stringify(first.task.error));
    assert.ok(first.entered.includes('REGISTER'), trail(first));
    const accounts = site.accounts.length;
    assert.equal(accounts, 1);
    const logins = site.logins();
    const scan = await runFunnelScan(stack, `${site.origin}/`);
    assert.equal(scan.task.status, 'completed', JSON.stringify(scan.task.error));
    assert.deepEqual(scan.entered, ['NAVIGATE', 'CAPTURE', 'EXPLORE', 'LOGIN', 'NAVIGATE_DEPOSIT', 'DISCOVER_COIN_TABS', 'EXTRACT_WALLETS', 'COMPLETE'], trail(scan));
    assertDepositWallets(scan, site.wallets);
    assert.equal(site.accounts.length, accounts, 'no second account');
    assert.equal(site.logins(), logins, 'the stored session was used: no log-in form sent');
    assert.ok(scan.detail.agent_actions.some((a: { action: string; outcome: string }) => a.action === 'funnel_gate' && /reused for .* with its stored session/.test(a.outcome)), trail(scan));
    const persona = await http(`${stack.url}/investigations/ssi/${scan.scanId}/persona?purpose=revisit`, { headers: stack.users.analyst });
    assert.equal(persona.status, 200, persona.text);
    assert.equal(persona.body.reused, true);
    assert.equal(persona.body.values.email, site.accounts[0]!.email);
  });
});
