// The crawler's egress check: the URL and every address its host resolves to, against the policy of
// domain/investigations/egress-policy.ts and the SVC_SSI__ALLOW_PRIVATE_TARGETS exceptions. The
// session then connects to one of the checked addresses (infra/crawler/pinned-http.ts), so the answer that
// was checked is the one used (DNS rebinding).
import { ApplicationFailure } from '@temporalio/common';
import { checkUrl, type AllowList } from '../../domain/investigations/egress-policy';
import { createDnsResolver } from './dns-resolver';
import type { EgressCheck } from './crawler-session';
import type { CrawlerProxy } from './proxy-tunnel';
import { parseProxyUrl, proxyCheckUrl, ProxyUrlError, type ProxySettings } from '../../domain/investigations/visitor-profile';

export function createEgressCheck(allow: AllowList): EgressCheck {
  const resolve = createDnsResolver();
  return async (url) => {
    const verdict = await checkUrl(url, { allow, resolve });
    return verdict.allowed ? { allowed: true, addresses: verdict.addresses } : { allowed: false, reason: verdict.reason, category: verdict.category };
  };
}

/**
 * The investigation's proxy (SVC_SSI__PROXY_URL), checked by the egress policy like every other
 * target: its host, every address it resolves to and its port. A proxy on a private address is
 * refused unless SVC_SSI__ALLOW_PRIVATE_TARGETS lets it through.
 */
export async function checkProxy(egress: EgressCheck, proxyUrl: string): Promise<CrawlerProxy> {
  let settings: ProxySettings;
  try {
    settings = parseProxyUrl(proxyUrl);
  } catch (err) {
    if (err instanceof ProxyUrlError) throw ApplicationFailure.nonRetryable(`the crawler's proxy is not usable: ${err.message}`, 'InvestigationProxyBlocked');
    throw err;
  }
  const verdict = await egress(proxyCheckUrl(settings));
  if (!verdict.allowed) throw ApplicationFailure.nonRetryable(`the crawler may not use the proxy ${settings.host}:${settings.port}: ${verdict.reason}`, 'InvestigationProxyBlocked');
  return { settings, address: verdict.addresses[0]! };
}
