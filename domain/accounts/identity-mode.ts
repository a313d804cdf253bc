// May a process serve the API with this identity mode on this address? Trusting the proxy's
// identity header without a verified IAP assertion lets anyone who reaches the port claim any
// identity (an admin's included), so that mode is only allowed on a loopback address, or when the
// operator acknowledges it explicitly (and is then warned loudly at every start).

export interface IdentityModeInput {
  /** Address the API listens on (SVC_API__HOST). */
  host: string;
  /** SVC_AUTH__TRUST_PROXY_HEADER */
  trustProxyHeader: boolean;
  /** SVC_AUTH__IAP_AUDIENCE: when set, every proxy header must come with a verified assertion. */
  iapAudience: string | undefined;
  /** SVC_AUTH__ALLOW_UNVERIFIED_HEADER */
  allowUnverifiedHeader: boolean;
}

export type IdentityModeDecision =
  | { start: true; warning: string | null }
  | { start: false; message: string };

/** Loopback: 127.0.0.0/8, ::1 (also written [::1] or as IPv4-mapped ::ffff:127.x.y.z) and localhost. */
export function isLoopbackHost(host: string): boolean {
  const h = host.trim().toLowerCase().replace(/^\[(.*)\]$/, '$1');
  if (h === 'localhost' || h === '::1' || h === '0:0:0:0:0:0:0:1') return true;
  const v4 = h.startsWith('::ffff:') ? h.slice(7) : h;
  const m = /^127\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(v4);
  return m !== null && m.slice(1).every((octet) => Number(octet) <= 255);
}

export function decideIdentityMode(input: IdentityModeInput): IdentityModeDecision {
  if (!input.trustProxyHeader || input.iapAudience) return { start: true, warning: null };
  if (isLoopbackHost(input.host)) return { start: true, warning: null };
  if (input.allowUnverifiedHeader) {
    return {
      start: true,
      warning:
        `SECURITY WARNING: the API listens on ${input.host} and trusts the identity header without a verified ` +
        'IAP assertion (SVC_AUTH__ALLOW_UNVERIFIED_HEADER=true): anyone who can reach this port can act as any ' +
        'user, admins included. Only run this way behind a proxy that is the sole route to the port and strips ' +
        'the header from client requests; prefer SVC_AUTH__IAP_AUDIENCE with SVC_AUTH__IAP_JWKS_URL.',
    };
  }
  return {
    start: false,
    message:
      `refusing to start: SVC_AUTH__TRUST_PROXY_HEADER=true trusts the identity header without verification, and the API ` +
      `would listen on ${input.host}, where anyone who reaches the port could claim to be any user (an admin included). ` +
      'Either configure the signed IAP assertion (SVC_AUTH__IAP_AUDIENCE plus SVC_AUTH__IAP_JWKS_URL or ' +
      'SVC_AUTH__IAP_PUBLIC_KEY), or set SVC_AUTH__ALLOW_UNVERIFIED_HEADER=true to accept the risk explicitly ' +
      '(start-up then warns), or listen on loopback only (SVC_API__HOST=127.0.0.1, the default).',
  };
}
