// The TAXII 2.1 server and the partner feed on real PostgreSQL: discovery, collections, content
// negotiation (406), service keys with taxii:read, match filters, manifest, STIX validity of what
// they serve (OASIS validator, strict), and paging that never skips or repeats an object while
// writers add objects, including a writer whose transaction took its revision before others and
// commits after them.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { recordSourceEntities } from '../../db/repositories/intelligence/entity-repository';
import { TAXII_COLLECTIONS, TAXII_MEDIA_TYPE } from '../../domain/exports/taxii';
import type { Role } from '../../domain/accounts/roles';
import { asUser, http } from '../support/http';
import { createTestApiKey, usersForEveryRole } from '../support/identities';
import { startTestApi, testKnex } from '../support/platform';
import { validateStrict } from '../support/stix-validator';

const INDICATORS = TAXII_COLLECTIONS.find((c) => c.key === 'indicators')!.id;
const WALLETS = TAXII_COLLECTIONS.find((c) => c.key === 'wallets')!.id;
const CAMPAIGNS = TAXII_COLLECTIONS.find((c) => c.key === 'campaigns')!.id;
const TAXII = { Accept: TAXII_MEDIA_TYPE };

/**
 * Writes `count` new domains (tagged) from concurrent sources while the reader pages; some writes
 * hold their transaction open after taking their revision, so later revisions commit first.
 */
async function writeConcurrently(tag: string, count: number): Promise<string[]> {
  const knex = testKnex();
  const written: string[] = [];
  const one = async (i: number) => {
    const value = `w${i}-${tag}.example`;
    if (i % 5 === 0) {
      // Revision taken now, committed ~400 ms later, after writes that started later.
      await knex.transaction(async (trx) => {
        await recordSourceEntities(trx, { kind: 'manual', id: `concurrent-${tag}-${i}` }, [{ type: 'domain', value }]);
        await sleep(400);
      });
    } else {
      await recordSourceEntities(knex, { kind: 'manual', id: `concurrent-${tag}-${i}` }, [{ type: 'domain', value }]);
    }
    written.push(value);
  };
  const lanes = 4;
  await Promise.all(
    Array.from({ length: lanes }, async (_, lane) => {
      for (let i = lane; i < count; i += lanes) {
        await one(i);
        await sleep(15);
      }
    }),
  );
  return written;
}

describe('TAXII 2.1 server and the partner feed', function () {
  this.timeout(180_000);
  let url: string;
  let as: Record<Role, Record<string, string>>;
  let taxiiKey: Record<string, string>;

  before(async () => {
    const users = await usersForEveryRole();
    as = Object.fromEntries(Object.entries(users).map(([r, e]) => [r, asUser(e)])) as Record<Role, Record<string, string>>;
    url = (await startTestApi({ SVC_AUTH__TRUST_PROXY_HEADER: 'true' })).url;
    taxiiKey = { 'X-API-KEY': await createTestApiKey(['taxii:read']) };
  });

  it('answers discovery, the API root and the collections in application/taxii+json;version=2.1 to a taxii:read key and to analysts', async () => {
    const discovery = await http(`${url}/taxii2/`, { headers: { ...taxiiKey, ...TAXII } });
    assert.equal(discovery.status, 200, discovery.text);
    assert.equal(discovery.headers.get('content-type'), TAXII_MEDIA_TYPE);
    assert.deepEqual(discovery.body.api_roots, [`${url}/taxii2/api/`]);
    const root = await http(`${url}/taxii2/api/`, { headers: { ...as.analyst, ...TAXII } });
    assert.deepEqual(root.body.versions, [TAXII_MEDIA_TYPE]);
    const collections = await http(`${url}/taxii2/api/collections/`, { headers: { ...taxiiKey, ...TAXII } });
    assert.deepEqual(collections.body.collections.map((c: { id: string; title: string; can_read: boolean; can_write: boolean }) => [c.id, c.title, c.can_read, c.can_write]), [
      [INDICATORS, 'Indicators', true, false],
      [WALLETS, 'Cryptocurrency wallets', true, false],
      [CAMPAIGNS, 'Campaigns', true, false],
    ]);
    const one = await http(`${url}/taxii2/api/collections/${WALLETS}/`, { headers: { ...taxiiKey, ...TAXII } });
    assert.equal(one.body.id, WALLETS);
    const unknown = await http(`${url}/taxii2/api/collections/${randomUUID()}/`, { headers: { ...taxiiKey, ...TAXII } });
    assert.equal(unknown.status, 404);
    const otherKey = await http(`${url}/taxii2/`, { headers: { 'X-API-KEY': await createTestApiKey(['reports:read']), ...TAXII } });
    assert.equal(otherKey.status, 403);
  });

  it('negotiates content: 406 for an Accept without TAXII 2.1, 200 for taxii+json (any or 2.1 version) and */*', async () => {
    for (const accept of ['application/json', 'application/taxii+json;version=2.0', 'text/html, application/xml', 'application/taxii+json;version=2.1;q=0']) {
      const res = await http(`${url}/taxii2/api/collections/`, { headers: { ...taxiiKey, Accept: accept } });
      assert.equal(res.status, 406, accept);
      assert.equal(res.body.error_code, 'not_acceptable');
      assert.equal(res.body.http_status, '406');
    }
    for (const accept of [TAXII_MEDIA_TYPE, 'application/taxii+json', '*/*', 'text/html, application/taxii+json; version=2.1']) {
      const res = await http(`${url}/taxii2/api/collections/${INDICATORS}/objects/?limit=1`, { headers: { ...taxiiKey, Accept: accept } });
      assert.equal(res.status, 200, `${accept}: ${res.text}`);
      assert.equal(res.headers.get('content-type'), TAXII_MEDIA_TYPE);
    }
  });

  it('pages a collection with limit/next and match filters, serves the manifest and date-added headers, and its objects validate (OASIS, strict)', async () => {
    const tag = randomUUID().slice(0, 8);
    const wallet = `0x${tag}${'b'.repeat(32)}`;
    const recorded = await recordSourceEntities(testKnex(), { kind: 'manual', id: `taxii-${tag}` }, [
      { type: 'wallet', value: wallet, attributes: { network: 'ethereum' } },
      { type: 'domain', value: `taxii-${tag}.example` },
    ]);
    const domainId = recorded.entities.find((e) => e.type === 'domain')!.id;
    await testKnex()('campaigns').insert({ id: randomUUID(), name: `TAXII campaign ${tag}`, created_by: 'test' });

    const all: Array<Record<string, unknown>> = [];
    for (const collection of [INDICATORS, WALLETS, CAMPAIGNS]) {
      let next: string | undefined;
      for (let pages = 0; pages < 10_000; pages++) {
        const res = await http(`${url}/taxii2/api/collections/${collection}/objects/?limit=200${next ? `&next=${next}` : ''}`, { headers: { ...taxiiKey, ...TAXII } });
        assert.equal(res.status, 200, res.text);
        all.push(...res.body.objects);
        if (res.body.objects.length) {
          assert.ok(res.headers.get('x-taxii-date-added-first'));
          assert.ok(res.headers.get('x-taxii-date-added-last')! >= res.headers.get('x-taxii-date-added-first')!);
        }
        if (!res.body.more) break;
        next = res.body.next;
      }
    }
    const ids = all.map((o) => o.id);
    const unique = [...new Map(all.map((o) => [o.id, o])).values()];
    assert.ok(ids.includes(`indicator--${domainId}`));
    assert.ok(all.some((o) => o.type === 'cryptocurrency-wallet' && o.value === wallet));
    assert.ok(all.some((o) => o.type === 'campaign' && o.name === `TAXII campaign ${tag}`));
    const result = await validateStrict({ type: 'bundle', id: `bundle--${randomUUID()}`, objects: unique });
    assert.deepEqual(result.findings, [], result.output);

    const byId = await http(`${url}/taxii2/api/collections/${INDICATORS}/objects/?match[id]=indicator--${domainId}`, { headers: { ...taxiiKey, ...TAXII } });
    assert.deepEqual(byId.body.objects.filter((o: { type: string }) => o.type === 'indicator').map((o: { id: string }) => o.id), [`indicator--${domainId}`]);
    const byType = await http(`${url}/taxii2/api/collections/${INDICATORS}/objects/?match[type]=marking-definition`, { headers: { ...taxiiKey, ...TAXII } });
    assert.equal(byType.body.objects.length, 5);
    assert.ok(byType.body.objects.every((o: { type: string }) => o.type === 'marking-definition'));

    const manifest = await http(`${url}/taxii2/api/collections/${INDICATORS}/manifest/?match[id]=indicator--${domainId}`, { headers: { ...taxiiKey, ...TAXII } });
    assert.equal(manifest.status, 200);
    const entry = manifest.body.objects.find((o: { id: string }) => o.id === `indicator--${domainId}`);
    assert.equal(entry.media_type, 'application/stix+json;version=2.1');
    assert.ok(entry.version && entry.date_added);
  });

  it('TAXII paging never skips or repeats an object while writers add objects (late-committing transactions included)', async () => {
    const tag = randomUUID().slice(0, 8);
    const seen: string[] = [];
    const allIds: string[] = [];
    let writing = true;
    const writer = writeConcurrently(tag, 60).finally(() => {
      writing = false;
    });
    let next: string | undefined;
    for (let rounds = 0; rounds < 100_000; rounds++) {
      const wasWriting = writing;
      const res = await http(`${url}/taxii2/api/collections/${INDICATORS}/objects/?limit=7${next ? `&next=${next}` : ''}`, { headers: { ...taxiiKey, ...TAXII } });
      assert.equal(res.status, 200, res.text);
      for (const o of res.body.objects as Array<{ id: string; type: string; pattern?: string }>) {
        if (o.type === 'indicator') allIds.push(o.id);
        const m = o.pattern?.match(/^\[domain-name:value = '(w\d+-[0-9a-f]{8}\.example)'\]$/);
        if (m && m[1]!.endsWith(`-${tag}.example`)) seen.push(m[1]!);
      }
      next = res.body.next ?? next;
      // Done once a page read after every writer committed says there is nothing more.
      if (!res.body.more && !wasWriting) break;
      if (!res.body.more) await sleep(50);
    }
    const written = await writer;
    assert.equal(new Set(allIds).size, allIds.length, 'no object repeated');
    assert.deepEqual([...seen].sort(), [...written].sort());
  });

  it('the feed cursor never skips or repeats a change under concurrent writes; answers next_cursor and complete_until; csv and stix formats', async () => {
    const tag = randomUUID().slice(0, 8);
    const seen: string[] = [];
    const allIds: string[] = [];
    let writing = true;
    const writer = writeConcurrently(tag, 40).finally(() => {
      writing = false;
    });
    let cursor: string | null = null;
    let last: { complete_until: string | null; more: boolean } | null = null;
    for (let rounds = 0; rounds < 100_000; rounds++) {
      const wasWriting = writing;
      const res: { status: number; text: string; body: { items: Array<{ id: string; value: string; revision: string }>; next_cursor: string | null; more: boolean; complete_until: string | null } } = await http(`${url}/feeds/indicators?limit=5${cursor ? `&cursor=${cursor}` : ''}`, { headers: taxiiKey });
      assert.equal(res.status, 200, res.text);
      for (const item of res.body.items as Array<{ id: string; value: string; revision: string }>) {
        allIds.push(`${item.id}@${item.revision}`);
        if (item.value.endsWith(`-${tag}.example`)) seen.push(item.value);
      }
      cursor = res.body.next_cursor ?? cursor;
      last = res.body;
      if (!res.body.more && !wasWriting) break;
      if (!res.body.more) await sleep(50);
    }
    const written = await writer;
    assert.equal(new Set(allIds).size, allIds.length, 'no change repeated');
    assert.deepEqual([...seen].sort(), [...written].sort());
    assert.equal(last!.more, false);
    assert.ok(Date.parse(last!.complete_until!) <= Date.now());

    const started = new Date(Date.now() - 60_000).toISOString();
    const csv = await http(`${url}/feeds/indicators?format=csv&limit=1000&since=${encodeURIComponent(started)}`, { headers: taxiiKey });
    assert.equal(csv.status, 200);
    assert.match(csv.headers.get('content-type')!, /^text\/csv/);
    assert.ok(csv.headers.get('x-next-cursor'));
    assert.ok(csv.text.includes(`w0-${tag}.example`));
    const stix = await http(`${url}/feeds/indicators?format=stix&limit=50&since=${encodeURIComponent(started)}`, { headers: taxiiKey });
    assert.equal(stix.headers.get('content-type'), 'application/stix+json;version=2.1');
    const result = await validateStrict(stix.text);
    assert.deepEqual(result.findings, [], result.output);
    const both = await http(`${url}/feeds/indicators?since=${encodeURIComponent(started)}&cursor=${cursor}`, { headers: taxiiKey });
    assert.equal(both.status, 400);
    const badCursor = await http(`${url}/feeds/indicators?cursor=nonsense`, { headers: taxiiKey });
    assert.equal(badCursor.status, 400);
    assert.equal(badCursor.body.error.details[0].path, 'query.cursor');
  });
});
