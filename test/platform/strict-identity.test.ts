// The identity headers are read strictly. Behind a proxy that passes a client's header through, a
// loose reading is a takeover: a second header (Node keeps both, joined with ", "), a comma-joined
// value or another prefix (`evil.com:admin@…`) must never name a user. Each case is a 401 with the
// JSON error shape; so is an IAP assertion without an expiry.
import assert from 'node:assert/strict';
import nodeHttp from 'node:http';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { asUser, http } from '../support/http';
import { createTestApiKey, usersForEveryRole } from '../support/identities';
import { startTestApi } from '../support/platform';

const HEADER = 'X-Goog-Authenticated-User-Email';
const AUDIENCE = '/projects/1/global/backendServices/2';

/** A GET with raw header lines: an array value sends the header once per element (fetch would join them). */
function rawGet(base: string, path: string, headers: Record<string, string | string[]>): Promise<{ status: number; body: any }> { // eslint-disable-line @typescript-eslint/no-explicit-any
  return new Promise((resolve, reject) => {
    const req = nodeHttp.request(`${base}${path}`, { headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('strict identity headers', () => {
  let url: string;
  let users: Awaited<ReturnType<typeof usersForEveryRole>>;
  before(async () => {
    users = await usersForEveryRole();
    url = (await startTestApi({ SVC_AUTH__TRUST_PROXY_HEADER: 'true' })).url;
  });

  it('accepts exactly one header holding exactly the configured prefix and an e-mail', async () => {
    const res = await rawGet(url, '/accounts/me', { [HEADER]: `accounts.google.com:${users.admin}` });
    assert.equal(res.status, 200);
    assert.equal(res.body.email, users.admin);
  });

  it('refuses the header sent twice (even twice the same user): 401', async () => {
    for (const values of [[`accounts.google.com:${users.reviewer}`, `accounts.google.com:${users.admin}`], [`accounts.google.com:${users.admin}`, `accounts.google.com:${users.admin}`]]) {
      const res = await rawGet(url, '/accounts/me', { [HEADER]: values });
      assert.equal(res.status, 401, JSON.stringify(res.body));
      assert.equal(res.body.error.code, 'unauthenticated');
      assert.match(res.body.error.message, /x-goog-authenticated-user-email header was sent 2 times; exactly one is accepted/);
    }
  });

  it('refuses a comma-joined value: 401', async () => {
    const res = await rawGet(url, '/accounts/me', { [HEADER]: `accounts.google.com:${users.reviewer}, accounts.google.com:${users.admin}` });
    assert.equal(res.status, 401);
    assert.equal(res.body.error.code, 'unauthenticated');
    assert.match(res.body.error.message, /must be exactly "accounts\.google\.com:<e-mail>"/);
  });

  it('refuses another prefix, no prefix, a second colon or white space: 401', async () => {
    for (const value of [
      `evil.com:${users.admin}`,
      `evil.com:accounts.google.com:${users.admin}`,
      `accounts.google.com:evil.com:${users.admin}`,
      `Accounts.Google.Com:${users.admin}`,
      users.admin,
      `accounts.google.com: ${users.admin}`,
      `accounts.google.com:${users.admin} x`,
      `accounts.google.com:${users.admin};${users.reviewer}`,
    ]) {
      const res = await http(`${url}/accounts/me`, { headers: { [HEADER]: value } });
      assert.equal(res.status, 401, `${value}: ${res.text}`);
      assert.equal(res.body.error.code, 'unauthenticated');
    }
  });

  it('refuses X-API-KEY sent twice, even with the same valid key', async () => {
    const key = await createTestApiKey(['intake:write']);
    assert.equal((await rawGet(url, '/accounts/me', { 'X-API-KEY': key })).status, 200);
    const twice = await rawGet(url, '/accounts/me', { 'X-API-KEY': [key, key] });
    assert.equal(twice.status, 401);
    assert.match(twice.body.error.message, /x-api-key header was sent 2 times/);
  });

  it('takes the prefix from SVC_AUTH__IDENTITY_PREFIX (none: the bare e-mail)', async () => {
    const bare = (await startTestApi({ SVC_AUTH__TRUST_PROXY_HEADER: 'true', SVC_AUTH__IDENTITY_PREFIX: 'none' })).url;
    const ok = await http(`${bare}/accounts/me`, { headers: { [HEADER]: users.analyst } });
    assert.equal(ok.status, 200, ok.text);
    assert.equal(ok.body.email, users.analyst);
    const prefixed = await http(`${bare}/accounts/me`, { headers: asUser(users.analyst) });
    assert.equal(prefixed.status, 401);
    assert.match(prefixed.body.error.message, /must be exactly a bare e-mail address/);
    const other = (await startTestApi({ SVC_AUTH__TRUST_PROXY_HEADER: 'true', SVC_AUTH__IDENTITY_PREFIX: 'sso.example.org:' })).url;
    assert.equal((await http(`${other}/accounts/me`, { headers: { [HEADER]: `sso.example.org:${users.analyst}` } })).status, 200);
    assert.equal((await http(`${other}/accounts/me`, { headers: asUser(users.analyst) })).status, 401);
    await assert.rejects(startTestApi({ SVC_AUTH__IDENTITY_PREFIX: 'no colon' }), /SVC_AUTH__IDENTITY_PREFIX/);
  });

  describe('with an IAP assertion required', () => {
    let iapUrl: string;
    let privateKey: CryptoKey;
    const token = (claims: Record<string, unknown>, exp: boolean) => {
      const jwt = new SignJWT(claims).setProtectedHeader({ alg: 'ES256', kid: 'k1' }).setIssuer('https://cloud.google.com/iap').setAudience(AUDIENCE).setIssuedAt();
      return (exp ? jwt.setExpirationTime('5m') : jwt).sign(privateKey);
    };
    before(async () => {
      const pair = await generateKeyPair('ES256');
      privateKey = pair.privateKey;
      const jwk = { ...(await exportJWK(pair.publicKey)), kid: 'k1', alg: 'ES256' };
      iapUrl = (await startTestApi({ SVC_AUTH__TRUST_PROXY_HEADER: 'true', SVC_AUTH__IAP_AUDIENCE: AUDIENCE, SVC_AUTH__IAP_PUBLIC_KEY: JSON.stringify({ keys: [jwk] }) })).url;
    });

    it('refuses an assertion without exp (401), accepts the same with one', async () => {
      const noExp = await http(`${iapUrl}/accounts/me`, { headers: { ...asUser(users.analyst), 'X-Goog-IAP-JWT-Assertion': await token({ email: users.analyst }, false) } });
      assert.equal(noExp.status, 401);
      assert.equal(noExp.body.error.code, 'unauthenticated');
      assert.match(noExp.body.error.message, /did not verify/);
      const withExp = await http(`${iapUrl}/accounts/me`, { headers: { ...asUser(users.analyst), 'X-Goog-IAP-JWT-Assertion': await token({ email: users.analyst }, true) } });
      assert.equal(withExp.status, 200, withExp.text);
    });

    it('refuses the assertion sent twice', async () => {
      const good = await token({ email: users.analyst }, true);
      const res = await rawGet(iapUrl, '/accounts/me', { ...asUser(users.analyst), 'X-Goog-IAP-JWT-Assertion': [good, good] });
      assert.equal(res.status, 401);
      assert.match(res.body.error.message, /x-goog-iap-jwt-assertion header was sent 2 times/);
    });
  });
});
