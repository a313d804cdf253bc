// How alike two investigated sites are, and why. Each signal gives a contribution in 0..1 and the
// score is their noisy-or (1 - Π(1 - c)): one strong signal or several weak ones. A score of
// LINK_THRESHOLD or more claims the sites are one operation; below it a site is a lead. Shared
// infrastructure on a warning list contributes nothing; unlisted shared infrastructure only a lead's
// worth (INFRASTRUCTURE_WEIGHT < LINK_THRESHOLD), so infrastructure never links by itself.
import { hammingHex, hexBands, minhashBands, minhashSimilarity } from './locality-hashes';
import { warnHost, warnIp, type WarningMatch } from './warning-lists';

export const LINK_THRESHOLD = 0.5;
export const INFRASTRUCTURE_WEIGHT = 0.2;
/** A DOM structure with fewer elements says too little about a kit to count. */
export const MIN_DOM_ELEMENTS = 12;

export type ReasonKind = 'kit' | 'dom' | 'assets' | 'favicon' | 'screenshot' | 'shared_wallet' | 'shared_contact' | 'infrastructure';

export interface SimilarityReason {
  kind: ReasonKind;
  detail: string;
  /** This reason's contribution to the score (0 for shared infrastructure on a warning list). */
  weight: number;
  /** The shared value is infrastructure many unrelated sites share (a warning list names it). */
  shared_infrastructure?: boolean;
}

export interface PageFingerprint {
  pageUrl: string;
  /** 64-bit simhash of the DOM's tag paths and attributes (16 hex digits). */
  domSimhash: string;
  domElements: number;
  /** MinHash signature of the visible text's shingles (empty: no text). */
  textMinhash: number[];
  /** SHA-256 of the script, style and image files the page loaded. */
  assetHashes: string[];
  /** Shodan's favicon hash (mmh3 of the base64 favicon), or null. */
  faviconHash: number | null;
  /** dHash of the screenshot (16 hex digits); null for a blank or near-blank screenshot. */
  screenshotHash: string | null;
}

export interface SiteProfile {
  scanId: string;
  pages: PageFingerprint[];
  /** `network:address` of the wallets the investigation found. */
  wallets: string[];
  /** `kind:value` of the contacts on its pages (e-mail, phone, Telegram, WhatsApp). */
  contacts: string[];
  /** The server addresses its pages came from. */
  serverIps: string[];
}

export interface SimilarityResult {
  score: number;
  reasons: SimilarityReason[];
}

const round = (n: number) => Math.round(n * 1000) / 1000;
const short = (s: string) => (s.length > 16 ? `${s.slice(0, 12)}…` : s);

function warningText(w: WarningMatch): string {
  return `${w.category.replace(/_/g, ' ')} (${w.list}, ${w.source})`;
}

/** A contact whose shared value says nothing: a mailbox on a disposable-mail provider, say. */
function contactWarning(contact: string): WarningMatch | null {
  const [kind, ...rest] = contact.split(':');
  const value = rest.join(':');
  return kind === 'email' && warnHost(value)?.category === 'public_mail' && /^(info|support|admin|contact|noreply|no-reply)@/i.test(value) ? warnHost(value) : null;
}

/**
 * `commonAssets`: asset hashes too many sites share to mean anything (a public library), left out.
 */
export function compareSites(a: SiteProfile, b: SiteProfile, commonAssets: ReadonlySet<string> = new Set()): SimilarityResult {
  const reasons: SimilarityReason[] = [];
  const add = (kind: ReasonKind, detail: string, weight: number, extra: Partial<SimilarityReason> = {}) => reasons.push({ kind, detail, weight: round(weight), ...extra });

  // DOM structure: the closest pair of pages.
  let bestDom: { h: number; pa: string; pb: string } | null = null;
  let bestText = { j: 0, pa: '', pb: '' };
  let bestShot: { h: number } | null = null;
  for (const pa of a.pages) {
    for (const pb of b.pages) {
      if (pa.domElements >= MIN_DOM_ELEMENTS && pb.domElements >= MIN_DOM_ELEMENTS) {
        const h = hammingHex(pa.domSimhash, pb.domSimhash);
        if (!bestDom || h < bestDom.h) bestDom = { h, pa: pa.pageUrl, pb: pb.pageUrl };
      }
      const j = minhashSimilarity(pa.textMinhash, pb.textMinhash);
      if (j > bestText.j) bestText = { j, pa: pa.pageUrl, pb: pb.pageUrl };
      if (pa.screenshotHash && pb.screenshotHash) {
        const h = hammingHex(pa.screenshotHash, pb.screenshotHash);
        if (!bestShot || h < bestShot.h) bestShot = { h };
      }
    }
  }
  const domSim = bestDom ? Math.max(0, 1 - bestDom.h / 16) : 0;
  if (bestDom && domSim >= 0.5) add('dom', `page structure ${bestDom.h} of 64 simhash bits apart (${bestDom.pa} ~ ${bestDom.pb})`, 0.6 * ((domSim - 0.5) * 2) ** 0.5);
  if (bestText.j >= 0.25) add('kit', `the same page text: about ${Math.round(bestText.j * 100)}% of 3-word shingles shared (MinHash)`, 0.5 * bestText.j);

  const assetsA = new Set(a.pages.flatMap((p) => p.assetHashes).filter((h) => !commonAssets.has(h)));
  const assetsB = new Set(b.pages.flatMap((p) => p.assetHashes).filter((h) => !commonAssets.has(h)));
  const sharedAssets = [...assetsA].filter((h) => assetsB.has(h));
  if (sharedAssets.length) {
    const overlap = sharedAssets.length / Math.min(assetsA.size, assetsB.size);
    add('assets', `${sharedAssets.length} identical script, style or image file(s) (sha256 ${sharedAssets.slice(0, 3).map(short).join(', ')})`, 0.3 + 0.35 * overlap);
  }
  const favA = new Set(a.pages.map((p) => p.faviconHash).filter((h): h is number => h !== null));
  const favicon = b.pages.map((p) => p.faviconHash).find((h) => h !== null && favA.has(h) && !commonAssets.has(`favicon:${h}`));
  if (favicon !== undefined && favicon !== null) add('favicon', `the same favicon (mmh3 ${favicon})`, 0.35);
  if (bestShot && bestShot.h <= 10) add('screenshot', `screenshots ${bestShot.h} of 64 dHash bits apart`, 0.4 * (1 - bestShot.h / 11));

  // The dom and the text or assets together: one kit.
  if (domSim >= 0.75 && (sharedAssets.length || bestText.j >= 0.25)) add('kit', 'the same kit: page structure and its files or text match', 0.3);

  const walletsB = new Set(b.wallets);
  const sharedWallets = a.wallets.filter((w) => walletsB.has(w));
  for (const w of sharedWallets.slice(0, 5)) add('shared_wallet', `the same wallet ${w}`, 0.9);
  const contactsB = new Set(b.contacts);
  for (const c of a.contacts.filter((x) => contactsB.has(x)).slice(0, 5)) {
    const warning = contactWarning(c);
    if (warning) add('shared_contact', `the same contact ${c}, a generic mailbox at ${warningText(warning)}`, 0, { shared_infrastructure: true });
    else add('shared_contact', `the same contact ${c}`, 0.7);
  }
  const ipsB = new Set(b.serverIps);
  for (const ip of [...new Set(a.serverIps)].filter((x) => ipsB.has(x)).slice(0, 3)) {
    const warning = warnIp(ip);
    if (warning) add('infrastructure', `the same server address ${ip}: shared ${warningText(warning)}, no weight`, 0, { shared_infrastructure: true });
    else add('infrastructure', `the same server address ${ip}`, INFRASTRUCTURE_WEIGHT);
  }
  const score = 1 - reasons.reduce((p, r) => p * (1 - r.weight), 1);
  return { score: round(score), reasons: reasons.sort((x, y) => y.weight - x.weight) };
}

/** The index buckets of a site: two sites that may be alike share at least one. */
export function siteBuckets(site: SiteProfile): string[] {
  const out = new Set<string>();
  for (const p of site.pages) {
    if (p.domElements >= MIN_DOM_ELEMENTS) for (const b of hexBands('d', p.domSimhash)) out.add(b);
    for (const b of minhashBands('t', p.textMinhash)) out.add(b);
    for (const h of p.assetHashes) out.add(`a:${h}`);
    if (p.faviconHash !== null) out.add(`f:${p.faviconHash}`);
    if (p.screenshotHash) for (const b of hexBands('s', p.screenshotHash)) out.add(b);
  }
  for (const w of site.wallets) out.add(`w:${w}`);
  for (const c of site.contacts) if (!contactWarning(c)) out.add(`c:${c}`);
  for (const ip of site.serverIps) if (!warnIp(ip)) out.add(`i:${ip}`);
  return [...out];
}

/** The bucket an asset hash (or a favicon) is indexed under, to tell a common one. */
export function assetOfBucket(bucket: string): string | null {
  if (bucket.startsWith('a:')) return bucket.slice(2);
  if (bucket.startsWith('f:')) return `favicon:${bucket.slice(2)}`;
  return null;
}
