// The funnel agent (`npm run bench -- funnels`): each fixture funnel shape run end to end on loopback
// through the real platform: the API (POST /investigations/ssi, then the task and the detail), a
// worker with Chromium, PostgreSQL, Temporal and the platform's own persona mail receiver (the
// e-mail code and activation link sites mail the persona through it). The captcha site is answered
// through the guidance routes by the bench itself; the time from the question to the answer is the
// bench's own and is printed apart (and taken out of that funnel's time). Prints per funnel the
// median end-to-end time of N runs (BENCH_RUNS, default 3; BENCH_QUICK=1 runs one), the pages
// captured, the funnel steps (the agent's funnel actions) and the wallets found; the goal is each under
// 60 s. Baseline: the same English sign-up site investigated with `agent: {register: false}`, which
// stops at the wall (its time, and 0 wallets). Each run uses a fresh site, so each registers anew.
import path from 'node:path';
import { startEphemeralInfrastructure } from '../app/ephemeral-infrastructure';
import { runFunnelScan, startFunnelStack, type FunnelScan, type FunnelStack } from '../test/support/funnel-stack';
import { CAPTCHA_ANSWER, startFunnelSite, type FunnelSiteKind } from '../test/support/funnel-site-fixture';
import { http } from '../test/support/http';
import { closeSharedTestResources, startTestMailReceiver } from '../test/support/platform';

const SHAPES: ReadonlyArray<{ name: string; kind: FunnelSiteKind; note: string }> = [
  { name: 'english-signup', kind: 'english-signup', note: 'sign-up with terms box' },
  { name: 'email-code', kind: 'email-code', note: 'code mailed over SMTP' },
  { name: 'activation-link', kind: 'activation-link', note: 'link mailed, then log-in' },
  { name: 'zh-wizard', kind: 'zh-wizard', note: 'Chinese 3-step wizard' },
  { name: 'login-wall', kind: 'login-wall', note: 'log-in wall, small link' },
  { name: 'captcha', kind: 'captcha', note: 'captcha via guidance' },
  { name: 'qr-deposit', kind: 'qr-deposit', note: 'address only as QR' },
  { name: 'spa-cookie-modal', kind: 'spa-cookie-modal', note: 'SPA, cookie banner, modal' },
  { name: 'symbol-password', kind: 'symbol-password', note: 'symbol asked after submit' },
  { name: 'dropdowns', kind: 'dropdowns', note: 'country, d/m/y selects' },
];
const GOAL_MS = 60_000;

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
const fmt = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

interface RunFigures { ms: number; humanMs: number; pages: number; steps: number; wallets: number; expected: number; state: string }

/** The captcha's question answered through GET/POST guidance as an analyst would; answers how long the bench took. */
async function answerCaptcha(stack: FunnelStack, scanId: string): Promise<number> {
  const url = `${stack.url}/investigations/ssi/${scanId}/guidance`;
  const deadline = Date.now() + 240_000;
  for (;;) {
    const g = await http(url, { headers: stack.users.analyst });
    if (g.status === 200) {
      const asked = Date.now();
      const answered = await http(url, { method: 'POST', headers: stack.users.analyst, json: { request_id: g.body.request_id, answer: CAPTCHA_ANSWER } });
      if (answered.status !== 202) throw new Error(`POST guidance answered ${answered.status}: ${answered.text}`);
      return Date.now() - asked;
    }
    if (g.status !== 404) throw new Error(`GET guidance answered ${g.status}: ${g.text}`);
    if (Date.now() > deadline) throw new Error('the captcha site never asked a human');
    await new Promise((r) => setTimeout(r, 250));
  }
}

async function once(stack: FunnelStack, kind: FunnelSiteKind, smtp: { host: string; port: number }, body: Record<string, unknown> = {}): Promise<RunFigures> {
  const site = await startFunnelSite(kind, { smtp });
  const name = `${kind}-${Object.keys(stack.sites).length}`;
  stack.sites[name] = site;
  let humanMs = 0;
  const started = Date.now();
  const scan: FunnelScan = await runFunnelScan(stack, `${site.origin}/`, body, kind === 'captcha' && body.agent === undefined ? async (scanId) => { humanMs = await answerCaptcha(stack, scanId); } : undefined);
  const ms = Date.now() - started;
  const actions = scan.detail.agent_actions as Array<{ action: string; state: string }>;
  const found = new Set((scan.detail.wallets as Array<{ address: string }>).map((w) => w.address));
  const expected = Object.values(site.wallets).filter((w) => found.has(w)).length;
  return {
    ms, humanMs, pages: (scan.detail.pages as unknown[] | undefined)?.length ?? 0,
    steps: actions.filter((a) => /^funnel_(fill|fill_text|check|select|click|navigate|guidance)$/.test(a.action) || a.action === 'ask_human').length,
    wallets: found.size, expected, state: scan.task.status,
  };
}

export async function run(): Promise<void> {
  const runs = process.env.BENCH_QUICK === '1' ? 1 : Math.max(1, Number(process.env.BENCH_RUNS ?? 3));
  const infra = await startEphemeralInfrastructure({ name: 'fip-bench-funnels' });
  // The test support reads the platform from these (its API, worker, mail receiver and identities).
  Object.assign(process.env, { DATABASE_URL: infra.databaseUrl, TEMPORAL_ADDRESS: infra.temporalAddress, SVC_DATA_DIR: path.join(infra.dir, 'data'), FIP_TEST_LOG_LEVEL: 'warn' });
  let stack: FunnelStack | null = null;
  try {
    const receiver = await startTestMailReceiver();
    const smtp = { host: receiver.host, port: receiver.port };
    // Every fixture site listens on a fresh 127.0.0.1 port: the bench's worker may reach loopback.
    stack = await startFunnelStack('bench-funnels', {}, { SVC_SSI__ALLOW_PRIVATE_TARGETS: '127.0.0.1' }, { smtp });
    // Warm-up: the first scan launches Chromium.
    await once(stack, 'english-signup', smtp);
    const rows: string[] = [];
    const misses: string[] = [];
    for (const shape of SHAPES) {
      const figures: RunFigures[] = [];
      for (let i = 0; i < runs; i++) figures.push(await once(stack, shape.kind, smtp));
      const times = figures.map((f) => f.ms - f.humanMs);
      const t = median(times);
      const last = figures[figures.length - 1]!;
      const ok = figures.every((f) => f.state === 'completed' && f.expected === 3 - (shape.kind === 'qr-deposit' ? 2 : 0));
      if (t >= GOAL_MS || !ok) misses.push(shape.name);
      rows.push(`  ${shape.name.padEnd(17)} ${shape.note.padEnd(26)} ${fmt(t).padStart(7)}  ${String(median(figures.map((f) => f.pages))).padStart(5)}  ${String(median(figures.map((f) => f.steps))).padStart(5)}  ${String(median(figures.map((f) => f.wallets))).padStart(7)}  ${t < GOAL_MS ? 'met   ' : 'missed'}${ok ? '' : `  (${last.state}, ${last.expected} deposit wallets)`}${shape.kind === 'captcha' ? `  [bench answering: ${fmt(median(figures.map((f) => f.humanMs)))}, not counted]` : ''}`);
    }
    const base: RunFigures[] = [];
    for (let i = 0; i < runs; i++) base.push(await once(stack, 'english-signup', smtp, { agent: { register: false } }));
    process.stdout.write([
      `funnels end to end (POST ... completed; median of ${runs} run${runs > 1 ? 's' : ''}; goal < 60 s each):`,
      `  ${'funnel'.padEnd(17)} ${'shape'.padEnd(26)} ${'time'.padStart(7)}  pages  steps  wallets  goal`,
      ...rows,
      `baseline: english-signup with agent.register=false (stops at the wall): ${fmt(median(base.map((b) => b.ms)))}, ${median(base.map((b) => b.pages))} pages, ${median(base.map((b) => b.wallets))} wallets`,
      misses.length ? `missed (time or wallets): ${misses.join(', ')}` : 'every funnel under 60 s with its deposit wallets',
    ].join('\n') + '\n');
  } finally {
    await stack?.close();
    await closeSharedTestResources();
    await infra.stop();
  }
}
