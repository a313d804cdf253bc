// The platform's own state, as use cases:
// - checkReadiness: whether the database and Temporal answer (each within 3 s)
import type { ServiceDeps } from '../service-deps';

export type Dependency = 'database' | 'temporal';
type CheckResult = { ok: true } | { ok: false; detail: string };

export interface Readiness {
  ready: boolean;
  checks: Record<Dependency, 'ok' | 'unavailable'>;
  /** Why each unavailable dependency failed: for the log only (public answers name the dependency alone). */
  failures: Array<{ dependency: Dependency; detail: string }>;
}

async function check(fn: () => Promise<unknown>, timeoutMs = 3000): Promise<CheckResult> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      fn(),
      new Promise((_r, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
      }),
    ]);
    return { ok: true };
  } catch (err) {
    return { ok: false, detail: err instanceof Error ? err.message.split('\n')[0] : 'unreachable' };
  } finally {
    clearTimeout(timer);
  }
}

export async function checkReadiness(deps: Pick<ServiceDeps, 'knex' | 'temporal'>): Promise<Readiness> {
  const [database, temporal] = await Promise.all([
    check(() => deps.knex.raw('select 1')),
    // a deadline, so that the SDK's retries of an unreachable server end with the check
    check(() => deps.temporal.connection.withDeadline(Date.now() + 3000, () => deps.temporal.workflowService.getSystemInfo({}))),
  ]);
  const failures: Readiness['failures'] = [];
  for (const [dependency, result] of [['database', database], ['temporal', temporal]] as const) {
    if (!result.ok) failures.push({ dependency, detail: result.detail });
  }
  return {
    ready: database.ok && temporal.ok,
    checks: { database: database.ok ? 'ok' : 'unavailable', temporal: temporal.ok ? 'ok' : 'unavailable' },
    failures,
  };
}
