// Verifies the identity-aware proxy's signed assertion (X-Goog-IAP-JWT-Assertion) with jose.
// Static key material (SVC_AUTH__IAP_PUBLIC_KEY: a PEM, RSA or EC, or a JWKS JSON) is parsed at
// start-up, so a bad key stops the process instead of failing every request. A JWKS URL is fetched
// lazily; a failed fetch is logged and retried on a later request (not before RETRY_AFTER_MS, so a
// dead URL is not hammered), never cached.
import { createPublicKey, type KeyObject } from 'node:crypto';
import { createLocalJWKSet, createRemoteJWKSet, errors, jwtVerify, type JWTVerifyGetKey } from 'jose';
import type { AppConfig } from '../../config/config';
import type { Logger } from '../../infra/logger';

export interface IapVerifier {
  /** Returns the verified e-mail of the assertion, or throws (having logged why, without the token). */
  verify(assertion: string, log?: Logger): Promise<string>;
}

const RETRY_AFTER_MS = 1_000;

/** Algorithms a PEM key can verify, from its type: RSA -> RS256, EC (P-256) -> ES256. */
function pemKey(material: string): { key: KeyObject; algorithms: string[] } {
  let key: KeyObject;
  try {
    key = createPublicKey(material.replace(/\\n/g, '\n'));
  } catch {
    throw new Error('SVC_AUTH__IAP_PUBLIC_KEY is not a PEM public key (SPKI) nor a JWKS JSON document');
  }
  if (key.asymmetricKeyType === 'rsa') return { key, algorithms: ['RS256'] };
  if (key.asymmetricKeyType === 'ec') return { key, algorithms: ['ES256'] };
  throw new Error(`SVC_AUTH__IAP_PUBLIC_KEY is a ${key.asymmetricKeyType ?? 'unknown'} key; an RSA (RS256) or EC P-256 (ES256) key is expected`);
}

function remoteKeys(jwksUrl: string): (log?: Logger) => JWTVerifyGetKey {
  const remote = createRemoteJWKSet(new URL(jwksUrl));
  let failedAt = 0;
  return (log) => async (header, token) => {
    if (failedAt && Date.now() - failedAt < RETRY_AFTER_MS) {
      throw new errors.JOSEError('the IAP key set is unavailable (retrying shortly)');
    }
    try {
      const key = await remote(header, token);
      failedAt = 0;
      return key;
    } catch (err) {
      if (err instanceof errors.JWKSNoMatchingKey || err instanceof errors.JWKSMultipleMatchingKeys) throw err;
      failedAt = Date.now();
      log?.warn({ jwks_url: jwksUrl, reason: err instanceof Error ? err.message : String(err) }, 'could not load the IAP key set; will retry');
      throw err;
    }
  };
}

export function createIapVerifier(auth: AppConfig['auth']): IapVerifier | null {
  if (!auth.iap_audience) return null;
  if (!auth.iap_jwks_url && !auth.iap_public_key) {
    throw new Error('SVC_AUTH__IAP_AUDIENCE is set but neither SVC_AUTH__IAP_JWKS_URL nor SVC_AUTH__IAP_PUBLIC_KEY is');
  }
  let keyFor: (log?: Logger) => JWTVerifyGetKey | KeyObject;
  let algorithms = ['ES256', 'RS256'];
  if (auth.iap_jwks_url) {
    keyFor = remoteKeys(auth.iap_jwks_url);
  } else {
    const material = auth.iap_public_key!.trim();
    if (material.startsWith('{')) {
      let jwks: JWTVerifyGetKey;
      try {
        jwks = createLocalJWKSet(JSON.parse(material));
      } catch {
        throw new Error('SVC_AUTH__IAP_PUBLIC_KEY looks like JSON but is not a JWKS document ({"keys": [...]})');
      }
      keyFor = () => jwks;
    } else {
      const pem = pemKey(material);
      algorithms = pem.algorithms;
      keyFor = () => pem.key;
    }
  }
  return {
    async verify(assertion: string, log?: Logger): Promise<string> {
      try {
        const { payload } = await jwtVerify(assertion, keyFor(log) as JWTVerifyGetKey, {
          audience: auth.iap_audience,
          issuer: auth.iap_issuer,
          algorithms,
          // An assertion without an expiry would be good forever once leaked: exp is required.
          requiredClaims: ['exp'],
        });
        if (typeof payload.email !== 'string') throw new Error('assertion has no email claim');
        return payload.email.toLowerCase();
      } catch (err) {
        const reason = err instanceof errors.JOSEError ? `${err.code}: ${err.message}` : err instanceof Error ? err.message : String(err);
        log?.info({ reason }, 'IAP assertion rejected');
        throw err;
      }
    },
  };
}
