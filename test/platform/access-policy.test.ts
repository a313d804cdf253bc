// Walks every route of the route table with every role, no identity, and API keys, and checks that
// the answer matches the route's declared access policy (401/403 exactly when it should deny).
import assert from 'node:assert/strict';
import { allRoutes } from '../../api/route-table';
import type { RouteDef } from '../../api/route-definition';
import { API_KEY_SCOPES, ROLES, type Role } from '../../domain/auth/roles';
import { asUser, http } from '../support/http';
import { createTestApiKey, usersForEveryRole } from '../support/identities';
import { startTestApi } from '../support/platform';

type Caller = { label: string; headers: Record<string, string>; role?: Role; scopes?: readonly string[]; anonymous?: boolean };

function expected(route: RouteDef, caller: Caller): 'allow' | 401 | 403 {
  const a = route.access;
  if ('public' in a) return 'allow';
  if (caller.anonymous) return 401;
  if ('authenticated' in a) return 'allow';
  if (caller.role) return (a.roles ?? []).includes(caller.role) ? 'allow' : 403;
  return (a.scopes ?? []).some((s) => caller.scopes!.includes(s)) ? 'allow' : 403;
}

function concretePath(route: RouteDef): string {
  return route.path.replace(/\{([^}]+)\}/g, (_m, name: string) => {
    if (name === 'file') return 'swagger-ui.css';
    if (name === 'task_id') return 'no-such-task';
    if (name === 'scan_id') return 'no-such-scan';
    return '00000000-0000-4000-8000-000000000000';
  });
}

describe('access policy of every route', function () {
  this.timeout(180_000);
  let url: string;
  const callers: Caller[] = [];

  before(async () => {
    const api = await startTestApi({ SVC_AUTH__TRUST_PROXY_HEADER: 'true' });
    url = api.url;
    const users = await usersForEveryRole();
    for (const role of ROLES) callers.push({ label: role, headers: asUser(users[role]), role });
    callers.push({ label: 'no identity', headers: {}, anonymous: true });
    callers.push({ label: 'api key (all scopes)', headers: { 'X-API-KEY': await createTestApiKey([...API_KEY_SCOPES]) }, scopes: API_KEY_SCOPES });
    callers.push({ label: 'api key (no scope)', headers: { 'X-API-KEY': await createTestApiKey([]) }, scopes: [] });
  });

  it('declares a policy on every route', () => {
    for (const route of allRoutes()) assert.ok(route.access, `${route.method} ${route.path} has no access policy`);
  });

  it('answers every route x caller as its policy says', async () => {
    const failures: string[] = [];
    for (const route of allRoutes()) {
      for (const caller of callers) {
        const res = await http(`${url}${concretePath(route)}`, {
          method: route.method.toUpperCase(),
          headers: caller.headers,
          ...(route.method === 'get' || route.method === 'delete' ? {} : { json: {} }),
        });
        const want = expected(route, caller);
        const ok = want === 'allow' ? res.status !== 401 && res.status !== 403 : res.status === want;
        if (!ok) failures.push(`${route.method.toUpperCase()} ${route.path} as ${caller.label}: got ${res.status}, want ${want}`);
        if (want !== 'allow') assert.equal(res.body?.error?.code, want === 401 ? 'unauthenticated' : 'forbidden');
      }
    }
    assert.deepEqual(failures, []);
  });

  it('denies everything that is not in the route table', async () => {
    const res = await http(`${url}/admin/secret`, { headers: callers[0].headers });
    assert.equal(res.status, 404);
    assert.equal(res.body.error.code, 'not_found');
  });

  it('ignores the proxy header unless it is trusted', async () => {
    const api = await startTestApi({ SVC_AUTH__TRUST_PROXY_HEADER: 'false' });
    const res = await http(`${api.url}/accounts/me`, { headers: callers[0].headers });
    assert.equal(res.status, 401);
  });
});
