// Which links the agent follows next: same site only (the registrable domain, via the public-suffix
// list), http(s), without fragments except client-side routes (`#/...`, `#!/...`), and pages that
// look like where a victim pays (deposit, wallet, payment, withdraw, recharge) first.
import { getDomain } from 'tldts';

const PAYMENT_WORDS = /deposit|wallet|pay|withdraw|recharge|top-?up|fund|invest|crypto|usdt|btc/i;

/** The site key of a URL: its registrable domain, or the host itself for IPs and single labels. */
export function siteOf(url: URL): string {
  return getDomain(url.hostname, { allowPrivateDomains: true }) ?? url.hostname;
}

/** A page's identity for the crawl: no fragment, unless the fragment is a client-side route. */
export function pageKey(raw: string, base?: string): string | null {
  let url: URL;
  try {
    url = new URL(raw, base);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  if (!/^#!?\//.test(url.hash)) url.hash = '';
  return url.href;
}

export interface FoundLink {
  href: string;
  text: string;
}

/** Same-site candidate pages from a page's links, payment-looking ones first, each once. */
export function nextPages(pageUrl: string, links: readonly FoundLink[], seen: ReadonlySet<string>): string[] {
  const site = siteOf(new URL(pageUrl));
  const out = new Map<string, number>();
  for (const link of links) {
    const key = pageKey(link.href, pageUrl);
    if (!key || seen.has(key) || out.has(key)) continue;
    if (siteOf(new URL(key)) !== site) continue;
    out.set(key, PAYMENT_WORDS.test(`${key} ${link.text}`) ? 0 : 1);
  }
  return [...out.entries()].sort((a, b) => a[1] - b[1]).map(([k]) => k);
}

/**
 * Labels of coin buttons and tabs (BTC, ETH, USDT (TRC20), ...): short texts naming a coin. A source
 * string, because the agent also runs it inside the page (infra/crawler/page-actions.ts).
 */
export const COIN_TAB_LABEL_SOURCE =
  '^\\s*(BTC|ETH|USDT|USDC|TRX|BNB|SOL|LTC|DOGE|XRP|TON|BCH|ADA|MATIC|POL|DAI|BUSD|TRC-?20|ERC-?20|BEP-?20|Bitcoin|Ethereum|Tether|Tron|Solana|Litecoin|Dogecoin)\\b[\\w\\s().-]{0,24}$';
const COIN_LABEL = new RegExp(COIN_TAB_LABEL_SOURCE, 'i');

export function looksLikeCoinTab(text: string): boolean {
  return text.length <= 40 && COIN_LABEL.test(text);
}
