// JSON nesting depth is bounded before validation: a body nested 100,000 deep (200 kB) used to
// overflow the stack in request validation (a 500); it is a 400 naming the limit, measured without
// recursion, on every JSON body route and on the intake form's payload part, and the server keeps
// answering.
import assert from 'node:assert/strict';
import { nestsDeeperThan } from '../../api/json-depth';
import { asUser, http } from '../support/http';
import { usersForEveryRole } from '../support/identities';
import { intakeForm } from '../support/intake-fixtures';
import { startTestApi } from '../support/platform';

const nestedArrays = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
const nestedObjects = (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);

describe('JSON nesting depth', () => {
  let url: string;
  let users: Awaited<ReturnType<typeof usersForEveryRole>>;
  before(async () => {
    url = (await startTestApi({ SVC_AUTH__TRUST_PROXY_HEADER: 'true' })).url;
    users = await usersForEveryRole();
  });

  const post = (base: string, path: string, body: string) =>
    http(`${base}${path}`, { method: 'POST', headers: { ...asUser(users.analyst), 'content-type': 'application/json' }, body });

  it('is measured without recursion (a million levels do not overflow the stack)', () => {
    assert.equal(nestsDeeperThan(JSON.parse(nestedArrays(1_000_000)), 64), true);
    assert.equal(nestsDeeperThan(JSON.parse(nestedObjects(1_000_000)), 64), true);
    assert.equal(nestsDeeperThan(JSON.parse(nestedArrays(64)), 64), false);
    assert.equal(nestsDeeperThan(JSON.parse(nestedArrays(65)), 64), true);
    assert.equal(nestsDeeperThan({ a: [1, 'x', null, { b: {} }] }, 4), false);
    assert.equal(nestsDeeperThan({ a: [1, 'x', null, { b: {} }] }, 3), true);
    assert.equal(nestsDeeperThan('scalar', 1), false);
  });

  it('a body nested 100,000 deep is a 400 naming the limit, and the server still answers', async () => {
    for (const body of [nestedArrays(100_000), nestedObjects(100_000), `{"title": ${nestedArrays(100_000)}}`]) {
      const res = await post(url, '/cases', body);
      assert.equal(res.status, 400, res.text.slice(0, 300));
      assert.equal(res.body.error.code, 'json_too_deep');
      assert.match(res.body.error.message, /64 levels \(SVC_API__JSON_MAX_DEPTH\)/);
      assert.deepEqual(res.body.error.details, [{ path: 'body', message: 'nests deeper than 64 levels' }]);
    }
    assert.equal((await http(`${url}/healthz`)).status, 200);
    const created = await post(url, '/cases', JSON.stringify({ title: 'still here' }));
    assert.equal(created.status, 201, created.text);
  });

  it('64 levels pass the depth check (validation answers); 65 do not', async () => {
    const at = await post(url, '/cases', `{"title": "t", "description": ${nestedArrays(63)}}`);
    assert.equal(at.status, 400);
    assert.equal(at.body.error.code, 'validation_failed');
    const over = await post(url, '/cases', `{"title": "t", "description": ${nestedArrays(64)}}`);
    assert.equal(over.body.error.code, 'json_too_deep');
  });

  it('applies to every JSON body route (a saved search, a PATCH) and follows SVC_API__JSON_MAX_DEPTH', async () => {
    const small = (await startTestApi({ SVC_AUTH__TRUST_PROXY_HEADER: 'true', SVC_API__JSON_MAX_DEPTH: '8' })).url;
    const saved = await post(small, '/reviews/search/saved', `{"name": "n", "query": ${nestedObjects(8)}}`);
    assert.equal(saved.status, 400);
    assert.equal(saved.body.error.code, 'json_too_deep');
    assert.match(saved.body.error.message, /limit of 8 levels/);
    const patch = await http(`${small}/cases/00000000-0000-4000-8000-000000000000`, {
      method: 'PATCH', headers: { ...asUser(users.analyst), 'content-type': 'application/json' }, body: nestedArrays(9),
    });
    assert.equal(patch.body.error.code, 'json_too_deep');
    const shallow = await post(small, '/cases', JSON.stringify({ title: 'shallow enough' }));
    assert.equal(shallow.status, 201, shallow.text);
  });

  it('applies to the intake form\'s payload part', async () => {
    const res = await http(`${url}/intakes`, { method: 'POST', headers: asUser(users.analyst), body: intakeForm(undefined, [], `{"summary": ${nestedArrays(100_000)}}`) });
    assert.equal(res.status, 400, res.text.slice(0, 300));
    assert.equal(res.body.error.code, 'json_too_deep');
    assert.deepEqual(res.body.error.details, [{ path: 'body.payload', message: 'nests deeper than 64 levels' }]);
    assert.equal((await http(`${url}/healthz`)).status, 200);
  });
});
