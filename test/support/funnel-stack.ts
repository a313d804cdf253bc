// What a funnel test needs: fixture funnel sites on 127.0.0.1, a worker and an API on a task queue of
// their own that may reach those sites (and only them), every log line of both in memory (for the
// persona-leak checks), and each role's headers.
import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import type { DestinationStream } from 'pino';
import { startApiServer, startWorker } from '../../app/platform-runtime';
import { createLogger } from '../../infra/logger';
import { startFunnelSite, type FunnelSite, type FunnelSiteKind } from './funnel-site-fixture';
import { asUser, http } from './http';
import { usersForEveryRole } from './identities';
import { testDeps } from './platform';
import { waitFor } from './wait-for';

export interface FunnelStack {
  url: string;
  queue: string;
  /** The sites by the names the test gave them. */
  sites: Record<string, FunnelSite | undefined>;
  users: Record<'admin' | 'analyst' | 'researcher' | 'reviewer', Record<string, string>>;
  logs(): string;
  close(): Promise<void>;
}

/** `sites`: a name for each site and its kind (two names may share a kind: each is its own site). */
export async function startFunnelStack(prefix: string, kinds: Record<string, FunnelSiteKind>, extraEnv: Record<string, string> = {}, siteOptions: Parameters<typeof startFunnelSite>[1] = {}): Promise<FunnelStack> {
  const sites: FunnelStack['sites'] = {};
  for (const [name, kind] of Object.entries(kinds)) sites[name] = await startFunnelSite(kind, siteOptions);
  const queue = `${prefix}-${randomUUID().slice(0, 8)}`;
  const allow = Object.values(sites).map((s) => `127.0.0.1:${s!.port}`).join(',');
  const env = { SVC_TEMPORAL__TASK_QUEUE: queue, SVC_AUTH__TRUST_PROXY_HEADER: 'true', SVC_SSI__ALLOW_PRIVATE_TARGETS: allow, SVC_WORKER__INSTANCE: `t-${queue}`, ...extraEnv };
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, cb) {
      lines.push(chunk.toString('utf8'));
      cb();
    },
  });
  const deps = { ...(await testDeps(env)), log: createLogger('trace', `${prefix}-test`, sink as unknown as DestinationStream) };
  const worker = await startWorker(deps.config, process.env.TEMPORAL_ADDRESS!, deps, queue);
  const api = await startApiServer(deps, 0, '127.0.0.1');
  const emails = await usersForEveryRole();
  return {
    url: api.url, queue, sites,
    users: { admin: asUser(emails.admin), analyst: asUser(emails.analyst), researcher: asUser(emails.researcher), reviewer: asUser(emails.reviewer) },
    logs: () => lines.join(''),
    close: async () => {
      await api.close();
      await worker.shutdown();
      for (const s of Object.values(sites)) await s!.close();
    },
  };
}

export interface FunnelScan {
  scanId: string;
  task: Record<string, unknown> & { status: string };
  detail: Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
  entered: string[];
}

/** Starts an investigation of `startUrl`, waits for its end, answers its task and detail. */
/**
 * Runs one investigation to its end; `during` (when given) runs once the scan has started, before
 * the wait for its end (a human answering the agent's question, say).
 */
export async function runFunnelScan(stack: FunnelStack, startUrl: string, body: Record<string, unknown> = {}, during?: (scanId: string) => Promise<void>): Promise<FunnelScan> {
  const analyst = stack.users.analyst;
  const start = await http(`${stack.url}/investigations/ssi`, { method: 'POST', headers: analyst, json: { url: startUrl, playbook_id: null, options: { max_pages: 4 }, ...body } });
  if (start.status !== 202) throw new Error(`POST /investigations/ssi answered ${start.status}: ${start.text}`);
  if (during) await during(start.body.scan_id as string);
  const task = await waitFor('investigation ends', async () => {
    const t = await http(`${stack.url}${start.body.status_url}`, { headers: analyst });
    if (t.status !== 200) throw new Error(`${start.body.status_url} answered ${t.status}: ${t.text}`);
    return ['completed', 'failed', 'cancelled'].includes(t.body.status) ? t.body : null;
  }, 300_000, 500);
  const d = await http(`${stack.url}/investigations/ssi/${start.body.scan_id}`, { headers: analyst });
  if (d.status !== 200) throw new Error(`the detail answered ${d.status}: ${d.text}`);
  const entered = (d.body.agent_actions as Array<{ action: string; target: string }>).filter((a) => a.action === 'enter_state').map((a) => a.target);
  return { scanId: start.body.scan_id, task, detail: d.body, entered };
}
