// Cases and LEA referrals through the API on real PostgreSQL: create, list with filters, detail
// (links, graph entities, loss totals per currency), the case status machine, the referral status
// machine, and the role rules (researchers and service keys get 403 on every case and review route).
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { linkToCase } from '../../db/repositories/cases/case-repository';
import { recordSourceEntities } from '../../db/repositories/intelligence/entity-repository';
import { allRoutes } from '../../api/route-table';
import type { Role } from '../../domain/accounts/roles';
import { asUser, http } from '../support/http';
import { createTestApiKey, usersForEveryRole } from '../support/identities';
import { startTestApi, testKnex } from '../support/platform';

describe('cases and LEA referrals (API)', function () {
  this.timeout(60_000);
  let url: string;
  let users: Record<Role, string>;
  let as: Record<Role, Record<string, string>>;

  before(async () => {
    users = await usersForEveryRole();
    as = Object.fromEntries(Object.entries(users).map(([r, e]) => [r, asUser(e)])) as Record<Role, Record<string, string>>;
    url = (await startTestApi({ SVC_AUTH__TRUST_PROXY_HEADER: 'true' })).url;
  });

  const newCase = async (body: Record<string, unknown> = {}) => {
    const res = await http(`${url}/cases`, { method: 'POST', headers: as.analyst, json: { title: `case ${randomUUID().slice(0, 8)}`, ...body } });
    assert.equal(res.status, 201, res.text);
    return res.body;
  };

  it('creates a case (201, open) and lists it with the status, priority, assignee, campaign and q filters', async () => {
    const tag = randomUUID().slice(0, 8);
    const campaign = randomUUID();
    const unknown = await http(`${url}/cases`, { method: 'POST', headers: as.analyst, json: { title: `case ${tag}`, campaign_id: campaign } });
    assert.equal(unknown.status, 400, unknown.text);
    assert.equal(unknown.body.error.details[0].path, 'body.campaign_id');
    await testKnex()('campaigns').insert({ id: campaign, name: `Campaign ${tag}`, created_by: users.admin });
    const a = await newCase({ title: `Romance scam ${tag}`, priority: 'high', assignee: `Ana-${tag}@Example.org`, campaign_id: campaign, loss: { amount: '1200.50', currency: 'EUR' } });
    await newCase({ title: `Other ${tag}`, priority: 'low' });
    assert.equal(a.status, 'open');
    assert.equal(a.assignee, `ana-${tag}@example.org`);
    assert.deepEqual(a.loss, { amount: '1200.50', currency: 'EUR' });
    assert.equal(a.created_by, users.analyst);

    const byQ = await http(`${url}/cases?q=${encodeURIComponent(`romance scam ${tag}`)}`, { headers: as.reviewer });
    assert.equal(byQ.status, 200, byQ.text);
    assert.deepEqual(byQ.body.items.map((c: { id: string }) => c.id), [a.id]);
    const byAll = await http(`${url}/cases?q=${tag}&status=open&priority=high&assignee=ana-${tag}@example.org&campaign_id=${campaign}`, { headers: as.admin });
    assert.deepEqual(byAll.body.items.map((c: { id: string }) => c.id), [a.id]);
    const none = await http(`${url}/cases?q=${tag}&priority=critical`, { headers: as.analyst });
    assert.deepEqual(none.body.items, []);
    const paged = await http(`${url}/cases?q=${tag}&limit=1`, { headers: as.analyst });
    assert.equal(paged.body.items.length, 1);
    const next = await http(`${url}/cases?q=${tag}&limit=1&cursor=${paged.body.next_cursor}`, { headers: as.analyst });
    assert.equal(next.body.items.length, 1);
    assert.notEqual(next.body.items[0].id, paged.body.items[0].id);
    assert.equal(next.body.next_cursor, null);
  });

  it('rejects bad input with field paths: no title, a float-like amount, an unknown currency, an assignee address too long before the @', async () => {
    const res = await http(`${url}/cases`, { method: 'POST', headers: as.analyst, json: { loss: { amount: '1.234', currency: 'XYZ' } } });
    assert.equal(res.status, 400);
    const paths = res.body.error.details.map((d: { path: string }) => d.path).sort();
    assert.deepEqual(paths, ['body.loss.amount', 'body.loss.currency', 'body.title']);
    // Found by the fuzz run: 65 characters before the @ is not an address (RFC 5321 allows 64).
    const long = await http(`${url}/cases`, { method: 'POST', headers: as.analyst, json: { title: 't', assignee: `${'a'.repeat(65)}@example.org` } });
    assert.equal(long.status, 400, long.text);
    assert.equal(long.body.error.details[0].path, 'body.assignee');
    const ok = await http(`${url}/cases`, { method: 'POST', headers: as.analyst, json: { title: 't', assignee: `${'a'.repeat(64)}@example.org` } });
    assert.equal(ok.status, 201, ok.text);
    // Found by the fuzz run: PostgreSQL text cannot hold NUL; a 400 naming the field, not a 500.
    const nul = await http(`${url}/cases?q=a%00b`, { headers: as.analyst });
    assert.equal(nul.status, 400, nul.text);
    assert.equal(nul.body.error.details[0].path, 'query.q');
  });

  it('shows a case with its links, graph entities (linked, sighted in the case, sighted in linked intakes) and loss per currency', async () => {
    const c = await newCase({ loss: { amount: '0.10', currency: 'USD' } });
    const knex = testKnex();
    const tag = randomUUID().slice(0, 8);
    const intakeId = randomUUID();
    const [wallet] = (await recordSourceEntities(knex, { kind: 'manual', id: `m-${tag}` }, [{ type: 'domain', value: `linked-${tag}.example` }])).entities;
    await recordSourceEntities(knex, { kind: 'case', id: c.id }, [{ type: 'email', value: `boss-${tag}@scam.example` }]);
    await recordSourceEntities(knex, { kind: 'intake', id: intakeId }, [{ type: 'phone', value: '+44 20 7946 0958' }]);
    await linkToCase(knex, c.id, { type: 'entity', id: wallet!.id }, users.analyst);
    await linkToCase(knex, c.id, { type: 'intake', id: intakeId }, users.analyst);
    await linkToCase(knex, c.id, { type: 'investigation', id: `scan-${tag}` }, users.analyst);

    const res = await http(`${url}/cases/${c.id}`, { headers: as.reviewer });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body.intakes.map((l: { id: string }) => l.id), [intakeId]);
    assert.deepEqual(res.body.investigations.map((l: { id: string }) => l.id), [`scan-${tag}`]);
    const via = Object.fromEntries(res.body.entities.map((e: { type: string; via: string[] }) => [e.type, e.via]));
    assert.deepEqual(via, { domain: ['link'], email: ['case'], phone: ['intake'] });
    assert.deepEqual(res.body.total_loss, [{ currency: 'USD', amount: '0.10' }]);
    assert.deepEqual(res.body.reviews, []);
    assert.equal(res.body.referral, null);
    assert.equal((await http(`${url}/cases/${randomUUID()}`, { headers: as.analyst })).status, 404);
  });

  it('follows the case status machine: illegal moves are 409 naming the allowed ones; closed reopens to open', async () => {
    const c = await newCase();
    const patch = (body: unknown) => http(`${url}/cases/${c.id}`, { method: 'PATCH', headers: as.analyst, json: body });
    assert.equal((await patch({ status: 'closed', priority: 'critical' })).status, 200);
    const illegal = await patch({ status: 'in_review' });
    assert.equal(illegal.status, 409);
    assert.match(illegal.body.error.message, /a closed case cannot move to in_review; allowed: open/);
    assert.deepEqual(illegal.body.error.details.allowed, ['open']);
    const reopened = await patch({ status: 'open', assignee: null, loss: null });
    assert.equal(reopened.status, 200);
    assert.equal(reopened.body.status, 'open');
    assert.equal(reopened.body.priority, 'critical');
    assert.equal((await patch({})).status, 400);
    assert.equal((await http(`${url}/cases/${c.id}`, { method: 'PATCH', headers: as.reviewer, json: { title: 'x' } })).status, 403);
  });

  it('runs the LEA referral status machine draft → submitted → acknowledged → closed, with history; illegal moves 409', async () => {
    const c = await newCase();
    const post = (status: string, extra: Record<string, unknown> = {}) =>
      http(`${url}/cases/${c.id}/lea-referral`, { method: 'POST', headers: as.analyst, json: { agency: 'NCA', jurisdiction: 'UK', contact: 'desk@nca.example', status, ...extra } });
    const skip = await post('submitted');
    assert.equal(skip.status, 409);
    assert.deepEqual(skip.body.error.details.allowed, ['draft']);
    const created = await post('draft');
    assert.equal(created.status, 201, created.text);
    assert.equal(created.body.status, 'draft');
    const edited = await post('draft', { reference: 'REF-1' });
    assert.equal(edited.status, 200);
    assert.equal(edited.body.reference, 'REF-1');
    assert.equal((await post('acknowledged')).status, 409);
    assert.equal((await post('submitted')).status, 200);
    assert.equal((await post('acknowledged')).status, 200);
    assert.equal((await post('closed')).status, 200);
    const reopen = await post('draft');
    assert.equal(reopen.status, 409);
    assert.match(reopen.body.error.message, /closed is final/);

    const got = await http(`${url}/cases/${c.id}/lea-referral`, { headers: as.reviewer });
    assert.equal(got.status, 200);
    assert.equal(got.body.reference, 'REF-1');
    assert.deepEqual(
      got.body.history.map((h: { from_status: string | null; to_status: string; actor: string }) => [h.from_status, h.to_status, h.actor]),
      [[null, 'draft', users.analyst], ['draft', 'submitted', users.analyst], ['submitted', 'acknowledged', users.analyst], ['acknowledged', 'closed', users.analyst]],
    );
    assert.equal((await http(`${url}/cases/${randomUUID()}/lea-referral`, { headers: as.analyst })).status, 404);
    assert.equal((await http(`${url}/cases/${randomUUID()}/lea-referral`, { method: 'POST', headers: as.analyst, json: { agency: 'a', jurisdiction: 'b', contact: 'c', status: 'draft' } })).status, 404);
  });

  it('answers 403 to researchers and to service keys on every case and review route', async () => {
    const key = await createTestApiKey(['intake:write', 'investigations:read', 'investigations:write', 'reports:read', 'reports:write', 'tasks:update']);
    const routes = allRoutes().filter((r) => r.path.startsWith('/cases') || r.path.startsWith('/reviews'));
    // The search routes let researchers in for aggregates only (test/search/search-query.test.ts).
    const researcherSearches = (r: (typeof routes)[number]) => r.path.startsWith('/reviews/search') && 'roles' in r.access && (r.access.roles ?? []).includes('researcher');
    assert.ok(routes.length >= 14, `found ${routes.length} routes`);
    for (const route of routes) {
      const path = route.path.replace(/\{[a-z_]+\}/g, randomUUID());
      const init = { method: route.method.toUpperCase(), ...(route.method === 'get' ? {} : { json: {} }) };
      const asResearcher = await http(`${url}${path}`, { ...init, headers: as.researcher });
      assert.equal(asResearcher.status === 403, !researcherSearches(route), `researcher ${route.method} ${route.path}: ${asResearcher.status}`);
      const asService = await http(`${url}${path}`, { ...init, headers: { 'x-api-key': key } });
      assert.equal(asService.status, 403, `service key ${route.method} ${route.path}: ${asService.status}`);
    }
  });
});
