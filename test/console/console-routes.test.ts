// The console's static routes and the developer sign-in route, against the real API (the console
// bundle is built by the test setup, test/setup/root-hooks.ts).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { consoleBuildIsStale, CONSOLE_DIST } from '../../infra/console-build';
import { localSignInEnabled } from '../../domain/accounts/local-sign-in';
import { http } from '../support/http';
import { usersForEveryRole } from '../support/identities';
import { startTestApi } from '../support/platform';

const LOCAL = { SVC_AUTH__TRUST_PROXY_HEADER: 'true', SVC_AUTH__ALLOW_UNVERIFIED_HEADER: 'true' };

describe('console routes', function () {
  this.timeout(60_000);
  let url: string;

  before(async () => {
    url = (await startTestApi(LOCAL)).url;
  });

  it('the test setup built a fresh console bundle', () => {
    assert.equal(consoleBuildIsStale(), false);
    assert.ok(fs.existsSync(path.join(CONSOLE_DIST, 'index.html')));
  });

  it('serves index.html at /console and at each client-side route, and the hashed assets it names', async () => {
    for (const p of ['/console', '/console/investigations', '/console/investigations/0b6f7c1e-2d7f-4a53-9d39-6a1f1b3c5d7e/results', '/console/wallets', '/console/reviews', '/console/dashboard']) {
      const res = await http(`${url}${p}`);
      assert.equal(res.status, 200, `${p}: ${res.text.slice(0, 200)}`);
      assert.match(res.headers.get('content-type') ?? '', /^text\/html/, p);
      assert.match(res.text, /<div id="root"><\/div>/, p);
      assert.equal(res.headers.get('cache-control'), 'no-cache');
    }
    const html = (await http(`${url}/console`)).text;
    const assets = [...html.matchAll(/(?:src|href)="(\/console\/assets\/[^"]+)"/g)].map((m) => m[1]);
    assert.ok(assets.some((a) => a.endsWith('.js')) && assets.some((a) => a.endsWith('.css')), `assets in index.html: ${assets}`);
    for (const a of assets) {
      const res = await fetch(`${url}${a}`);
      assert.equal(res.status, 200, a);
      assert.match(res.headers.get('content-type') ?? '', a.endsWith('.js') ? /javascript/ : /text\/css/);
      assert.match(res.headers.get('cache-control') ?? '', /immutable/);
      assert.ok((await res.arrayBuffer()).byteLength > 1000, `${a} has content`);
    }
    assert.doesNotMatch(html, /https?:\/\//, 'no CDN or network font in the page');
  });

  it('answers 404 for an asset that is not in the bundle, 400 for a name that is not a file name, a view it does not have or a segment that is not an identifier', async () => {
    assert.equal((await http(`${url}/console/assets/missing-123.js`)).status, 404);
    const traversal = await http(`${url}/console/assets/..%2Findex.html`);
    assert.equal(traversal.status, 400, traversal.text);
    const view = await http(`${url}/console/not-a-view`);
    assert.equal(view.status, 400);
    assert.equal(view.body.error.code, 'validation_failed');
    // The third segment is a tab or a sub-view (the console answers its own "not found"), but always an identifier.
    assert.equal((await http(`${url}/console/investigations/abc/not.a.tab`)).status, 400);
    assert.equal((await http(`${url}/console/admin/users/keys`)).status, 200);
  });

  it('GET /accounts/local-sign-in lists the active users and the identity header in the local mode', async () => {
    const users = await usersForEveryRole();
    const res = await http(`${url}/accounts/local-sign-in`);
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.identity_header, 'x-goog-authenticated-user-email');
    assert.equal(res.body.identity_prefix, 'accounts.google.com:');
    const found = res.body.users.find((u: { email: string }) => u.email === users.reviewer);
    assert.deepEqual(found, { email: users.reviewer, roles: ['reviewer'] });
  });

  it('GET /accounts/local-sign-in is 404 when the header is not trusted, when the unverified mode is not acknowledged, and with an IAP audience', async () => {
    const envs: Array<Record<string, string>> = [
      { SVC_AUTH__TRUST_PROXY_HEADER: 'false', SVC_AUTH__ALLOW_UNVERIFIED_HEADER: 'true' },
      { SVC_AUTH__TRUST_PROXY_HEADER: 'true' },
      { ...LOCAL, SVC_AUTH__IAP_AUDIENCE: '/projects/1/global/backendServices/2', SVC_AUTH__IAP_JWKS_URL: 'http://127.0.0.1:9/jwks' },
    ];
    for (const env of envs) {
      const api = await startTestApi(env);
      const res = await http(`${api.url}/accounts/local-sign-in`);
      assert.equal(res.status, 404, JSON.stringify(env));
      assert.equal(res.body.error.code, 'not_found');
      await api.close();
    }
  });

  it('local sign-in needs a loopback address for the API', () => {
    const base = { trustProxyHeader: true, iapAudience: undefined, allowUnverifiedHeader: true };
    assert.equal(localSignInEnabled({ ...base, host: '127.0.0.1' }), true);
    assert.equal(localSignInEnabled({ ...base, host: '::1' }), true);
    assert.equal(localSignInEnabled({ ...base, host: '0.0.0.0' }), false);
    assert.equal(localSignInEnabled({ ...base, host: '10.1.2.3' }), false);
  });
});
