// One request to a reported site through the egress policy (private addresses only through
// SVC_TAKEDOWN__ALLOW_PRIVATE_TARGETS), connected to the checked address: its status and the
// SHA-256 of its body (the first 5 MiB), or why it could not be asked or did not answer.
import { createHash } from 'node:crypto';
import type { AppConfig } from '../../config/config';
import { checkUrl } from '../../domain/investigations/egress-policy';
import type { SiteAnswer } from '../../domain/takedowns/site-status';
import { createDnsResolver } from '../../infra/crawler/dns-resolver';
import { pinnedRequest } from '../../infra/crawler/pinned-http';

const resolve = createDnsResolver();

export async function probeSite(config: AppConfig, url: string): Promise<SiteAnswer> {
  const verdict = await checkUrl(url, { allow: config.takedown.allow_private_targets, resolve, webSockets: false });
  if (!verdict.allowed) {
    // A name that no longer resolves is a site that is gone; any other refusal says nothing about it.
    return verdict.category === 'unresolved' ? { kind: 'unreachable', error: verdict.reason } : { kind: 'refused', reason: verdict.reason };
  }
  try {
    const res = await pinnedRequest({
      url: verdict.url,
      method: 'GET',
      headers: { 'user-agent': 'Mozilla/5.0 (compatible; fip-takedown-watch/1)', accept: 'text/html,*/*' },
      address: verdict.addresses[0],
      timeoutMs: config.takedown.rdap_timeout_seconds * 1000,
      maxBodyBytes: 5 * 1024 * 1024,
    });
    return { kind: 'answered', status: res.status, sha256: createHash('sha256').update(res.body).digest('hex') };
  } catch (err) {
    return { kind: 'unreachable', error: err instanceof Error ? err.message : String(err) };
  }
}
