// Similar sites and campaign suggestions end to end: seven fixture sites on 127.0.0.1 (kit A on
// three brands, kits B and C sharing one wallet, an unrelated scam site, a benign page) are
// investigated for real (one page each), fingerprinted by the investigation workflow, and then:
// kit A's sites are linked, B and C are linked by their wallet only, the unrelated and benign sites
// join nothing although every site shares one hosting address; the families come out as campaign
// suggestions; a dismissed one stays dismissed through a recompute; an accepted one becomes a
// campaign with its investigations, audited.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { recomputeSuggestions } from '../../services/similarity/suggestion-service';
import { asUser, http } from '../support/http';
import { usersForEveryRole } from '../support/identities';
import { startKitFamilyFixture, type KitFamilyFixture } from '../support/kit-family-fixture';
import { startTestApi, startTestWorker, testKnex } from '../support/platform';
import { waitForScanEnd } from '../support/investigation-stack';

type SiteName = keyof KitFamilyFixture['sites'];
interface Similar { scan_id: string; score: number; linked: boolean; reasons: Array<{ kind: string; detail: string; weight: number; shared_infrastructure?: boolean }> }
interface Suggestion { id: string; status: string; members: Array<{ kind: string; scan_id?: string; entity_id?: string }>; reasons: Array<{ kind: string }> }

describe('similar sites and campaign suggestions over kit families', function () {
  this.timeout(300_000);
  let fixture: KitFamilyFixture;
  let url = '';
  let analyst: Record<string, string> = {};
  let analystEmail = '';
  const scans = {} as Record<SiteName, string>;
  const nameOf = (scanId: string) => (Object.entries(scans).find(([, id]) => id === scanId)?.[0] ?? 'other');

  before(async () => {
    fixture = await startKitFamilyFixture(7100 + Math.floor(Math.random() * 800));
    const queue = `similar-${randomUUID().slice(0, 8)}`;
    const env = { SVC_TEMPORAL__TASK_QUEUE: queue, SVC_AUTH__TRUST_PROXY_HEADER: 'true', SVC_SSI__ALLOW_PRIVATE_TARGETS: '127.0.0.1', SVC_WORKER__INSTANCE: `t-${queue}` };
    await startTestWorker(queue, env);
    url = (await startTestApi(env)).url;
    analystEmail = (await usersForEveryRole()).analyst;
    analyst = asUser(analystEmail);
    const started = await Promise.all(Object.values(fixture.sites).map(async (site) => {
      const r = await http(`${url}/investigations/ssi`, { method: 'POST', headers: analyst, json: { url: site.url, playbook_id: null, options: { max_pages: 1, coin_tabs: false, page_timeout_s: 20 }, agent: { register: false } } });
      assert.equal(r.status, 202, r.text);
      scans[site.name as SiteName] = r.body.scan_id;
      return r.body;
    }));
    for (const s of started) {
      const task = await waitForScanEnd(url, `/tasks/${s.task_id}`, analyst);
      assert.equal(task.status, 'completed', JSON.stringify(task).slice(0, 500));
    }
  });
  after(async () => fixture?.close());

  const similar = async (name: SiteName): Promise<Similar[]> => {
    const r = await http(`${url}/investigations/ssi/${scans[name]}/similar`, { headers: analyst });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.fingerprinted, true, `${name} is fingerprinted`);
    assert.equal(r.body.link_threshold, 0.5);
    return r.body.items;
  };
  const linkedNames = (items: Similar[]) => items.filter((i) => i.linked).map((i) => nameOf(i.scan_id)).sort();

  it('kit A on three brands, colours, wallets and paths: each site is linked to the other two by dom, assets and kit, and to nothing else', async () => {
    for (const [me, others] of [['a1', ['a2', 'a3']], ['a2', ['a1', 'a3']], ['a3', ['a1', 'a2']]] as const) {
      const items = await similar(me);
      assert.deepEqual(linkedNames(items), others, `${me}: ${JSON.stringify(items.map((i) => [nameOf(i.scan_id), i.score]))}`);
      for (const i of items.filter((x) => x.linked)) {
        const kinds = new Set(i.reasons.map((r) => r.kind));
        for (const k of ['dom', 'assets', 'kit']) assert.ok(kinds.has(k), `${me}~${nameOf(i.scan_id)} has a ${k} reason: ${JSON.stringify(i.reasons)}`);
        assert.ok(i.score >= 0.5 && i.score <= 1);
      }
    }
  });

  it('two different kits sharing one wallet are linked with the reason shared_wallet', async () => {
    const items = await similar('b1');
    assert.deepEqual(linkedNames(items), ['c1'], JSON.stringify(items));
    const c1 = items.find((i) => i.scan_id === scans.c1)!;
    assert.ok(c1.reasons.some((r) => r.kind === 'shared_wallet' && r.detail.includes(fixture.sites.b1.wallet!)), JSON.stringify(c1.reasons));
    assert.ok(!c1.reasons.some((r) => r.kind === 'dom' || r.kind === 'kit'), 'the kits themselves differ');
  });

  it('a shared hosting address alone links nothing: the unrelated and benign sites share 127.0.0.1 with every site and join none', async () => {
    const ips = (await testKnex()('investigation_pages').whereIn('scan_id', Object.values(scans)).distinct('server_ip')) as Array<{ server_ip: string }>;
    assert.deepEqual(ips.map((r) => r.server_ip), ['127.0.0.1'], 'every site has the same server address');
    for (const lone of ['unrelated', 'benign'] as const) {
      assert.deepEqual(linkedNames(await similar(lone)), [], `${lone} is linked to nothing`);
    }
    for (const name of ['a1', 'b1', 'c1'] as const) {
      const items = await similar(name);
      assert.ok(!items.some((i) => i.linked && [scans.unrelated, scans.benign].includes(i.scan_id)), `${name} is not linked to the unrelated or benign site`);
    }
  });

  it('GET /investigations/ssi/{scan_id}/similar: 404 for an unknown scan, 400 for a bad limit', async () => {
    const missing = await http(`${url}/investigations/ssi/${randomUUID()}/similar`, { headers: analyst });
    assert.equal(missing.status, 404, missing.text);
    const bad = await http(`${url}/investigations/ssi/${scans.a1}/similar?limit=0`, { headers: analyst });
    assert.equal(bad.status, 400, bad.text);
    assert.equal(bad.body.error.details[0].path, 'query.limit');
  });

  const mine = async (status = 'open'): Promise<Suggestion[]> => {
    const r = await http(`${url}/campaigns/suggestions?status=${status}&limit=500`, { headers: analyst });
    assert.equal(r.status, 200, r.text);
    const ours = new Set(Object.values(scans));
    return (r.body.items as Suggestion[]).filter((s) => s.members.some((m) => m.kind === 'investigation' && ours.has(m.scan_id!)));
  };
  const sitesOf = (s: Suggestion) => s.members.filter((m) => m.kind === 'investigation').map((m) => nameOf(m.scan_id!)).sort();

  it('the families come out as campaign suggestions with their reasons; the unrelated and benign sites are in none', async () => {
    const open = await mine();
    assert.deepEqual(open.map(sitesOf).sort(), [['a1', 'a2', 'a3'], ['b1', 'c1']], JSON.stringify(open));
    const bc = open.find((s) => sitesOf(s).includes('b1'))!;
    assert.deepEqual(bc.reasons.map((r) => r.kind), ['shared_wallet']);
    assert.ok(bc.members.some((m) => m.kind === 'entity'), 'the shared wallet is a member entity');
    const a = open.find((s) => sitesOf(s).includes('a1'))!;
    assert.ok(['dom', 'assets', 'kit'].every((k) => a.reasons.some((r) => r.kind === k)), JSON.stringify(a.reasons));
  });

  it('a dismissed suggestion stays dismissed when the suggestions are recomputed; an accepted one becomes a campaign with its investigations, audited', async () => {
    const open = await mine();
    const bc = open.find((s) => sitesOf(s).includes('b1'))!;
    const dismissed = await http(`${url}/campaigns/suggestions/${bc.id}/dismiss`, { method: 'POST', headers: analyst });
    assert.equal(dismissed.status, 200, dismissed.text);
    assert.equal(dismissed.body.status, 'dismissed');
    await recomputeSuggestions({ knex: testKnex() });
    assert.deepEqual((await mine()).map(sitesOf), [['a1', 'a2', 'a3']], 'b1+c1 do not come back');
    assert.deepEqual((await mine('dismissed')).map((s) => s.id), [bc.id]);
    const again = await http(`${url}/campaigns/suggestions/${bc.id}/dismiss`, { method: 'POST', headers: analyst });
    assert.equal(again.status, 409, again.text);

    const a = (await mine()).find((s) => sitesOf(s).includes('a1'))!;
    const name = `Kit A operation ${randomUUID().slice(0, 8)}`;
    const accepted = await http(`${url}/campaigns/suggestions/${a.id}/accept`, { method: 'POST', headers: analyst, json: { name } });
    assert.equal(accepted.status, 201, accepted.text);
    assert.equal(accepted.body.suggestion.status, 'accepted');
    assert.equal(accepted.body.campaign.name, name);
    const campaign = await http(`${url}/campaigns/${accepted.body.campaign.id}`, { headers: analyst });
    assert.equal(campaign.status, 200, campaign.text);
    assert.deepEqual(campaign.body.member_investigations.map((i: { scan_id: string }) => nameOf(i.scan_id)).sort(), ['a1', 'a2', 'a3']);
    const audit = (await testKnex()('audit_events').where({ target_id: a.id }).select('action', 'actor')) as Array<{ action: string; actor: string }>;
    assert.deepEqual(audit, [{ action: 'campaign_suggestion.accept', actor: analystEmail }]);
    await recomputeSuggestions({ knex: testKnex() });
    assert.deepEqual(await mine(), [], 'an accepted cluster is not suggested again');
  });
});
