// A campaign's STIX 2.1 export (GET /exports/indicators?fmt=stix&campaign_id=…) through the API on
// real PostgreSQL: the indicators of its own entities and of its cases' (linked, sighted in the case,
// in an intake attached to it, in an investigation started in it, a wallet only that investigation's
// wallet rows hold), each with one `indicates` relationship to the campaign even when it reaches the
// campaign twice, nothing of a case outside it; checked by the OASIS validator in strict mode.
import assert from 'node:assert/strict';
import { randomInt, randomUUID } from 'node:crypto';
import { createCase, linkToCase } from '../../db/repositories/cases/case-repository';
import { recordSourceEntities } from '../../db/repositories/intelligence/entity-repository';
import { insertInvestigation } from '../../db/repositories/investigations/investigation-repository';
import { upsertWallets } from '../../db/repositories/wallets/wallet-repository';
import type { Role } from '../../domain/accounts/roles';
import { asUser, http } from '../support/http';
import { usersForEveryRole } from '../support/identities';
import { startTestApi, testKnex } from '../support/platform';
import { validateStrict } from '../support/stix-validator';
import { makeAddresses } from '../support/wallet-address-factory';

type StixObject = Record<string, unknown> & { type: string; id: string };

describe('campaign STIX export (through its cases)', function () {
  this.timeout(300_000);
  let url: string;
  let users: Record<Role, string>;

  before(async () => {
    users = await usersForEveryRole();
    url = (await startTestApi({ SVC_AUTH__TRUST_PROXY_HEADER: 'true' })).url;
  });

  it("holds the entities of the campaign's cases and their investigations' wallets, each indicating the campaign once, and passes the strict validator", async () => {
    const knex = testKnex();
    const tag = randomUUID().slice(0, 8);
    const a = makeAddresses(randomInt(1, 2 ** 31));
    const started = new Date(Date.now() - 1000).toISOString();
    const id = async (type: string, value: string): Promise<string> => (await knex('entities').where({ type, value }).first('id')).id as string;

    const campaignId = randomUUID();
    await knex('campaigns').insert({ id: campaignId, name: `Through cases ${tag}`, created_by: users.analyst, taxonomy: 'romance' });
    const c = await createCase(knex, { title: `case ${tag}`, campaign_id: campaignId }, users.analyst);
    const outside = await createCase(knex, { title: `outside ${tag}` }, users.analyst);

    // A wallet that is the campaign's own and also sighted in its case: one relationship, not two.
    const own = a.btcSegwit;
    await recordSourceEntities(knex, { kind: 'case', id: c.id }, [{ type: 'wallet', value: own, attributes: { network: 'Bitcoin' } }, { type: 'domain', value: `case-${tag}.example` }]);
    await knex('campaign_entities').insert({ campaign_id: campaignId, entity_id: await id('wallet', own), added_by: users.analyst });
    // Linked to the case.
    await recordSourceEntities(knex, { kind: 'manual', id: `link-${tag}` }, [{ type: 'email', value: `linked-${tag}@scam.example` }]);
    await linkToCase(knex, c.id, { type: 'entity', id: await id('email', `linked-${tag}@scam.example`) }, users.analyst);
    // In an intake attached to the case (intakes.case_id only).
    const intakeId = randomUUID();
    await knex('intakes').insert({ id: intakeId, source: 'web', summary: `stix ${tag}`, submitted_by: users.analyst, case_id: c.id });
    await recordSourceEntities(knex, { kind: 'intake', id: intakeId }, [{ type: 'ip', value: '198.51.100.23' }]);
    // An investigation started in the case (investigations.case_id only): a sighted wallet, and one only its wallet rows hold.
    const scanId = randomUUID();
    await insertInvestigation(knex, { scanId, url: `https://case-${tag}.example/`, domain: `case-${tag}.example`, requestedBy: users.analyst, playbookId: null, caseId: c.id, label: null, options: {} });
    await recordSourceEntities(knex, { kind: 'investigation', id: scanId }, [{ type: 'wallet', value: a.tron, attributes: { network: 'Tron', token: 'USDT' } }]);
    await recordSourceEntities(knex, { kind: 'manual', id: `rows-${tag}` }, [{ type: 'wallet', value: a.evmLower, attributes: { network: 'Ethereum' } }]);
    await upsertWallets(knex, scanId, [{ address: a.evmLower, token: 'USDT', network: 'Ethereum', confidence: 'high', source: 'text', context: '', pageUrl: `https://case-${tag}.example/` }]);
    // A wallet of a case outside the campaign.
    await recordSourceEntities(knex, { kind: 'case', id: outside.id }, [{ type: 'wallet', value: a.ltc, attributes: { network: 'Litecoin' } }]);

    const members = await Promise.all([
      id('wallet', own),
      id('domain', `case-${tag}.example`),
      id('email', `linked-${tag}@scam.example`),
      id('ip', '198.51.100.23'),
      id('wallet', a.tron),
      id('wallet', a.evmLower),
    ]);
    const stranger = await id('wallet', a.ltc);

    const res = await http(`${url}/exports/indicators?fmt=stix&campaign_id=${campaignId}`, { headers: asUser(users.analyst) });
    assert.equal(res.status, 200, res.text);
    const objects = (JSON.parse(res.text) as { objects: StixObject[] }).objects;
    assert.equal(new Set(objects.map((o) => o.id)).size, objects.length, 'no object twice');
    const indicators = objects.filter((o) => o.type === 'indicator').map((o) => o.id);
    for (const m of members) assert.ok(indicators.includes(`indicator--${m}`), `member ${m} is exported`);
    assert.ok(!indicators.includes(`indicator--${stranger}`), 'a wallet of a case outside the campaign is not');
    assert.ok(objects.some((o) => o.type === 'campaign' && o.id === `campaign--${campaignId}`));
    const indicates = objects.filter((o) => o.type === 'relationship' && o.relationship_type === 'indicates' && o.target_ref === `campaign--${campaignId}`);
    const sources = indicates.map((o) => String(o.source_ref)).sort();
    assert.deepEqual(sources, [...new Set(indicators)].sort(), 'every exported indicator indicates the campaign, exactly once');
    const walletScos = objects.filter((o) => o.type === 'cryptocurrency-wallet').map((o) => o.value);
    for (const w of [own, a.tron, a.evmLower]) assert.ok(walletScos.includes(w), `wallet ${w} as an SCO`);

    const result = await validateStrict(res.text);
    assert.deepEqual(result.findings, [], result.output);

    // The unfiltered export relates the case's entities to the campaign too.
    const all = await http(`${url}/exports/indicators?fmt=stix&since=${encodeURIComponent(started)}`, { headers: asUser(users.analyst) });
    const allObjects = (JSON.parse(all.text) as { objects: StixObject[] }).objects;
    const rel = (entityId: string) => allObjects.filter((o) => o.type === 'relationship' && o.source_ref === `indicator--${entityId}` && o.target_ref === `campaign--${campaignId}`).length;
    assert.deepEqual(members.map(rel), members.map(() => 1));
    assert.equal(rel(stranger), 0);
  });
});
