// Site fingerprints on HTML strings and images (no browser): the DOM simhash keeps a kit's sites
// together across brands, colours, wallets and paths and apart from other kits; Shodan's favicon
// hash; the screenshot dHash and its blank guard; the warning lists; the scoring's reasons; and the
// LSH query answering what brute force answers.
import assert from 'node:assert/strict';
import sharp from 'sharp';
import { encodebytes, faviconHash } from '../../domain/similarity/favicon-hash';
import { hammingHex, minhash, minhashSimilarity } from '../../domain/similarity/locality-hashes';
import { pageStructure } from '../../domain/similarity/page-structure';
import { bruteForceSimilar, findSimilarSites, type BucketIndex } from '../../domain/similarity/similar-sites';
import { compareSites, LINK_THRESHOLD, siteBuckets, type SiteProfile } from '../../domain/similarity/site-similarity';
import { warnHost, warnIp } from '../../domain/similarity/warning-lists';
import { screenshotHash } from '../../services/similarity/screenshot-hash';
import { nodeView } from '../../services/intelligence/intelligence-views';
import { BENIGN_PAGE, kitAPage, kitBPage, kitCPage, unrelatedPage } from '../support/kit-family-fixture';
import { makeAddresses } from '../support/wallet-address-factory';

const w = (seed: number) => makeAddresses(seed).evm;
const A1 = kitAPage('Nordvault', '#1d4ed8', w(1), '/invest');
const A2 = kitAPage('Sunrise Capital', '#ea580c', w(2), '/en/app');
const A3 = kitAPage('Tigerstake', '#15803d', w(3), '/start');
const OTHERS = { kitB: kitBPage(w(4)), kitC: kitCPage(w(5)), unrelated: unrelatedPage(w(6)), benign: BENIGN_PAGE };

function profile(scanId: string, html: string, extra: Partial<SiteProfile> = {}, assets: string[] = []): SiteProfile {
  const s = pageStructure(html);
  return {
    scanId, wallets: [], contacts: [], serverIps: [], ...extra,
    pages: [{ pageUrl: `https://${scanId}.example/`, domSimhash: s.domSimhash, domElements: s.elements, textMinhash: minhash(s.shingles), assetHashes: assets, faviconHash: null, screenshotHash: null }],
  };
}

describe('site fingerprints', () => {
  it('the DOM simhash of one kit under three brands, colours, wallets and paths stays within 3 bits; other kits and pages are more than 12 apart', () => {
    const [h1, h2, h3] = [A1, A2, A3].map((h) => pageStructure(h).domSimhash);
    assert.ok(hammingHex(h1!, h2!) <= 3, `a1~a2 ${hammingHex(h1!, h2!)}`);
    assert.ok(hammingHex(h1!, h3!) <= 3, `a1~a3 ${hammingHex(h1!, h3!)}`);
    for (const [name, html] of Object.entries(OTHERS)) {
      const d = hammingHex(h1!, pageStructure(html).domSimhash);
      assert.ok(d > 12, `kit A ~ ${name}: ${d} bits`);
    }
  });

  it('text shingles: kit A pages share most of their text (MinHash ≥ 0.5), other pages almost none (< 0.1)', () => {
    const sig = (h: string) => minhash(pageStructure(h).shingles);
    assert.ok(minhashSimilarity(sig(A1), sig(A2)) >= 0.5, String(minhashSimilarity(sig(A1), sig(A2))));
    for (const html of Object.values(OTHERS)) assert.ok(minhashSimilarity(sig(A1), sig(html)) < 0.1);
  });

  it('pageStructure finds the favicon link and ignores script and style text', () => {
    const s = pageStructure(A1);
    assert.equal(s.faviconHref, '/static/favicon.ico');
    assert.ok(![...s.shingles].some((sh) => sh.includes('queryselectorall') || sh.includes('font family')), [...s.shingles].join('|'));
    assert.ok([...s.shingles].some((sh) => sh === 'grow your savings'));
  });

  it("the favicon hash is Shodan's: mmh3 of base64 with a newline every 76 characters, signed (vectors from Python mmh3 5.3.1)", () => {
    assert.equal(encodebytes(Buffer.alloc(100, 1)).split('\n').map((l) => l.length).join(','), '76,60,0');
    assert.equal(faviconHash(Buffer.from('hello favicon')), 508473084);
    assert.equal(faviconHash(Buffer.from(Array.from({ length: 768 }, (_, i) => i % 256))), 1836528006);
    assert.equal(faviconHash(Buffer.from('fip favicon 1'.repeat(40))), -1889109281);
    assert.equal(faviconHash(Buffer.from('fip favicon 4'.repeat(40))), -433793150);
  });

  it('screenshot dHash: the same picture rescaled stays within 4 bits, a different one is far, and a blank or near-blank screenshot gets no hash', async () => {
    const picture = (w: number, h: number, flip = false) => sharp(Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 400 300">
<rect width="400" height="300" fill="#fff"/><rect x="${flip ? 220 : 20}" y="20" width="160" height="260" fill="#123"/><circle cx="${flip ? 100 : 300}" cy="150" r="80" fill="#c33"/></svg>`)).png().toBuffer();
    const a = await screenshotHash(await picture(400, 300));
    const b = await screenshotHash(await picture(1280, 960));
    const c = await screenshotHash(await picture(400, 300, true));
    assert.ok(a.dhash && b.dhash && c.dhash);
    assert.ok(hammingHex(a.dhash, b.dhash) <= 4, `rescaled ${hammingHex(a.dhash, b.dhash)}`);
    assert.ok(hammingHex(a.dhash, c.dhash) > 12, `different ${hammingHex(a.dhash, c.dhash)}`);
    const white = await sharp({ create: { width: 1280, height: 720, channels: 3, background: '#ffffff' } }).png().toBuffer();
    const nearBlank = await sharp(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="1280" height="720"><rect width="1280" height="720" fill="#fff"/><text x="20" y="30" font-size="12">Loading</text></svg>')).png().toBuffer();
    assert.deepEqual(await screenshotHash(white), { dhash: null, blank: true });
    assert.deepEqual(await screenshotHash(nearBlank), { dhash: null, blank: true });
  });

  it('warning lists recognise CDN, hosting, loopback, private ranges, URL shorteners, parking name servers and public mail, and not an ordinary address', () => {
    assert.equal(warnIp('104.16.1.1')?.list, 'cloudflare');
    assert.equal(warnIp('127.0.0.1')?.category, 'loopback_or_reserved');
    assert.equal(warnIp('10.1.2.3')?.category, 'private_range');
    assert.equal(warnHost('bit.ly')?.category, 'url_shortener');
    assert.equal(warnHost('ns1.sedoparking.com')?.category, 'parking');
    assert.equal(warnHost('someone@gmail.com')?.category, 'public_mail');
    assert.equal(warnIp('2606:4700::1')?.list, 'cloudflare');
    assert.equal(warnIp('45.77.1.2'), null);
    assert.equal(warnHost('nordvault-invest.com'), null);
  });

  it('graph nodes of listed infrastructure carry shared_infrastructure: true (a CDN address, a parking name server, a public mail domain); others do not', () => {
    const node = (type: 'ip' | 'domain' | 'email', value: string) => nodeView({ id: '00000000-0000-4000-8000-000000000001', type, value, display_value: value, risk_score: null }, ['analyst']);
    assert.equal(node('ip', '104.16.1.1').shared_infrastructure, true);
    assert.equal(node('domain', 'ns1.sedoparking.com').shared_infrastructure, true);
    assert.equal(node('domain', 'gmail.com').shared_infrastructure, true);
    assert.equal('shared_infrastructure' in node('ip', '45.77.1.2'), false);
    assert.equal('shared_infrastructure' in node('domain', 'nordvault-invest.com'), false);
    assert.equal('shared_infrastructure' in node('email', 'someone@gmail.com'), false, 'a mailbox is not infrastructure');
  });

  it('scores: a kit family is linked (dom, kit), two kits sharing a wallet are linked (shared_wallet), unrelated pages are not', () => {
    const pair = compareSites(profile('a1', A1, {}, ['kit-js']), profile('a2', A2, {}, ['kit-js']));
    assert.ok(pair.score >= LINK_THRESHOLD, JSON.stringify(pair));
    assert.deepEqual([...new Set(pair.reasons.map((r) => r.kind))].sort(), ['assets', 'dom', 'kit']);
    const wallet = `ethereum:${w(9)}`;
    const kits = compareSites(profile('b', OTHERS.kitB, { wallets: [wallet] }), profile('c', OTHERS.kitC, { wallets: [wallet] }));
    assert.ok(kits.score >= LINK_THRESHOLD);
    assert.deepEqual(kits.reasons.map((r) => r.kind), ['shared_wallet']);
    for (const [name, html] of Object.entries(OTHERS)) {
      assert.equal(compareSites(profile('a1', A1), profile(name, html)).score, 0, name);
    }
  });

  it('a shared hosting address alone links nothing: on a warning list it weighs 0, an unlisted one makes a lead at most', () => {
    const loop = compareSites(profile('u', OTHERS.unrelated, { serverIps: ['127.0.0.1'] }), profile('b', OTHERS.benign, { serverIps: ['127.0.0.1'] }));
    assert.equal(loop.score, 0);
    assert.deepEqual(loop.reasons.map((r) => [r.kind, r.weight, r.shared_infrastructure]), [['infrastructure', 0, true]]);
    assert.match(loop.reasons[0]!.detail, /rfc5735/);
    const plain = compareSites(profile('u', OTHERS.unrelated, { serverIps: ['45.77.1.2'] }), profile('b', OTHERS.benign, { serverIps: ['45.77.1.2'] }));
    assert.ok(plain.score > 0 && plain.score < LINK_THRESHOLD, String(plain.score));
    assert.ok(!siteBuckets(profile('x', BENIGN_PAGE, { serverIps: ['127.0.0.1', '104.16.1.1'] })).some((b) => b.startsWith('i:')), 'listed addresses are not indexed');
  });

  it('the LSH query answers what brute force answers for a family hidden among 2,000 generated sites', async () => {
    const sites: SiteProfile[] = [];
    for (let i = 0; i < 2000; i++) sites.push(profile(`noise-${i}`, `<html><body>${'<div><p>x</p></div>'.repeat(i % 7)}<section>${`<span class="s${i}">w${i}</span>`.repeat((i % 5) + 1)}</section><ul>${'<li>a</li>'.repeat(i % 11)}</ul><h${(i % 6) + 1}>t ${i} words here ${i * 7}</h${(i % 6) + 1}></body></html>`));
    sites.push(profile('a1', A1), profile('a2', A2), profile('a3', A3));
    const byBucket = new Map<string, string[]>();
    for (const s of sites) for (const b of siteBuckets(s)) (byBucket.get(b) ?? byBucket.set(b, []).get(b)!).push(s.scanId);
    const byId = new Map(sites.map((s) => [s.scanId, s]));
    const index: BucketIndex = {
      members: async (buckets, cap) => new Map(buckets.map((b) => [b, (byBucket.get(b) ?? []).slice(0, cap + 1)])),
      profiles: async (ids) => ids.map((id) => byId.get(id)!),
    };
    const target = byId.get('a1')!;
    const linked = (xs: Array<{ scanId: string; score: number }>) => xs.filter((x) => x.score >= LINK_THRESHOLD).map((x) => x.scanId).sort();
    const fast = await findSimilarSites(target, index);
    assert.deepEqual(linked(fast), ['a2', 'a3']);
    assert.deepEqual(linked(fast), linked(bruteForceSimilar(target, sites)));
  });
});
