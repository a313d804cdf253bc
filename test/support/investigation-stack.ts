// What an end-to-end investigation test needs: a fixture scam site on 127.0.0.1, a worker and an
// API on a task queue of their own that may reach that site, and an analyst's headers.
import { randomUUID } from 'node:crypto';
import { asUser, http } from './http';
import { usersForEveryRole } from './identities';
import { startTestApi, startTestWorker } from './platform';
import { startScamSiteFixture, type ScamSiteFixture } from './scam-site-fixture';
import { waitFor } from './wait-for';

export interface InvestigationStack {
  site: ScamSiteFixture;
  /** The API's base URL. */
  url: string;
  queue: string;
  analyst: Record<string, string>;
  analystEmail: string;
}

/** `extraEnv`: settings of the worker and the API beyond the task queue and the egress exception. */
export async function startInvestigationStack(prefix: string, fixture: Parameters<typeof startScamSiteFixture>[0] = {}, extraEnv: Record<string, string> = {}): Promise<InvestigationStack> {
  const site = await startScamSiteFixture(fixture);
  const queue = `${prefix}-${randomUUID().slice(0, 8)}`;
  const env = { SVC_TEMPORAL__TASK_QUEUE: queue, SVC_AUTH__TRUST_PROXY_HEADER: 'true', SVC_SSI__ALLOW_PRIVATE_TARGETS: `127.0.0.1:${site.port}`, SVC_WORKER__INSTANCE: `t-${queue}`, ...extraEnv };
  await startTestWorker(queue, env);
  const url = (await startTestApi(env)).url;
  const analystEmail = (await usersForEveryRole()).analyst;
  return { site, url, queue, analyst: asUser(analystEmail), analystEmail };
}

/** Polls /tasks/ssi-<scan_id> until the scan ends; answers the task (status, error, progress, ...). */
export async function waitForScanEnd(url: string, statusUrl: string, headers: Record<string, string>, onTask: (task: Record<string, unknown>) => void = () => undefined): Promise<Record<string, unknown> & { status: string }> {
  return waitFor('investigation ends', async () => {
    const t = await http(`${url}${statusUrl}`, { headers });
    if (t.status !== 200) throw new Error(`${statusUrl} answered ${t.status}: ${t.text}`);
    onTask(t.body);
    return ['completed', 'failed', 'cancelled'].includes(t.body.status) ? t.body : null;
  }, 200_000, 250);
}
