// Automatic classification end to end: fixture sites on 127.0.0.1 investigated for real (the
// workflow's classification activity after the fingerprints), an intake processed by its workflow,
// the LLM path through the real SDK against the fake Anthropic server (bounded; an invalid answer
// ignored), analysts' corrections (audited, winning over later automatic runs) and the accuracy
// figure over this test's own subjects.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { AppDeps } from '../../api/app-deps';
import { classificationAccuracy, classifyIntake, classifyInvestigation } from '../../services/classification/classification-service';
import { createLlmClassifier } from '../../services/classification/llm-classifier';
import { startFakeAnthropicServer, userText, type FakeAnthropicServer } from '../support/fake-anthropic-server';
import { asUser, http } from '../support/http';
import { usersForEveryRole } from '../support/identities';
import { intakeForm } from '../support/intake-fixtures';
import { startKitFamilyFixture, type KitFamilyFixture } from '../support/kit-family-fixture';
import { startTestApi, startTestWorker, testKnex } from '../support/platform';
import { waitForScanEnd } from '../support/investigation-stack';
import { waitFor } from '../support/wait-for';

interface View { taxonomy: string; confidence: number; source: string; evidence: Array<{ feature: string; detail: string; weight: number }>; automatic: { taxonomy: string } | null; correction: { by: string; reason: string } | null }

describe('automatic classification of investigations and intakes', function () {
  this.timeout(300_000);
  let fixture: KitFamilyFixture;
  let fake: FakeAnthropicServer;
  let url = '';
  let deps: AppDeps;
  let analyst: Record<string, string> = {};
  let reviewer: Record<string, string> = {};
  const scans: Record<'a1' | 'a2' | 'unrelated' | 'c1', string> = { a1: '', a2: '', unrelated: '', c1: '' };
  let intakeId = '';

  before(async () => {
    fixture = await startKitFamilyFixture(8100 + Math.floor(Math.random() * 800));
    fake = await startFakeAnthropicServer();
    const queue = `classify-${randomUUID().slice(0, 8)}`;
    const env = { SVC_TEMPORAL__TASK_QUEUE: queue, SVC_AUTH__TRUST_PROXY_HEADER: 'true', SVC_SSI__ALLOW_PRIVATE_TARGETS: '127.0.0.1', SVC_WORKER__INSTANCE: `t-${queue}` };
    await startTestWorker(queue, env);
    const api = await startTestApi(env);
    url = api.url;
    deps = api.deps;
    const users = await usersForEveryRole();
    analyst = asUser(users.analyst);
    reviewer = asUser(users.reviewer);
    const started = await Promise.all((Object.keys(scans) as Array<keyof typeof scans>).map(async (name) => {
      const r = await http(`${url}/investigations/ssi`, { method: 'POST', headers: analyst, json: { url: fixture.sites[name].url, playbook_id: null, options: { max_pages: 1, coin_tabs: false, page_timeout_s: 20 }, agent: { register: false } } });
      assert.equal(r.status, 202, r.text);
      scans[name] = r.body.scan_id;
      return r.body as { task_id: string };
    }));
    const intake = await http(`${url}/intakes`, {
      method: 'POST', headers: analyst,
      body: intakeForm({ summary: `classification ${randomUUID().slice(0, 8)}`, details: 'A company promised fund recovery of my lost funds; they asked a recovery fee first and then disappeared.' }),
    });
    assert.equal(intake.status, 201, intake.text);
    intakeId = intake.body.id;
    for (const s of started) assert.equal((await waitForScanEnd(url, `/tasks/${s.task_id}`, analyst)).status, 'completed');
  });
  after(async () => {
    await fixture?.close();
    await fake?.close();
  });

  const detail = async (path: string): Promise<View | null> => {
    const r = await http(`${url}${path}`, { headers: analyst });
    assert.equal(r.status, 200, r.text);
    return r.body.classification;
  };

  it('an investigated site gets its taxonomy node with confidence and evidence in the investigation detail', async () => {
    const recovery = await detail(`/investigations/ssi/${scans.unrelated}`);
    assert.ok(recovery);
    assert.equal(recovery.taxonomy, 'advance-fee/recovery', JSON.stringify(recovery));
    assert.equal(recovery.source, 'rules');
    assert.ok(recovery.confidence > 0 && recovery.confidence < 1);
    assert.ok(recovery.evidence.some((e) => e.feature === 'vocabulary' && e.detail.includes('"recovery fee" (en)')), JSON.stringify(recovery.evidence));
    const giveaway = await detail(`/investigations/ssi/${scans.c1}`);
    assert.equal(giveaway?.taxonomy, 'advance-fee/lottery', JSON.stringify(giveaway));
    const kit = await detail(`/investigations/ssi/${scans.a1}`);
    assert.ok(kit?.taxonomy.startsWith('investment/crypto'), JSON.stringify(kit));
    assert.ok(kit);
    assert.ok(kit.evidence.some((e) => e.feature === 'structure' && e.detail.includes('deposit page')), JSON.stringify(kit.evidence));
  });

  it('an intake is classified by its processing workflow', async () => {
    const c = await waitFor('intake classified', () => detail(`/intakes/${intakeId}`), 60_000, 250);
    assert.deepEqual([c.taxonomy, c.source], ['advance-fee/recovery', 'rules']);
  });

  it('a correction is analysts-only, validated against the taxonomy, audited, and wins over a later automatic run', async () => {
    const path = `/investigations/ssi/${scans.a1}/classification`;
    const bad = await http(`${url}${path}`, { method: 'PUT', headers: analyst, json: { taxonomy: 'crypto-things', reason: 'typo' } });
    assert.equal(bad.status, 400, bad.text);
    assert.ok(bad.body.error.details.some((d: { path: string }) => d.path === 'body.taxonomy'), bad.text);
    assert.equal((await http(`${url}${path}`, { method: 'PUT', headers: reviewer, json: { taxonomy: 'romance', reason: 'reviewers cannot' } })).status, 403);
    const before = (await detail(`/investigations/ssi/${scans.a1}`))!;
    const ok = await http(`${url}${path}`, { method: 'PUT', headers: analyst, json: { taxonomy: 'investment/crypto/pig-butchering', reason: 'the chat logs show a groomed victim' } });
    assert.equal(ok.status, 200, ok.text);
    assert.deepEqual([ok.body.taxonomy, ok.body.source, ok.body.confidence, ok.body.correction.reason], ['investment/crypto/pig-butchering', 'analyst', 1, 'the chat logs show a groomed victim']);
    const audit = await testKnex()('audit_events').where({ action: 'classification.correct', target_type: 'investigation', target_id: scans.a1, purpose: 'the chat logs show a groomed victim' });
    assert.equal(audit.length, 1);
    assert.equal(audit[0].details.automatic, before.taxonomy);
    // A later automatic run refreshes the prediction but not what is shown.
    await classifyInvestigation(deps, scans.a1);
    const after = (await detail(`/investigations/ssi/${scans.a1}`))!;
    assert.deepEqual([after.taxonomy, after.source, after.automatic?.taxonomy], ['investment/crypto/pig-butchering', 'analyst', before.taxonomy]);
  });

  const correctA1 = async (reason: string) => {
    const r = await http(`${url}/investigations/ssi/${scans.a1}/classification`, { method: 'PUT', headers: analyst, json: { taxonomy: 'investment/crypto/pig-butchering', reason } });
    assert.equal(r.status, 200, r.text);
  };

  it('the kit\'s history: a site linked to a corrected one follows it', async () => {
    await correctA1('kit history: a1 is pig butchering');
    const c = await classifyInvestigation(deps, scans.a2);
    const kit = c.evidence.find((e) => e.feature === 'kit_history');
    assert.ok(kit?.detail.includes(scans.a1), JSON.stringify(c.evidence));
    assert.equal(c.taxonomy, 'investment/crypto/pig-butchering', JSON.stringify(c));
  });

  it('the LLM path: bounded requests; a surer valid answer wins, an answer outside the taxonomy or a failed request leaves the rules\' answer', async () => {
    const llm = createLlmClassifier({ apiKey: 'test-key', baseUrl: fake.url, model: 'claude-test', enabled: true, maxTokens: 123, timeoutSeconds: 5, maxChars: 600 })!;
    fake.setHandler(() => ({ toolInput: { taxonomy: 'romance', confidence: 0.97, reason: 'a dating story' } }));
    const sent = fake.requests.length;
    const won = await classifyIntake({ ...deps, llm }, intakeId);
    assert.deepEqual([won.taxonomy, won.source], ['romance', 'llm']);
    assert.ok(won.evidence.some((e) => e.feature === 'llm' && e.detail.includes('a dating story')));
    const req = fake.requests[sent] as unknown as { max_tokens: number; tool_choice: { name: string } };
    assert.deepEqual([req.max_tokens, req.tool_choice.name], [123, 'classify']);
    const subject = userText(fake.requests[sent]!);
    assert.ok(subject.slice(subject.indexOf('<subject>')).length <= 600 + '<subject>\n\n</subject>'.length + 20, 'the text sent is cut to maxChars');
    fake.setHandler(() => ({ toolInput: { taxonomy: 'crypto/love', confidence: 0.99, reason: 'made up' } }));
    const ignored = await classifyIntake({ ...deps, llm }, intakeId);
    assert.deepEqual([ignored.taxonomy, ignored.source], ['advance-fee/recovery', 'rules']);
    assert.ok(!ignored.evidence.some((e) => e.feature === 'llm'));
    fake.setHandler(() => ({ raw: '{"type":"error","error":{"type":"overloaded_error","message":"busy"}}', status: 529 }));
    const failed = await classifyIntake({ ...deps, llm }, intakeId);
    assert.deepEqual([failed.taxonomy, failed.source], ['advance-fee/recovery', 'rules']);
  });

  it('accuracy over this test\'s corrected subjects, and the dashboard carries the figure', async () => {
    await correctA1('accuracy: a1 is pig butchering');
    const ok = await http(`${url}/intakes/${intakeId}/classification`, { method: 'PUT', headers: analyst, json: { taxonomy: 'advance-fee/recovery', reason: 'confirmed by the victim' } });
    assert.equal(ok.status, 200, ok.text);
    const mine = await classificationAccuracy(testKnex(), [{ kind: 'investigation', id: scans.a1 }, { kind: 'intake', id: intakeId }]);
    // a1's automatic prediction (investment/crypto...) was corrected to pig-butchering; the intake's matched.
    const a1Auto = (await testKnex()('classifications').where({ subject_kind: 'investigation', subject_id: scans.a1 }).first()).corrected_from as string;
    assert.equal(mine.n, 2);
    assert.equal(mine.accuracy, a1Auto === 'investment/crypto/pig-butchering' ? 1 : 0.5);
    const dash = await http(`${url}/intelligence/dashboard`, { headers: analyst });
    assert.equal(dash.status, 200, dash.text);
    const acc = dash.body.classification_accuracy;
    assert.ok(acc.n >= 2 && typeof acc.accuracy === 'number' && acc.accuracy >= 0 && acc.accuracy <= 1 && !Number.isNaN(Date.parse(acc.as_of)), JSON.stringify(acc));
  });
});
