// The crawler's egress check: the URL and every address its host resolves to, against the policy of
// domain/investigations/egress-policy.ts and the SVC_SSI__ALLOW_PRIVATE_TARGETS exceptions. The
// session then connects to one of the checked addresses (infra/crawler/pinned-http.ts), so the answer that
// was checked is the one used (DNS rebinding).
import { checkUrl, type AllowList } from '../../domain/investigations/egress-policy';
import { createDnsResolver } from './dns-resolver';
import type { EgressCheck } from './crawler-session';

export function createEgressCheck(allow: AllowList): EgressCheck {
  const resolve = createDnsResolver();
  return async (url) => {
    const verdict = await checkUrl(url, { allow, resolve });
    return verdict.allowed ? { allowed: true, addresses: verdict.addresses } : { allowed: false, reason: verdict.reason, category: verdict.category };
  };
}
