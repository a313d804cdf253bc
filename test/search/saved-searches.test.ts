// Saved searches through the API on real PostgreSQL: create (validated, unique names), sharing
// rules (owner, editor, viewer, role shares, public, admins see all), export/import round trip
// (created, renamed on a clash, rejected with reasons), atomic import (all or nothing), bulk tags
// with skipped ids, tag presets, built-in query presets.
// Each test uses its own users or its own names and tags.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { addUserRoles } from '../../db/repositories/accounts/user-repository';
import type { Role } from '../../domain/accounts/roles';
import { asUser, http } from '../support/http';
import { usersForEveryRole } from '../support/identities';
import { startTestApi, testKnex } from '../support/platform';

describe('saved searches: sharing, export/import, tags', function () {
  this.timeout(120_000);
  let url: string;
  let users: Record<Role, string>;
  let as: Record<Role, Record<string, string>>;

  before(async () => {
    users = await usersForEveryRole();
    as = Object.fromEntries(Object.entries(users).map(([r, e]) => [r, asUser(e)])) as Record<Role, Record<string, string>>;
    url = (await startTestApi({ SVC_AUTH__TRUST_PROXY_HEADER: 'true', SVC_SEARCH__TAG_PRESETS: 'triage, high-loss ,crypto' })).url;
  });

  const person = async (role: Role) => {
    const email = `${role}-${randomUUID().slice(0, 8)}@example.org`;
    await addUserRoles(testKnex(), email, [role]);
    return asUser(email);
  };
  const save = async (headers: Record<string, string>, body: Record<string, unknown>) => {
    const res = await http(`${url}/reviews/search/saved`, { method: 'POST', headers, json: body });
    assert.equal(res.status, 201, res.text);
    return res.body;
  };

  it('creates a saved search (validated query, unique name per owner) and lists it for its owner', async () => {
    const owner = await person('analyst');
    const name = `High losses ${randomUUID().slice(0, 6)}`;
    const s = await save(owner, { name, query: 'wallet:TQ* AND loss>5000 NOT status:closed', types: ['case'], filters: { currency: 'EUR' }, tags: ['crypto', 'triage'] });
    assert.equal(s.access, 'owner');
    assert.deepEqual(s.filters, { currency: ['EUR'] });
    assert.deepEqual(s.tags, ['crypto', 'triage']);
    assert.equal(s.visibility, 'private');
    const clash = await http(`${url}/reviews/search/saved`, { method: 'POST', headers: owner, json: { name: name.toUpperCase(), query: 'x' } });
    assert.equal(clash.status, 409, clash.text);
    const bad = await http(`${url}/reviews/search/saved`, { method: 'POST', headers: owner, json: { name: 'bad', query: 'loss>' } });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error.details[0].path, 'body.query');
    const list = await http(`${url}/reviews/search/saved`, { headers: owner });
    // Other suites' public searches may be listed too; the caller's own are exactly this one.
    assert.deepEqual(list.body.items.filter((i: { access: string }) => i.access === 'owner').map((i: { id: string }) => i.id), [s.id]);
    const other = await http(`${url}/reviews/search/saved`, { headers: await person('analyst') });
    assert.ok(!other.body.items.some((i: { id: string }) => i.id === s.id), 'private searches are not listed for others');
  });

  it('enforces sharing: viewers read, editors change, only the owner shares and deletes, admins see all, strangers get 404', async () => {
    const owner = await person('analyst');
    const viewerEmail = `viewer-${randomUUID().slice(0, 8)}@example.org`;
    await addUserRoles(testKnex(), viewerEmail, ['analyst']);
    const viewer = asUser(viewerEmail);
    const reviewer = await person('reviewer');
    const stranger = await person('analyst');
    const admin = await person('admin');
    const s = await save(owner, { name: `Shared ${randomUUID().slice(0, 6)}`, query: 'romance' });
    const get = (h: Record<string, string>) => http(`${url}/reviews/search/saved/${s.id}`, { headers: h });
    const patch = (h: Record<string, string>, json: unknown) => http(`${url}/reviews/search/saved/${s.id}`, { method: 'PATCH', headers: h, json });

    assert.equal((await get(stranger)).status, 404);
    assert.equal((await get(viewer)).status, 404);
    const notOwner = await http(`${url}/reviews/search/saved/${s.id}/share`, { method: 'POST', headers: admin, json: { grant: [{ user: viewerEmail, permission: 'editor' }] } });
    assert.equal(notOwner.status, 403, 'admins see but do not share');

    const shared = await http(`${url}/reviews/search/saved/${s.id}/share`, { method: 'POST', headers: owner, json: { grant: [{ user: viewerEmail.toUpperCase(), permission: 'viewer' }, { role: 'reviewer', permission: 'editor' }] } });
    assert.equal(shared.status, 200, shared.text);
    assert.deepEqual(shared.body.shares.map((x: { grantee: string; permission: string }) => `${x.grantee}:${x.permission}`).sort(), [`reviewer:editor`, `${viewerEmail}:viewer`]);
    // The owner's list carries the same shares, with exactly the documented fields.
    const listed = await http(`${url}/reviews/search/saved?limit=100`, { headers: owner });
    assert.equal(listed.status, 200, listed.text);
    const mine = listed.body.items.find((x: { id: string }) => x.id === s.id);
    assert.deepEqual(mine.shares.map((x: Record<string, unknown>) => Object.keys(x).sort()), [
      ['grantee', 'grantee_kind', 'permission', 'shared_at', 'shared_by'], ['grantee', 'grantee_kind', 'permission', 'shared_at', 'shared_by'],
    ]);

    const asViewer = await get(viewer);
    assert.equal(asViewer.status, 200);
    assert.equal(asViewer.body.access, 'viewer');
    assert.equal(asViewer.body.shares, undefined, 'only owners see the shares');
    assert.equal((await patch(viewer, { query: 'changed' })).status, 403);
    assert.equal((await http(`${url}/reviews/search/saved/${s.id}`, { method: 'DELETE', headers: viewer })).status, 403);

    const byEditor = await patch(reviewer, { query: 'romance OR dating', tags: ['triage'] });
    assert.equal(byEditor.status, 200, byEditor.text);
    assert.equal(byEditor.body.query, 'romance OR dating');
    assert.equal(byEditor.body.access, 'editor');
    assert.equal((await patch(reviewer, { visibility: 'public' })).status, 403, 'visibility is the owner\'s');
    assert.equal((await http(`${url}/reviews/search/saved/${s.id}`, { method: 'DELETE', headers: reviewer })).status, 403);

    const asAdmin = await get(admin);
    assert.equal(asAdmin.status, 200);
    assert.equal(asAdmin.body.access, 'viewer');
    assert.equal((await patch(admin, { query: 'x' })).status, 403, 'admins see all but change only what is shared with them');
    assert.ok((await http(`${url}/reviews/search/saved?limit=500`, { headers: admin })).body.items.some((i: { id: string }) => i.id === s.id));

    assert.equal((await get(stranger)).status, 404);
    assert.equal((await patch(owner, { visibility: 'public' })).status, 200);
    assert.equal((await get(stranger)).body.access, 'viewer', 'public: every search user can view');

    const twice = await http(`${url}/reviews/search/saved/${s.id}/share`, { method: 'POST', headers: owner, json: { grant: [{ user: viewerEmail, permission: 'editor' }, { user: viewerEmail, permission: 'viewer' }] } });
    assert.equal(twice.status, 200, twice.text);
    assert.deepEqual(twice.body.shares.filter((x: { grantee: string }) => x.grantee === viewerEmail).map((x: { permission: string }) => x.permission), ['viewer'], 'a grantee named twice keeps the last permission');
    const empty = await http(`${url}/reviews/search/saved/${s.id}`, { method: 'PATCH', headers: owner });
    assert.equal(empty.status, 400, 'a PATCH without a body changes nothing and says so');

    const revoked = await http(`${url}/reviews/search/saved/${s.id}/share`, { method: 'POST', headers: owner, json: { revoke: [{ role: 'reviewer' }] } });
    assert.deepEqual(revoked.body.shares.map((x: { grantee: string }) => x.grantee), [viewerEmail]);
    assert.equal((await patch(reviewer, { query: 'again' })).status, 403, 'a revoked editor cannot change it');

    assert.equal((await http(`${url}/reviews/search/saved/${s.id}`, { method: 'DELETE', headers: owner })).status, 204);
    assert.equal((await get(owner)).status, 404);
  });

  it('exports a versioned document and imports it elsewhere: created, renamed on a clash, invalid ones rejected with why', async () => {
    const owner = await person('analyst');
    const other = await person('reviewer');
    const name = `Export ${randomUUID().slice(0, 6)}`;
    const s = await save(owner, { name, query: 'wallet:TQ* AND loss>5000 NOT status:closed', types: ['case', 'intake'], filters: { status: ['open', 'triaged'] }, sort: 'newest', tags: ['crypto'] });
    const exported = await http(`${url}/reviews/search/saved/${s.id}/export`, { headers: owner });
    assert.equal(exported.status, 200, exported.text);
    assert.match(exported.headers.get('content-disposition') ?? '', /attachment; filename="Export-[a-z0-9]+\.fip-search\.json"/);
    const doc = exported.body;
    assert.equal(doc.format, 'fip-saved-search');
    assert.equal(doc.version, 1);
    assert.deepEqual(doc.saved_search, { name, query: s.query, types: ['case', 'intake'], filters: { status: ['open', 'triaged'] }, sort: 'newest', tags: ['crypto'] });
    const audit = await testKnex()('audit_events').where({ action: 'saved_search.export', target_id: s.id });
    assert.equal(audit.length, 1);

    const badVersion = { ...doc, version: 2 };
    const badQuery = { ...doc, saved_search: { ...doc.saved_search, name: 'broken', query: 'loss>>5' } };
    const imported = await http(`${url}/reviews/search/saved/import`, { method: 'POST', headers: other, json: { documents: [doc, doc, badVersion, badQuery, 'nonsense'] } });
    assert.equal(imported.status, 200, imported.text);
    assert.deepEqual(imported.body.results.map((r: { status: string }) => r.status), ['created', 'renamed', 'rejected', 'rejected', 'rejected']);
    assert.deepEqual([imported.body.created, imported.body.renamed, imported.body.rejected], [1, 1, 3]);
    assert.equal(imported.body.results[0].name, name);
    assert.equal(imported.body.results[1].name, `${name} (2)`);
    assert.equal(imported.body.results[1].original_name, name);
    assert.equal(imported.body.results[2].errors[0].path, 'documents[2].version');
    assert.equal(imported.body.results[3].errors[0].path, 'documents[3].saved_search.query');
    assert.ok(imported.body.results[4].errors.length > 0);

    const copy = await http(`${url}/reviews/search/saved/${imported.body.results[0].id}`, { headers: other });
    assert.equal(copy.body.owner, other['X-Goog-Authenticated-User-Email'].split(':')[1]);
    const roundTrip = await http(`${url}/reviews/search/saved/${copy.body.id}/export`, { headers: other });
    assert.deepEqual(roundTrip.body.saved_search, doc.saved_search);
  });

  it('imports atomically: one invalid document writes none and names every problem by path; all valid ones are written together', async () => {
    const importer = await person('analyst');
    const email = importer['X-Goog-Authenticated-User-Email'].split(':')[1];
    const tag = `imp${randomUUID().slice(0, 8)}`;
    const doc = (name: string, query: string) => ({ format: 'fip-saved-search', version: 1, saved_search: { name, query, types: ['case'], tags: [tag] } });
    const bad = await http(`${url}/reviews/search/saved/import`, {
      method: 'POST', headers: importer,
      json: { atomic: true, documents: [doc('good one', 'romance'), doc('broken', 'loss>>5'), { ...doc('old', 'x'), version: 9 }] },
    });
    assert.equal(bad.status, 400, bad.text);
    assert.equal(bad.body.error.code, 'validation_failed');
    const paths = bad.body.error.details.map((d: { path: string }) => d.path);
    assert.ok(paths.includes('body.documents.1.saved_search.query'), paths.join());
    assert.ok(paths.includes('body.documents.2.version'), paths.join());
    assert.ok(!paths.some((p: string) => p.startsWith('body.documents.0')), 'the valid document has no problem');
    assert.equal((await testKnex()('saved_searches').where({ owner: email })).length, 0, 'nothing was written');

    await save(importer, { name: 'taken', query: 'x' });
    const ok = await http(`${url}/reviews/search/saved/import`, { method: 'POST', headers: importer, json: { atomic: true, documents: [doc('taken', 'romance'), doc('fresh', 'wallet:TQ*')] } });
    assert.equal(ok.status, 200, ok.text);
    assert.deepEqual(ok.body.results.map((r: { status: string; name: string }) => [r.status, r.name]), [['renamed', 'taken (2)'], ['created', 'fresh']]);
    const byTag = await http(`${url}/reviews/search/saved?tag=${tag}`, { headers: importer });
    assert.deepEqual(byTag.body.items.map((i: { name: string }) => i.name).sort(), ['fresh', 'taken (2)']);
    const audit = await testKnex()('audit_events').where({ action: 'saved_search.import', actor: email });
    assert.equal(audit.length, 1);
    assert.equal(audit[0].details.count, 2);
  });

  it('lists the built-in presets, each a query that runs, with "this week" resolved to a date; researchers may not', async () => {
    const analyst = await person('analyst');
    const res = await http(`${url}/reviews/search/presets`, { headers: analyst });
    assert.equal(res.status, 200, res.text);
    const items = res.body.items as Array<{ id: string; name: string; query: string; types: string[]; sort: string }>;
    assert.ok(items.length >= 4);
    const week = items.find((i) => i.id === 'high-risk-this-week');
    const weekAgo = new Date(Date.now() - 7 * 86_400_000).toISOString().slice(0, 10);
    const dayBefore = new Date(Date.now() - 8 * 86_400_000).toISOString().slice(0, 10);
    assert.ok(week && (week.query.includes(weekAgo) || week.query.includes(dayBefore)), week?.query);
    for (const p of items) {
      const run = await http(`${url}/reviews/search/query`, { method: 'POST', headers: analyst, json: { query: p.query, types: p.types, sort: p.sort, limit: 1 } });
      assert.equal(run.status, 200, `${p.name}: ${run.text}`);
    }
    assert.equal((await http(`${url}/reviews/search/presets`, { headers: as.researcher })).status, 403);
  });

  it('bulk-tags only what the caller may edit and lists the skipped ids; tag presets show configured and used tags', async () => {
    const owner = await person('analyst');
    const tag = `t${randomUUID().slice(0, 8)}`;
    const mine = await save(owner, { name: 'mine', query: 'a', tags: ['old'] });
    const theirs = await save(await person('analyst'), { name: 'theirs', query: 'b', visibility: 'public' });
    const missing = randomUUID();
    const res = await http(`${url}/reviews/search/saved/bulk-tags`, { method: 'POST', headers: owner, json: { ids: [mine.id, theirs.id, missing], add: [tag, 'triage'], remove: ['old'] } });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body.updated, [mine.id]);
    assert.deepEqual(res.body.skipped, [{ id: theirs.id, reason: 'not_editable' }, { id: missing, reason: 'not_found' }]);
    const after = await http(`${url}/reviews/search/saved/${mine.id}`, { headers: owner });
    assert.deepEqual(after.body.tags, [tag, 'triage'].sort());
    const untouched = await http(`${url}/reviews/search/saved/${theirs.id}`, { headers: owner });
    assert.deepEqual(untouched.body.tags, []);
    const byTag = await http(`${url}/reviews/search/saved?tag=${tag}`, { headers: owner });
    assert.deepEqual(byTag.body.items.map((i: { id: string }) => i.id), [mine.id]);

    const presets = await http(`${url}/reviews/search/tag-presets`, { headers: owner });
    assert.equal(presets.status, 200, presets.text);
    assert.deepEqual(presets.body.presets, ['triage', 'high-loss', 'crypto']);
    assert.deepEqual(presets.body.in_use.find((t: { tag: string }) => t.tag === tag), { tag, count: 1 });
    const stranger = await http(`${url}/reviews/search/tag-presets`, { headers: await person('reviewer') });
    assert.equal(stranger.body.in_use.find((t: { tag: string }) => t.tag === tag), undefined, 'tags of searches you cannot see are not counted');
    const researcher = await http(`${url}/reviews/search/saved`, { headers: as.researcher });
    assert.equal(researcher.status, 403);
  });
});
