// Watchlists and alerts end to end on real PostgreSQL and Temporal: a watchlist on a graph entity
// with every rule kind, the watched figures changed, the alerts workflow run on a worker: alerts
// listed and filtered, e-mailed (SMTP sink) and POSTed to a loopback webhook receiver that checks
// the HMAC-SHA256 signature itself and fails its first request (retry with a delivery log), no
// duplicate on re-evaluation, acknowledgement (audited), ownership (404 for others), validation,
// raiseAlert for a watch-less event, the egress policy on webhook targets, and the Schedule.
import assert from 'node:assert/strict';
import { createHmac, randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { addUserRoles } from '../../db/repositories/accounts/user-repository';
import { recordSourceEntities } from '../../db/repositories/intelligence/entity-repository';
import { raiseAlert } from '../../services/alerts/alert-service';
import { ensureWatchlistAlertsSchedule, WATCHLIST_ALERTS_SCHEDULE_ID } from '../../services/alerts/watchlist-alerts-schedule';
import { startPlatformWorkflow } from '../../services/tasks/platform-workflows';
import { watchlistAlertsWorkflow } from '../../workflows/alerts/watchlist-alerts-workflow';
import { asUser, http as request } from '../support/http';
import { startTestApi, startTestWorker, testKnex, testTemporal } from '../support/platform';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink';

interface Received {
  body: string;
  signature: string | undefined;
  delivery: string | undefined;
}

async function startWebhookReceiver(): Promise<{ url: string; received: Received[]; failNext(n: number): void; close(): Promise<void> }> {
  const received: Received[] = [];
  let failures = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (failures > 0) {
        failures--;
        res.writeHead(500).end('not now');
        return;
      }
      received.push({ body: Buffer.concat(chunks).toString('utf8'), signature: req.headers['x-fip-signature'] as string | undefined, delivery: req.headers['x-fip-delivery'] as string | undefined });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/fip`,
    received,
    failNext: (n) => {
      failures = n;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe('watchlists and alerts: rules, schedule workflow, e-mail and signed webhook', function () {
  this.timeout(180_000);
  let url: string;
  let queue: string;
  let smtp: SmtpSink;
  let hook: Awaited<ReturnType<typeof startWebhookReceiver>>;

  const person = async () => {
    const email = `watcher-${randomUUID().slice(0, 8)}@example.org`;
    await addUserRoles(testKnex(), email, ['analyst']);
    return { email, headers: asUser(email) };
  };
  const runAlerts = async () => {
    const handle = await startPlatformWorkflow(await testTemporal(), {
      workflow: watchlistAlertsWorkflow, workflowId: `watchlist-alerts-test-${randomUUID()}`, taskQueue: queue, args: [], recordId: WATCHLIST_ALERTS_SCHEDULE_ID, title: 'Watchlist alerts',
    });
    return handle.result();
  };
  const graphEntity = async (tag: string) => {
    const email = `pay-${tag}@scam-${tag}.example`;
    const r = await recordSourceEntities(testKnex(), { kind: 'manual', id: `watch-${tag}-1` }, [{ type: 'email', value: email }]);
    return { id: r.entities.find((e) => e.type === 'email')!.id, email };
  };

  before(async () => {
    smtp = await startSmtpSink();
    hook = await startWebhookReceiver();
    queue = `alerts-${randomUUID().slice(0, 8)}`;
    const env = { SVC_SMTP__URL: smtp.url, SVC_ALERTS__WEBHOOK_ALLOW_PRIVATE_TARGETS: '127.0.0.1', SVC_ALERTS__RETRY_BASE_SECONDS: '0' };
    url = (await startTestApi({ SVC_AUTH__TRUST_PROXY_HEADER: 'true', ...env })).url;
    await startTestWorker(queue, env);
  });

  after(async () => {
    await hook.close();
    await smtp.close();
  });

  it('alerts on new sightings, new linked sites, a loss threshold and a risk change; e-mails them and POSTs them signed, retrying a failed webhook', async () => {
    const tag = randomUUID().slice(0, 8);
    const me = await person();
    const entity = await graphEntity(tag);
    const created = await request(`${url}/watchlists`, {
      method: 'POST',
      headers: me.headers,
      json: {
        name: `wallet watch ${tag}`,
        target: { kind: 'entity', id: entity.id },
        rules: [{ kind: 'new_sightings' }, { kind: 'new_linked_sites' }, { kind: 'loss_threshold', currency: 'EUR', amount: 1000 }, { kind: 'risk_change', min_delta: 10 }],
        webhook_url: hook.url,
      },
    });
    assert.equal(created.status, 201, created.text);
    const secret: string = created.body.webhook_secret;
    assert.match(secret, /^whsec_[A-Za-z0-9_-]{43}$/);
    const read = await request(`${url}/watchlists/${created.body.id}`, { headers: me.headers });
    assert.equal(read.status, 200);
    assert.equal(read.body.webhook_secret, undefined, 'the secret is shown once');
    // At rest the secret is sealed in the vault, never stored in clear.
    const row = await testKnex()('watchlists').where({ id: created.body.id }).first();
    assert.equal(row.webhook_secret, null);
    const sealed = await testKnex()('vault_secrets').where({ owner_kind: 'watchlist-webhook', owner_id: created.body.id }).first();
    assert.ok(sealed, 'a sealed record for the webhook secret');
    assert.ok(!Buffer.from(sealed.ciphertext).includes(Buffer.from(secret.slice(6))), 'the ciphertext does not hold the secret');

    // Nothing changed yet: nothing is raised.
    await runAlerts();
    const none = await request(`${url}/alerts?watchlist_id=${created.body.id}`, { headers: me.headers });
    assert.deepEqual(none.body.items, []);

    // A new source sights the e-mail beside a new domain; its loss and risk change.
    const newDomain = `kit-${tag}.example`;
    await recordSourceEntities(testKnex(), { kind: 'manual', id: `watch-${tag}-2` }, [{ type: 'email', value: entity.email }, { type: 'domain', value: newDomain }]);
    await testKnex()('entities').where({ id: entity.id }).update({ risk_score: 72, loss_by_currency: JSON.stringify({ EUR: '1500.00' }) });
    hook.failNext(1);
    const first = await runAlerts();
    assert.ok(first.evaluation.alerts_raised >= 4, JSON.stringify(first));

    const listed = await request(`${url}/alerts?watchlist_id=${created.body.id}`, { headers: me.headers });
    assert.equal(listed.status, 200, listed.text);
    assert.deepEqual(listed.body.items.map((a: { kind: string }) => a.kind).sort(), ['loss_threshold', 'new_linked_sites', 'new_sightings', 'risk_change']);
    const linked = listed.body.items.find((a: { kind: string }) => a.kind === 'new_linked_sites');
    assert.equal(linked.detail.count, 1);
    const risk = listed.body.items.find((a: { kind: string }) => a.kind === 'risk_change');
    assert.deepEqual([risk.detail.before, risk.detail.now], [null, 72]);

    // One webhook failed (500) and is due again at once (retry base 0 s): the next run delivers it.
    assert.equal(hook.received.length, 3);
    await runAlerts();
    assert.equal(hook.received.length, 4);
    const alertIds = new Set(listed.body.items.map((a: { id: string }) => a.id));
    for (const r of hook.received) {
      const expected = `sha256=${createHmac('sha256', secret).update(r.body).digest('hex')}`;
      assert.equal(r.signature, expected, 'the signature is the HMAC-SHA256 of the body under the watchlist secret');
      const payload = JSON.parse(r.body);
      assert.ok(alertIds.has(payload.alert.id));
      assert.equal(payload.delivery_id, r.delivery);
      assert.ok(Date.parse(payload.sent_at) > 0);
    }
    const retried = JSON.parse(hook.received[3].body).alert.id as string;
    const log = await request(`${url}/alerts/${retried}/deliveries`, { headers: me.headers });
    assert.equal(log.status, 200, log.text);
    const webhookLog = log.body.items.find((d: { channel: string }) => d.channel === 'webhook');
    assert.equal(webhookLog.status, 'sent');
    assert.deepEqual(webhookLog.attempts_log.map((a: { outcome: string; status_code: number | null }) => [a.outcome, a.status_code]), [['retry', 500], ['sent', 204]]);
    assert.equal(log.body.items.find((d: { channel: string }) => d.channel === 'email').status, 'sent');

    // Every alert was e-mailed to the watcher.
    for (const a of listed.body.items) await smtp.waitFor((m) => m.subject === `[FIP alert] ${a.title}` && m.to !== undefined && JSON.stringify(m.to).includes(me.email));

    // Re-evaluating raises nothing twice.
    await runAlerts();
    const again = await request(`${url}/alerts?watchlist_id=${created.body.id}`, { headers: me.headers });
    assert.equal(again.body.items.length, 4);

    // Deleting the watchlist deletes its sealed secret.
    assert.equal((await request(`${url}/watchlists/${created.body.id}`, { method: 'DELETE', headers: me.headers })).status, 204);
    assert.equal((await testKnex()('vault_secrets').where({ owner_kind: 'watchlist-webhook', owner_id: created.body.id })).length, 0);
  });

  it('acknowledges an alert (audited, filterable), and keeps watchlists and alerts private to their owner', async () => {
    const tag = randomUUID().slice(0, 8);
    const me = await person();
    const other = await person();
    const entity = await graphEntity(tag);
    const w = await request(`${url}/watchlists`, { method: 'POST', headers: me.headers, json: { name: `risk ${tag}`, target: { kind: 'entity', id: entity.id }, rules: [{ kind: 'risk_change', min_delta: 5 }], email: false } });
    assert.equal(w.status, 201, w.text);
    assert.equal(w.body.webhook_secret, undefined);
    await testKnex()('entities').where({ id: entity.id }).update({ risk_score: 50 });
    await runAlerts();
    const [alert] = (await request(`${url}/alerts?watchlist_id=${w.body.id}&acknowledged=false`, { headers: me.headers })).body.items;
    assert.equal(alert.kind, 'risk_change');
    assert.deepEqual(alert.deliveries, [], 'no channel, no delivery');

    assert.equal((await request(`${url}/watchlists/${w.body.id}`, { headers: other.headers })).status, 404);
    assert.equal((await request(`${url}/alerts/${alert.id}/acknowledge`, { method: 'POST', headers: other.headers })).status, 404);
    assert.ok(!(await request(`${url}/watchlists`, { headers: other.headers })).body.items.some((x: { id: string }) => x.id === w.body.id));

    const acked = await request(`${url}/alerts/${alert.id}/acknowledge`, { method: 'POST', headers: me.headers });
    assert.equal(acked.status, 200, acked.text);
    assert.equal(acked.body.acknowledged_by, me.email);
    const open = await request(`${url}/alerts?watchlist_id=${w.body.id}&acknowledged=false`, { headers: me.headers });
    assert.deepEqual(open.body.items, []);
    const done = await request(`${url}/alerts?watchlist_id=${w.body.id}&acknowledged=true`, { headers: me.headers });
    assert.deepEqual(done.body.items.map((a: { id: string }) => a.id), [alert.id]);
    const audit = await testKnex()('audit_events').where({ action: 'alert.acknowledge', target_id: alert.id });
    assert.equal(audit.length, 1);
    assert.equal(audit[0].actor, me.email);

    const renamed = await request(`${url}/watchlists/${w.body.id}`, { method: 'PATCH', headers: me.headers, json: { name: `risk renamed ${tag}` } });
    assert.equal(renamed.body.name, `risk renamed ${tag}`);
    assert.equal((await request(`${url}/watchlists/${w.body.id}`, { method: 'DELETE', headers: me.headers })).status, 204);
    assert.equal((await request(`${url}/alerts/${alert.id}/deliveries`, { headers: me.headers })).status, 404, 'its alerts went with it');
  });

  it('refuses bad watchlists with the field at fault', async () => {
    const me = await person();
    const entity = await graphEntity(randomUUID().slice(0, 8));
    const badRule = await request(`${url}/watchlists`, { method: 'POST', headers: me.headers, json: { name: 'x', target: { kind: 'entity', id: entity.id }, rules: [{ kind: 'loss_threshold', currency: 'eur', amount: -1 }] } });
    assert.equal(badRule.status, 400);
    assert.deepEqual(badRule.body.error.details.map((d: { path: string }) => d.path).sort(), ['body.rules.0.amount', 'body.rules.0.currency']);
    const missing = await request(`${url}/watchlists`, { method: 'POST', headers: me.headers, json: { name: 'x', target: { kind: 'campaign', id: randomUUID() }, rules: [{ kind: 'new_sightings' }] } });
    assert.equal(missing.status, 400);
    assert.equal(missing.body.error.details[0].path, 'body.target.id');
    const badHook = await request(`${url}/watchlists`, { method: 'POST', headers: me.headers, json: { name: 'x', target: { kind: 'entity', id: entity.id }, rules: [{ kind: 'new_sightings' }], webhook_url: 'ftp://example.org/' } });
    assert.equal(badHook.status, 400);
    assert.equal(badHook.body.error.details[0].path, 'body.webhook_url');
  });

  it('raiseAlert reaches the watchers of a related target through their channels, else the fallback role; a webhook to a private address is refused by the egress policy', async () => {
    const tag = randomUUID().slice(0, 8);
    const me = await person();
    const entity = await graphEntity(tag);
    const w = await request(`${url}/watchlists`, {
      method: 'POST', headers: me.headers, json: { name: `kit ${tag}`, target: { kind: 'entity', id: entity.id }, rules: [{ kind: 'new_sightings' }], email: false, webhook_url: 'http://10.1.2.3:8080/hook' },
    });
    assert.equal(w.status, 201, w.text);
    const event = { kind: 'kit_on_new_domain', title: `kit seen on new-${tag}.example`, detail: { domain: `new-${tag}.example` }, dedupeKey: `kit-${tag}`, targets: [{ kind: 'entity' as const, id: entity.id }] };
    const raised = await raiseAlert({ knex: testKnex() }, event);
    assert.equal(raised.length, 1);
    assert.equal(raised[0].recipient, me.email);
    assert.deepEqual(await raiseAlert({ knex: testKnex() }, event), [], 'raised once per key');
    await runAlerts();
    const log = await request(`${url}/alerts/${raised[0].id}/deliveries`, { headers: me.headers });
    assert.equal(log.body.items[0].status, 'failed');
    assert.match(log.body.items[0].last_error, /egress policy/);

    const unwatched = await raiseAlert({ knex: testKnex() }, { ...event, dedupeKey: `kit-${tag}-2`, targets: [{ kind: 'entity', id: randomUUID() }] });
    assert.equal(unwatched[0].recipient, 'role:analyst');
    const analyst = await request(`${url}/alerts?kind=kit_on_new_domain&limit=500`, { headers: me.headers });
    assert.ok(analyst.body.items.some((a: { id: string }) => a.id === unwatched[0].id), 'analysts see role alerts');
  });

  it('watches a campaign (its member sites, summed loss) and a saved search (more matching records)', async () => {
    const tag = randomUUID().slice(0, 8);
    const me = await person();
    const knex = testKnex();
    const [campaign] = (await knex('campaigns').insert({ name: `watched campaign ${tag}`, created_by: me.email }).returning('id')) as Array<{ id: string }>;
    const first = await recordSourceEntities(knex, { kind: 'manual', id: `campaign-${tag}-1` }, [{ type: 'domain', value: `one-${tag}.example` }]);
    await knex('campaign_entities').insert({ campaign_id: campaign.id, entity_id: first.entities[0]!.id, added_by: me.email });
    const cw = await request(`${url}/watchlists`, {
      method: 'POST', headers: me.headers, json: { name: `campaign ${tag}`, target: { kind: 'campaign', id: campaign.id }, rules: [{ kind: 'new_linked_sites' }, { kind: 'loss_threshold', currency: 'USDT', amount: 500 }], email: false },
    });
    assert.equal(cw.status, 201, cw.text);
    const saved = await request(`${url}/reviews/search/saved`, { method: 'POST', headers: me.headers, json: { name: `watched search ${tag}`, query: `"casewatch${tag}"`, types: ['case'] } });
    assert.equal(saved.status, 201, saved.text);
    const sw = await request(`${url}/watchlists`, { method: 'POST', headers: me.headers, json: { name: `search ${tag}`, target: { kind: 'saved_search', id: saved.body.id }, rules: [{ kind: 'new_sightings' }], email: false } });
    assert.equal(sw.status, 201, sw.text);

    const second = await recordSourceEntities(knex, { kind: 'manual', id: `campaign-${tag}-2` }, [{ type: 'domain', value: `two-${tag}.example` }]);
    await knex('campaign_entities').insert({ campaign_id: campaign.id, entity_id: second.entities[0]!.id, added_by: me.email });
    await knex('entities').whereIn('id', [first.entities[0]!.id, second.entities[0]!.id]).update({ loss_by_currency: JSON.stringify({ USDT: '300' }) });
    await knex('cases').insert({ title: `casewatch${tag} new victim`, created_by: me.email });
    await runAlerts();

    const campaignAlerts = (await request(`${url}/alerts?watchlist_id=${cw.body.id}`, { headers: me.headers })).body.items;
    assert.deepEqual(campaignAlerts.map((a: { kind: string }) => a.kind).sort(), ['loss_threshold', 'new_linked_sites']);
    const sites = campaignAlerts.find((a: { kind: string }) => a.kind === 'new_linked_sites');
    assert.deepEqual(sites.detail.sites, [second.entities[0]!.id]);
    assert.equal(campaignAlerts.find((a: { kind: string }) => a.kind === 'loss_threshold').detail.now, 600);
    const searchAlerts = (await request(`${url}/alerts?watchlist_id=${sw.body.id}`, { headers: me.headers })).body.items;
    assert.deepEqual(searchAlerts.map((a: { kind: string; detail: { before: number; now: number } }) => [a.kind, a.detail.before, a.detail.now]), [['new_sightings', 0, 1]]);
  });

  it('creates its Temporal Schedule once, then leaves it unchanged, and updates it on a new interval', async () => {
    const client = await testTemporal();
    await client.schedule.getHandle(WATCHLIST_ALERTS_SCHEDULE_ID).delete().catch(() => undefined);
    assert.equal(await ensureWatchlistAlertsSchedule(client, queue, 5), 'created');
    assert.equal(await ensureWatchlistAlertsSchedule(client, queue, 5), 'unchanged');
    assert.equal(await ensureWatchlistAlertsSchedule(client, queue, 9), 'updated');
    const desc = await client.schedule.getHandle(WATCHLIST_ALERTS_SCHEDULE_ID).describe();
    assert.equal(desc.action.type === 'startWorkflow' && desc.action.workflowType, 'watchlistAlertsWorkflow');
    await client.schedule.getHandle(WATCHLIST_ALERTS_SCHEDULE_ID).delete();
  });
});
