// The funnel's form skills end to end (real API, worker, Chromium, PostgreSQL, Temporal; fixture
// sites on 127.0.0.1, heuristics only): a site that turns down a password without a symbol (and
// says so only after the submit) gets the persona's password with symbols, re-sealed in the vault
// (what a revisit types); a sign-up with a country select and the birth date as day / month / year
// selects gets the persona's country (by its ISO code) and birth date.
import assert from 'node:assert/strict';
import { http } from '../support/http';
import { runFunnelScan, startFunnelStack, type FunnelScan, type FunnelStack } from '../support/funnel-stack';
import { testKnex } from '../support/platform';

const FUNNEL = ['NAVIGATE', 'CAPTURE', 'EXPLORE', 'REGISTER', 'LOGIN', 'NAVIGATE_DEPOSIT', 'DISCOVER_COIN_TABS', 'EXTRACT_WALLETS', 'COMPLETE'];

function trail(scan: FunnelScan): string {
  return JSON.stringify(scan.detail.agent_actions.filter((a: { state: string }) => ['EXPLORE', 'REGISTER', 'LOGIN', 'NAVIGATE_DEPOSIT'].includes(a.state))
    .map((a: { state: string; action: string; target: string; outcome: string }) => `${a.state} ${a.action} ${a.target} ${a.outcome}`), null, 1);
}

async function personaOf(stack: FunnelStack, scanId: string): Promise<Record<string, string>> {
  const r = await http(`${stack.url}/investigations/ssi/${scanId}/persona?purpose=${encodeURIComponent('check the form skills')}`, { headers: stack.users.analyst });
  assert.equal(r.status, 200, r.text);
  return r.body.values as Record<string, string>;
}

describe('the funnel agent\'s form skills on fixture sites (password symbols, dropdowns)', function () {
  this.timeout(600_000);
  let stack: FunnelStack;
  before(async () => {
    stack = await startFunnelStack('funnelform', { symbols: 'symbol-password', dropdowns: 'dropdowns' });
  });
  after(async () => stack?.close());

  it('a site that turns down a password without a symbol ("must contain a special character"): the persona\'s password gets symbols, re-sealed, and the sign-up and deposit page follow', async () => {
    const site = stack.sites.symbols!;
    const scan = await runFunnelScan(stack, `${site.origin}/`);
    assert.equal(scan.task.status, 'completed', JSON.stringify(scan.task.error));
    assert.deepEqual(scan.entered, FUNNEL, trail(scan));
    // The first try had letters and digits only (the persona's default) and was turned down, saying why.
    assert.deepEqual(site.rejections, ['Your password must contain at least one special character.'], trail(scan));
    assert.equal(site.accounts.length, 1, trail(scan));
    const account = site.accounts[0]!;
    assert.match(account.password!, /[^A-Za-z0-9]/);
    assert.equal(account.password_confirm, account.password);
    assert.ok(account.password!.length >= 12 && account.password!.length <= 16);
    const found = new Set((scan.detail.wallets as Array<{ address: string }>).map((w) => w.address));
    for (const coin of ['BTC', 'ETH', 'USDT'] as const) assert.ok(found.has(site.wallets[coin]), `${coin} found: ${trail(scan)}`);
    const upgraded = scan.detail.agent_actions.filter((a: { action: string }) => a.action === 'funnel_password');
    assert.equal(upgraded.length, 1, trail(scan));
    assert.equal(upgraded[0].state, 'REGISTER');
    // The vault holds the password the site accepted (a revisit types the same); it is nowhere in the detail.
    const values = await personaOf(stack, scan.scanId);
    assert.equal(values.password, account.password);
    assert.equal(values.email, account.email);
    assert.ok(!JSON.stringify(scan.detail).includes(account.password!), 'the password is not in the detail');
    const knex = testKnex();
    const row = await knex('investigation_personas').where({ scan_id: scan.scanId }).first();
    assert.ok(row, 'the scan has its persona');
    assert.equal(await knex('vault_secrets').where({ owner_kind: 'persona', owner_id: String(row.persona_id) }).count<{ n: string }[]>({ n: '*' }).then((r) => Number(r[0]!.n)), 1, 'sealed once, replaced in place');
  });

  it('a sign-up with a country select (ISO codes) and the birth date as day / month / year selects gets the persona\'s country and birth date', async () => {
    const site = stack.sites.dropdowns!;
    const scan = await runFunnelScan(stack, `${site.origin}/`);
    assert.equal(scan.task.status, 'completed', JSON.stringify(scan.task.error));
    assert.deepEqual(scan.entered, FUNNEL, trail(scan));
    assert.deepEqual(site.rejections, [], trail(scan));
    assert.equal(site.accounts.length, 1, trail(scan));
    const account = site.accounts[0]!;
    const values = await personaOf(stack, scan.scanId);
    assert.equal(values.country, 'United Kingdom');
    assert.equal(account.country, 'GB');
    const [y, m, d] = values.birth_date!.split('-').map(Number);
    assert.deepEqual([Number(account.dob_year), Number(account.dob_month), Number(account.dob_day)], [y, m, d]);
    const chose = scan.detail.agent_actions.filter((a: { action: string; target: string }) => a.action === 'funnel_fill' && a.target.startsWith('chose persona')).map((a: { target: string }) => a.target);
    assert.deepEqual(chose.sort(), ['chose persona birth date (day) in "Day"', 'chose persona birth date (month) in "Month"', 'chose persona birth date (year) in "Year"', 'chose persona country in "Country"'], trail(scan));
    const kinds = [...new Set(scan.detail.pii_exposures.map((e: { kind: string }) => e.kind))].sort();
    assert.deepEqual(kinds, ['address', 'birth_date', 'email', 'name', 'password']);
    // The chosen values are not in the detail.
    assert.ok(!JSON.stringify(scan.detail).includes(values.birth_date!), 'the birth date is not in the detail');
    const found = new Set((scan.detail.wallets as Array<{ address: string }>).map((w) => w.address));
    for (const coin of ['BTC', 'ETH', 'USDT'] as const) assert.ok(found.has(site.wallets[coin]), `${coin} found: ${trail(scan)}`);
  });
});
