// Masking is a property of the answer, not of the route. Seeded data holds a random IBAN in entity
// lists and in free text (an intake's summary and details, a case's title and description, a
// review's reason and note, a campaign's description, a saved search's query); every GET route of
// the route table (and the search query) is walked as every role and as a service key, and no
// answer to a caller who sees bank details only masked may hold the IBAN's hidden characters. The
// analyst sees them (so the walk can fail). A GET route this walk does not know fails it until it
// is added to ROUTES or to NOT_WALKED with the reason.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { allRoutes } from '../../api/route-table';
import { linkToCase } from '../../db/repositories/cases/case-repository';
import { insertIntake } from '../../db/repositories/intakes/intake-repository';
import { recordSourceEntities } from '../../db/repositories/intelligence/entity-repository';
import { API_KEY_SCOPES, type Role } from '../../domain/accounts/roles';
import { maskBankAccount, maskingFor } from '../../domain/masking/masking-policy';
import { raiseAlert } from '../../services/alerts/alert-service';
import { asUser, http } from '../support/http';
import { ibanOf, revealsHidden } from '../support/iban-arbitraries';
import { createTestApiKey, usersForEveryRole } from '../support/identities';
import { startTestApi, testKnex } from '../support/platform';

interface Seeded {
  iban: string;
  tag: string;
  intakeId: string;
  jobId: string;
  caseId: string;
  reviewId: string;
  entityId: string;
  campaignId: string;
  savedSearchId: string;
}

/** One request per walked GET route, keyed "GET path" as in the route table. */
const ROUTES: Record<string, (s: Seeded) => string> = {
  'GET /accounts/me': () => '/accounts/me',
  'GET /cases': (s) => `/cases?limit=100&q=${s.tag}`,
  'GET /cases/{case_id}': (s) => `/cases/${s.caseId}`,
  'GET /cases/{case_id}/lea-referral': (s) => `/cases/${s.caseId}/lea-referral`,
  'GET /intakes/': () => '/intakes/?limit=100',
  'GET /intakes/{id}': (s) => `/intakes/${s.intakeId}`,
  'GET /intakes/jobs/{id}': (s) => `/intakes/jobs/${s.jobId}`,
  'GET /reviews/queue': () => '/reviews/queue?limit=500',
  'GET /reviews/case/{case_id}': (s) => `/reviews/case/${s.caseId}`,
  'GET /reviews/{id}': (s) => `/reviews/${s.reviewId}`,
  'GET /reviews/{id}/actions': (s) => `/reviews/${s.reviewId}/actions`,
  'GET /reviews/search': (s) => `/reviews/search?q=${s.tag}&limit=50`,
  'GET /reviews/search/schema': () => '/reviews/search/schema',
  'GET /reviews/search/history': () => '/reviews/search/history?limit=50',
  'GET /reviews/search/presets': () => '/reviews/search/presets',
  'GET /reviews/search/saved': () => '/reviews/search/saved?limit=100',
  'GET /reviews/search/saved/{id}': (s) => `/reviews/search/saved/${s.savedSearchId}`,
  'GET /reviews/search/saved/{id}/export': (s) => `/reviews/search/saved/${s.savedSearchId}/export`,
  'GET /reviews/search/tag-presets': () => '/reviews/search/tag-presets',
  'GET /campaigns': () => '/campaigns?limit=100',
  'GET /campaigns/{id}': (s) => `/campaigns/${s.campaignId}`,
  'GET /alerts': () => '/alerts?limit=100',
  'GET /watchlists': () => '/watchlists?limit=100',
  'GET /campaigns/{id}/lea-suggestions': (s) => `/campaigns/${s.campaignId}/lea-suggestions?limit=50`,
  'GET /intelligence/campaigns': () => '/intelligence/campaigns?limit=100',
  'GET /intelligence/campaigns/{id}': (s) => `/intelligence/campaigns/${s.campaignId}`,
  'GET /intelligence/dashboard': () => '/intelligence/dashboard',
  'GET /impact/dashboard': () => '/impact/dashboard',
  'GET /dashboard/overview': () => '/dashboard/overview',
  'GET /analytics/overview': () => '/analytics/overview',
  'GET /taxonomy': () => '/taxonomy',
  'GET /analytics/widgets/dashboard': () => '/analytics/widgets/dashboard',
  'GET /analytics/widgets/impact-kpis': () => '/analytics/widgets/impact-kpis',
  'GET /analytics/widgets/loss-by-taxonomy': () => '/analytics/widgets/loss-by-taxonomy',
  'GET /analytics/widgets/pipeline-funnel': () => '/analytics/widgets/pipeline-funnel',
  'GET /analytics/widgets/taxonomy-sankey': () => '/analytics/widgets/taxonomy-sankey',
  'GET /analytics/widgets/heatmap': () => '/analytics/widgets/heatmap?source=sightings',
  'GET /analytics/widgets/trend': () => '/analytics/widgets/trend?metric=intakes,cases&bucket=week',
  'GET /analytics/widgets/countries': () => '/analytics/widgets/countries',
  'GET /analytics/widgets/countries/{country}': () => '/analytics/widgets/countries/DE',
  'GET /analytics/widgets/activity-timeline': () => '/analytics/widgets/activity-timeline?limit=100',
  'GET /intelligence/entities': () => '/intelligence/entities?type=bank_account&limit=500',
  'GET /intelligence/entities/{id}': (s) => `/intelligence/entities/${s.entityId}`,
  'GET /intelligence/entities/{type}/{value}/activity': (s) => `/intelligence/entities/bank_account/${s.iban}/activity?bucket=week`,
  'GET /intelligence/entities/{type}/{value}/neighbors': (s) => `/intelligence/entities/bank_account/${s.iban}/neighbors`,
  'GET /intelligence/entities/{type}/{value}': (s) => `/intelligence/entities/bank_account/${s.iban}`,
  'GET /intelligence/indicators': () => '/intelligence/indicators?limit=100',
  'GET /intelligence/graph': (s) => `/intelligence/graph?seed=${s.entityId}&depth=2`,
  'GET /discovery/search': (s) => `/discovery/search?q=${s.iban.slice(0, 8)}`,
  'GET /audit/events': () => '/audit/events?limit=200',
  'GET /accounts/users': () => '/accounts/users?limit=200',
  'GET /accounts/api-keys': () => '/accounts/api-keys?limit=200',
  'GET /exports/entities': () => '/exports/entities?fmt=csv&entity_type=bank_account',
  'GET /exports/indicators': () => '/exports/indicators?fmt=csv',
  'GET /exports/researcher/entities': () => '/exports/researcher/entities',
  'GET /feeds/indicators': () => '/feeds/indicators?limit=100',
  'GET /exports/misp': (s) => `/exports/misp?case_id=${s.caseId}`,
  'GET /feeds/misp/manifest.json': () => '/feeds/misp/manifest.json',
  'GET /feeds/misp/hashes.csv': () => '/feeds/misp/hashes.csv',
};

/** GET routes not walked, and why none of them can answer the seeded intake, case or entity text. */
const NOT_WALKED: Record<string, string> = {
  'GET /healthz': 'no record data',
  'GET /evidence/signing-keys': 'public keys and their fingerprints, no record data',
  'GET /readyz': 'no record data',
  'GET /openapi.json': 'the API description',
  'GET /docs': 'the API description',
  'GET /redoc': 'the API description',
  'GET /docs/assets/{file}': 'static files',
  'GET /console': 'static files: the console renders API answers, walked here',
  'GET /console/{view}': 'static files',
  'GET /console/{view}/{id}': 'static files',
  'GET /console/{view}/{id}/{tab}': 'static files',
  'GET /console/assets/{file}': 'static files',
  'GET /accounts/local-sign-in': 'a sign-in page',
  'GET /intelligence/scheduled-reports': 'schedules: templates and recipients',
  'GET /intelligence/report-templates': 'templates',
  'GET /reports/generated': 'generated reports: lists of runs',
  'GET /reports/generated/{id}/download': 'report files of wallet activity (no intake or case text)',
  'GET /reports/dossiers': 'dossier plans: titles and status',
  'GET /reports/dossiers/{id}': 'a dossier plan and its artifact names',
  'GET /reports/dossiers/{id}/signature_manifest': 'file names and hashes',
  'GET /reports/dossiers/{id}/download/{artifact}': 'dossier contents: sealed in clear, for analysts (and reports-scoped keys) only',
  'GET /reports/dossiers/{id}/download': 'dossier contents: sealed in clear, for analysts (and reports-scoped keys) only',
  'GET /reports/dossiers/{id}/drive_acl': 'an access list',
  'GET /tasks/{task_id}': 'task progress',
  'GET /intakes/{id}/contact': 'the reporter contact, analysts only, audited',
  'GET /intakes/{id}/files/{file_id}': 'an uploaded file as the reporter sent it: analysts only, audited',
  'GET /intelligence/indicators/{id}': 'bank accounts are never indicators (walked: the indicator list)',
  'GET /intelligence/graph.png': 'a PNG: its labels are the graph answer, walked as GET /intelligence/graph',
  'GET /playbooks/ssi': 'crawler playbooks',
  'GET /playbooks/ssi/{id}': 'crawler playbooks',
  'GET /investigations/ssi/wallets': 'wallet findings of scans (no intake or case text)',
  'GET /wallets': 'wallet findings of scans',
  'GET /investigations/ssi/{scan_id}/wallets.csv': 'wallet findings of a scan',
  'GET /investigations/ssi/{scan_id}/wallets.xlsx': 'wallet findings of a scan',
  'GET /investigations/{id}/wallets.csv': 'wallet findings of a scan',
  'GET /investigations/{id}/wallets.xlsx': 'wallet findings of a scan',
  'GET /investigations/ssi/history': 'scans: URLs and status',
  'GET /investigations/ssi/active': 'scans: URLs and status',
  'GET /investigations/ssi/{scan_id}': 'a scan: URL, pages, wallets',
  'GET /investigations/ssi/{scan_id}/pages/{page_id}/{artifact}': 'a captured public page, sealed evidence (not rewritten)',
  'GET /investigations/ssi/{scan_id}/evidence-bundle': 'captured public pages, sealed evidence (not rewritten)',
  'GET /investigations/ssi/{scan_id}/report.pdf': 'a scan report (URL, pages, wallets)',
  'GET /investigations/ssi/{scan_id}/lea-package': 'a scan package: its captures, wallets and custody (no intake, case or graph data)',
  'GET /investigations/ssi/{scan_id}/reveals/{name}': 'a capture taken after a reveal (screenshot, DOM, exchanges of a public page), sealed evidence (not rewritten)',
  'GET /investigations/ssi/{scan_id}/mail/{mail_id}': 'a mail the site sent the scan\'s synthetic persona, sealed evidence byte for byte (admins and analysts only)',
  'GET /investigations/ssi/{scan_id}/persona': 'the synthetic persona the funnel used (made-up values, no victim data; analysts only)',
  'GET /investigations/ssi/{scan_id}/guidance': 'the agent\'s question about a public page (kind, question, field selector)',
  'GET /investigations/ssi/{scan_id}/guidance/{request_id}/screenshot': 'a screenshot of a public page the agent asks about',
  'GET /takedowns': 'abuse reports of investigated sites: their URL, status and who acted; no entity of a masked kind (answers pass the masking policy all the same)',
  'GET /takedowns/{id}': 'one abuse report: the site\'s URL, its wallets, the abuse desks\' addresses from RDAP and the history; no entity of a masked kind (answers pass the masking policy all the same)',
  'GET /alerts/{id}/deliveries': 'delivery attempts: channel, status, times and errors (the alert itself is walked as GET /alerts)',
  'GET /watchlists/{id}': 'one watchlist of the caller: name, target id and rules (walked: GET /watchlists)',
  'GET /campaigns/suggestions': 'clusters of scan ids, case ids and entity ids with similarity reasons (kit, dom, assets, wallets of public pages)',
  'GET /investigations/ssi/{scan_id}/similar': 'scan ids with similarity reasons over captured public pages',
  'GET /taxii2/': 'discovery',
  'GET /taxii2/api/': 'discovery',
  'GET /taxii2/api/collections/': 'collections',
  'GET /taxii2/api/collections/{id}/': 'a collection',
  'GET /taxii2/api/collections/{id}/objects/': 'indicators (bank accounts are never indicators; walked: the feed)',
  'GET /taxii2/api/collections/{id}/objects/{object_id}/': 'one indicator of a collection (bank accounts are never indicators; walked: the feed)',
  'GET /taxii2/api/collections/{id}/objects/{object_id}/versions/': 'the versions of one indicator (dates only)',
  'GET /feeds/misp/{uuid}.json': 'one campaign\'s MISP event: the same builder and masking as GET /exports/misp (walked)',
  'GET /taxii2/api/collections/{id}/manifest/': 'indicator manifests',
};

describe('masking walk: every answer passes through the masking policy', function () {
  this.timeout(240_000);
  let url: string;
  let users: Record<Role, string>;
  let s: Seeded;
  const callers: Array<{ label: string; headers: Record<string, string>; clear: boolean }> = [];

  before(async () => {
    users = await usersForEveryRole();
    url = (await startTestApi({ SVC_AUTH__TRUST_PROXY_HEADER: 'true' })).url;
    for (const role of ['admin', 'reviewer', 'researcher', 'analyst'] as const) {
      callers.push({ label: role, headers: asUser(users[role]), clear: maskingFor([role]).sees('bank_account') });
    }
    callers.push({ label: 'api key (all scopes)', headers: { 'X-API-KEY': await createTestApiKey([...API_KEY_SCOPES]) }, clear: false });

    const [iban] = fc.sample(ibanOf(['DE']), 1);
    const grouped = iban.replace(/(.{4})/g, '$1 ').trim();
    const tag = `walk${randomUUID().replace(/[^a-f]/g, '').slice(0, 10)}`;
    const analyst = asUser(users.analyst);
    const post = async (path: string, json: unknown, status = 201) => {
      const res = await http(`${url}${path}`, { method: 'POST', headers: analyst, json });
      assert.equal(res.status, status, `${path}: ${res.text}`);
      return res.body;
    };
    const intakeId = randomUUID();
    const jobId = randomUUID();
    await testKnex().transaction((trx) =>
      insertIntake(trx, {
        id: intakeId, source: 'masking-walk', summary: `${tag} paid ${iban}`, details: `The victim (${tag}) wired 5000 EUR to ${grouped} and then to ${iban.toLowerCase()}.`,
        loss_amount: '5000', loss_currency: 'EUR', occurred_at: null, urls: [], submitted_by: 'masking-walk', task_id: `intake-${intakeId}`, files: [],
        jobs: [{ id: jobId, step: 'extract_text', position: 0 }],
      }),
    );
    await testKnex()('intake_jobs').where({ id: jobId }).update({ result: JSON.stringify({ text: `extracted ${grouped}`, entities: [{ type: 'bank_account', value: iban }] }) });
    const entity = await recordSourceEntities(testKnex(), { kind: 'intake', id: intakeId }, [{ type: 'bank_account', value: iban, context: { excerpt: `to ${grouped} and` } }]);
    const campaign = await post('/campaigns', { name: `walk ${tag}`, taxonomy: 'investment/crypto', description: `mule account ${iban}` });
    const theCase = await post('/cases', { title: `${tag} transfer to ${iban}`, description: `Money went to ${grouped}.`, campaign_id: campaign.id, loss: { amount: '5000', currency: 'EUR' } });
    await linkToCase(testKnex(), theCase.id, { type: 'intake', id: intakeId }, users.analyst);
    await recordSourceEntities(testKnex(), { kind: 'case', id: theCase.id }, [{ type: 'bank_account', value: iban }]);
    const review = await post('/reviews/', { case_id: theCase.id, reason: `check ${grouped}` });
    await post(`/reviews/${review.id}/annotate`, { note: `confirmed ${iban} with the bank` });
    await post('/cases/' + theCase.id + '/lea-referral', { agency: 'BKA', jurisdiction: 'DE', contact: 'desk@bka.example', reference: `ref ${iban}`, status: 'draft' });
    const saved = await post('/reviews/search/saved', { name: `walk ${tag} ${iban}`, query: `${tag} OR ${iban}`, visibility: 'public' });
    // Every search role searched for it too (their own history is theirs, and walked).
    await post('/reviews/search/query', { query: `${tag} ${iban}` }, 200);
    await http(`${url}/reviews/search/saved/${saved.id}/export`, { headers: analyst });
    s = { iban, tag, intakeId, jobId, caseId: theCase.id, reviewId: review.id, entityId: entity.entities[0]!.id, campaignId: campaign.id, savedSearchId: saved.id };
    // The bank account watched by a reviewer and an admin (the IBAN in the watchlist's name too),
    // and an alert about it naming the IBAN: GET /alerts and /watchlists are walked with it.
    for (const role of ['reviewer', 'admin'] as const) {
      const w = await http(`${url}/watchlists`, { method: 'POST', headers: asUser(users[role]), json: { name: `mule ${iban}`, target: { kind: 'entity', id: s.entityId }, rules: [{ kind: 'new_sightings' }], email: false } });
      assert.equal(w.status, 201, w.text);
    }
    const raised = await raiseAlert({ knex: testKnex() }, { kind: 'new_sightings', title: `bank_account ${iban}: 1 new sighting(s)`, detail: { excerpt: `to ${grouped} and` }, dedupeKey: `walk-${tag}`, targets: [{ kind: 'entity', id: s.entityId }] });
    assert.equal(raised.length, 2);
  });

  it('knows every GET route: walked, or not walked for a stated reason', () => {
    const gets = allRoutes().filter((r) => r.method === 'get').map((r) => `GET ${r.path}`).sort();
    assert.deepEqual([...Object.keys(ROUTES), ...Object.keys(NOT_WALKED)].sort(), gets);
  });

  it('finding: GET /intakes/{id} and GET /cases/{id} give reviewers and admins the mask, in entities and free text; analysts the value', async () => {
    const masked = maskBankAccount(s.iban);
    for (const role of ['reviewer', 'admin'] as const) {
      const intake = await http(`${url}/intakes/${s.intakeId}`, { headers: asUser(users[role]) });
      assert.equal(intake.status, 200, intake.text);
      assert.equal(revealsHidden(intake.text, s.iban), false, `${role}: ${intake.text}`);
      assert.deepEqual(intake.body.entities.map((e: { value: string }) => e.value), [masked]);
      assert.ok(intake.body.details.includes(masked), intake.body.details);
      const theCase = await http(`${url}/cases/${s.caseId}`, { headers: asUser(users[role]) });
      assert.equal(theCase.status, 200, theCase.text);
      assert.equal(revealsHidden(theCase.text, s.iban), false, `${role}: ${theCase.text}`);
      assert.ok(theCase.body.entities.some((e: { value: string; display_value: string }) => e.value === masked && e.display_value === masked));
      assert.ok(theCase.body.description.includes(masked));
    }
    const analystIntake = await http(`${url}/intakes/${s.intakeId}`, { headers: asUser(users.analyst) });
    assert.ok(analystIntake.text.includes(s.iban));
  });

  it('finding: the case and intake text filters are no substring oracle for a non-analyst', async () => {
    const hidden = s.iban.slice(6, 14);
    for (const role of ['reviewer', 'admin'] as const) {
      const cases = await http(`${url}/cases?q=${hidden}&limit=100`, { headers: asUser(users[role]) });
      assert.equal(cases.status, 200, cases.text);
      assert.ok(!cases.body.items.some((c: { id: string }) => c.id === s.caseId), `${role} /cases?q=`);
      const intakes = await http(`${url}/intakes/?q=${hidden}&limit=100`, { headers: asUser(users[role]) });
      assert.ok(!intakes.body.items.some((i: { id: string }) => i.id === s.intakeId), `${role} /intakes?q=`);
    }
    const analyst = await http(`${url}/cases?q=${hidden}&limit=100`, { headers: asUser(users.analyst) });
    assert.ok(analyst.body.items.some((c: { id: string }) => c.id === s.caseId));
  });

  it('walks every route x caller: no answer to a caller who sees bank details only masked holds the hidden characters', async () => {
    const leaks: string[] = [];
    let checked = 0;
    let clearSeen = 0;
    for (const route of allRoutes()) {
      const build = ROUTES[`GET ${route.path}`];
      if (route.method !== 'get' || !build) continue;
      for (const caller of callers) {
        const res = await fetch(`${url}${build(s)}`, { headers: caller.headers });
        const where = `GET ${route.path} as ${caller.label}`;
        assert.ok(res.status < 500, `${where}: ${res.status}`);
        const text = await res.text();
        if (res.status >= 300) continue;
        checked++;
        if (caller.clear) clearSeen += revealsHidden(text, s.iban) ? 1 : 0;
        else if (revealsHidden(text, s.iban)) leaks.push(`${where}: ${text.slice(0, 300)}`);
      }
    }
    // The search query too, by every search role.
    for (const caller of callers) {
      const res = await http(`${url}/reviews/search/query`, { method: 'POST', headers: caller.headers, json: { query: `${s.tag}`, limit: 50 } });
      if (res.status !== 200) continue;
      checked++;
      if (!caller.clear && revealsHidden(res.text, s.iban)) leaks.push(`POST /reviews/search/query as ${caller.label}: ${res.text.slice(0, 300)}`);
    }
    process.stdout.write(`      walked ${Object.keys(ROUTES).length + 1} routes x ${callers.length} callers: ${checked} answers checked, the analyst saw the value in ${clearSeen}\n`);
    assert.deepEqual(leaks, []);
    assert.ok(clearSeen >= 5, 'the analyst sees the value (the walk can tell a leak)');
  });
});
