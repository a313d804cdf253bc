// The analytics refresh: the materialized views refresh concurrently and idempotently (a second
// run classifies nothing new and answers the same), `as_of` moves with each refresh, the refresh
// runs as a platform workflow on a real worker, and its Temporal Schedule is created once.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { analyticsAsOf, ANALYTICS_VIEWS } from '../../db/repositories/analytics/analytics-view-repository';
import { recordSourceEntities } from '../../db/repositories/intelligence/entity-repository';
import { ANALYTICS_REFRESH_SCHEDULE_ID, ensureAnalyticsRefreshSchedule, refreshAnalytics } from '../../services/analytics/analytics-refresh';
import { impactKpis, countrySummary } from '../../services/analytics/analytics-widgets';
import { startPlatformWorkflow } from '../../services/tasks/platform-workflows';
import { startTestWorker, testKnex, testTemporal } from '../support/platform';
import { ukPhone } from './analytics-fixtures';
import { analyticsRefreshWorkflow } from '../../workflows/analytics/analytics-refresh-workflow';

describe('analytics refresh', function () {
  this.timeout(120_000);

  it('refreshes every view, classifies new entities once, moves as_of, and a repeated run changes nothing', async () => {
    const knex = testKnex();
    await refreshAnalytics(knex);
    const asOf1 = await analyticsAsOf(knex, ANALYTICS_VIEWS);
    await recordSourceEntities(knex, { kind: 'manual', id: `refresh-${randomUUID()}` }, [{ type: 'phone', value: ukPhone() }]);
    const first = await refreshAnalytics(knex);
    assert.equal(first.classified_entities >= 1, true);
    assert.deepEqual(first.views.map((v) => v.view), [...ANALYTICS_VIEWS]);
    const asOf2 = await analyticsAsOf(knex, ANALYTICS_VIEWS);
    assert.ok(asOf2 > asOf1, `${asOf2.toISOString()} after ${asOf1.toISOString()}`);
    const kpis = (await impactKpis(knex, 'view')).cards;
    const countries = (await countrySummary(knex, 'view')).items;
    const second = await refreshAnalytics(knex);
    assert.equal(second.classified_entities, 0);
    assert.deepEqual((await impactKpis(knex, 'view')).cards, kpis);
    assert.deepEqual((await countrySummary(knex, 'view')).items, countries);
  });

  it('the views answer what their definitions compute live', async () => {
    const knex = testKnex();
    await refreshAnalytics(knex);
    const { as_of: _a, ...view } = await impactKpis(knex, 'view');
    const { as_of: _b, ...live } = await impactKpis(knex, 'live');
    assert.deepEqual(view, live);
  });

  it('runs as analyticsRefreshWorkflow on a worker, and its Schedule is created once, then unchanged, then updated on a new interval', async () => {
    const queue = `analytics-refresh-${randomUUID().slice(0, 8)}`;
    await startTestWorker(queue);
    const client = await testTemporal();
    const handle = await startPlatformWorkflow(client, {
      workflow: analyticsRefreshWorkflow, workflowId: `analytics-refresh-test-${randomUUID()}`, taskQueue: queue, args: [], recordId: ANALYTICS_REFRESH_SCHEDULE_ID, title: 'Analytics dashboards refresh',
    });
    const result = await handle.result();
    assert.equal(result.views.length, ANALYTICS_VIEWS.length);
    try {
      await client.schedule.getHandle(ANALYTICS_REFRESH_SCHEDULE_ID).delete();
    } catch {
      // not there yet
    }
    assert.equal(await ensureAnalyticsRefreshSchedule(client, queue, 5), 'created');
    assert.equal(await ensureAnalyticsRefreshSchedule(client, queue, 5), 'unchanged');
    assert.equal(await ensureAnalyticsRefreshSchedule(client, queue, 7), 'updated');
    const desc = await client.schedule.getHandle(ANALYTICS_REFRESH_SCHEDULE_ID).describe();
    assert.equal(desc.spec.intervals?.[0]?.every, 7 * 60_000);
    assert.equal(desc.action.type === 'startWorkflow' && desc.action.workflowType, 'analyticsRefreshWorkflow');
    await client.schedule.getHandle(ANALYTICS_REFRESH_SCHEDULE_ID).delete();
  });
});
