// The funnel's LLM planner with the real @anthropic-ai/sdk against the local fake Messages API and a
// real database and blob store: tool calls become FunnelActions, the screenshot goes only after the
// model asks for it, the per-investigation budget stops it (steps, then tokens), every prompt and
// answer is in the action log as blobs, and no persona value reaches a prompt.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import Anthropic from '@anthropic-ai/sdk';
import { createConfiguredBlobStore, readBlob, type BlobStore } from '../../infra/blob-store';
import { insertInvestigation, listActions } from '../../db/repositories/investigations/investigation-repository';
import { createFunnelPlanner } from '../../services/investigations/funnel-planner';
import type { FunnelObservation, PlannerBudget } from '../../domain/investigations/funnel';
import { type FakeAnthropicServer, type FakeRequest, startFakeAnthropicServer, toolUseReply } from '../support/fake-anthropic-server';
import { testConfig, testKnex } from '../support/platform';

const EMAIL = 'marta.quill.7731@persona.example';
const PASSWORD = 'Xq7vLm2pRt9w';
const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');

function observation(over: Partial<FunnelObservation> = {}): FunnelObservation {
  return {
    goal: 'REGISTER',
    url: 'https://exchange.example/register',
    title: 'Create account',
    accessibility_tree: [
      '- heading "Create your account" [level=1]',
      `- textbox "E-mail": ${EMAIL}`,
      '- textbox "Password"',
      '- checkbox "I agree to the terms"',
      '- button "Sign up"',
    ].join('\n'),
    history: [{ action: { kind: 'fill', selector: '#email', persona_field: 'email' }, outcome: 'ok' }],
    ...over,
  };
}

describe('the funnel LLM planner (real SDK, fake Messages API, real action log)', function () {
  this.timeout(60_000);
  let server: FakeAnthropicServer;
  let blobs: BlobStore;
  let knex: ReturnType<typeof testKnex>;

  before(async () => {
    knex = testKnex();
    server = await startFakeAnthropicServer();
    blobs = createConfiguredBlobStore(testConfig());
  });
  after(async () => {
    await server.close();
    await blobs.close();
  });
  beforeEach(() => {
    server.requests.length = 0;
  });

  async function newScan(): Promise<string> {
    const scanId = randomUUID();
    await insertInvestigation(knex, { scanId, url: 'https://exchange.example/', domain: 'exchange.example', requestedBy: 'planner-test@example.org', playbookId: null, caseId: null, label: null, options: {} });
    return scanId;
  }

  function planner(budget: PlannerBudget = { maxSteps: 10, maxTokens: 100_000, maxSeconds: 60 }) {
    const client = new Anthropic({ apiKey: 'test-key', baseURL: server.url, maxRetries: 0 });
    return createFunnelPlanner({ client, model: 'claude-test', knex, blobs, budget, personaValues: async () => [EMAIL, PASSWORD] });
  }

  function script(...replies: Array<ReturnType<typeof toolUseReply>>): void {
    let i = 0;
    server.setHandler(() => replies[Math.min(i++, replies.length - 1)]!);
  }

  const hasImage = (req: FakeRequest) => JSON.stringify(req.messages).includes('"type":"image"');
  let shots = 0;
  const screenshot = async () => {
    shots++;
    return PNG;
  };

  it('maps a tool-use answer to the action it names, with the page text and the tools offered', async () => {
    const scanId = await newScan();
    script(toolUseReply('fill', { selector: 'input[name=password]', persona_field: 'password' }));
    const action = await planner().plan(scanId, observation(), screenshot);
    assert.deepEqual(action, { kind: 'fill', selector: 'input[name=password]', persona_field: 'password' });
    assert.equal(server.requests.length, 1);
    const req = server.requests[0]!;
    assert.deepEqual(req.tool_choice, { type: 'any' });
    for (const tool of ['fill', 'fill_text', 'check', 'select', 'click', 'navigate', 'ask_human', 'done', 'give_up', 'request_screenshot']) {
      assert.ok(req.tools?.some((t) => t.name === tool), `tool ${tool} offered`);
    }
    assert.match(JSON.stringify(req.messages), /button \\"Sign up\\"/);
    assert.equal(hasImage(req), false, 'no screenshot unless asked');

    script(toolUseReply('ask_human', { kind: 'captcha', question: 'Type the characters', field: '#captcha' }));
    assert.deepEqual(await planner().plan(scanId, observation(), screenshot), { kind: 'ask_human', guidance_kind: 'captcha', question: 'Type the characters', field: '#captcha' });
    script(toolUseReply('navigate', { url: 'https://exchange.example/deposit' }));
    assert.deepEqual(await planner().plan(scanId, observation(), screenshot), { kind: 'navigate', url: 'https://exchange.example/deposit' });
  });

  it('sends the screenshot only after the model calls request_screenshot', async () => {
    const scanId = await newScan();
    shots = 0;
    script(toolUseReply('request_screenshot', { reason: 'the form is drawn on a canvas' }), toolUseReply('click', { selector: 'text=Sign up' }));
    const action = await planner().plan(scanId, observation(), screenshot);
    assert.deepEqual(action, { kind: 'click', selector: 'text=Sign up' });
    assert.equal(server.requests.length, 2);
    assert.equal(hasImage(server.requests[0]!), false, 'the first request is text only');
    assert.equal(hasImage(server.requests[1]!), true, 'the follow-up carries the screenshot');
    assert.equal(shots, 1);
    assert.match(JSON.stringify(server.requests[1]!.messages), /"tool_result"/);
  });

  it('retries an invalid answer once, then gives up', async () => {
    const scanId = await newScan();
    script(toolUseReply('hack_the_planet', {}), toolUseReply('click', { selector: 42 }));
    const action = await planner().plan(scanId, observation(), screenshot);
    assert.equal(action.kind, 'give_up');
    assert.match((action as { reason: string }).reason, /invalid planner answer twice: selector must be a non-empty string/);
    assert.equal(server.requests.length, 2);
    assert.match(JSON.stringify(server.requests[1]!.messages), /unknown tool/);
  });

  it('stops at the step budget, then (another investigation) at the token budget, counting what the log holds', async () => {
    const steps = await newScan();
    script(toolUseReply('click', { selector: '#next' }));
    const tight = planner({ maxSteps: 2, maxTokens: 100_000, maxSeconds: 60 });
    assert.equal((await tight.plan(steps, observation(), screenshot)).kind, 'click');
    // A second planner (another worker, a retried activity) reads the same log.
    assert.equal((await planner({ maxSteps: 2, maxTokens: 100_000, maxSeconds: 60 }).plan(steps, observation(), screenshot)).kind, 'click');
    const before = server.requests.length;
    const stopped = await tight.plan(steps, observation(), screenshot);
    assert.deepEqual(stopped, { kind: 'give_up', reason: 'budget: 2 planner steps used of 2' });
    assert.equal(server.requests.length, before, 'no request once the budget is spent');

    const tokens = await newScan();
    script(toolUseReply('click', { selector: '#next' }, { input_tokens: 900, output_tokens: 200 }));
    const small = planner({ maxSteps: 100, maxTokens: 2000, maxSeconds: 60 });
    assert.equal((await small.plan(tokens, observation(), screenshot)).kind, 'click');
    assert.equal((await small.plan(tokens, observation(), screenshot)).kind, 'click');
    assert.deepEqual(await small.plan(tokens, observation(), screenshot), { kind: 'give_up', reason: 'budget: 2200 tokens used of 2000' });
    const log = await listActions(knex, tokens);
    assert.equal(log.filter((a) => a.action === 'llm_plan').length, 2);
    assert.ok(log.some((a) => a.action === 'llm_give_up' && a.outcome.startsWith('budget: 2200 tokens')));
  });

  it('keeps every prompt and answer in the action log as blobs, and no persona value in any prompt', async () => {
    const scanId = await newScan();
    script(toolUseReply('request_screenshot', {}), toolUseReply('check', { selector: '#terms' }));
    await planner().plan(scanId, observation({ history: [{ action: { kind: 'fill', selector: '#email', persona_field: 'email' }, outcome: `typed ${EMAIL}` }, { action: { kind: 'fill', selector: '#pw', persona_field: 'password' }, outcome: 'ok' }] }), screenshot);
    const plans = (await listActions(knex, scanId)).filter((a) => a.action === 'llm_plan');
    assert.equal(plans.length, 2, 'one llm_plan action per request');
    for (const [i, p] of plans.entries()) {
      const rec = JSON.parse(p.outcome) as { prompt_blob: string; answer_blob: string; result: string; input_tokens: number };
      assert.equal(rec.input_tokens, 10);
      const prompt = (await readBlob(blobs, rec.prompt_blob)).toString('utf8');
      const answer = (await readBlob(blobs, rec.answer_blob)).toString('utf8');
      assert.match(prompt, /Persona fields you can fill: email, password/);
      assert.ok(answer.includes(i === 0 ? 'request_screenshot' : '#terms'), 'the answer is stored');
      assert.equal(rec.result, i === 0 ? 'request_screenshot' : 'check');
    }
    const sent = JSON.stringify(server.requests);
    assert.ok(sent.includes('textbox \\"E-mail\\": [typed value hidden]'), 'the typed value is hidden in the tree');
    for (const value of [EMAIL, PASSWORD, 'marta.quill']) {
      assert.ok(!sent.includes(value), `${value} not sent to the model`);
    }
    for (const p of plans) {
      const rec = JSON.parse(p.outcome) as { prompt_blob: string };
      assert.ok(!(await readBlob(blobs, rec.prompt_blob)).toString('utf8').includes(EMAIL), 'nor stored in a prompt blob');
    }
  });
});
