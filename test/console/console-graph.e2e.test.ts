// The graph explorer in real Chromium against the real API and PostgreSQL: the entity page's "Open
// in graph" and a deep link (center, depth) draw the nodes GET /intelligence/graph answers, and the
// deep link survives a reload; expanding a node adds its neighbours and goes into the URL; the JSON export holds the drawn graph (shared infrastructure
// marked); a reviewer and a researcher see the values exactly as the API masks them for them; no
// serious accessibility violation.
import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import fc from 'fast-check';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchChromium, resolveChromium } from '../../infra/chromium';
import { findEntityByValue, recordSourceEntities } from '../../db/repositories/intelligence/entity-repository';
import { asUser, http } from '../support/http';
import { usersForEveryRole } from '../support/identities';
import { startTestApi, testKnex } from '../support/platform';
import { signInToConsole } from '../support/console-sign-in';
import { seriousA11yViolations } from '../support/axe';
import { ibanOf } from '../support/iban-arbitraries';
import { waitFor } from '../support/wait-for';
import { docScreenshot } from '../support/doc-screenshot';

interface ApiNode { id: string; type: string; value: string; display_value: string }

describe('console graph explorer (end to end, Chromium)', function () {
  this.timeout(180_000);
  let url: string;
  let users: Awaited<ReturnType<typeof usersForEveryRole>>;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const tag = randomUUID().slice(0, 8);
  const raw = {
    wallet: `0x${randomBytes(20).toString('hex')}`,
    email: `graph-${tag}@mail.example`,
    email2: `second-${tag}@mail.example`,
    domain: `g-${tag}.scam.test`,
    ip: `10.${randomBytes(1)[0]}.${randomBytes(1)[0]}.${1 + (randomBytes(1)[0]! % 250)}`,
    iban: fc.sample(ibanOf(['DE']), 1)[0]!,
    url: `https://g-${tag}.scam.test/pay`,
  };
  const ids: Record<string, string> = {};

  async function graph(who: string, depth: number): Promise<ApiNode[]> {
    const r = await http(`${url}/intelligence/graph?seed=${ids.wallet}&depth=${depth}`, { headers: asUser(who) });
    assert.equal(r.status, 200, r.text);
    return r.body.nodes as ApiNode[];
  }

  before(async () => {
    url = (await startTestApi({ SVC_AUTH__TRUST_PROXY_HEADER: 'true', SVC_AUTH__ALLOW_UNVERIFIED_HEADER: 'true' })).url;
    users = await usersForEveryRole();
    const knex = testKnex();
    // One source with the wallet, an e-mail, a domain, an IP and a bank account (all co-occur);
    // the e-mail also appears with a second e-mail, and that one with a URL: a chain to expand.
    const first = await recordSourceEntities(knex, { kind: 'manual', id: randomUUID() }, [
      { type: 'wallet', value: raw.wallet }, { type: 'email', value: raw.email }, { type: 'domain', value: raw.domain }, { type: 'ip', value: raw.ip }, { type: 'bank_account', value: raw.iban },
    ]);
    assert.deepEqual(first.rejected, [], 'the seeded values are valid entities');
    await recordSourceEntities(knex, { kind: 'manual', id: randomUUID() }, [{ type: 'email', value: raw.email }, { type: 'email', value: raw.email2 }]);
    await recordSourceEntities(knex, { kind: 'manual', id: randomUUID() }, [{ type: 'email', value: raw.email2 }, { type: 'url', value: raw.url }]);
    for (const [k, type] of [['wallet', 'wallet'], ['email', 'email'], ['email2', 'email'], ['ip', 'ip'], ['iban', 'bank_account'], ['domain', 'domain']] as const) {
      const row = await findEntityByValue(knex, type, raw[k]);
      assert.ok(row, `${type} ${raw[k]} recorded`);
      ids[k] = row.id;
    }
    // The graph answers what was written (it follows a change feed): wait until it does.
    await waitFor('the seeded graph', async () => (await graph(users.analyst, 2)).length === 6);
    browser = await launchChromium(await resolveChromium());
    context = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
    page = await context.newPage();
  });
  after(async () => {
    await context?.close();
    await browser?.close();
  });

  const summary = () => page.getByTestId('graph-summary');
  const nodesDrawn = async () => Number(await page.getByTestId('graph-canvas').getAttribute('data-nodes'));

  it('"Open in graph" and a deep link draw the API\'s nodes, which survive a reload; expanding a node adds its neighbours and goes into the URL', async () => {
    await page.goto(`${url}/console`);
    await signInToConsole(page, url, users.analyst, { fresh: true });
    const two = await graph(users.analyst, 2);
    await page.goto(`${url}/console/entities/${ids.wallet}`);
    await page.getByRole('link', { name: 'Open in graph' }).click();
    await page.waitForURL(new RegExp(`/console/graph\\?seed=${ids.wallet}$`));
    await summary().filter({ hasText: `${two.length} entities` }).waitFor();
    assert.equal(await nodesDrawn(), 6, 'six nodes drawn on the canvas (depth 2 by default)');
    await page.goto(`${url}/console/graph?seed=${ids.wallet}&depth=2`);
    await page.reload();
    await summary().filter({ hasText: '6 entities' }).waitFor();
    assert.equal(await page.getByLabel('Depth').inputValue(), '2', 'the depth comes back from the URL');
    await docScreenshot(page, 'console-graph');

    await page.getByLabel('Depth').selectOption('1');
    await summary().filter({ hasText: '5 entities' }).waitFor();
    assert.equal(await nodesDrawn(), 5);
    await page.getByText('Entities as a list').click();
    await page.getByRole('button', { name: `Expand ${raw.email}`, exact: true }).click();
    await summary().filter({ hasText: '6 entities' }).waitFor();
    assert.match(page.url(), new RegExp(`expand=${ids.email}`));
    await page.getByRole('row').filter({ hasText: raw.email2 }).waitFor();
    await page.reload();
    await summary().filter({ hasText: '6 entities' }).waitFor();
    assert.equal(await nodesDrawn(), 6, 'the expansion survives a reload');
    assert.deepEqual(await seriousA11yViolations(page), []);
  });

  it('hiding a node and filtering a type take it off the canvas; the JSON export holds what is drawn, infrastructure marked', async () => {
    await page.goto(`${url}/console/graph?seed=${ids.wallet}&depth=2`);
    await summary().filter({ hasText: '6 entities' }).waitFor();
    await page.getByText('Entities as a list').click();
    await page.getByRole('button', { name: `Hide ${raw.domain}`, exact: true }).click();
    await summary().filter({ hasText: '5 entities' }).waitFor();
    await page.getByRole('checkbox', { name: /^E-mail/ }).uncheck();
    await summary().filter({ hasText: '3 entities' }).waitFor();
    assert.equal(await nodesDrawn(), 3);
    assert.match(page.url(), /hide=/);
    assert.match(page.url(), /types=/);
    await page.getByRole('button', { name: /Show 1 hidden/ }).click();
    await page.getByRole('checkbox', { name: /^E-mail/ }).check();
    await summary().filter({ hasText: '6 entities' }).waitFor();

    const api = await graph(users.analyst, 2);
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export JSON' }).click()]);
    const json = JSON.parse(await readFile((await download.path())!, 'utf8')) as { center: string; depth: number; nodes: Array<ApiNode & { shared_infrastructure: boolean }>; edges: Array<{ src: string; dst: string }> };
    assert.equal(json.center, ids.wallet);
    assert.equal(json.depth, 2);
    assert.deepEqual(json.nodes.map((n) => n.id).sort(), api.map((n) => n.id).sort(), 'the same nodes as the API');
    for (const n of json.nodes) {
      const a = api.find((x) => x.id === n.id)!;
      assert.equal(n.display_value, a.display_value);
      assert.equal(n.value, a.value);
      assert.equal(n.shared_infrastructure, n.type === 'ip', `${n.type} ${n.value}: infrastructure only for the IP`);
    }
    assert.ok(json.edges.length >= 6, 'the edges come along');
    const [svg] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export SVG' }).click()]);
    const svgText = await readFile((await svg.path())!, 'utf8');
    assert.match(svgText, /^<\?xml[^]*<svg /);
    assert.ok(svgText.includes(raw.email2), 'the SVG carries the labels');
    const [png] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export PNG' }).click()]);
    const pngBytes = await readFile((await png.path())!);
    assert.equal(pngBytes.subarray(1, 4).toString('latin1'), 'PNG');
  });

  // What each role must never see unmasked: reviewers the bank account, researchers every value.
  const masked = { reviewer: ['iban'], researcher: ['iban', 'wallet', 'email', 'domain'] } as const;
  for (const role of ['reviewer', 'researcher'] as const) {
    it(`a ${role} sees every value exactly as the API masks it for them`, async () => {
      const who = users[role];
      const api = await graph(who, 1);
      for (const k of masked[role]) {
        const n = api.find((x) => x.id === ids[k]);
        assert.ok(n, `${k} is in the graph`);
        assert.notEqual(n.display_value, raw[k], `the API masks the ${k} for a ${role}`);
      }
      await signInToConsole(page, url, who, { fresh: true });
      await page.goto(`${url}/console/graph?seed=${ids.wallet}&depth=1`);
      await summary().filter({ hasText: `${api.length} entities` }).waitFor();
      await page.getByText('Entities as a list').click();
      for (const n of api) await page.getByRole('row').filter({ hasText: n.display_value }).first().waitFor();
      const text = await page.locator('main').innerText();
      for (const k of masked[role]) assert.ok(!text.includes(raw[k]), `the unmasked ${k} is nowhere on the page`);
      assert.deepEqual(await seriousA11yViolations(page), []);
    });
  }
});
