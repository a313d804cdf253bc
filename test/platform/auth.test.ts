import assert from 'node:assert/strict';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { asUser, http } from '../support/http';
import { createTestApiKey, usersForEveryRole } from '../support/identities';
import { startTestApi, testKnex } from '../support/platform';
import { revokeApiKey, listApiKeys } from '../../db/repositories/api-key-repository';
import { deactivateUser } from '../../db/repositories/user-repository';

describe('authentication', () => {
  let url: string;
  let users: Awaited<ReturnType<typeof usersForEveryRole>>;
  before(async () => {
    users = await usersForEveryRole();
    url = (await startTestApi({ SVC_AUTH__TRUST_PROXY_HEADER: 'true', SVC_AUTH__BOOTSTRAP_ADMINS: 'Chief@Example.org' })).url;
  });

  it('GET /accounts/me returns the proxy identity and its roles', async () => {
    const res = await http(`${url}/accounts/me`, { headers: asUser(users.analyst) });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { email: users.analyst, roles: ['analyst'] });
  });

  it('GET /accounts/me without an identity is 401 with the error shape', async () => {
    const res = await http(`${url}/accounts/me`);
    assert.equal(res.status, 401);
    assert.deepEqual(res.body, { error: { code: 'unauthenticated', message: 'authentication required' } });
  });

  it('makes bootstrap admins admins from start-up, case-insensitively', async () => {
    const res = await http(`${url}/accounts/me`, { headers: asUser('chief@example.org') });
    assert.deepEqual(res.body, { email: 'chief@example.org', roles: ['admin'] });
  });

  it('gives an unknown or removed person no roles', async () => {
    const stranger = await http(`${url}/accounts/me`, { headers: asUser('stranger@example.org') });
    assert.deepEqual(stranger.body.roles, []);
    await deactivateUser(testKnex(), users.reviewer);
    const removed = await http(`${url}/accounts/me`, { headers: asUser(users.reviewer) });
    assert.deepEqual(removed.body.roles, []);
  });

  it('rejects a proxy header that names no e-mail', async () => {
    const res = await http(`${url}/accounts/me`, { headers: { 'X-Goog-Authenticated-User-Email': 'accounts.google.com:nobody' } });
    assert.equal(res.status, 401);
  });

  it('accepts a valid API key and rejects a wrong or revoked one', async () => {
    const key = await createTestApiKey(['intake:write']);
    const ok = await http(`${url}/accounts/me`, { headers: { 'X-API-KEY': key } });
    assert.equal(ok.status, 200);
    assert.deepEqual(ok.body.service.scopes, ['intake:write']);
    const tampered = key.slice(0, -1) + (key.endsWith('A') ? 'B' : 'A');
    assert.equal((await http(`${url}/accounts/me`, { headers: { 'X-API-KEY': tampered } })).status, 401);
    assert.equal((await http(`${url}/accounts/me`, { headers: { 'X-API-KEY': 'garbage' } })).status, 401);
    const row = (await listApiKeys(testKnex())).find((k) => key.includes(k.key_prefix))!;
    assert.ok(await revokeApiKey(testKnex(), row.id));
    assert.equal((await http(`${url}/accounts/me`, { headers: { 'X-API-KEY': key } })).status, 401);
  });

  describe('with a signed IAP assertion required', () => {
    let iapUrl: string;
    let sign: (claims: Record<string, unknown>, aud?: string) => Promise<string>;
    before(async () => {
      const { privateKey, publicKey } = await generateKeyPair('ES256');
      const jwk = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'ES256' };
      sign = (claims, aud = '/projects/1/global/backendServices/2') =>
        new SignJWT(claims)
          .setProtectedHeader({ alg: 'ES256', kid: 'k1' })
          .setIssuer('https://cloud.google.com/iap')
          .setAudience(aud)
          .setIssuedAt()
          .setExpirationTime('5m')
          .sign(privateKey);
      iapUrl = (
        await startTestApi({
          SVC_AUTH__TRUST_PROXY_HEADER: 'true',
          SVC_AUTH__IAP_AUDIENCE: '/projects/1/global/backendServices/2',
          SVC_AUTH__IAP_PUBLIC_KEY: JSON.stringify({ keys: [jwk] }),
        })
      ).url;
    });

    it('accepts a header whose assertion verifies and names the same e-mail', async () => {
      const token = await sign({ email: users.analyst });
      const res = await http(`${iapUrl}/accounts/me`, { headers: { ...asUser(users.analyst), 'X-Goog-IAP-JWT-Assertion': token } });
      assert.equal(res.status, 200);
      assert.equal(res.body.email, users.analyst);
    });

    it('rejects a missing, foreign-audience or other-user assertion', async () => {
      const h = asUser(users.analyst);
      assert.equal((await http(`${iapUrl}/accounts/me`, { headers: h })).status, 401);
      const wrongAud = await sign({ email: users.analyst }, '/projects/9/other');
      assert.equal((await http(`${iapUrl}/accounts/me`, { headers: { ...h, 'X-Goog-IAP-JWT-Assertion': wrongAud } })).status, 401);
      const other = await sign({ email: users.admin });
      const res = await http(`${iapUrl}/accounts/me`, { headers: { ...h, 'X-Goog-IAP-JWT-Assertion': other } });
      assert.equal(res.status, 401);
      assert.match(res.body.error.message, /different user/);
    });
  });
});
