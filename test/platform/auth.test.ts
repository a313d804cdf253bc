import assert from 'node:assert/strict';
import nodeHttp from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, exportSPKI, generateKeyPair, SignJWT, type CryptoKey } from 'jose';
import pino from 'pino';
import { startApiServer } from '../../app/platform-runtime';
import { freePort } from '../support/free-port';
import { asUser, http } from '../support/http';
import { createTestApiKey, usersForEveryRole } from '../support/identities';
import { startTestApi, testDeps, testKnex } from '../support/platform';
import { waitFor } from '../support/wait-for';

const AUDIENCE = '/projects/1/global/backendServices/2';
const ISSUER = 'https://cloud.google.com/iap';

interface Signer {
  alg: 'ES256' | 'RS256';
  privateKey: CryptoKey;
  publicKey: CryptoKey;
  sign(claims: Record<string, unknown>, opts?: { aud?: string; iss?: string; exp?: string | number }): Promise<string>;
}

async function signer(alg: 'ES256' | 'RS256', kid = 'k1'): Promise<Signer> {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
  return {
    alg, privateKey, publicKey,
    sign: (claims, opts = {}) =>
      new SignJWT(claims)
        .setProtectedHeader({ alg, kid })
        .setIssuer(opts.iss ?? ISSUER)
        .setAudience(opts.aud ?? AUDIENCE)
        .setIssuedAt()
        .setExpirationTime(opts.exp ?? '5m')
        .sign(privateKey),
  };
}

/** A JWKS document served on 127.0.0.1 (on `port` if given). */
async function serveJwks(s: Signer, port = 0): Promise<{ url: string; close(): Promise<void> }> {
  const body = JSON.stringify({ keys: [{ ...(await exportJWK(s.publicKey)), kid: 'k1', alg: s.alg }] });
  const server = nodeHttp.createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(body));
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/jwks`,
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}

function capturingLogger() {
  const lines: Array<{ msg: string; level: number; [k: string]: unknown }> = [];
  return { lines, log: pino({ level: 'info' }, { write: (s: string) => void lines.push(JSON.parse(s)) }) };
}
import { revokeApiKey, listApiKeys } from '../../db/repositories/accounts/api-key-repository';
import { deactivateUser } from '../../db/repositories/accounts/user-repository';

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

  describe('IAP assertion keys and claims', () => {
    const iapEnv = (key: Record<string, string>) => ({ SVC_AUTH__TRUST_PROXY_HEADER: 'true', SVC_AUTH__IAP_AUDIENCE: AUDIENCE, ...key });
    const me = (base: string, email: string, token: string) =>
      http(`${base}/accounts/me`, { headers: { ...asUser(email), 'X-Goog-IAP-JWT-Assertion': token } });

    for (const alg of ['ES256', 'RS256'] as const) {
      it(`accepts a valid ${alg} assertion against a PEM public key (the key type picks the algorithm)`, async () => {
        const s = await signer(alg);
        const { url: base } = await startTestApi(iapEnv({ SVC_AUTH__IAP_PUBLIC_KEY: await exportSPKI(s.publicKey) }));
        const res = await me(base, users.analyst, await s.sign({ email: users.analyst }));
        assert.equal(res.status, 200);
        assert.equal(res.body.email, users.analyst);
        const other = await signer(alg, 'k2');
        assert.equal((await me(base, users.analyst, await other.sign({ email: users.analyst }))).status, 401);
      });
    }

    it('refuses to start on a PEM key that does not parse, naming the variable', async () => {
      await assert.rejects(startTestApi(iapEnv({ SVC_AUTH__IAP_PUBLIC_KEY: '-----BEGIN PUBLIC KEY-----\nnope\n-----END PUBLIC KEY-----' })), /SVC_AUTH__IAP_PUBLIC_KEY/);
    });

    describe('from a JWKS URL', () => {
      let s: Signer;
      let jwks: Awaited<ReturnType<typeof serveJwks>>;
      let base: string;
      before(async () => {
        s = await signer('ES256');
        jwks = await serveJwks(s);
        base = (await startTestApi(iapEnv({ SVC_AUTH__IAP_JWKS_URL: jwks.url }))).url;
      });
      after(() => jwks.close());

      it('accepts a valid assertion', async () => {
        const res = await me(base, users.analyst, await s.sign({ email: users.analyst }));
        assert.equal(res.status, 200);
        assert.equal(res.body.email, users.analyst);
      });

      it('rejects an expired assertion', async () => {
        const res = await me(base, users.analyst, await s.sign({ email: users.analyst }, { exp: Math.floor(Date.now() / 1000) - 600 }));
        assert.equal(res.status, 401);
        assert.match(res.body.error.message, /did not verify/);
      });

      it('rejects an assertion from another issuer', async () => {
        const res = await me(base, users.analyst, await s.sign({ email: users.analyst }, { iss: 'https://evil.example.org' }));
        assert.equal(res.status, 401);
        assert.match(res.body.error.message, /did not verify/);
      });

      it('rejects an assertion for another audience', async () => {
        const res = await me(base, users.analyst, await s.sign({ email: users.analyst }, { aud: '/projects/9/global/backendServices/9' }));
        assert.equal(res.status, 401);
        assert.match(res.body.error.message, /did not verify/);
      });

      it('rejects an assertion that names another user than the header', async () => {
        const res = await me(base, users.analyst, await s.sign({ email: users.admin }));
        assert.equal(res.status, 401);
        assert.match(res.body.error.message, /different user/);
      });
    });

    it('logs a failed JWKS load, answers 401, and retries on a later request (not cached)', async () => {
      const s = await signer('RS256');
      const port = await freePort(); // nothing listens here yet
      const { lines, log } = capturingLogger();
      const deps = await testDeps(iapEnv({ SVC_AUTH__IAP_JWKS_URL: `http://127.0.0.1:${port}/jwks` }));
      const api = await startApiServer({ ...deps, log }, 0, '127.0.0.1');
      let jwks: Awaited<ReturnType<typeof serveJwks>> | null = null;
      try {
        const token = await s.sign({ email: users.analyst });
        const first = await me(api.url, users.analyst, token);
        assert.equal(first.status, 401);
        const warning = lines.find((l) => l.msg === 'could not load the IAP key set; will retry');
        assert.ok(warning, `no warning logged: ${JSON.stringify(lines)}`);
        assert.equal(warning.level, 40);
        assert.equal(warning.jwks_url, `http://127.0.0.1:${port}/jwks`);
        assert.equal(typeof warning.request_id, 'string');
        jwks = await serveJwks(s, port);
        const later = await waitFor('the assertion to verify once the key set is up', async () => {
          const r = await me(api.url, users.analyst, token);
          return r.status === 200 ? r : null;
        }, 10_000, 200);
        assert.equal(later.body.email, users.analyst);
      } finally {
        await api.close();
        await jwks?.close();
      }
    });
  });
});
