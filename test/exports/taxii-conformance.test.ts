// TAXII 2.1 to the letter, checked with the OASIS taxii2-client (pinned, scripts/python-tools.sh)
// against the running server: every page size (1, 5, 50) returns each object of each collection
// exactly once (the fixed identity, markings and extension-definition included) with equal totals;
// a poll with added_after = the last X-TAXII-Date-Added-Last returns nothing; filtered polls take
// one request per page of matching objects; Get An Object and Get Object Versions; HTTP Basic with
// the API key as password, and a 401 with WWW-Authenticate. Then, over plain HTTP: added_after is
// strict at millisecond precision, and every TAXII error is a TAXII error message.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { recordSourceEntities } from '../../db/repositories/intelligence/entity-repository';
import { PRODUCER_IDENTITY_ID, TLP_MARKING_IDS, WALLET_EXTENSION_ID, observable } from '../../domain/exports/stix-objects';
import { TAXII_COLLECTIONS, TAXII_MEDIA_TYPE } from '../../domain/exports/taxii';
import { http } from '../support/http';
import { createTestApiKey } from '../support/identities';
import { startTestApi, testKnex } from '../support/platform';
import { runPythonClient } from '../support/python-clients';

const INDICATORS = TAXII_COLLECTIONS.find((c) => c.key === 'indicators')!.id;
const WALLETS = TAXII_COLLECTIONS.find((c) => c.key === 'wallets')!.id;
const CAMPAIGNS = TAXII_COLLECTIONS.find((c) => c.key === 'campaigns')!.id;
const SIZES = [1, 5, 50];

interface ClientReport {
  server: { title: string; api_roots: string[] };
  collections: Record<
    string,
    {
      title: string;
      pages: Record<string, { ids: string[]; requests: number; largest_page: number; last_added: string | null }>;
      poll_after_last: { added_after: string | null; objects: string[]; more: boolean | null };
      manifest: Array<{ id: string; date_added: string; version: string; media_type: string }>;
    }
  >;
  filtered: Array<{ filters: Record<string, string>; per_request: number; pages: string[][]; requests: number }>;
  objects: Array<{ id: string; objects: Array<{ id: string; type: string; modified?: string }>; versions: string[]; date_added_last: string | null }>;
  wrong_password: { status: number; www_authenticate?: string; content_type?: string; body?: Record<string, unknown> };
}

describe('TAXII 2.1 conformance with the OASIS taxii2-client', function () {
  this.timeout(300_000);
  let url: string;
  let key: string;
  const tag = randomUUID().slice(0, 8);
  const wallets = Array.from({ length: 7 }, (_, i) => `0x${tag}${String(i).padStart(32, 'c')}`);
  let indicatorIds: string[] = [];
  let campaignId: string;
  let report: ClientReport;

  before(async () => {
    url = (await startTestApi()).url;
    key = await createTestApiKey(['taxii:read']);
    const recorded = await recordSourceEntities(testKnex(), { kind: 'manual', id: `conformance-${tag}` }, [
      ...Array.from({ length: 23 }, (_, i) => ({ type: 'domain' as const, value: `c${i}-${tag}.example` })),
      ...wallets.map((value) => ({ type: 'wallet' as const, value, attributes: { network: 'ethereum' } })),
    ]);
    indicatorIds = recorded.entities.filter((e) => e.type === 'domain').map((e) => `indicator--${e.id}`);
    campaignId = randomUUID();
    await testKnex()('campaigns').insert({ id: campaignId, name: `Conformance ${tag}`, created_by: 'test' });
    const plan = {
      url: `${url}/taxii2/`,
      user: 'partner-x',
      password: key,
      page_sizes: SIZES,
      filtered: [
        { collection: INDICATORS, per_request: 5, filters: { type: 'indicator' } },
        { collection: INDICATORS, per_request: 2, filters: { type: 'marking-definition' } },
        { collection: WALLETS, per_request: 1, filters: { id: [observable('wallet', wallets[2]!).id, observable('wallet', wallets[5]!).id, WALLET_EXTENSION_ID].join(',') } },
        { collection: INDICATORS, per_request: 3, filters: { type: 'indicator', spec_version: '2.0' } },
      ],
      objects: [
        { collection: INDICATORS, id: indicatorIds[0] },
        { collection: INDICATORS, id: TLP_MARKING_IDS.amber },
        { collection: WALLETS, id: observable('wallet', wallets[0]!).id },
        { collection: CAMPAIGNS, id: `campaign--${campaignId}` },
      ],
      wrong_password: 'fip_nope_wrong',
    };
    report = await runPythonClient<ClientReport>('taxii-client.py', [JSON.stringify(plan)]);
  });

  it('discovers the API root and pages every collection at sizes 1, 5 and 50: each object exactly once, equal totals, fixed objects included', async () => {
    assert.deepEqual(report.server.api_roots, [`${url}/taxii2/api/`]);
    assert.deepEqual(Object.keys(report.collections).sort(), [INDICATORS, WALLETS, CAMPAIGNS].sort());
    for (const [id, c] of Object.entries(report.collections)) {
      const reference = [...c.pages['50']!.ids].sort();
      for (const size of SIZES) {
        const got = c.pages[String(size)]!;
        assert.equal(new Set(got.ids).size, got.ids.length, `${c.title} at ${size}: an object repeated`);
        assert.deepEqual([...got.ids].sort(), reference, `${c.title} at ${size}: not the same objects as at 50`);
        assert.ok(got.largest_page <= size, `${c.title} at ${size}: a page of ${got.largest_page}`);
        assert.equal(got.requests, Math.max(1, Math.ceil(got.ids.length / size)), `${c.title} at ${size}: ${got.requests} requests for ${got.ids.length} objects`);
      }
      assert.ok(reference.includes(PRODUCER_IDENTITY_ID), `${c.title} has the producer identity`);
      if (id === INDICATORS) {
        for (const m of Object.values(TLP_MARKING_IDS)) assert.ok(reference.includes(m), `indicators has ${m}`);
        for (const i of indicatorIds) assert.ok(reference.includes(i));
        const total = Number((await testKnex()('indicators').count<Array<{ n: string }>>('* as n'))[0]!.n);
        assert.equal(reference.length, total + 6, 'every indicator and the six fixed objects');
      }
      if (id === WALLETS) {
        assert.ok(reference.includes(WALLET_EXTENSION_ID));
        for (const w of wallets) assert.ok(reference.includes(observable('wallet', w).id));
      }
      if (id === CAMPAIGNS) assert.ok(reference.includes(`campaign--${campaignId}`));
      // The manifest is the same stream.
      assert.deepEqual(c.manifest.map((m) => m.id).sort(), reference);
      assert.ok(c.manifest.every((m) => m.media_type === 'application/stix+json;version=2.1' && m.version && m.date_added));
    }
  });

  it('a poll with added_after = the last X-TAXII-Date-Added-Last returns nothing already seen', () => {
    for (const c of Object.values(report.collections)) {
      assert.ok(c.poll_after_last.added_after, c.title);
      assert.deepEqual(c.poll_after_last.objects, [], `${c.title}: ${c.poll_after_last.objects.join(', ')}`);
      assert.equal(c.poll_after_last.more, false);
    }
  });

  it('filters apply before paging: one request per page of matching objects, every page full but the last', () => {
    const [byType, markings, walletIds, noSpec] = report.filtered;
    const indicatorTotal = report.collections[INDICATORS]!.pages['50']!.ids.filter((i) => i.startsWith('indicator--')).length;
    assert.equal(byType!.requests, Math.ceil(indicatorTotal / 5));
    assert.equal(byType!.pages.flat().length, indicatorTotal);
    assert.ok(byType!.pages.flat().every((i) => i.startsWith('indicator--')));
    assert.ok(byType!.pages.slice(0, -1).every((p) => p.length === 5), JSON.stringify(byType!.pages.map((p) => p.length)));
    assert.deepEqual(markings!.pages.map((p) => p.length), [2, 2, 1]);
    assert.equal(markings!.requests, 3);
    assert.deepEqual(walletIds!.pages, [[WALLET_EXTENSION_ID], [observable('wallet', wallets[2]!).id], [observable('wallet', wallets[5]!).id]]);
    assert.equal(walletIds!.requests, 3);
    assert.deepEqual(noSpec!.pages, [[]]);
    assert.equal(noSpec!.requests, 1);
  });

  it('Get An Object and Get Object Versions answer the object and its version', () => {
    for (const o of report.objects) {
      assert.deepEqual(o.objects.map((x) => x.id), [o.id]);
      assert.equal(o.versions.length, 1, o.id);
      assert.ok(o.date_added_last, o.id);
    }
    const indicator = report.objects[0]!;
    assert.equal(indicator.versions[0], indicator.objects[0]!.modified);
  });

  it('HTTP Basic: the key as password works with any user name; a wrong one is a 401 TAXII error with WWW-Authenticate: Basic', () => {
    assert.equal(report.server.title, 'Fraud Intelligence Platform TAXII 2.1');
    const wrong = report.wrong_password;
    assert.equal(wrong.status, 401);
    assert.match(wrong.www_authenticate ?? '', /^Basic realm="[^"]+"/);
    assert.equal(wrong.content_type, TAXII_MEDIA_TYPE);
    assert.equal(wrong.body?.http_status, '401');
    assert.equal(typeof wrong.body?.title, 'string');
  });

  it('added_after is strict at millisecond precision, and other answers are TAXII error messages (401, 400, 404, 406)', async () => {
    const headers = { 'X-API-KEY': key, Accept: TAXII_MEDIA_TYPE };
    const id = indicatorIds[3]!;
    const entry = report.collections[INDICATORS]!.manifest.find((m) => m.id === id)!;
    const at = async (addedAfter: string) => {
      const res = await http(`${url}/taxii2/api/collections/${INDICATORS}/objects/?match[id]=${id}&added_after=${encodeURIComponent(addedAfter)}`, { headers });
      assert.equal(res.status, 200, res.text);
      return (res.body.objects as Array<{ id: string }>).map((o) => o.id);
    };
    assert.deepEqual(await at(entry.date_added), []);
    assert.deepEqual(await at(new Date(Date.parse(entry.date_added) - 1).toISOString()), [id]);

    const anonymous = await http(`${url}/taxii2/`, { headers: { Accept: TAXII_MEDIA_TYPE } });
    assert.equal(anonymous.status, 401);
    assert.match(anonymous.headers.get('www-authenticate') ?? '', /^Basic realm=/);
    assert.equal(anonymous.headers.get('content-type'), TAXII_MEDIA_TYPE);
    assert.equal(anonymous.body.error_code, 'unauthenticated');
    const basic = await http(`${url}/taxii2/api/collections/`, { headers: { Authorization: `Basic ${Buffer.from(`anyone:${key}`).toString('base64')}`, Accept: TAXII_MEDIA_TYPE } });
    assert.equal(basic.status, 200);
    for (const [path, status] of [
      [`/taxii2/api/collections/${INDICATORS}/objects/?limit=0`, 400],
      [`/taxii2/api/collections/${randomUUID()}/objects/`, 404],
      [`/taxii2/api/collections/${INDICATORS}/objects/indicator--${randomUUID()}/`, 404],
      [`/taxii2/api/collections/${INDICATORS}/objects/indicator--${randomUUID()}/versions/`, 404],
      ['/taxii2/api/nothing-here/', 404],
    ] as const) {
      const res = await http(`${url}${path}`, { headers });
      assert.equal(res.status, status, `${path}: ${res.text}`);
      assert.equal(res.headers.get('content-type'), TAXII_MEDIA_TYPE, path);
      assert.equal(res.body.http_status, String(status), path);
      assert.ok(res.body.title && res.body.description && res.body.error_id, path);
    }
    const notAcceptable = await http(`${url}/taxii2/`, { headers: { 'X-API-KEY': key, Accept: 'application/json' } });
    assert.equal(notAcceptable.status, 406);
    assert.equal(notAcceptable.body.error_code, 'not_acceptable');
    // The rest of the API keeps its own error shape.
    const elsewhere = await http(`${url}/feeds/indicators?limit=0`, { headers: { 'X-API-KEY': key } });
    assert.equal(elsewhere.body.error.code, 'validation_failed');
  });
});
