// Site fingerprints and their LSH buckets (site_page_fingerprints, site_buckets), and the site
// profile a similarity comparison reads: the pages' fingerprints with the scan's wallets, contacts
// and server addresses.
import type { Knex } from 'knex';
import type { PageFingerprint, SiteProfile } from '../../../domain/similarity/site-similarity';

export interface StoredPageFingerprint extends PageFingerprint {
  screenshotBlank: boolean;
}

/** Writes a scan's page fingerprints and its buckets anew (a retried activity writes the same rows). */
export async function replaceSiteFingerprints(knex: Knex, scanId: string, pages: readonly StoredPageFingerprint[], buckets: readonly string[]): Promise<void> {
  await knex.transaction(async (trx) => {
    await trx('site_page_fingerprints').where({ scan_id: scanId }).delete();
    if (pages.length) {
      await trx('site_page_fingerprints')
        .insert(pages.map((p) => ({
          scan_id: scanId, page_url: p.pageUrl, dom_simhash: p.domSimhash, dom_elements: p.domElements, text_minhash: p.textMinhash, asset_hashes: p.assetHashes,
          favicon_hash: p.faviconHash, screenshot_hash: p.screenshotHash, screenshot_blank: p.screenshotBlank,
        })))
        .onConflict(['scan_id', 'page_url'])
        .merge();
    }
    await trx('site_buckets').where({ scan_id: scanId }).delete();
    for (let i = 0; i < buckets.length; i += 1000) {
      await trx('site_buckets').insert(buckets.slice(i, i + 1000).map((bucket) => ({ bucket, scan_id: scanId }))).onConflict(['bucket', 'scan_id']).ignore();
    }
  });
}

/** Each bucket's scans, at most `cap` + 1 per bucket (one index range scan each). */
export async function bucketMembers(knex: Knex, buckets: readonly string[], cap: number): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  if (!buckets.length) return out;
  const rows = (await knex.raw(
    `SELECT k.bucket, m.scan_id FROM unnest(?::text[]) AS k(bucket)
       CROSS JOIN LATERAL (SELECT scan_id FROM site_buckets b WHERE b.bucket = k.bucket LIMIT ?) m`,
    [[...buckets], cap + 1],
  )).rows as Array<{ bucket: string; scan_id: string }>;
  for (const r of rows) {
    const list = out.get(r.bucket) ?? [];
    list.push(r.scan_id);
    out.set(r.bucket, list);
  }
  return out;
}

export async function hasFingerprints(knex: Knex, scanId: string): Promise<boolean> {
  return Boolean(await knex('site_page_fingerprints').where({ scan_id: scanId }).first('scan_id'));
}

/** The profiles of these scans (scans without fingerprints have none). */
export async function siteProfiles(knex: Knex, scanIds: readonly string[]): Promise<SiteProfile[]> {
  if (!scanIds.length) return [];
  const ids = [...scanIds];
  const [pages, wallets, contacts, ips] = await Promise.all([
    knex('site_page_fingerprints').whereIn('scan_id', ids).orderBy(['scan_id', 'page_url'])
      .select('scan_id', 'page_url', 'dom_simhash', 'dom_elements', 'text_minhash', 'asset_hashes', 'favicon_hash', 'screenshot_hash') as Promise<Array<{
        scan_id: string; page_url: string; dom_simhash: string; dom_elements: number; text_minhash: string[]; asset_hashes: string[]; favicon_hash: number | null; screenshot_hash: string | null;
      }>>,
    knex('wallets').whereIn('scan_id', ids).distinct('scan_id', 'network', 'address') as Promise<Array<{ scan_id: string; network: string; address: string }>>,
    knex('investigation_pii').whereIn('scan_id', ids).distinct('scan_id', 'kind', 'value') as Promise<Array<{ scan_id: string; kind: string; value: string }>>,
    knex('investigation_pages').whereIn('scan_id', ids).whereNotNull('server_ip').distinct('scan_id', 'server_ip') as Promise<Array<{ scan_id: string; server_ip: string }>>,
  ]);
  const profiles = new Map<string, SiteProfile>();
  for (const p of pages) {
    let profile = profiles.get(p.scan_id);
    if (!profile) profiles.set(p.scan_id, (profile = { scanId: p.scan_id, pages: [], wallets: [], contacts: [], serverIps: [] }));
    profile.pages.push({
      pageUrl: p.page_url, domSimhash: p.dom_simhash, domElements: p.dom_elements, textMinhash: p.text_minhash.map(Number), assetHashes: p.asset_hashes,
      faviconHash: p.favicon_hash, screenshotHash: p.screenshot_hash,
    });
  }
  for (const w of wallets) profiles.get(w.scan_id)?.wallets.push(`${w.network}:${w.address}`);
  for (const c of contacts) profiles.get(c.scan_id)?.contacts.push(`${c.kind}:${c.value}`);
  for (const i of ips) profiles.get(i.scan_id)?.serverIps.push(i.server_ip);
  return ids.map((id) => profiles.get(id)).filter((p): p is SiteProfile => p !== undefined);
}

/** The scans' wallets, contacts and server addresses alone (before their pages are fingerprinted). */
export async function scanIdentifiers(knex: Knex, scanId: string): Promise<Pick<SiteProfile, 'wallets' | 'contacts' | 'serverIps'>> {
  const [wallets, contacts, ips] = await Promise.all([
    knex('wallets').where({ scan_id: scanId }).distinct('network', 'address') as Promise<Array<{ network: string; address: string }>>,
    knex('investigation_pii').where({ scan_id: scanId }).distinct('kind', 'value') as Promise<Array<{ kind: string; value: string }>>,
    knex('investigation_pages').where({ scan_id: scanId }).whereNotNull('server_ip').distinct('server_ip') as Promise<Array<{ server_ip: string }>>,
  ]);
  return { wallets: wallets.map((w) => `${w.network}:${w.address}`), contacts: contacts.map((c) => `${c.kind}:${c.value}`), serverIps: ips.map((i) => i.server_ip) };
}
