// Verifies the identity-aware proxy's signed assertion (X-Goog-IAP-JWT-Assertion) with jose.
import { createLocalJWKSet, createRemoteJWKSet, importSPKI, jwtVerify, type JWTVerifyGetKey, type CryptoKey } from 'jose';
import type { AppConfig } from '../../config/config';

type Key = JWTVerifyGetKey | CryptoKey | Uint8Array;

export interface IapVerifier {
  /** Returns the verified e-mail of the assertion, or throws. */
  verify(assertion: string): Promise<string>;
}

export function createIapVerifier(auth: AppConfig['auth']): IapVerifier | null {
  if (!auth.iap_audience) return null;
  if (!auth.iap_jwks_url && !auth.iap_public_key) {
    throw new Error('SVC_AUTH__IAP_AUDIENCE is set but neither SVC_AUTH__IAP_JWKS_URL nor SVC_AUTH__IAP_PUBLIC_KEY is');
  }
  let keyPromise: Promise<Key> | null = null;
  const key = (): Promise<Key> => {
    keyPromise ??= (async (): Promise<Key> => {
      if (auth.iap_jwks_url) return createRemoteJWKSet(new URL(auth.iap_jwks_url));
      const material = auth.iap_public_key!.trim();
      if (material.startsWith('{')) return createLocalJWKSet(JSON.parse(material));
      return importSPKI(material.replace(/\\n/g, '\n'), 'ES256');
    })();
    return keyPromise;
  };
  return {
    async verify(assertion: string): Promise<string> {
      const k = await key();
      const { payload } = await jwtVerify(assertion, k as JWTVerifyGetKey, {
        audience: auth.iap_audience,
        issuer: auth.iap_issuer,
        algorithms: ['ES256', 'RS256'],
      });
      if (typeof payload.email !== 'string') throw new Error('assertion has no email claim');
      return payload.email.toLowerCase();
    },
  };
}
