/** The platform's roles (spec, "Authentication"). */
export const ROLES = ['admin', 'analyst', 'researcher', 'reviewer'] as const;
export type Role = (typeof ROLES)[number];

export function isRole(value: string): value is Role {
  return (ROLES as readonly string[]).includes(value);
}

/** Scopes an API key (a trusted service) may hold. */
export const API_KEY_SCOPES = [
  'intake:write',
  'tasks:update',
  'reports:read',
  'reports:write',
  'investigations:write',
  'investigations:read',
  /** TAXII 2.1 collections and the partner indicator feed (read-only sharing). */
  'taxii:read',
] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

export function isApiKeyScope(value: string): value is ApiKeyScope {
  return (API_KEY_SCOPES as readonly string[]).includes(value);
}

/** Who is calling: a person behind the identity-aware proxy, or a trusted service with an API key. */
export type Principal =
  | { kind: 'user'; email: string; roles: Role[] }
  | { kind: 'service'; keyId: string; name: string; scopes: ApiKeyScope[] };

const EMAIL_RE = /^[^\s@,:;<>"]+@[^\s@,:;<>"]+\.[^\s@,:;<>".]+$/;

/**
 * The e-mail of an identity header value that is exactly `<prefix><e-mail>`
 * (`accounts.google.com:alice@example.org` -> `alice@example.org`, lower-cased), else null. Nothing
 * else is accepted: another prefix (`evil.com:admin@…`), none when one is expected, a
 * comma-joined list (what Node makes of a repeated header), white space, a second colon.
 */
export function parseProxyIdentity(headerValue: string, prefix: string): string | null {
  if (!headerValue.startsWith(prefix)) return null;
  const email = headerValue.slice(prefix.length);
  return EMAIL_RE.test(email) ? email.toLowerCase() : null;
}
