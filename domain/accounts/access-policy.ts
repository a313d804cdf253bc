// Who may call what: a route's declared access policy (api/route-definition.ts) and the one rule
// that decides a caller against it, used by the router for every route and by use cases whose
// records carry a policy of their own (a task's kind).
import type { ApiKeyScope, Principal, Role } from './roles';

/**
 * - `public`: anyone, no identity needed (health, docs).
 * - `authenticated`: any caller with an identity (person or service).
 * - `roles` / `scopes`: a person holding any of the roles, or a service key holding any of the scopes.
 */
export type AccessPolicy =
  | { public: true }
  | { authenticated: true }
  | { roles: readonly Role[]; scopes?: readonly ApiKeyScope[] }
  | { roles?: readonly Role[]; scopes: readonly ApiKeyScope[] };

export type AccessDecision = 'allow' | 'unauthenticated' | 'forbidden';

/** Decides a request against its route's declared policy. Default-deny: no policy, no access. */
export function decideAccess(policy: AccessPolicy | undefined, principal: Principal | null): AccessDecision {
  if (!policy) return principal ? 'forbidden' : 'unauthenticated';
  if ('public' in policy && policy.public) return 'allow';
  if (!principal) return 'unauthenticated';
  if ('authenticated' in policy && policy.authenticated) return 'allow';
  if (principal.kind === 'user') {
    const roles = 'roles' in policy ? (policy.roles ?? []) : [];
    return principal.roles.some((r) => roles.includes(r)) ? 'allow' : 'forbidden';
  }
  const scopes = 'scopes' in policy ? (policy.scopes ?? []) : [];
  return principal.scopes.some((s) => scopes.includes(s)) ? 'allow' : 'forbidden';
}
