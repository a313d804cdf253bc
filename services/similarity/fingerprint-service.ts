// Fingerprints an investigation's captured pages from what the capture stored (DOM snapshot, HAR
// with the response bodies, screenshot): no page is loaded again. Per page: the DOM structure's
// simhash, the text's MinHash, the SHA-256 of the scripts, styles, images and fonts it loaded, the
// favicon's Shodan hash (when the favicon was among the page's exchanges) and the screenshot's
// dHash. Then the scan's LSH buckets, written with the fingerprints (the same rows when retried).
import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import { readBlob, type BlobStore } from '../../infra/blob-store';
import { listPages } from '../../db/repositories/investigations/investigation-repository';
import { replaceSiteFingerprints, scanIdentifiers, type StoredPageFingerprint } from '../../db/repositories/similarity/fingerprint-repository';
import { faviconHash } from '../../domain/similarity/favicon-hash';
import { minhash } from '../../domain/similarity/locality-hashes';
import { pageStructure } from '../../domain/similarity/page-structure';
import { siteBuckets } from '../../domain/similarity/site-similarity';
import { screenshotHash } from './screenshot-hash';

interface HarEntry {
  request: { url: string };
  response: { status: number; content: { mimeType: string; text?: string; encoding?: string } };
  _resourceType?: string;
  _truncated?: string;
}

const ASSET_TYPES = new Set(['script', 'stylesheet', 'image', 'font']);
/** A file this small (a 1x1 pixel, an empty script) is no kit's signature. */
const MIN_ASSET_BYTES = 64;

function entryBody(e: HarEntry): Buffer | null {
  const c = e.response.content;
  if (c.text === undefined || e._truncated) return null;
  return Buffer.from(c.text, c.encoding === 'base64' ? 'base64' : 'utf8');
}

function isFavicon(url: string, href: string | null, pageUrl: string): boolean {
  try {
    const u = new URL(url);
    if (href && new URL(href, pageUrl).href === u.href) return true;
    return /\/favicon\.(ico|png|svg)$/i.test(u.pathname);
  } catch {
    return false;
  }
}

export interface FingerprintOutcome {
  pages: number;
  buckets: number;
}

export async function fingerprintInvestigation(deps: { knex: Knex; blobs: BlobStore }, scanId: string): Promise<FingerprintOutcome> {
  const pages = await listPages(deps.knex, scanId);
  const fingerprints: StoredPageFingerprint[] = [];
  // The favicon is fetched once per site; later pages' HARs may not carry it again.
  let siteFavicon: number | null = null;
  for (const page of pages) {
    const html = (await readBlob(deps.blobs, page.dom_key)).toString('utf8');
    const structure = pageStructure(html);
    let entries: HarEntry[];
    try {
      entries = (JSON.parse((await readBlob(deps.blobs, page.har_key)).toString('utf8')) as { log?: { entries?: HarEntry[] } }).log?.entries ?? [];
    } catch {
      // A HAR that does not parse (cut short) leaves the page without asset hashes, not unfingerprinted.
      entries = [];
    }
    const assets = new Set<string>();
    let favicon: number | null = null;
    for (const e of entries) {
      if (e.response.status < 200 || e.response.status >= 300) continue;
      const body = entryBody(e);
      if (!body?.length) continue;
      if (isFavicon(e.request.url, structure.faviconHref, page.url)) {
        favicon ??= faviconHash(body);
        continue;
      }
      if (ASSET_TYPES.has(e._resourceType ?? '') && body.length >= MIN_ASSET_BYTES) assets.add(createHash('sha256').update(body).digest('hex'));
    }
    siteFavicon ??= favicon;
    const shot = await screenshotHash(await readBlob(deps.blobs, page.screenshot_key)).catch(() => ({ dhash: null, blank: true }));
    fingerprints.push({
      pageUrl: page.url, domSimhash: structure.domSimhash, domElements: structure.elements, textMinhash: minhash(structure.shingles), assetHashes: [...assets].sort(),
      faviconHash: favicon ?? (structure.faviconHref ? null : siteFavicon), screenshotHash: shot.dhash, screenshotBlank: shot.blank,
    });
  }
  const ids = await scanIdentifiers(deps.knex, scanId);
  const buckets = siteBuckets({ scanId, pages: fingerprints, ...ids });
  await replaceSiteFingerprints(deps.knex, scanId, fingerprints, buckets);
  return { pages: fingerprints.length, buckets: buckets.length };
}
