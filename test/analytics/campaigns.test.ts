// Campaigns through the API on real PostgreSQL: create (unique name, taxonomy validated), list
// filters, PATCH (rename, status, taxonomy, members) with audit events, the intelligence views
// (risk from member entities, taxonomy rollup, members, masking, timeline), case taxonomy, and the
// LEA referral suggestions' ranking and evidence.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { recordSourceEntities } from '../../db/repositories/intelligence/entity-repository';
import type { Role } from '../../domain/accounts/roles';
import { asUser, http } from '../support/http';
import { usersForEveryRole } from '../support/identities';
import { startTestApi, testKnex } from '../support/platform';
import { evmWallet, germanIban, insertCase, insertIntake, insertInvestigation, linkIntake, ukPhone } from './analytics-fixtures';

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

describe('campaigns (API)', function () {
  this.timeout(90_000);
  let url: string;
  let as: Record<Role, Record<string, string>>;
  let users: Record<Role, string>;

  before(async () => {
    users = await usersForEveryRole();
    as = Object.fromEntries(Object.entries(users).map(([r, e]) => [r, asUser(e)])) as Record<Role, Record<string, string>>;
    url = (await startTestApi({ SVC_AUTH__TRUST_PROXY_HEADER: 'true' })).url;
  });

  const call = (method: string, path: string, role: Role, json?: unknown) => http(`${url}${path}`, { method, headers: as[role], ...(json === undefined ? {} : { json }) });
  const create = async (body: Record<string, unknown>) => {
    const res = await call('POST', '/campaigns', 'analyst', body);
    assert.equal(res.status, 201, res.text);
    return res.body;
  };

  it('creates a campaign (201), refuses a name clash in another case (409) and an unknown taxonomy (400), and lists with status, taxonomy and q filters', async () => {
    const tag = randomUUID().slice(0, 8);
    const a = await create({ name: `Butcher ring ${tag}`, description: 'pig butchering via Telegram', taxonomy: 'investment/crypto/pig-butchering' });
    assert.equal(a.status, 'active');
    assert.equal(a.created_by, users.analyst);
    const clash = await call('POST', '/campaigns', 'admin', { name: `BUTCHER RING ${tag}` });
    assert.equal(clash.status, 409, clash.text);
    const bad = await call('POST', '/campaigns', 'admin', { name: `x ${tag}`, taxonomy: 'investment/nonsense' });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error.details[0].path, 'body.taxonomy');
    const b = await create({ name: `Fake bank ${tag}`, status: 'dormant', taxonomy: 'impersonation/bank' });

    const ids = (r: Json) => r.body.items.map((c: Json) => c.id);
    assert.deepEqual(ids(await call('GET', `/campaigns?q=${tag}&taxonomy=investment`, 'reviewer')), [a.id]);
    assert.deepEqual(ids(await call('GET', `/campaigns?q=${tag}&status=dormant`, 'admin')), [b.id]);
    assert.deepEqual(ids(await call('GET', `/campaigns?q=${tag}`, 'admin')), [b.id, a.id]);
    const page = await call('GET', `/campaigns?q=${tag}&limit=1`, 'admin');
    assert.deepEqual(ids(await call('GET', `/campaigns?q=${tag}&limit=1&cursor=${page.body.next_cursor}`, 'admin')), [a.id]);
    assert.equal((await call('GET', '/campaigns', 'researcher')).status, 403);
    assert.equal((await call('POST', '/campaigns', 'reviewer', { name: `r ${tag}` })).status, 403);
  });

  it('PATCH renames, sets status and taxonomy, adds and removes members, refuses unknown members (400) and a case of another campaign (409) writing nothing, and audits every change', async () => {
    const knex = testKnex();
    const tag = randomUUID().slice(0, 8);
    const c = await create({ name: `Patch me ${tag}` });
    const other = await create({ name: `Other ${tag}` });
    const case1 = await insertCase(knex);
    const taken = await insertCase(knex, { campaign_id: other.id });
    const [entity] = (await recordSourceEntities(knex, { kind: 'manual', id: `campaign-test-${tag}` }, [{ type: 'domain', value: `patch-${tag}.example` }])).entities;

    const res = await call('PATCH', `/campaigns/${c.id}`, 'analyst', {
      name: `Patched ${tag}`, status: 'dormant', taxonomy: 'romance', members: { add: [{ type: 'case', id: case1 }, { type: 'entity', id: entity!.id }] },
    });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.name, `Patched ${tag}`);
    assert.equal(res.body.status, 'dormant');
    assert.equal(res.body.taxonomy, 'romance');
    assert.equal((await knex('cases').where({ id: case1 }).first()).campaign_id, c.id);
    assert.equal((await knex('campaign_entities').where({ campaign_id: c.id })).length, 1);

    const unknown = await call('PATCH', `/campaigns/${c.id}`, 'analyst', { members: { add: [{ type: 'case', id: case1 }, { type: 'case', id: randomUUID() }] } });
    assert.equal(unknown.status, 400, unknown.text);
    assert.equal(unknown.body.error.details[0].path, 'body.members.add[1].id');
    // A refused patch writes nothing, not even the members listed before the refused one.
    const free = await insertCase(knex);
    const partial = await call('PATCH', `/campaigns/${c.id}`, 'analyst', { name: `Never ${tag}`, members: { add: [{ type: 'case', id: free }, { type: 'entity', id: randomUUID() }] } });
    assert.equal(partial.status, 400, partial.text);
    assert.equal(partial.body.error.details[0].path, 'body.members.add[1].id');
    assert.equal((await knex('cases').where({ id: free }).first()).campaign_id, null);
    assert.equal((await knex('campaigns').where({ id: c.id }).first()).name, `Patched ${tag}`);
    const elsewhere = await call('PATCH', `/campaigns/${c.id}`, 'analyst', { members: { add: [{ type: 'case', id: free }, { type: 'case', id: taken }] } });
    assert.equal(elsewhere.status, 409, elsewhere.text);
    assert.equal((await knex('cases').where({ id: taken }).first()).campaign_id, other.id);
    assert.equal((await knex('cases').where({ id: free }).first()).campaign_id, null);
    const clash = await call('PATCH', `/campaigns/${c.id}`, 'analyst', { name: `other ${tag}` });
    assert.equal(clash.status, 409);
    assert.equal((await call('PATCH', `/campaigns/${randomUUID()}`, 'analyst', { status: 'closed' })).status, 404);
    assert.equal((await call('PATCH', `/campaigns/${c.id}`, 'analyst', {})).status, 400);

    const removed = await call('PATCH', `/campaigns/${c.id}`, 'admin', { taxonomy: null, members: { remove: [{ type: 'case', id: case1 }, { type: 'entity', id: entity!.id }] } });
    assert.equal(removed.status, 200, removed.text);
    assert.equal(removed.body.taxonomy, null);
    assert.equal((await knex('cases').where({ id: case1 }).first()).campaign_id, null);
    assert.equal((await knex('campaign_entities').where({ campaign_id: c.id })).length, 0);

    const audit = await knex('audit_events').where({ target_type: 'campaign', target_id: c.id }).orderBy('at');
    assert.deepEqual(audit.map((a) => a.action), ['campaign.create', 'campaign.update', 'campaign.update']);
    assert.deepEqual(audit[1].details.added, [{ type: 'case', id: case1 }, { type: 'entity', id: entity!.id }]);
    assert.deepEqual(audit[1].details.name, { from: `Patch me ${tag}`, to: `Patched ${tag}` });
    assert.equal(audit[2].actor, users.admin);
    assert.deepEqual(audit[2].details.removed, [{ type: 'case', id: case1 }, { type: 'entity', id: entity!.id }]);
  });

  it('PATCH /cases/{case_id} takes a taxonomy path of the tree (and null), refusing anything else with body.taxonomy', async () => {
    const id = await insertCase(testKnex());
    const ok = await call('PATCH', `/cases/${id}`, 'analyst', { taxonomy: 'impersonation/tech-support' });
    assert.equal(ok.status, 200, ok.text);
    assert.equal(ok.body.taxonomy, 'impersonation/tech-support');
    const bad = await call('PATCH', `/cases/${id}`, 'analyst', { taxonomy: 'tech-support' });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error.details[0].path, 'body.taxonomy');
    const cleared = await call('PATCH', `/cases/${id}`, 'analyst', { taxonomy: null });
    assert.equal(cleared.body.taxonomy, null);
  });

  it('intelligence views: risk is the max and mean of the member entities\' scores, the rollup counts campaigns up the tree, the detail lists members (IBAN masked but for analysts) and a timeline', async () => {
    const knex = testKnex();
    const tag = randomUUID().slice(0, 8);
    const rollup = async () => (await call('GET', `/intelligence/campaigns?q=${tag}`, 'reviewer')).body.taxonomy_rollup;
    const count = (r: Json[], t: string) => r.find((x) => x.taxonomy === t)?.campaigns ?? 0;
    const before = await rollup();
    const c = await create({ name: `Risky ${tag}`, taxonomy: 'investment/crypto/fake-exchange' });
    const after = await rollup();
    assert.equal(count(after, 'investment') - count(before, 'investment'), 1);
    assert.equal(count(after, 'investment/crypto') - count(before, 'investment/crypto'), 1);
    assert.equal(count(after, 'investment/crypto/fake-exchange') - count(before, 'investment/crypto/fake-exchange'), 1);

    const member = await insertCase(knex, { campaign_id: c.id, loss_amount: '12.50', loss_currency: 'GBP' });
    const iban = germanIban();
    const rec = await recordSourceEntities(knex, { kind: 'case', id: member }, [{ type: 'wallet', value: evmWallet() }, { type: 'bank_account', value: iban }]);
    const wallet = rec.entities.find((e) => e.type === 'wallet');
    const account = rec.entities.find((e) => e.type === 'bank_account');
    const [own] = (await recordSourceEntities(knex, { kind: 'manual', id: `risk-${tag}` }, [{ type: 'phone', value: ukPhone() }])).entities;
    await knex('campaign_entities').insert({ campaign_id: c.id, entity_id: own!.id, added_by: 'test' });
    await knex('entities').where({ id: wallet!.id }).update({ risk_score: 80 });
    await knex('entities').where({ id: account!.id }).update({ risk_score: 40 });

    const list = await call('GET', `/intelligence/campaigns?q=${tag}`, 'admin');
    assert.equal(list.status, 200, list.text);
    const item = list.body.items[0];
    assert.equal(item.id, c.id);
    assert.equal(item.cases, 1);
    assert.equal(item.entities, 3);
    assert.deepEqual(item.risk, { score: 80, max: 80, mean: 60, scored_entities: 2 });
    assert.deepEqual(item.taxonomy_lineage, ['investment', 'investment/crypto', 'investment/crypto/fake-exchange']);

    const detail = async (role: Role) => (await call('GET', `/intelligence/campaigns/${c.id}`, role)).body;
    const d = await detail('analyst');
    assert.deepEqual(d.member_cases.map((m: Json) => [m.id, m.loss]), [[member, { amount: '12.50', currency: 'GBP' }]]);
    const ent = (x: Json, id: string) => x.member_entities.find((e: Json) => e.id === id);
    assert.equal(ent(d, account!.id).value, iban);
    assert.deepEqual(ent(d, own!.id).via, ['campaign']);
    assert.deepEqual(ent(d, wallet!.id).via, ['case']);
    const masked = ent(await detail('reviewer'), account!.id);
    assert.equal(masked.value, `${iban.slice(0, 4)} **** **** **** ${iban.slice(-4)}`);
    assert.equal(masked.display_value, masked.value);
    const kinds = new Set(d.timeline.map((t: Json) => t.kind));
    for (const k of ['campaign_created', 'case_opened', 'entity_added', 'entity_first_seen']) assert.ok(kinds.has(k), k);
    assert.equal((await call('GET', `/intelligence/campaigns/${c.id}`, 'researcher')).status, 403);
    assert.equal((await call('GET', `/intelligence/campaigns/${randomUUID()}`, 'admin')).status, 404);
  });

  it('LEA suggestions rank cases and investigations by shared wallets (3), phones (2) and domains (1) with the evidence, leaving out referred members and unrelated cases', async () => {
    const knex = testKnex();
    const tag = randomUUID().slice(0, 8);
    const c = await create({ name: `LEA ${tag}` });
    const W = evmWallet();
    const P = ukPhone();
    const D = `lea-${tag}.example`;
    const t = (min: number) => new Date(Date.UTC(2026, 0, 1, 0, min));
    // The campaign: member case M1 mentions W and P; the campaign's own list holds D.
    const m1 = await insertCase(knex, { campaign_id: c.id, title: 'M1' });
    const rec = await recordSourceEntities(knex, { kind: 'case', id: m1, observedAt: t(0) }, [{ type: 'wallet', value: W }, { type: 'phone', value: P }]);
    const [d] = (await recordSourceEntities(knex, { kind: 'manual', id: `lea-${tag}`, observedAt: t(0) }, [{ type: 'domain', value: D }])).entities;
    await knex('campaign_entities').insert({ campaign_id: c.id, entity_id: d!.id, added_by: 'test' });
    // X1 (outside) shares W and P: 5. I1 (an investigation in no case) shares W: 3. M2 (a member
    // without a referral) shares W with M1: 3, newer evidence than I1. X2 shares D through its intake: 1.
    // M3 (member, referral submitted) and X3 (nothing shared) are left out.
    const x1 = await insertCase(knex, { title: 'X1' });
    await recordSourceEntities(knex, { kind: 'case', id: x1, observedAt: t(1) }, [{ type: 'wallet', value: W }, { type: 'phone', value: P }]);
    const i1 = await insertInvestigation(knex, `https://lea-${tag}.example/pay`);
    await recordSourceEntities(knex, { kind: 'investigation', id: i1, observedAt: t(2) }, [{ type: 'wallet', value: W }]);
    const m2 = await insertCase(knex, { campaign_id: c.id, title: 'M2' });
    await recordSourceEntities(knex, { kind: 'case', id: m2, observedAt: t(3) }, [{ type: 'wallet', value: W }]);
    const x2 = await insertCase(knex, { title: 'X2' });
    const intake = await insertIntake(knex);
    await linkIntake(knex, x2, intake);
    await recordSourceEntities(knex, { kind: 'intake', id: intake, observedAt: t(4) }, [{ type: 'domain', value: D }]);
    const m3 = await insertCase(knex, { campaign_id: c.id, title: 'M3' });
    await recordSourceEntities(knex, { kind: 'case', id: m3, observedAt: t(5) }, [{ type: 'wallet', value: W }]);
    await knex('lea_referrals').insert({ case_id: m3, status: 'submitted', agency: 'NCA', created_by: 'test' });
    const x3 = await insertCase(knex, { title: 'X3' });
    await recordSourceEntities(knex, { kind: 'case', id: x3 }, [{ type: 'wallet', value: evmWallet() }]);

    const res = await call('GET', `/campaigns/${c.id}/lea-suggestions`, 'analyst');
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(
      res.body.items.map((i: Json) => [i.kind, i.id, i.reason, i.score, i.shared_entities]),
      [
        ['case', x1, 'not_in_campaign', 5, 2],
        ['case', m2, 'not_referred', 3, 1],
        ['investigation', i1, 'not_in_campaign', 3, 1],
        // M1 itself is unreferred and shares W with the other members (its own P is shared with no member).
        ['case', m1, 'not_referred', 3, 1],
        ['case', x2, 'not_in_campaign', 1, 1],
      ],
    );
    const wallet = rec.entities.find((e) => e.type === 'wallet');
    const phone = rec.entities.find((e) => e.type === 'phone');
    const x1Evidence = res.body.items[0].evidence.map((e: Json) => [e.entity_id, e.type, e.source_kind, e.source_id]).sort();
    assert.deepEqual(x1Evidence, [[wallet!.id, 'wallet', 'case', x1], [phone!.id, 'phone', 'case', x1]].sort());
    assert.deepEqual(res.body.items[4].evidence.map((e: Json) => [e.entity_id, e.value, e.source_kind, e.source_id, e.observed_at]), [[d!.id, D, 'intake', intake, t(4).toISOString()]]);
    assert.equal(res.body.items[2].title, `https://lea-${tag}.example/pay`);
    const limited = await call('GET', `/campaigns/${c.id}/lea-suggestions?limit=1`, 'admin');
    assert.deepEqual(limited.body.items.map((i: Json) => i.id), [x1]);
    assert.equal((await call('GET', `/campaigns/${c.id}/lea-suggestions`, 'reviewer')).status, 403);
    assert.equal((await call('GET', `/campaigns/${randomUUID()}/lea-suggestions`, 'analyst')).status, 404);
  });
});
