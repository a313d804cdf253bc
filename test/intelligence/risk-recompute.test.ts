// The intake workflow refreshes loss and risk of the entities it recorded (recomputeSourceRiskScores),
// on the real worker, API, PostgreSQL and Temporal.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { asUser, http } from '../support/http';
import { createTestApiKey, usersForEveryRole } from '../support/identities';
import { intakeForm } from '../support/intake-fixtures';
import { startTestApi, startTestWorker, testKnex } from '../support/platform';
import { waitFor } from '../support/wait-for';

describe('risk scores after intake processing', function () {
  this.timeout(120_000);
  const queue = `risk-${randomUUID().slice(0, 8)}`;
  let url: string;
  let analyst: Record<string, string>;
  let service: Record<string, string>;

  before(async () => {
    const env = { SVC_TEMPORAL__TASK_QUEUE: queue, SVC_AUTH__TRUST_PROXY_HEADER: 'true' };
    analyst = asUser((await usersForEveryRole()).analyst);
    service = { 'X-API-KEY': await createTestApiKey(['intake:write']) };
    await startTestWorker(queue, env);
    url = (await startTestApi(env)).url;
  });

  it('gives the entities of a processed intake their loss, victims and an explained risk score', async () => {
    const tag = randomUUID().slice(0, 8);
    const domain = `risk-${tag}.example.com`;
    const form = intakeForm({ summary: 'fake exchange', details: `They told me to log in at https://${domain}/login and pay`, source: 'risk-test', loss_amount: 2500, loss_currency: 'GBP' });
    const res = await http(`${url}/intakes`, { method: 'POST', headers: service, body: form });
    assert.equal(res.status, 201, res.text);
    await waitFor('intake processed', async () => ((await http(`${url}/intakes/${res.body.id}`, { headers: analyst })).body.status === 'processed' ? true : null), 90_000, 250);
    const e = await testKnex()('entities').where({ type: 'domain', value: domain }).first();
    assert.ok(e, 'the domain is in the graph');
    assert.deepEqual(e.loss_by_currency, { GBP: '2500.00' });
    assert.equal(e.victim_count, 1);
    assert.equal(typeof e.risk_score, 'number');
    assert.deepEqual(e.risk_explanation.map((f: { factor: string }) => f.factor), ['loss', 'victims', 'recency', 'high_risk_links', 'campaigns', 'confidence']);
    const detail = await http(`${url}/intelligence/entities/domain/${domain}`, { headers: analyst });
    assert.equal(detail.body.risk.score, e.risk_score);
    assert.equal(detail.body.loss.max, '2500.00');
  });
});
