// The funnel's LLM planner end to end: the real @anthropic-ai/sdk (composed by the platform from
// ANTHROPIC_API_KEY / ANTHROPIC_BASE_URL) talks to a local fake Messages API with scripted answers,
// on a log-in wall whose way to an account uses words the heuristics do not know. The planner's
// click gets the persona to the sign-up form, the heuristics do the rest; a second scan whose
// planner never gets anywhere stops on its step budget. Real API, worker, Chromium, PostgreSQL, Temporal.
import assert from 'node:assert/strict';
import { type FakeAnthropicServer, type FakeRequest, startFakeAnthropicServer, toolUseReply } from '../support/fake-anthropic-server';
import { runFunnelScan, startFunnelStack, type FunnelScan, type FunnelStack } from '../support/funnel-stack';

const isPlanner = (req: FakeRequest) => (req.tools ?? []).some((t) => t.name === 'request_screenshot');

function actions(scan: FunnelScan, name: string): Array<{ state: string; action: string; target: string; outcome: string }> {
  return scan.detail.agent_actions.filter((a: { action: string }) => a.action === name);
}

describe('the funnel with the LLM planner (real SDK, fake Messages API, end to end)', function () {
  this.timeout(600_000);
  let llm: FakeAnthropicServer;
  let stack: FunnelStack;
  before(async () => {
    llm = await startFakeAnthropicServer();
    stack = await startFunnelStack('funnelllm', { odd: 'odd-words', budget: 'odd-words' }, {
      ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: llm.url, SVC_SSI__AGENT_MAX_STEPS: '3',
    });
  });
  after(async () => {
    await stack?.close();
    await llm?.close();
  });

  it('the planner finds the sign-up link the heuristics cannot read; the persona registers, logs in and reads the deposit wallets; no persona value reaches a prompt', async () => {
    const site = stack.sites.odd!;
    llm.requests.length = 0;
    // The wallet engine's verification requests fail (it keeps its deterministic verdicts); the planner clicks the odd link.
    llm.setHandler((req) => (isPlanner(req) ? toolUseReply('click', { selector: 'text=Open your portfolio' }) : { raw: 'unavailable', status: 503 }));
    const scan = await runFunnelScan(stack, `${site.origin}/`);
    assert.equal(scan.task.status, 'completed', JSON.stringify(scan.task.error));
    const planned = actions(scan, 'llm_plan');
    assert.ok(planned.length >= 1, 'the planner was asked');
    assert.ok(planned.every((a) => a.state === 'REGISTER'), JSON.stringify(planned));
    assert.equal(site.accounts.length, 1, 'the persona registered');
    assert.equal(site.logins(), 1, 'and logged in');
    const found = new Set((scan.detail.wallets as Array<{ address: string }>).map((w) => w.address));
    for (const coin of ['BTC', 'ETH', 'USDT'] as const) assert.ok(found.has(site.wallets[coin]), `${coin} found`);
    const prompts = JSON.stringify(llm.requests.filter(isPlanner));
    assert.ok(prompts.length > 0);
    const account = site.accounts[0]!;
    for (const secret of [account.email!, account.password!]) assert.ok(!prompts.includes(secret), 'no persona value in any prompt');
  });

  it('a planner that gets nowhere stops on its step budget: the funnel ends "budget" in REGISTER and the scan completes with what it has', async () => {
    const site = stack.sites.budget!;
    // Each answer opens another page (so the agent's no-progress guard does not stop it first) and none leads anywhere.
    let n = 0;
    llm.setHandler((req) => (isPlanner(req) ? toolUseReply('navigate', { url: `${site.origin}/login?try=${++n}` }) : { raw: 'unavailable', status: 503 }));
    const scan = await runFunnelScan(stack, `${site.origin}/`);
    assert.equal(scan.task.status, 'completed', JSON.stringify(scan.task.error));
    const trail = JSON.stringify(scan.detail.agent_actions.map((a: { state: string; action: string; target: string; outcome: string }) => `${a.state} ${a.action} ${a.target} ${a.outcome.slice(0, 200)}`), null, 1);
    assert.equal(actions(scan, 'llm_plan').length, 3, `SVC_SSI__AGENT_MAX_STEPS=3 requests, no more: ${trail}`);
    const outcome = actions(scan, 'funnel_outcome')[0];
    assert.match(outcome?.outcome ?? '', /^stopped in REGISTER: budget: /, JSON.stringify(scan.detail.agent_actions.map((a: { state: string; action: string; outcome: string }) => `${a.state} ${a.action} ${a.outcome}`)));
    assert.equal(site.accounts.length, 0);
  });
});
