// Exports through the API on real PostgreSQL: bank details masked for every role but analyst (CSV
// and XLSX), formula safety, researcher aggregates with small groups suppressed and no entity value,
// role rules (researchers only the aggregate export), audit events, and the STIX 2.1 bundle of the
// indicator export checked by the OASIS validator in strict mode.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import ExcelJS from 'exceljs';
import { createCase } from '../../db/repositories/cases/case-repository';
import { recordSourceEntities } from '../../db/repositories/intelligence/entity-repository';
import { refreshEntityLoss } from '../../db/repositories/intelligence/intel-entity-repository';
import type { Role } from '../../domain/accounts/roles';
import { asUser, http } from '../support/http';
import { usersForEveryRole } from '../support/identities';
import { startTestApi, testKnex } from '../support/platform';
import { validateStrict } from '../support/stix-validator';
import { waitFor } from '../support/wait-for';

const IBAN = 'DE89370400440532013000';

async function xlsxRows(buffer: ArrayBuffer): Promise<ExcelJS.Row[]> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(Buffer.from(buffer) as unknown as ExcelJS.Buffer);
  const rows: ExcelJS.Row[] = [];
  wb.worksheets[0]!.eachRow((r) => rows.push(r));
  return rows;
}

describe('exports (API)', function () {
  this.timeout(120_000);
  let url: string;
  let users: Record<Role, string>;
  let as: Record<Role, Record<string, string>>;

  before(async () => {
    users = await usersForEveryRole();
    as = Object.fromEntries(Object.entries(users).map(([r, e]) => [r, asUser(e)])) as Record<Role, Record<string, string>>;
    url = (await startTestApi({ SVC_AUTH__TRUST_PROXY_HEADER: 'true' })).url;
  });

  it('masks bank details as DE89 **** **** **** 3000 in CSV and XLSX for admin and reviewer, and shows them to analysts', async () => {
    await recordSourceEntities(testKnex(), { kind: 'manual', id: `mask-${randomUUID()}` }, [{ type: 'bank_account', value: IBAN }]);
    for (const role of ['admin', 'reviewer', 'analyst'] as const) {
      const csv = await http(`${url}/exports/entities?fmt=csv&entity_type=bank_account`, { headers: as[role] });
      assert.equal(csv.status, 200, csv.text);
      assert.match(csv.headers.get('content-type')!, /^text\/csv/);
      assert.match(csv.headers.get('content-disposition')!, /attachment; filename="entities-.*\.csv"/);
      assert.equal(csv.text.split('\n')[0], 'id,type,value,display_value,network,token,country,first_seen_at,last_seen_at,sighting_count,risk_score,loss,victim_count');
      const line = csv.text.split('\n').find((l) => l.includes('DE89'))!;
      if (role === 'analyst') assert.ok(line.includes(IBAN), line);
      else {
        assert.ok(line.includes('DE89 **** **** **** 3000'), line);
        assert.ok(!csv.text.includes(IBAN) && !csv.text.includes('0532 0130'), `${role} sees no account number`);
      }
      const xlsx = await fetch(`${url}/exports/entities?fmt=xlsx&entity_type=bank_account`, { headers: as[role] });
      assert.equal(xlsx.status, 200);
      const rows = await xlsxRows(await xlsx.arrayBuffer());
      const values = rows.map((r) => String(r.getCell(3).value));
      const want = role === 'analyst' ? IBAN : 'DE89 **** **** **** 3000';
      assert.ok(values.includes(want), `${role}: ${values.join(' | ')}`);
      if (role !== 'analyst') assert.ok(!values.includes(IBAN));
    }
  });

  it('neutralizes formulas in CSV cells and keeps XLSX cells as plain text strings (never formulas)', async () => {
    const tag = randomUUID().slice(0, 8);
    const evil = `=HYPERLINK("http://evil.example/${tag}","x")`;
    await recordSourceEntities(testKnex(), { kind: 'manual', id: `formula-${tag}` }, [{ type: 'organization', value: evil }]);
    const csv = await http(`${url}/exports/entities?fmt=csv&entity_type=organization`, { headers: as.analyst });
    const line = csv.text.split('\n').find((l) => l.includes(tag))!;
    assert.ok(line.includes(`"'=HYPERLINK(""http://evil.example/${tag}""`), line);
    assert.ok(!/(^|,)"?=/.test(line), 'no cell starts with =');
    const xlsx = await fetch(`${url}/exports/entities?fmt=xlsx&entity_type=organization`, { headers: as.analyst });
    const row = (await xlsxRows(await xlsx.arrayBuffer())).find((r) => String(r.getCell(4).value).includes(tag))!;
    const cell = row.getCell(4);
    assert.equal(cell.type, ExcelJS.ValueType.String);
    assert.equal(cell.value, evil.toString());
    assert.equal(cell.formula, undefined);
  });

  it('researcher export: counts and losses per group, groups under 5 victims suppressed, no entity value in the answer', async () => {
    const tag = randomUUID().slice(0, 8);
    const taxonomy = `test/suppression-${tag}`;
    const knex = testKnex();
    const big = await createCase(knex, { title: `big ${tag}`, loss_amount: '1000.00', loss_currency: 'EUR' }, users.analyst);
    const small = await createCase(knex, { title: `small ${tag}`, loss_amount: '50.00', loss_currency: 'EUR' }, users.analyst);
    await knex('cases').whereIn('id', [big.id, small.id]).update({ taxonomy });
    // Five victims stand behind the big case (its attached intakes); the small one stands for its own.
    for (let i = 0; i < 5; i++) await knex('intakes').insert({ id: randomUUID(), source: 'web', summary: 't', submitted_by: 't@example.org', case_id: big.id });
    const emails = Array.from({ length: 6 }, (_, i) => `victim-contact-${i}-${tag}@scam.example`);
    const domains = Array.from({ length: 3 }, (_, i) => `shop-${i}-${tag}.example`);
    await recordSourceEntities(knex, { kind: 'case', id: big.id }, emails.map((value) => ({ type: 'email' as const, value })));
    await recordSourceEntities(knex, { kind: 'case', id: small.id }, domains.map((value) => ({ type: 'domain' as const, value })));

    const res = await http(`${url}/exports/researcher/entities`, { headers: as.researcher });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.min_group_size, 5);
    const mine = res.body.groups.filter((g: { taxonomy: string }) => g.taxonomy === taxonomy);
    assert.deepEqual(mine, [{ entity_type: 'email', network: '', taxonomy, country: '', month: new Date().toISOString().slice(0, 7), entity_count: 6, victim_count: 5, losses: [{ currency: 'EUR', amount: '1000.00' }] }]);
    assert.ok(res.body.suppressed_groups >= 1);
    for (const v of [...emails, ...domains, tag + '.example']) assert.ok(!res.text.includes(v), `${v} must not appear`);

    const csv = await http(`${url}/exports/researcher/entities?fmt=csv`, { headers: as.researcher });
    assert.equal(csv.status, 200);
    assert.ok(csv.text.split('\n').some((l) => l === `email,,${taxonomy},,${new Date().toISOString().slice(0, 7)},6,5,EUR,1000.00`), csv.text.slice(0, 500));
    assert.ok(!csv.text.includes(`shop-0-${tag}`));

    const stricter = await startTestApi({ SVC_AUTH__TRUST_PROXY_HEADER: 'true', SVC_EXPORTS__MIN_GROUP_SIZE: '6' });
    const none = await http(`${stricter.url}/exports/researcher/entities`, { headers: as.researcher });
    assert.equal(none.body.min_group_size, 6);
    assert.deepEqual(none.body.groups.filter((g: { taxonomy: string }) => g.taxonomy === taxonomy), []);
  });

  it('entity export takes the entity list filters: min_loss keeps entities whose largest loss reaches it, with the loss column', async () => {
    const tag = randomUUID().slice(0, 8);
    const knex = testKnex();
    const rich = await createCase(knex, { title: `rich ${tag}`, loss_amount: '987654.32', loss_currency: 'EUR' }, users.analyst);
    const poor = await createCase(knex, { title: `poor ${tag}`, loss_amount: '10.00', loss_currency: 'EUR' }, users.analyst);
    const a = await recordSourceEntities(knex, { kind: 'case', id: rich.id }, [{ type: 'social_handle', value: `@rich_${tag}`, attributes: { platform: 'telegram' } }]);
    const b = await recordSourceEntities(knex, { kind: 'case', id: poor.id }, [{ type: 'social_handle', value: `@poor_${tag}`, attributes: { platform: 'telegram' } }]);
    assert.equal(a.entities.length + b.entities.length, 2, JSON.stringify([a.rejected, b.rejected]));
    await refreshEntityLoss(knex, [...a.entities, ...b.entities].map((e) => e.id));
    const res = await http(`${url}/exports/entities?fmt=csv&entity_type=social_handle&min_loss=987654.32&order_by=loss`, { headers: as.analyst });
    assert.equal(res.status, 200, res.text);
    const line = res.text.split('\n').find((l) => l.includes(`rich_${tag}`));
    assert.ok(line?.includes('EUR 987654.32'), res.text.slice(0, 400));
    assert.ok(!res.text.includes(`poor_${tag}`));
  });

  it('researchers get 403 on every export but the aggregate one, and on the feed and TAXII', async () => {
    for (const path of ['/exports/entities?fmt=csv', '/exports/indicators?fmt=stix', '/feeds/indicators', '/taxii2/', '/taxii2/api/collections/']) {
      const res = await http(`${url}${path}`, { headers: as.researcher });
      assert.equal(res.status, 403, `${path}: ${res.status}`);
      // TAXII answers its own error message (TAXII 2.1, 3.6.1); every other route the platform's.
      if (path.startsWith('/taxii2/')) assert.equal(res.body.http_status, '403', path);
      else assert.equal(res.body.error.code, 'forbidden', path);
    }
  });

  it('audits every export when its stream ends: who, what, filters, row count, outcome', async () => {
    const tag = randomUUID().slice(0, 8);
    await recordSourceEntities(testKnex(), { kind: 'manual', id: `audit-${tag}` }, [{ type: 'person', value: `Audit Person ${tag}` }]);
    const since = new Date(Date.now() - 60_000).toISOString();
    const res = await http(`${url}/exports/entities?fmt=csv&entity_type=person&since=${encodeURIComponent(since)}`, { headers: as.reviewer });
    assert.equal(res.status, 200);
    const rows = res.text.trim().split('\n').length - 1;
    const exportId = res.headers.get('x-export-id')!;
    const event = await waitFor('the export audit event', async () => testKnex()('audit_events').where({ target_type: 'export', target_id: exportId }).first());
    assert.equal(event.actor, users.reviewer);
    assert.equal(event.action, 'export.entities');
    assert.deepEqual(event.details, { format: 'csv', filters: { entity_type: 'person', min_loss: null, order_by: 'risk', since, bank_details: 'masked' }, rows, outcome: 'complete' });
    assert.ok(rows >= 1);
  });

  it('records an aborted download as aborted, with the rows handed over before the client went away', async () => {
    const tag = randomUUID().slice(0, 8);
    // 60,000 rows (~10 MB of CSV): more than the socket buffers hold, so the client's close interrupts the stream.
    await testKnex().raw(
      `INSERT INTO entities (type, value, display_value, first_seen_at, last_seen_at, sighting_count)
       SELECT 'person', 'abort ${tag} ' || g, 'Abort ${tag} ' || g || repeat('x', 150), now(), now(), 1 FROM generate_series(1, 60000) g`,
    );
    const controller = new AbortController();
    const res = await fetch(`${url}/exports/entities?fmt=csv&entity_type=person`, { headers: as.analyst, signal: controller.signal });
    assert.equal(res.status, 200);
    const exportId = res.headers.get('x-export-id')!;
    const reader = res.body!.getReader();
    await reader.read();
    controller.abort();
    const event = await waitFor('the aborted export audit event', async () => testKnex()('audit_events').where({ target_type: 'export', target_id: exportId }).first(), 60_000);
    assert.equal(event.details.outcome, 'aborted');
    assert.ok(event.details.rows < 60_000, `rows ${event.details.rows}`);
    await testKnex()('entities').where('value', 'like', `abort ${tag} %`).delete();
  });

  it('exports indicators as CSV with the documented columns and filters (category, min_confidence, since)', async () => {
    const tag = randomUUID().slice(0, 8);
    const started = new Date(Date.now() - 1000).toISOString();
    await recordSourceEntities(testKnex(), { kind: 'manual', id: `ind-${tag}` }, [{ type: 'domain', value: `ind-${tag}.example` }]);
    const res = await http(`${url}/exports/indicators?fmt=csv&category=unclassified&min_confidence=40&since=${encodeURIComponent(started)}`, { headers: as.analyst });
    assert.equal(res.status, 200, res.text);
    const lines = res.text.trim().split('\n');
    assert.equal(lines[0], 'id,type,value,category,confidence,tlp,valid_from,created_at,updated_at');
    assert.ok(lines.some((l) => l.includes(`,domain,ind-${tag}.example,unclassified,40,amber,`)), res.text.slice(0, 400));
    const higher = await http(`${url}/exports/indicators?fmt=csv&min_confidence=41&since=${encodeURIComponent(started)}`, { headers: as.analyst });
    assert.ok(!higher.text.includes(`ind-${tag}`));
    const bad = await http(`${url}/exports/indicators?fmt=pdf`, { headers: as.analyst });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error.details[0].path, 'query.fmt');
  });

  it('exports a STIX 2.1 bundle (indicators, observables, wallet SCO with its extension-definition, edges, campaign, TLP) that the OASIS validator accepts in strict mode', async () => {
    const tag = randomUUID().slice(0, 8);
    const knex = testKnex();
    const started = new Date(Date.now() - 1000).toISOString();
    const wallet = `0x${tag}${'a'.repeat(32)}`;
    const recorded = await recordSourceEntities(
      knex,
      { kind: 'manual', id: `stix-${tag}` },
      [
        { type: 'url', value: `https://stix-${tag}.example/it's?q=1` },
        { type: 'ip', value: '192.0.2.77' },
        { type: 'email', value: `payout-${tag}@stix.example` },
        { type: 'wallet', value: wallet, attributes: { network: 'ethereum' } },
      ],
      [{ src: { type: 'domain', value: `stix-${tag}.example` }, dst: { type: 'url', value: `https://stix-${tag}.example/it's?q=1` }, kind: 'hosts' }],
    );
    const campaignId = randomUUID();
    await knex('campaigns').insert({ id: campaignId, name: `STIX campaign ${tag}`, created_by: users.analyst, taxonomy: 'investment/crypto' });
    const walletEntity = recorded.entities.find((e) => e.type === 'wallet')!;
    await knex('campaign_entities').insert({ campaign_id: campaignId, entity_id: walletEntity.id, added_by: users.analyst });

    const res = await http(`${url}/exports/indicators?fmt=stix&since=${encodeURIComponent(started)}`, { headers: as.analyst });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.headers.get('content-type'), 'application/stix+json;version=2.1');
    const bundle = JSON.parse(res.text) as { type: string; objects: Array<Record<string, unknown>> };
    assert.equal(bundle.type, 'bundle');
    const byType = (t: string) => bundle.objects.filter((o) => o.type === t);
    assert.equal(byType('identity').length, 1);
    assert.equal(byType('marking-definition').length, 5);
    assert.equal(byType('extension-definition').length, 1);
    const walletSco = byType('cryptocurrency-wallet').find((o) => o.value === wallet)!;
    assert.ok(walletSco, 'the wallet SCO');
    assert.match(String(walletSco.id), /^cryptocurrency-wallet--[0-9a-f]{8}-[0-9a-f]{4}-5/);
    assert.ok(byType('indicator').some((o) => o.pattern === `[url:value = 'https://stix-${tag}.example/it\\'s?q=1']`));
    assert.ok(byType('indicator').some((o) => o.pattern === `[domain-name:value = 'stix-${tag}.example']`));
    assert.ok(byType('relationship').some((o) => o.relationship_type === 'related-to' && o.description === 'graph edge: hosts'));
    assert.ok(byType('campaign').some((o) => o.id === `campaign--${campaignId}`));
    assert.ok(byType('relationship').some((o) => o.relationship_type === 'indicates' && o.source_ref === `indicator--${walletEntity.id}` && o.target_ref === `campaign--${campaignId}`));

    const result = await validateStrict(res.text);
    assert.deepEqual(result.findings, [], result.output);
    assert.ok(result.acceptedUuidV5 >= 1, 'the wallet SCO id is a UUIDv5');
  });

  it('the validator helper reports real defects (a bundle with a broken indicator fails)', async () => {
    const broken = { type: 'bundle', id: `bundle--${randomUUID()}`, objects: [{ type: 'indicator', spec_version: '2.1', id: `indicator--${randomUUID()}`, created: '2026-01-01T00:00:00Z', modified: '2026-01-01T00:00:00Z', pattern: "[url:value = 'x'", pattern_type: 'stix', valid_from: '2026-01-01T00:00:00Z' }] };
    const result = await validateStrict(broken);
    assert.ok(result.findings.length > 0, result.output);
  });
});
