// The administration routes against the real API and PostgreSQL: only admins may use them (an
// analyst gets 403), users are added, their roles replaced and they are disabled (and then refused
// by the API), an API key's secret is in the create answer only, a revoked key is refused, every
// change is in the audit log, and bad input is a 400 naming the field.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { asUser, http } from '../support/http';
import { usersForEveryRole } from '../support/identities';
import { startTestApi } from '../support/platform';

describe('administration of users and API keys (API)', function () {
  this.timeout(60_000);
  let url: string;
  let users: Awaited<ReturnType<typeof usersForEveryRole>>;
  let admin: Record<string, string>;
  const tag = randomUUID().slice(0, 8);

  before(async () => {
    url = (await startTestApi({ SVC_AUTH__TRUST_PROXY_HEADER: 'true' })).url;
    users = await usersForEveryRole();
    admin = asUser(users.admin);
  });

  async function auditOf(targetId: string): Promise<Array<{ action: string; actor: string; details: Record<string, unknown> }>> {
    const res = await http(`${url}/audit/events?target_id=${encodeURIComponent(targetId)}&limit=50`, { headers: admin });
    assert.equal(res.status, 200, res.text);
    return res.body.items;
  }

  it('refuses an analyst (403) on every administration route and answers an admin (200)', async () => {
    const analyst = asUser(users.analyst);
    const someId = randomUUID();
    for (const [method, path, json] of [
      ['GET', '/accounts/users', undefined],
      ['POST', '/accounts/users', { email: `x-${tag}@example.org`, roles: ['admin'] }],
      ['PUT', `/accounts/users/${someId}/roles`, { roles: ['admin'] }],
      ['POST', `/accounts/users/${someId}/disable`, undefined],
      ['GET', '/accounts/api-keys', undefined],
      ['POST', '/accounts/api-keys', { name: `x-${tag}`, scopes: ['intake:write'] }],
      ['POST', `/accounts/api-keys/${someId}/revoke`, undefined],
    ] as const) {
      const res = await http(`${url}${path}`, { method, headers: analyst, ...(json ? { json } : {}) });
      assert.equal(res.status, 403, `${method} ${path}: ${res.text}`);
      assert.equal(res.body.error.code, 'forbidden');
    }
    assert.equal((await http(`${url}/accounts/users?q=x-${tag}`, { headers: admin })).body.items.length, 0, 'the analyst added nobody');
    for (const path of ['/accounts/users?limit=1', '/accounts/api-keys?limit=1']) assert.equal((await http(`${url}${path}`, { headers: admin })).status, 200, path);
  });

  it('adds a user, replaces its roles, disables it (then the API refuses it a role), each audited; pages the list', async () => {
    const email = `Admin-Walk-${tag}@Example.org`;
    const added = await http(`${url}/accounts/users`, { method: 'POST', headers: admin, json: { email, roles: ['analyst'] } });
    assert.equal(added.status, 201, added.text);
    assert.equal(added.body.email, email.toLowerCase());
    assert.deepEqual(added.body.roles, ['analyst']);
    const me = async () => (await http(`${url}/accounts/me`, { headers: asUser(email.toLowerCase()) })).body.roles;
    assert.deepEqual(await me(), ['analyst']);

    const changed = await http(`${url}/accounts/users/${added.body.id}/roles`, { method: 'PUT', headers: admin, json: { roles: ['reviewer', 'researcher'] } });
    assert.equal(changed.status, 200, changed.text);
    assert.deepEqual(changed.body.roles, ['researcher', 'reviewer']);
    assert.deepEqual(await me(), ['researcher', 'reviewer']);

    // A second user so the page of two can be walked by its cursor.
    const second = await http(`${url}/accounts/users`, { method: 'POST', headers: admin, json: { email: `admin-walk-2-${tag}@example.org`, roles: ['analyst'] } });
    assert.equal(second.status, 201, second.text);
    const first = await http(`${url}/accounts/users?q=${tag}&limit=1`, { headers: admin });
    assert.equal(first.body.items.length, 1);
    assert.equal(first.body.items[0].email, `admin-walk-2-${tag}@example.org`, 'newest first');
    const next = await http(`${url}/accounts/users?q=${tag}&limit=1&cursor=${first.body.next_cursor}`, { headers: admin });
    assert.deepEqual(next.body.items.map((u: { email: string }) => u.email), [email.toLowerCase()]);
    assert.equal(next.body.next_cursor, null);

    const disabled = await http(`${url}/accounts/users/${added.body.id}/disable`, { method: 'POST', headers: admin });
    assert.equal(disabled.status, 200, disabled.text);
    assert.equal(disabled.body.active, false);
    assert.deepEqual(await me(), [], 'a disabled user has no roles');
    const asDisabled = await http(`${url}/cases?limit=1`, { headers: asUser(email.toLowerCase()) });
    assert.equal(asDisabled.status, 403);
    const inactive = await http(`${url}/accounts/users?q=${tag}&active=false`, { headers: admin });
    assert.deepEqual(inactive.body.items.map((u: { email: string }) => u.email), [email.toLowerCase()]);

    const audit = await auditOf(email.toLowerCase());
    assert.deepEqual(audit.map((e) => e.action).sort(), ['user.disable', 'user.roles.grant', 'user.roles.set']);
    assert.ok(audit.every((e) => e.actor === users.admin), 'the admin is the actor of each change');
    assert.deepEqual(audit.find((e) => e.action === 'user.roles.set')!.details, { before: ['analyst'], roles: ['researcher', 'reviewer'] });
  });

  it('refuses an admin taking their own admin role away or disabling themselves (409)', async () => {
    const mine = (await http(`${url}/accounts/users?q=${encodeURIComponent(users.admin)}`, { headers: admin })).body.items[0];
    assert.equal(mine.email, users.admin);
    const demote = await http(`${url}/accounts/users/${mine.id}/roles`, { method: 'PUT', headers: admin, json: { roles: ['analyst'] } });
    assert.equal(demote.status, 409, demote.text);
    const disable = await http(`${url}/accounts/users/${mine.id}/disable`, { method: 'POST', headers: admin });
    assert.equal(disable.status, 409, disable.text);
    assert.deepEqual((await http(`${url}/accounts/me`, { headers: admin })).body.roles, ['admin']);
  });

  it('creates a key whose secret is in the create answer only; it works with its scopes; revoked, it is refused', async () => {
    const name = `admin-walk-${tag}`;
    const created = await http(`${url}/accounts/api-keys`, { method: 'POST', headers: admin, json: { name, scopes: ['reports:read'] } });
    assert.equal(created.status, 201, created.text);
    const secret: string = created.body.key;
    assert.match(secret, /^fip_[a-z0-9]{12}_[A-Za-z0-9_-]{43}$/);
    assert.equal(secret.split('_')[1], created.body.key_prefix);

    const list = await http(`${url}/accounts/api-keys?limit=500&active=true`, { headers: admin });
    const row = list.body.items.find((k: { id: string }) => k.id === created.body.id);
    const { key: _shown, ...summary } = created.body;
    assert.deepEqual(row, summary);
    // The secret part is everything after the prefix (it may itself hold '_').
    assert.ok(!list.text.includes(secret.split('_').slice(2).join('_')), 'the list never holds the secret');
    assert.ok(!('key' in row) && !('key_hash' in row));

    const asKey = { 'X-API-KEY': secret };
    assert.equal((await http(`${url}/reports/generated?limit=1`, { headers: asKey })).status, 200, 'the key works for its scope');
    assert.equal((await http(`${url}/cases?limit=1`, { headers: asKey })).status, 403, 'and only for its scope');

    const dup = await http(`${url}/accounts/api-keys`, { method: 'POST', headers: admin, json: { name, scopes: ['reports:read'] } });
    assert.equal(dup.status, 409, dup.text);

    const revoked = await http(`${url}/accounts/api-keys/${created.body.id}/revoke`, { method: 'POST', headers: admin });
    assert.equal(revoked.status, 200, revoked.text);
    assert.ok(revoked.body.revoked_at);
    assert.ok(!('key' in revoked.body));
    const refused = await http(`${url}/reports/generated?limit=1`, { headers: asKey });
    assert.equal(refused.status, 401, refused.text);
    const again = await http(`${url}/accounts/api-keys/${created.body.id}/revoke`, { method: 'POST', headers: admin });
    assert.equal(again.status, 200, 'revoking a revoked key changes nothing');
    assert.equal(again.body.revoked_at, revoked.body.revoked_at);
    assert.equal((await http(`${url}/accounts/api-keys/${randomUUID()}/revoke`, { method: 'POST', headers: admin })).status, 404);

    const audit = await auditOf(created.body.id);
    assert.deepEqual(audit.map((e) => e.action).sort(), ['api_key.create', 'api_key.revoke'], 'one revoke: the repeat changed nothing');
    assert.ok(!JSON.stringify(audit).includes(secret.split('_')[2]!), 'the audit log never holds the secret');
  });

  it('answers bad input with 400 naming the field', async () => {
    const cases: Array<[string, string, unknown, string]> = [
      ['/accounts/users', 'POST', { email: 'not-an-email', roles: ['analyst'] }, 'body.email'],
      ['/accounts/users', 'POST', { email: `ok-${tag}@example.org`, roles: ['superuser'] }, 'body.roles.0'],
      ['/accounts/users', 'POST', { email: `ok-${tag}@example.org`, roles: [] }, 'body.roles'],
      ['/accounts/api-keys', 'POST', { name: 'x', scopes: ['intake:write'] }, 'body.name'],
      ['/accounts/api-keys', 'POST', { name: `ok-${tag}`, scopes: ['everything'] }, 'body.scopes.0'],
      [`/accounts/users/not-a-uuid/roles`, 'PUT', { roles: ['analyst'] }, 'params.id'],
    ];
    for (const [path, method, json, where] of cases) {
      const res = await http(`${url}${path}`, { method, headers: admin, json });
      assert.equal(res.status, 400, `${method} ${path} ${JSON.stringify(json)}: ${res.text}`);
      assert.equal(res.body.error.code, 'validation_failed');
      assert.ok(res.body.error.details.some((d: { path: string }) => d.path === where), `${where} in ${JSON.stringify(res.body.error.details)}`);
    }
    const badCursor = await http(`${url}/accounts/users?cursor=zzz`, { headers: admin });
    assert.equal(badCursor.status, 400);
  });
});
