// The dashboards catch up with a write within a minute: a case created and classified through the
// API signals the refresher workflow (real Temporal, a real worker on this suite's queue), which
// debounces the two writes into one refresh, and /impact/dashboard then shows the case's loss
// under its taxonomy, with an as_of after the write.
import assert from 'node:assert/strict';
import { randomInt, randomUUID } from 'node:crypto';
import { analyticsRefresherId } from '../../services/analytics/analytics-refresh-trigger';
import type { AnalyticsRefresherResult } from '../../workflows/analytics/analytics-refresher-workflow';
import { asUser, http } from '../support/http';
import { usersForEveryRole } from '../support/identities';
import { startTestApi, startTestWorker, testTemporal } from '../support/platform';
import { cents } from './analytics-fixtures';

interface Impact {
  as_of: string;
  loss_by_taxonomy: Array<{ taxonomy: string; losses: Array<{ currency: string; amount: string }> }>;
}

const lossOf = (body: Impact, taxonomy: string, currency: string): bigint =>
  cents(body.loss_by_taxonomy.find((i) => i.taxonomy === taxonomy)?.losses.find((l) => l.currency === currency)?.amount);

describe('dashboards refresh after writes (debounced, Temporal)', function () {
  this.timeout(120_000);
  const queue = `refresher-${randomUUID().slice(0, 8)}`;
  let url: string;
  let analyst: string;

  before(async () => {
    await startTestWorker(queue);
    url = (await startTestApi({ SVC_TEMPORAL__TASK_QUEUE: queue, SVC_ANALYTICS__DASHBOARD_REFRESH_AFTER_WRITE_SECONDS: '2', SVC_AUTH__TRUST_PROXY_HEADER: 'true', SVC_AUTH__ALLOW_UNVERIFIED_HEADER: 'true' })).url;
    analyst = (await usersForEveryRole()).analyst;
  });

  it('a new case\'s loss shows in /impact/dashboard within a minute of the write, after one refresh for both writes', async () => {
    // ISK: no other suite records Icelandic krónur, so the delta is this case's alone.
    const taxonomy = 'investment';
    const before = await http<Impact>(`${url}/impact/dashboard`, { headers: asUser(analyst) });
    assert.equal(before.status, 200, before.text);
    const amount = `${randomInt(1000, 9000)}.${String(randomInt(0, 100)).padStart(2, '0')}`;
    const wrote = Date.now();
    const created = await http<{ id: string }>(`${url}/cases`, { method: 'POST', headers: asUser(analyst), json: { title: `refresh after write ${queue}`, loss: { amount, currency: 'ISK' } } });
    assert.equal(created.status, 201, created.text);
    const patched = await http(`${url}/cases/${created.body.id}`, { method: 'PATCH', headers: asUser(analyst), json: { taxonomy } });
    assert.equal(patched.status, 200, patched.text);

    const expected = lossOf(before.body, taxonomy, 'ISK') + cents(amount);
    let seen: Impact | null = null;
    while (Date.now() - wrote < 60_000) {
      const now = await http<Impact>(`${url}/impact/dashboard`, { headers: asUser(analyst) });
      assert.equal(now.status, 200, now.text);
      // Caught up: the loss is there and every view behind the answer was refreshed after the write
      // (views refresh one after another, so the loss can show before the last one is done).
      if (lossOf(now.body, taxonomy, 'ISK') >= expected && Date.parse(now.body.as_of) >= wrote) {
        seen = now.body;
        break;
      }
      await new Promise((r) => setTimeout(r, 250));
    }
    const elapsed = Date.now() - wrote;
    assert.ok(seen, `the case's ISK ${amount} did not reach the impact figures, with an as_of after the write, within 60 s`);
    assert.ok(elapsed < 60_000, `caught up in ${elapsed} ms`);

    const handle = (await testTemporal()).workflow.getHandle(analyticsRefresherId(queue));
    const result = (await handle.result()) as AnalyticsRefresherResult;
    assert.deepEqual(result, { refreshes: 1, signals: 2 }, 'the POST and the PATCH share one debounced refresh');
  });
});
