// MISP through the API on real PostgreSQL, read back by the real PyMISP (MISPEvent().load): the event
// of a campaign and of a case (wallets as coin-address objects with btc/xmr where MISP has the type,
// domains, URLs, IPs, e-mails, phones, IBANs as their attribute types, exactly one TLP tag, the scam
// taxonomy as tags, stable uuids, bank details masked for every role but analyst), and the feed
// (manifest.json, hashes.csv, <uuid>.json) consistent with itself and with PyMISP's own manifest and
// feed hashes.
import assert from 'node:assert/strict';
import { randomInt, randomUUID } from 'node:crypto';
import { createCase } from '../../db/repositories/cases/case-repository';
import { recordSourceEntities } from '../../db/repositories/intelligence/entity-repository';
import { insertInvestigation } from '../../db/repositories/investigations/investigation-repository';
import type { Role } from '../../domain/accounts/roles';
import { mispEventUuid } from '../../domain/exports/misp-event';
import { asUser, http } from '../support/http';
import { createTestApiKey, usersForEveryRole } from '../support/identities';
import { startTestApi, testKnex } from '../support/platform';
import { loadWithPyMisp, type PyMispEvent } from '../support/pymisp';
import { makeAddresses } from '../support/wallet-address-factory';

const IBAN = 'DE89370400440532013000';

interface Seeded {
  tag: string;
  campaignId: string;
  caseId: string;
  /** As the graph stores them (EVM addresses in lower case). */
  wallets: { btc: string; xmr: string; tron: string; evm: string };
  direct: string;
  url: string;
  email: string;
}

/** A campaign with a direct domain, and a case of it whose entities come from the case, an attached intake and an investigation started in the case. */
async function seed(analyst: string): Promise<Seeded> {
  const knex = testKnex();
  const tag = randomUUID().slice(0, 8);
  const a = makeAddresses(randomInt(1, 2 ** 31));
  const [campaign] = await knex('campaigns').insert({ name: `MISP ring ${tag}`, created_by: analyst, taxonomy: 'investment/crypto/pig-butchering' }).returning('id');
  const campaignId = (campaign as { id: string }).id;
  const direct = `direct-${tag}.example`;
  const rec = await recordSourceEntities(knex, { kind: 'manual', id: `misp-${tag}` }, [{ type: 'domain', value: direct }]);
  await knex('campaign_entities').insert({ campaign_id: campaignId, entity_id: rec.entities[0]!.id, added_by: analyst });

  const c = await createCase(knex, { title: `Fake exchange ${tag}`, campaign_id: campaignId, priority: 'high' }, analyst);
  await knex('cases').where({ id: c.id }).update({ taxonomy: 'investment/crypto/fake-exchange' });
  const email = `ops-${tag}@scam.example`;
  await recordSourceEntities(knex, { kind: 'case', id: c.id }, [
    { type: 'phone', value: '+44 20 7946 0958' },
    { type: 'bank_account', value: IBAN },
    { type: 'email', value: email },
    { type: 'ip', value: '203.0.113.77' },
  ]);
  // An intake attached to the case (intakes.case_id) and an investigation started in it (investigations.case_id), neither linked.
  const intakeId = randomUUID();
  await knex('intakes').insert({ id: intakeId, source: 'web', summary: `misp ${tag}`, submitted_by: analyst, case_id: c.id });
  const url = `https://pay-${tag}.example/deposit`;
  await recordSourceEntities(knex, { kind: 'intake', id: intakeId }, [{ type: 'url', value: url }]);
  const scanId = randomUUID();
  await insertInvestigation(knex, { scanId, url, domain: `pay-${tag}.example`, requestedBy: analyst, playbookId: null, caseId: c.id, label: null, options: {} });
  const wallets = { btc: a.btcSegwit, xmr: a.xmr, tron: a.tron, evm: a.evm.toLowerCase() };
  const found = await recordSourceEntities(knex, { kind: 'investigation', id: scanId }, [
    { type: 'wallet', value: wallets.btc, attributes: { network: 'Bitcoin', token: 'BTC' } },
    { type: 'wallet', value: wallets.xmr, attributes: { network: 'Monero', token: 'XMR' } },
    { type: 'wallet', value: wallets.tron, attributes: { network: 'Tron', token: 'USDT' } },
    { type: 'wallet', value: wallets.evm, attributes: { network: 'Ethereum', token: 'ETH' } },
  ]);
  assert.equal(found.entities.length, 4, JSON.stringify(found.rejected));
  // The most restrictive marking decides the event's one TLP.
  const urlEntity = await knex('entities').where({ type: 'url', value: url }).first('id');
  await knex('indicators').where({ entity_id: urlEntity.id }).update({ tlp: 'amber+strict' });
  await knex('indicators').where({ entity_id: rec.entities[0]!.id }).update({ tlp: 'green' });
  return { tag, campaignId, caseId: c.id, wallets, direct, url, email };
}

function walletOf(event: PyMispEvent, address: string) {
  const o = event.objects.find((x) => x.attributes.some((a) => a.value === address));
  assert.ok(o, `wallet ${address} is an object`);
  return o;
}

describe('MISP export and feed (PyMISP)', function () {
  this.timeout(300_000);
  let url: string;
  let users: Record<Role, string>;
  let s: Seeded;

  before(async () => {
    users = await usersForEveryRole();
    url = (await startTestApi({ SVC_AUTH__TRUST_PROXY_HEADER: 'true' })).url;
    s = await seed(users.analyst);
  });

  it('a campaign exports as one MISP event: every wallet a coin-address, typed attributes, one TLP tag, the taxonomy as tags, stable uuids', async () => {
    const res = await http(`${url}/exports/misp?campaign_id=${s.campaignId}`, { headers: asUser(users.analyst) });
    assert.equal(res.status, 200, res.text);
    assert.match(res.headers.get('content-disposition')!, /attachment; filename="misp-[0-9a-f-]{36}\.json"/);
    const [event] = await loadWithPyMisp([res.text]);
    assert.ok(event);
    assert.equal(event.uuid, mispEventUuid({ kind: 'campaign', id: s.campaignId }));
    assert.equal(event.info, `Campaign: MISP ring ${s.tag}`);

    assert.equal(event.objects.length, 4, JSON.stringify(event.objects));
    for (const o of event.objects) {
      assert.equal(o.name, 'coin-address');
      assert.equal(o.template_uuid, 'd0e6997e-78da-4815-a6a1-cfc1c1cb8a46');
      for (const a of o.attributes) assert.ok(o.known_relations.includes(a.object_relation!), `${a.object_relation} is a relation of PyMISP's coin-address template`);
    }
    const rel = (address: string) => walletOf(event, address).attributes.find((a) => a.value === address)!;
    const symbol = (address: string) => walletOf(event, address).attributes.find((a) => a.object_relation === 'symbol')?.value;
    assert.deepEqual([rel(s.wallets.btc).object_relation, rel(s.wallets.btc).type], ['address', 'btc']);
    assert.deepEqual([rel(s.wallets.xmr).object_relation, rel(s.wallets.xmr).type], ['address-xmr', 'xmr']);
    assert.deepEqual([rel(s.wallets.tron).object_relation, rel(s.wallets.tron).type], ['address-crypto', 'text']);
    assert.deepEqual([rel(s.wallets.evm).object_relation, rel(s.wallets.evm).type], ['address-crypto', 'text']);
    assert.deepEqual([symbol(s.wallets.btc), symbol(s.wallets.xmr), symbol(s.wallets.tron), symbol(s.wallets.evm)], ['BTC', 'XMR', 'USDT', 'ETH']);
    for (const a of Object.values(s.wallets)) assert.ok(rel(a).to_ids);

    const typed = Object.fromEntries(event.attributes.map((a) => [a.value, `${a.type}/${a.category}`]));
    assert.deepEqual(typed, {
      [s.direct]: 'domain/Network activity',
      [s.url]: 'url/Network activity',
      '203.0.113.77': 'ip-dst/Network activity',
      [s.email]: 'email-src/Payload delivery',
      '+442079460958': 'phone-number/Financial fraud',
      [IBAN]: 'iban/Financial fraud',
    });

    const tlp = event.tags.filter((t) => t.startsWith('tlp:'));
    assert.deepEqual(tlp, ['tlp:amber+strict']);
    assert.equal(event.distribution, 0);
    assert.equal(event.threat_level_id, 4, 'no entity has a risk score yet');
    for (const t of ['investment', 'investment/crypto', 'investment/crypto/pig-butchering', 'investment/crypto/fake-exchange']) assert.ok(event.tags.includes(`fip:scam-taxonomy="${t}"`), `${t} in ${event.tags.join(', ')}`);

    const again = await http(`${url}/exports/misp?campaign_id=${s.campaignId}`, { headers: asUser(users.analyst) });
    const [second] = await loadWithPyMisp([again.text]);
    const uuids = (e: PyMispEvent) => [e.uuid, ...e.attributes.map((a) => a.uuid), ...e.objects.flatMap((o) => [o.uuid, ...o.attributes.map((a) => a.uuid)])].sort();
    assert.deepEqual(uuids(second!), uuids(event));
    assert.equal(new Set(uuids(event)).size, uuids(event).length, 'no uuid twice');
  });

  it('masks bank details for every role but analyst (a masked account is text, never an iban), and a case exports only its own entities', async () => {
    const res = await http(`${url}/exports/misp?case_id=${s.caseId}`, { headers: asUser(users.reviewer) });
    assert.equal(res.status, 200, res.text);
    assert.ok(!res.text.includes(IBAN) && !res.text.includes('0532 0130'));
    const [event] = await loadWithPyMisp([res.text]);
    assert.equal(event!.info, `Case: Fake exchange ${s.tag}`);
    assert.equal(event!.threat_level_id, 1, 'a high-priority case');
    const bank = event!.attributes.find((a) => a.value.startsWith('DE89'))!;
    assert.deepEqual([bank.type, bank.value], ['text', 'DE89 **** **** **** 3000']);
    assert.ok(!event!.attributes.some((a) => a.value === s.direct), 'the campaign\'s own domain is not the case\'s');
    assert.equal(event!.objects.length, 4);
    assert.deepEqual(event!.tags.filter((t) => t.startsWith('tlp:')), ['tlp:amber+strict']);
    assert.deepEqual(event!.tags.filter((t) => !t.startsWith('tlp:')), ['fip:scam-taxonomy="investment"', 'fip:scam-taxonomy="investment/crypto"', 'fip:scam-taxonomy="investment/crypto/fake-exchange"']);
    const audit = await testKnex()('audit_events').where({ action: 'export.misp', target_id: event!.uuid }).orderBy('at', 'desc').first();
    assert.equal(audit.actor, users.reviewer);
    assert.equal(audit.details.filters.bank_details, 'masked');
  });

  it('takes exactly one of case_id and campaign_id (400), answers 404 for an unknown one and 403 to researchers', async () => {
    const h = asUser(users.analyst);
    const both = await http(`${url}/exports/misp?case_id=${s.caseId}&campaign_id=${s.campaignId}`, { headers: h });
    assert.equal(both.status, 400, both.text);
    assert.equal((await http(`${url}/exports/misp`, { headers: h })).status, 400);
    assert.equal((await http(`${url}/exports/misp?case_id=${randomUUID()}`, { headers: h })).status, 404);
    assert.equal((await http(`${url}/exports/misp?campaign_id=${s.campaignId}`, { headers: asUser(users.researcher) })).status, 403);
  });

  it('the feed: every manifest event has its file, PyMISP loads each, its manifest entry and hashes.csv agree with PyMISP\'s own', async () => {
    const key = { 'X-API-KEY': await createTestApiKey(['taxii:read']) };
    const manifest = await http(`${url}/feeds/misp/manifest.json`, { headers: key });
    assert.equal(manifest.status, 200, manifest.text);
    const uuid = mispEventUuid({ kind: 'campaign', id: s.campaignId });
    assert.ok(manifest.body[uuid], 'the campaign is in the manifest');
    const hashes = await http(`${url}/feeds/misp/hashes.csv`, { headers: key });
    assert.equal(hashes.status, 200);
    assert.match(hashes.headers.get('content-type')!, /^text\/csv/);
    const lines = hashes.text.split('\n').filter(Boolean);
    for (const l of lines) assert.match(l, /^[0-9a-f]{32},[0-9a-f-]{36}$/);

    const uuids = Object.keys(manifest.body as object);
    const files: string[] = [];
    for (const u of uuids) {
      const f = await http(`${url}/feeds/misp/${u}.json`, { headers: key });
      assert.equal(f.status, 200, f.text);
      files.push(f.text);
    }
    const loaded = await loadWithPyMisp(files);
    for (const [i, event] of loaded.entries()) {
      assert.equal(event.uuid, uuids[i]);
      // PyMISP writes each tag with its defaults (colour, local, relationship_type); MISP reads the names.
      const names = (entry: { Tag: Array<{ name: string }> }) => ({ ...entry, Tag: entry.Tag.map((t) => t.name) });
      assert.deepEqual(names(manifest.body[event.uuid]), names(event.manifest[event.uuid]!), 'our manifest entry is PyMISP\'s');
      assert.deepEqual(lines.filter((l) => l.endsWith(`,${event.uuid}`)).map((l) => l.split(',')[0]).sort(), [...event.hashes].sort(), 'hashes.csv holds PyMISP\'s md5 of every value');
      assert.equal(event.tags.filter((t) => t.startsWith('tlp:')).length, 1);
    }
    assert.ok(lines.every((l) => uuids.includes(l.split(',')[1]!)), 'no hash of an event outside the manifest');

    const mine = loaded.find((e) => e.uuid === uuid)!;
    for (const a of Object.values(s.wallets)) assert.equal(walletOf(mine, a).name, 'coin-address');
    assert.ok(!files[uuids.indexOf(uuid)]!.includes(IBAN), 'an API key gets bank details masked');
    assert.equal((await http(`${url}/feeds/misp/${randomUUID()}.json`, { headers: key })).status, 404);
    assert.equal((await http(`${url}/feeds/misp/manifest.json`, { headers: { 'X-API-KEY': await createTestApiKey(['reports:read']) } })).status, 403);
  });
});
