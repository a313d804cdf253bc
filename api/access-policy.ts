import type { Principal } from '../domain/accounts/roles';
import type { AccessPolicy } from './route-definition';

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
