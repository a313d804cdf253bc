// Walks every route of the route table with every role, a person without roles, no identity, and
// API keys (all scopes, each single scope, none). Each route has one valid request, built from
// fixtures this test creates itself, so a caller the route's declared policy allows must get a 2xx;
// any other caller must get exactly 401 or 403 (on /tasks, 404 or 403 by the task kind's access). A 5xx always fails, and so does a route of the
// route table without an entry in VALID_REQUESTS (every new route must add one).
import { ensureScanPersona } from '../../services/investigations/persona-service';
import assert from 'node:assert/strict';
import { raiseAlert } from '../../services/alerts/alert-service';
import { randomUUID } from 'node:crypto';
import { allRoutes } from '../../api/route-table';
import type { RouteDef } from '../../api/route-definition';
import { API_KEY_SCOPES, ROLES, type ApiKeyScope, type Role } from '../../domain/accounts/roles';
import { PLATFORM_TASK_KINDS, type TaskAccessPolicy } from '../../domain/tasks/task-kinds';
import { asUser, http } from '../support/http';
import { createTestApiKey, usersForEveryRole } from '../support/identities';
import { listActiveSchedules } from '../../db/repositories/reports/report-schedule-repository';
import { createCase, linkToCase } from '../../db/repositories/cases/case-repository';
import { insertIntake } from '../../db/repositories/intakes/intake-repository';
import { upsertWallets } from '../../db/repositories/wallets/wallet-repository';
import { recordSourceEntities } from '../../db/repositories/intelligence/entity-repository';
import { deactivateSchedule } from '../../services/reports/report-schedule-service';
import { insertInvestigation, insertPage, insertResponses, REVEAL_MARK, setInvestigationState } from '../../db/repositories/investigations/investigation-repository';
import { createBlobStore } from '../../infra/blob-store';
import { createLogger } from '../../infra/logger';
import { openGuidance } from '../../services/investigations/guidance-service';
import { receivePersonaMail } from '../../services/investigations/persona-mail-service';
import { startTestApi, startTestWorker, testConfig, testKnex, testTemporal } from '../support/platform';
import { waitFor } from '../support/wait-for';
import { consoleAssetName } from '../support/console-bundle';
import { TAXII_COLLECTIONS, TAXII_MEDIA_TYPE } from '../../domain/exports/taxii';
import { mispEventUuid } from '../../domain/exports/misp-event';
import { PRODUCER_IDENTITY_ID } from '../../domain/exports/stix-objects';
import { recomputeSuggestions } from '../../services/similarity/suggestion-service';
import { buildXarfReport } from '../../domain/takedowns/xarf-report';

type Caller =
  | { label: string; headers: Record<string, string>; kind: 'anonymous' }
  | { label: string; headers: Record<string, string>; kind: 'person'; roles: readonly Role[] }
  | { label: string; headers: Record<string, string>; kind: 'service'; scopes: readonly ApiKeyScope[] };

/** What the route's declared policy says for this caller (written out here, not borrowed from domain/accounts/access-policy.ts). */
function expected(route: RouteDef, caller: Caller): 'allow' | 401 | 403 {
  const a = route.access;
  if ('public' in a) return 'allow';
  if (caller.kind === 'anonymous') return 401;
  if ('authenticated' in a) return 'allow';
  if (caller.kind === 'person') return caller.roles.some((r) => (a.roles ?? []).includes(r)) ? 'allow' : 403;
  return caller.scopes.some((s) => (a.scopes ?? []).includes(s)) ? 'allow' : 403;
}

/** Whether a caller holds a role or scope of a (task kind's) policy. */
function holds(policy: TaskAccessPolicy, caller: Caller): boolean {
  if (caller.kind === 'anonymous') return false;
  if (caller.kind === 'person') return caller.roles.some((r) => policy.roles.includes(r));
  return caller.scopes.some((s) => policy.scopes.includes(s));
}

/**
 * /tasks routes check the task's kind too (domain/tasks/task-kinds.ts, declared data): a caller the
 * route admits but the kind does not answers 404 when it may not even read the kind (no leak of
 * the task's existence) and 403 when it may read but not change it.
 */
function expectedForKind(want: 'allow' | 401 | 403, caller: Caller, kind: ValidRequest['kind']): 'allow' | 401 | 403 | 404 {
  if (want !== 'allow' || !kind) return want;
  if (!holds(kind.read, caller)) return 404;
  if (kind.write && !holds(kind.write, caller)) return 403;
  return 'allow';
}

/** Everything the valid requests need, created by this test. */
interface Fixtures {
  scheduleId: string;
  reportId: string;
  /** A report task that stays open (queued on a task queue without workers), so it can be polled. */
  openReportTaskId: string;
  /** A second schedule, whose workflow runs and sleeps until 2099: a started task that takes notes. */
  sleepingScheduleTaskId: string;
  /** A processed intake (status moves, contact read, attach to fxCaseId). */
  intakeId: string;
  /** Its stored file (analysts read it). */
  intakeFileId: string;
  /** Per role: a case that scanId is linked to (each allowed caller unlinks its own). */
  linkedCases: Record<string, string>;
  /** A job of an intake whose processing never started (queued): cancelled by the walk. */
  queuedIntakeJobId: string;
  caseId: string;
  /** A playbook every allowed caller may read and replace. */
  playbookId: string;
  /** One playbook per caller for DELETE (each allowed caller deletes its own). */
  playbookIdsToDelete: string[];
  /** A scan with wallets, for the wallet downloads. */
  walletScanId: string;
  /** An investigation with one captured page (written through the repository, no crawl). */
  scanId: string;
  pageId: string;
  /** An ended (completed) investigation with one captured page, for the evidence downloads. */
  endedScanId: string;
  cases: CaseFixtures;
  /** A sealed dossier of caseId and scanId. */
  dossierId: string;
  search: SearchFixtures;
  /** A campaign every allowed caller may read, change and ask LEA suggestions of. */
  campaignId: string;
  /**
   * A scan waiting on guidance (its `ssi-<scan_id>` workflow queued on a queue no worker polls, so
   * signals land): one pending question per caller to answer, one that stays pending (its
   * screenshot), and a persona mail.
   */
  funnel: { scanId: string; mailId: string; screenshotRequestId: string; requestIdsToAnswer: string[] };
  /** A graph entity (a domain, so also an indicator) for the intelligence routes. */
  intel: { entityId: string; domain: string };
  /** A user (not one of the callers) whose roles change and who is disabled, and a key (not one of the callers') that is revoked. */
  admin: { userId: string; keyId: string };
  /** Per alert role: a watchlist it owns, one it deletes, and an alert raised to the role. */
  alerts: { watch: Record<string, string>; deletable: Record<string, string>; alert: Record<string, string> };
  /** Per caller (by label): an open campaign suggestion to accept, and one to dismiss. */
  suggestions: { accept: Record<string, string>; dismiss: Record<string, string> };
  /** Per caller (by label): a draft to approve (created by someone else) and an approved takedown to send. */
  takedowns: { draft: Record<string, string>; approved: Record<string, string> };
}

/** A valid XARF report about the walk's site (approval validates it again). */
function walkXarf(): Record<string, unknown> {
  return buildXarfReport({
    reportId: randomUUID(), scanId: randomUUID(), url: 'http://192.0.2.11/', host: '192.0.2.11', serverIp: '192.0.2.11', scamType: null, firstSeen: new Date(), lastSeen: new Date(),
    files: [], screenshotUrl: null, wallets: [], registrar: null, hostingProvider: null, reporter: { org: 'Access walk', contact: 'walk@access-walk.example', domain: 'access-walk.example' },
  });
}

/** A takedown of the ended scan, written directly, with one recipient. */
async function takedownFixture(scanId: string, status: 'draft' | 'approved'): Promise<string> {
  const knex = testKnex();
  const [row] = (await knex('takedowns')
    .insert({ scan_id: scanId, url: 'http://192.0.2.11/', domain: '192.0.2.11', status, created_by: 'access-walk', approved_by: status === 'approved' ? 'access-walk-2' : null, xarf: JSON.stringify(walkXarf()), summary: 'access walk' })
    .returning('id')) as Array<{ id: string }>;
  await knex('takedown_recipients').insert({ takedown_id: row.id, role: 'other', email: 'desk@access-walk.invalid', source: 'access-walk' });
  return row.id;
}

/** An open campaign suggestion of two linked investigations of its own (links written directly, then recomputed). */
async function suggestionFixture(): Promise<string> {
  const knex = testKnex();
  const [a, b] = [randomUUID(), randomUUID()].sort() as [string, string];
  for (const scanId of [a, b]) {
    await insertInvestigation(knex, { scanId, url: `http://192.0.2.20/${scanId}`, domain: '192.0.2.20', requestedBy: 'access-walk', playbookId: null, caseId: null, label: null, options: {} });
  }
  await knex('site_links').insert({ scan_a: a, scan_b: b, score: 0.9, reasons: JSON.stringify([{ kind: 'shared_wallet', detail: 'access walk', weight: 0.9 }]) });
  await recomputeSuggestions({ knex });
  return ((await knex('campaign_suggestions').whereRaw('scan_ids @> ?::uuid[]', [[a, b]]).first('id')) as { id: string }).id;
}

function intakeSubmission(): FormData {
  const form = new FormData();
  form.append('payload', JSON.stringify({ summary: 'access walk', contact_email: 'walk@example.org' }));
  form.append('files', new Blob(['evidence text']), 'evidence.txt');
  return form;
}

/** Cases and reviews; per caller (by label) where a request changes them: a fresh case to enqueue, a queued review to claim, a review it holds to decide. */
interface SearchFixtures {
  /** Public and shared with every saved-search role as editor: read, changed and exported by each. */
  sharedId: string;
  /** Per role: a saved search the role's user owns (shared by it), and one it deletes. */
  own: Record<string, string>;
  deletable: Record<string, string>;
  /** Per role: an entry of the role's own search history (each deletes its own). */
  history: Record<string, string>;
}

interface CaseFixtures {
  caseId: string;
  reviewId: string;
  enqueue: Record<string, string>;
  claim: Record<string, string>;
  decide: Record<string, string>;
}

async function alertFixtures(url: string, users: Record<Role, string>, entityId: string): Promise<Fixtures['alerts']> {
  const fx: Fixtures['alerts'] = { watch: {}, deletable: {}, alert: {} };
  const watch = async (role: Role) => {
    const res = await http(`${url}/watchlists`, { method: 'POST', headers: asUser(users[role]), json: { name: `walk ${randomUUID()}`, target: { kind: 'entity', id: entityId }, rules: [{ kind: 'new_sightings' }] } });
    assert.equal(res.status, 201, res.text);
    return res.body.id as string;
  };
  for (const role of ['admin', 'analyst', 'reviewer'] as const) {
    fx.watch[role] = await watch(role);
    fx.deletable[role] = await watch(role);
    const [alert] = await raiseAlert({ knex: testKnex() }, { kind: 'access_walk', title: 'walk', dedupeKey: `walk-${randomUUID()}`, fallbackRole: role });
    fx.alert[role] = alert.id;
  }
  return fx;
}

async function intelFixture(): Promise<{ entityId: string; domain: string }> {
  const domain = `access-walk-${randomUUID().slice(0, 8)}.example`;
  const r = await recordSourceEntities(testKnex(), { kind: 'manual', id: `access-walk-${domain}` }, [{ type: 'domain', value: domain }, { type: 'email', value: `x@${domain}` }]);
  return { entityId: r.entities.find((e) => e.type === 'domain')!.id, domain };
}

interface ValidRequest {
  path: string;
  json?: unknown;
  /** A multipart body (intake submissions). */
  form?: FormData;
  headers?: Record<string, string>;
  /** For /tasks routes: the access of the task's kind (read; and write when the request changes it). */
  kind?: { read: TaskAccessPolicy; write?: TaskAccessPolicy };
}

const reportBody = { template: 'wallet-activity', scope: { entity_types: ['wallet'] }, options: { format: 'json' } };
const playbookBody = { name: 'access walk', url_patterns: ['access-walk.invalid/**'], steps: [{ type: 'click', selector: '#deposit' }] };
const scheduleBody = { ...reportBody, cadence: 'weekly', recipients: ['desk@example.org'], next_run_at: '2099-01-01T08:00:00Z' };

/** One valid request per route, keyed "METHOD path" exactly as in the route table. */
const VALID_REQUESTS: Record<string, (fx: Fixtures, caller: Caller) => ValidRequest> = {
  'GET /healthz': () => ({ path: '/healthz' }),
  'GET /readyz': () => ({ path: '/readyz' }),
  'GET /openapi.json': () => ({ path: '/openapi.json' }),
  'GET /docs': () => ({ path: '/docs' }),
  'GET /redoc': () => ({ path: '/redoc' }),
  'GET /docs/assets/{file}': () => ({ path: '/docs/assets/swagger-ui.css' }),
  'GET /accounts/me': () => ({ path: '/accounts/me' }),
  'GET /accounts/local-sign-in': () => ({ path: '/accounts/local-sign-in' }),
  'GET /console': () => ({ path: '/console' }),
  'GET /console/{view}': () => ({ path: '/console/investigations' }),
  'GET /console/{view}/{id}': () => ({ path: '/console/cases/0b6f7c1e-2d7f-4a53-9d39-6a1f1b3c5d7e' }),
  'GET /console/{view}/{id}/{tab}': () => ({ path: '/console/investigations/0b6f7c1e-2d7f-4a53-9d39-6a1f1b3c5d7e/results' }),
  'GET /console/assets/{file}': () => ({ path: `/console/assets/${consoleAssetName()}` }),
  'POST /intelligence/scheduled-reports': () => ({ path: '/intelligence/scheduled-reports', json: scheduleBody }),
  'GET /intelligence/scheduled-reports': () => ({ path: '/intelligence/scheduled-reports?limit=5' }),
  'PUT /intelligence/scheduled-reports/{id}/deactivate': (fx) => ({ path: `/intelligence/scheduled-reports/${fx.scheduleId}/deactivate` }),
  'GET /intelligence/report-templates': () => ({ path: '/intelligence/report-templates' }),
  'POST /reports/generate': () => ({ path: '/reports/generate', json: reportBody, headers: { 'Idempotency-Key': randomUUID() } }),
  'GET /reports/generated': () => ({ path: '/reports/generated?limit=5' }),
  'GET /reports/generated/{id}/download': (fx) => ({ path: `/reports/generated/${fx.reportId}/download` }),
  'POST /reports/dossiers': (fx) => ({ path: '/reports/dossiers', json: { title: 'access walk dossier', case_id: fx.caseId, sections: ['case'] }, headers: { 'Idempotency-Key': randomUUID() } }),
  'GET /reports/dossiers': (fx) => ({ path: `/reports/dossiers?limit=5&case_id=${fx.caseId}` }),
  'GET /reports/dossiers/{id}': (fx) => ({ path: `/reports/dossiers/${fx.dossierId}` }),
  'POST /reports/dossiers/{id}/verify': (fx) => ({ path: `/reports/dossiers/${fx.dossierId}/verify` }),
  'GET /reports/dossiers/{id}/signature_manifest': (fx) => ({ path: `/reports/dossiers/${fx.dossierId}/signature_manifest` }),
  'GET /reports/dossiers/{id}/download/{artifact}': (fx) => ({ path: `/reports/dossiers/${fx.dossierId}/download/${encodeURIComponent('case/case.json')}` }),
  'GET /reports/dossiers/{id}/download': (fx) => ({ path: `/reports/dossiers/${fx.dossierId}/download` }),
  'GET /reports/dossiers/{id}/drive_acl': (fx) => ({ path: `/reports/dossiers/${fx.dossierId}/drive_acl` }),
  'POST /reports/dossiers/{id}/drive_acl': (fx, caller) => ({ path: `/reports/dossiers/${fx.dossierId}/drive_acl`, json: { principal: `walk-${caller.label.replace(/\W+/g, '-')}@example.org`, role: 'reader' } }),
  'POST /intakes': () => ({ path: '/intakes', form: intakeSubmission() }),
  'POST /intakes/': () => ({ path: '/intakes/', form: intakeSubmission() }),
  'GET /intakes/': () => ({ path: '/intakes/?limit=5&has_files=true' }),
  'GET /intakes/{id}': (fx) => ({ path: `/intakes/${fx.intakeId}` }),
  'GET /intakes/{id}/contact': (fx) => ({ path: `/intakes/${fx.intakeId}/contact?purpose=access%20walk` }),
  'GET /intakes/{id}/files/{file_id}': (fx) => ({ path: `/intakes/${fx.intakeId}/files/${fx.intakeFileId}?purpose=access%20walk` }),
  // A repeat of the same move is a no-op, so each allowed caller gets 200.
  'POST /intakes/{id}/status': (fx) => ({ path: `/intakes/${fx.intakeId}/status`, json: { status: 'triaged', reason: 'access walk' } }),
  'POST /intakes/{id}/case': (fx) => ({ path: `/intakes/${fx.intakeId}/case`, json: { case_id: fx.caseId } }),
  'GET /intakes/jobs/{id}': (fx) => ({ path: `/intakes/jobs/${fx.queuedIntakeJobId}` }),
  // Cancelling a cancelled job is a no-op (202).
  'POST /intakes/jobs/{id}': (fx) => ({ path: `/intakes/jobs/${fx.queuedIntakeJobId}`, json: { action: 'cancel' } }),
  'GET /audit/events': () => ({ path: '/audit/events?limit=5' }),
  'GET /accounts/users': () => ({ path: '/accounts/users?limit=5&active=true' }),
  'POST /accounts/users': (_fx, c) => ({ path: '/accounts/users', json: { email: `walk-${c.label.replace(/\W+/g, '-')}-${randomUUID().slice(0, 8)}@example.org`, roles: ['researcher'] } }),
  'PUT /accounts/users/{id}/roles': (fx) => ({ path: `/accounts/users/${fx.admin.userId}/roles`, json: { roles: ['researcher', 'reviewer'] } }),
  // Disabling a disabled user is a no-op (200).
  'POST /accounts/users/{id}/disable': (fx) => ({ path: `/accounts/users/${fx.admin.userId}/disable` }),
  'GET /accounts/api-keys': () => ({ path: '/accounts/api-keys?limit=5' }),
  'POST /accounts/api-keys': (_fx, c) => ({ path: '/accounts/api-keys', json: { name: `walk-${c.label.replace(/\W+/g, '-')}-${randomUUID().slice(0, 8)}`, scopes: ['reports:read'] } }),
  // Revoking a revoked key is a no-op (200).
  'POST /accounts/api-keys/{id}/revoke': (fx) => ({ path: `/accounts/api-keys/${fx.admin.keyId}/revoke` }),
  'GET /playbooks/ssi': () => ({ path: '/playbooks/ssi?limit=5' }),
  'POST /playbooks/ssi': () => ({ path: '/playbooks/ssi', json: playbookBody }),
  'POST /playbooks/ssi/test-match': () => ({ path: '/playbooks/ssi/test-match', json: { url: 'https://access-walk.invalid/deposit' } }),
  'GET /playbooks/ssi/{id}': (fx) => ({ path: `/playbooks/ssi/${fx.playbookId}` }),
  'PUT /playbooks/ssi/{id}': (fx) => ({ path: `/playbooks/ssi/${fx.playbookId}`, json: playbookBody }),
  'DELETE /playbooks/ssi/{id}': (fx) => ({ path: `/playbooks/ssi/${fx.playbookIdsToDelete.pop()}` }),
  'GET /investigations/ssi/wallets': () => ({ path: '/investigations/ssi/wallets?limit=5' }),
  'GET /wallets': () => ({ path: '/wallets?network=tron&limit=5' }),
  'GET /investigations/ssi/{scan_id}/wallets.csv': (fx) => ({ path: `/investigations/ssi/${fx.walletScanId}/wallets.csv` }),
  'GET /investigations/ssi/{scan_id}/wallets.xlsx': (fx) => ({ path: `/investigations/ssi/${fx.walletScanId}/wallets.xlsx` }),
  'GET /investigations/{id}/wallets.csv': (fx) => ({ path: `/investigations/${fx.walletScanId}/wallets.csv` }),
  'GET /investigations/{id}/wallets.xlsx': (fx) => ({ path: `/investigations/${fx.walletScanId}/wallets.xlsx` }),
  // Tasks: access is the route's policy and the task kind's (domain/tasks/task-kinds.ts).
  // Investigations: a documentation address (192.0.2.0/24) is refused by the egress policy without any lookup or connection.
  'POST /investigations/ssi': () => ({ path: '/investigations/ssi', json: { url: 'http://192.0.2.10/', playbook_id: null }, headers: { 'Idempotency-Key': randomUUID() } }),
  'GET /investigations/ssi/history': () => ({ path: '/investigations/ssi/history?limit=5&has_wallets=false' }),
  'GET /investigations/ssi/active': () => ({ path: '/investigations/ssi/active?limit=5' }),
  'GET /investigations/ssi/{scan_id}': (fx) => ({ path: `/investigations/ssi/${fx.scanId}` }),
  'GET /investigations/ssi/{scan_id}/similar': (fx) => ({ path: `/investigations/ssi/${fx.scanId}/similar?limit=5` }),
  'PUT /investigations/ssi/{scan_id}/classification': (fx) => ({ path: `/investigations/ssi/${fx.scanId}/classification`, json: { taxonomy: 'phishing/credential', reason: 'access walk' } }),
  'PUT /intakes/{id}/classification': (fx) => ({ path: `/intakes/${fx.intakeId}/classification`, json: { taxonomy: 'romance', reason: 'access walk' } }),
  'GET /investigations/ssi/{scan_id}/persona': (fx) => ({ path: `/investigations/ssi/${fx.scanId}/persona?purpose=access%20walk` }),
  'GET /investigations/ssi/{scan_id}/pages/{page_id}/{artifact}': (fx) => ({ path: `/investigations/ssi/${fx.scanId}/pages/${fx.pageId}/dom` }),
  'GET /investigations/ssi/{scan_id}/reveals/{name}': (fx) => ({ path: `/investigations/ssi/${fx.scanId}/reveals/reveal-0001-walk.png` }),
  'GET /investigations/ssi/{scan_id}/evidence-bundle': (fx) => ({ path: `/investigations/ssi/${fx.endedScanId}/evidence-bundle?purpose=access%20walk` }),
  'GET /investigations/ssi/{scan_id}/mail/{mail_id}': (fx) => ({ path: `/investigations/ssi/${fx.funnel.scanId}/mail/${fx.funnel.mailId}?purpose=access%20walk` }),
  'GET /investigations/ssi/{scan_id}/guidance': (fx) => ({ path: `/investigations/ssi/${fx.funnel.scanId}/guidance` }),
  'POST /investigations/ssi/{scan_id}/guidance': (fx) => ({ path: `/investigations/ssi/${fx.funnel.scanId}/guidance`, json: { request_id: fx.funnel.requestIdsToAnswer.pop(), action: 'abort' } }),
  'GET /investigations/ssi/{scan_id}/guidance/{request_id}/screenshot': (fx) => ({ path: `/investigations/ssi/${fx.funnel.scanId}/guidance/${fx.funnel.screenshotRequestId}/screenshot` }),
  'GET /investigations/ssi/{scan_id}/report.pdf': (fx) => ({ path: `/investigations/ssi/${fx.endedScanId}/report.pdf` }),
  'GET /investigations/ssi/{scan_id}/lea-package': (fx) => ({ path: `/investigations/ssi/${fx.endedScanId}/lea-package` }),
  'GET /evidence/signing-keys': () => ({ path: '/evidence/signing-keys' }),
  'GET /tasks/{task_id}': (fx) => ({ path: `/tasks/${fx.openReportTaskId}`, kind: { read: PLATFORM_TASK_KINDS.generateReportWorkflow.read } }),
  'POST /tasks/{task_id}/update': (fx) => ({
    path: `/tasks/${fx.sleepingScheduleTaskId}/update`,
    json: { progress: { note: 'access walk', percent: 10 } },
    kind: { read: PLATFORM_TASK_KINDS.reportScheduleWorkflow.read, write: PLATFORM_TASK_KINDS.reportScheduleWorkflow.write },
  }),
  // Cases, reviews, LEA referrals (a caller the policy denies is refused before any lookup).
  'GET /cases': () => ({ path: '/cases?limit=5&status=open' }),
  'POST /cases': () => ({ path: '/cases', json: { title: 'access walk case', priority: 'low' } }),
  'GET /cases/{case_id}': (fx) => ({ path: `/cases/${fx.cases.caseId}` }),
  'GET /intelligence/entities': () => ({ path: '/intelligence/entities?order_by=loss&limit=5' }),
  'GET /intelligence/entities/{id}': (fx) => ({ path: `/intelligence/entities/${fx.intel.entityId}` }),
  'GET /intelligence/entities/{type}/{value}': (fx) => ({ path: `/intelligence/entities/domain/${fx.intel.domain}` }),
  'GET /intelligence/entities/{type}/{value}/activity': (fx) => ({ path: `/intelligence/entities/domain/${fx.intel.domain}/activity?bucket=week` }),
  'GET /intelligence/entities/{type}/{value}/neighbors': (fx) => ({ path: `/intelligence/entities/domain/${fx.intel.domain}/neighbors` }),
  'GET /intelligence/indicators': () => ({ path: '/intelligence/indicators?min_confidence=10&limit=5' }),
  'GET /intelligence/indicators/{id}': (fx) => ({ path: `/intelligence/indicators/${fx.intel.entityId}` }),
  'GET /intelligence/graph': (fx) => ({ path: `/intelligence/graph?seed=${fx.intel.entityId}&depth=2` }),
  'GET /intelligence/graph.png': (fx) => ({ path: `/intelligence/graph.png?seed=${fx.intel.entityId}&width=400&height=300` }),
  'GET /discovery/search': (fx) => ({ path: `/discovery/search?q=${fx.intel.domain.slice(0, 12)}` }),
  'POST /cases/{case_id}/investigations': (fx, c) => ({ path: `/cases/${fx.cases.enqueue[c.label] ?? fx.cases.caseId}/investigations`, json: { scan_id: fx.scanId } }),
  'DELETE /cases/{case_id}/investigations/{scan_id}': (fx, c) => ({ path: `/cases/${fx.linkedCases[c.label] ?? fx.cases.caseId}/investigations/${fx.scanId}` }),
  'PATCH /cases/{case_id}': (fx) => ({ path: `/cases/${fx.cases.caseId}`, json: { priority: 'high' } }),
  'POST /cases/{case_id}/lea-referral': (fx) => ({ path: `/cases/${fx.cases.caseId}/lea-referral`, json: { agency: 'NCA', jurisdiction: 'UK', contact: 'desk@nca.example', status: 'draft' } }),
  'GET /cases/{case_id}/lea-referral': (fx) => ({ path: `/cases/${fx.cases.caseId}/lea-referral` }),
  'POST /reviews/': (fx, c) => ({ path: '/reviews/', json: { case_id: fx.cases.enqueue[c.label] ?? fx.cases.caseId, reason: 'access walk' } }),
  'GET /reviews/queue': () => ({ path: '/reviews/queue?limit=5' }),
  'GET /reviews/case/{case_id}': (fx) => ({ path: `/reviews/case/${fx.cases.caseId}` }),
  'GET /reviews/{id}': (fx) => ({ path: `/reviews/${fx.cases.reviewId}` }),
  'POST /reviews/{id}/claim': (fx, c) => ({ path: `/reviews/${fx.cases.claim[c.label] ?? fx.cases.reviewId}/claim` }),
  'POST /reviews/{id}/annotate': (fx) => ({ path: `/reviews/${fx.cases.reviewId}/annotate`, json: { note: 'access walk' } }),
  'POST /reviews/{id}/feedback': (fx) => ({ path: `/reviews/${fx.cases.reviewId}/feedback`, json: { rating: 4, comment: 'fine' } }),
  'POST /reviews/{id}/decision': (fx, c) => ({
    path: `/reviews/${fx.cases.decide[c.label] ?? fx.cases.reviewId}/decision`,
    json: { decision: 'needs_more_info', rationale: 'access walk' },
  }),
  'GET /reviews/{id}/actions': (fx) => ({ path: `/reviews/${fx.cases.reviewId}/actions` }),
  // Search (each caller's own history entry and saved searches where only owners may act).
  // Researchers count by whole words and non-value fields (no wallet: or prefixes), so the walk's query suits every search role.
  'POST /reviews/search/query': () => ({ path: '/reviews/search/query', json: { query: 'romance AND loss>5000 NOT status:closed', limit: 5 } }),
  'GET /reviews/search': () => ({ path: '/reviews/search?q=romance&type=case,intake&limit=5' }),
  'GET /reviews/search/schema': () => ({ path: '/reviews/search/schema' }),
  'GET /reviews/search/history': () => ({ path: '/reviews/search/history?limit=5' }),
  'DELETE /reviews/search/history/{id}': (fx, c) => ({ path: `/reviews/search/history/${fx.search.history[c.label] ?? randomUUID()}` }),
  'DELETE /reviews/search/history': () => ({ path: '/reviews/search/history' }),
  'POST /reviews/search/saved': () => ({ path: '/reviews/search/saved', json: { name: `walk ${randomUUID()}`, query: 'romance loss>100' } }),
  'GET /reviews/search/saved': () => ({ path: '/reviews/search/saved?limit=5' }),
  'GET /reviews/search/saved/{id}': (fx) => ({ path: `/reviews/search/saved/${fx.search.sharedId}` }),
  'PATCH /reviews/search/saved/{id}': (fx) => ({ path: `/reviews/search/saved/${fx.search.sharedId}`, json: { tags: ['walk'] } }),
  'DELETE /reviews/search/saved/{id}': (fx, c) => ({ path: `/reviews/search/saved/${fx.search.deletable[c.label] ?? fx.search.sharedId}` }),
  'POST /reviews/search/saved/{id}/share': (fx, c) => ({ path: `/reviews/search/saved/${fx.search.own[c.label] ?? fx.search.sharedId}/share`, json: { grant: [{ role: 'reviewer', permission: 'viewer' }] } }),
  'GET /reviews/search/saved/{id}/export': (fx) => ({ path: `/reviews/search/saved/${fx.search.sharedId}/export` }),
  'POST /reviews/search/saved/import': () => ({ path: '/reviews/search/saved/import', json: { documents: [{ format: 'fip-saved-search', version: 1, saved_search: { name: 'walk import', query: 'romance' } }] } }),
  'POST /reviews/search/saved/bulk-tags': (fx) => ({ path: '/reviews/search/saved/bulk-tags', json: { ids: [fx.search.sharedId], add: ['walk'] } }),
  'GET /reviews/search/tag-presets': () => ({ path: '/reviews/search/tag-presets' }),
  'GET /reviews/search/presets': () => ({ path: '/reviews/search/presets' }),
  'POST /watchlists': (fx) => ({ path: '/watchlists', json: { name: `walk ${randomUUID()}`, target: { kind: 'entity', id: fx.intel.entityId }, rules: [{ kind: 'risk_change', min_delta: 5 }] } }),
  'GET /watchlists': () => ({ path: '/watchlists?limit=5' }),
  'GET /watchlists/{id}': (fx, c) => ({ path: `/watchlists/${fx.alerts.watch[c.label] ?? fx.alerts.watch.admin}` }),
  'PATCH /watchlists/{id}': (fx, c) => ({ path: `/watchlists/${fx.alerts.watch[c.label] ?? fx.alerts.watch.admin}`, json: { email: false } }),
  'DELETE /watchlists/{id}': (fx, c) => ({ path: `/watchlists/${fx.alerts.deletable[c.label] ?? fx.alerts.deletable.admin}` }),
  'GET /alerts': () => ({ path: '/alerts?acknowledged=false&limit=5' }),
  'POST /alerts/{id}/acknowledge': (fx, c) => ({ path: `/alerts/${fx.alerts.alert[c.label] ?? fx.alerts.alert.admin}/acknowledge` }),
  'POST /takedowns': (fx) => ({ path: '/takedowns', json: { scan_id: fx.endedScanId, recipients: [{ email: 'desk@access-walk.example' }] } }),
  'GET /takedowns': () => ({ path: '/takedowns?status=draft&limit=5' }),
  'GET /takedowns/{id}': (fx) => ({ path: `/takedowns/${fx.takedowns.draft.admin}` }),
  'POST /takedowns/{id}/approve': (fx, c) => ({ path: `/takedowns/${fx.takedowns.draft[c.label] ?? fx.takedowns.draft.admin}/approve` }),
  'POST /takedowns/{id}/send': (fx, c) => ({ path: `/takedowns/${fx.takedowns.approved[c.label] ?? fx.takedowns.approved.admin}/send` }),
  'POST /takedowns/{id}/check': (fx) => ({ path: `/takedowns/${fx.takedowns.draft.admin}/check` }),
  'GET /alerts/{id}/deliveries': (fx, c) => ({ path: `/alerts/${fx.alerts.alert[c.label] ?? fx.alerts.alert.admin}/deliveries` }),
  'GET /campaigns': () => ({ path: '/campaigns?status=active&taxonomy=romance&limit=5' }),
  'POST /campaigns': (_fx, c) => ({ path: '/campaigns', json: { name: `access walk ${c.label} ${randomUUID()}`, taxonomy: 'investment/crypto' } }),
  'PATCH /campaigns/{id}': (fx) => ({ path: `/campaigns/${fx.campaignId}`, json: { description: 'access walk' } }),
  'GET /campaigns/{id}/lea-suggestions': (fx) => ({ path: `/campaigns/${fx.campaignId}/lea-suggestions?limit=5` }),
  'GET /campaigns/{id}': (fx) => ({ path: `/campaigns/${fx.campaignId}` }),
  'GET /campaigns/suggestions': () => ({ path: '/campaigns/suggestions?status=open&limit=5' }),
  'POST /campaigns/suggestions/{id}/accept': (fx, c) => ({ path: `/campaigns/suggestions/${fx.suggestions.accept[c.label]}/accept`, json: { name: `access walk suggestion ${randomUUID()}` } }),
  'POST /campaigns/suggestions/{id}/dismiss': (fx, c) => ({ path: `/campaigns/suggestions/${fx.suggestions.dismiss[c.label]}/dismiss` }),
  'GET /intelligence/campaigns': () => ({ path: '/intelligence/campaigns?limit=5' }),
  'GET /intelligence/campaigns/{id}': (fx) => ({ path: `/intelligence/campaigns/${fx.campaignId}` }),
  'GET /intelligence/dashboard': () => ({ path: '/intelligence/dashboard' }),
  'GET /impact/dashboard': () => ({ path: '/impact/dashboard' }),
  'GET /dashboard/overview': () => ({ path: '/dashboard/overview' }),
  'GET /analytics/overview': () => ({ path: '/analytics/overview' }),
  'GET /taxonomy': () => ({ path: '/taxonomy' }),
  'GET /analytics/widgets/dashboard': () => ({ path: '/analytics/widgets/dashboard' }),
  'GET /analytics/widgets/impact-kpis': () => ({ path: '/analytics/widgets/impact-kpis' }),
  'GET /analytics/widgets/loss-by-taxonomy': () => ({ path: '/analytics/widgets/loss-by-taxonomy' }),
  'GET /analytics/widgets/pipeline-funnel': () => ({ path: '/analytics/widgets/pipeline-funnel?since=2026-01-01&until=2026-12-31' }),
  'GET /analytics/widgets/taxonomy-sankey': () => ({ path: '/analytics/widgets/taxonomy-sankey' }),
  'GET /analytics/widgets/heatmap': () => ({ path: '/analytics/widgets/heatmap?source=sightings' }),
  'GET /analytics/widgets/trend': () => ({ path: '/analytics/widgets/trend?metric=intakes,cases&bucket=week' }),
  'GET /analytics/widgets/countries': () => ({ path: '/analytics/widgets/countries' }),
  'GET /analytics/widgets/countries/{country}': () => ({ path: '/analytics/widgets/countries/GB' }),
  'GET /analytics/widgets/activity-timeline': () => ({ path: '/analytics/widgets/activity-timeline?limit=10' }),
  'GET /exports/entities': () => ({ path: '/exports/entities?fmt=csv&entity_type=bank_account' }),
  'GET /exports/indicators': () => ({ path: '/exports/indicators?fmt=stix&min_confidence=90' }),
  'GET /exports/researcher/entities': () => ({ path: '/exports/researcher/entities' }),
  'GET /feeds/indicators': () => ({ path: '/feeds/indicators?limit=5' }),
  'GET /exports/misp': (fx) => ({ path: `/exports/misp?campaign_id=${fx.campaignId}` }),
  'GET /feeds/misp/manifest.json': () => ({ path: '/feeds/misp/manifest.json' }),
  'GET /feeds/misp/hashes.csv': () => ({ path: '/feeds/misp/hashes.csv' }),
  'GET /feeds/misp/{uuid}.json': (fx) => ({ path: `/feeds/misp/${mispEventUuid({ kind: 'campaign', id: fx.campaignId })}.json` }),
  'GET /taxii2/': () => ({ path: '/taxii2/', headers: { accept: TAXII_MEDIA_TYPE } }),
  'GET /taxii2/api/': () => ({ path: '/taxii2/api/', headers: { accept: TAXII_MEDIA_TYPE } }),
  'GET /taxii2/api/collections/': () => ({ path: '/taxii2/api/collections/', headers: { accept: TAXII_MEDIA_TYPE } }),
  'GET /taxii2/api/collections/{id}/': () => ({ path: `/taxii2/api/collections/${TAXII_COLLECTIONS[0]!.id}/`, headers: { accept: TAXII_MEDIA_TYPE } }),
  'GET /taxii2/api/collections/{id}/objects/': () => ({ path: `/taxii2/api/collections/${TAXII_COLLECTIONS[1]!.id}/objects/?limit=5`, headers: { accept: TAXII_MEDIA_TYPE } }),
  'GET /taxii2/api/collections/{id}/objects/{object_id}/': () => ({ path: `/taxii2/api/collections/${TAXII_COLLECTIONS[0]!.id}/objects/${PRODUCER_IDENTITY_ID}/`, headers: { accept: TAXII_MEDIA_TYPE } }),
  'GET /taxii2/api/collections/{id}/objects/{object_id}/versions/': () => ({ path: `/taxii2/api/collections/${TAXII_COLLECTIONS[1]!.id}/objects/${PRODUCER_IDENTITY_ID}/versions/`, headers: { accept: TAXII_MEDIA_TYPE } }),
  'GET /taxii2/api/collections/{id}/manifest/': () => ({ path: `/taxii2/api/collections/${TAXII_COLLECTIONS[2]!.id}/manifest/?limit=5`, headers: { accept: TAXII_MEDIA_TYPE } }),
};

/** A user and an API key of the walk's own, for the administration routes. */
async function adminFixture(url: string, admin: Record<string, string>): Promise<Fixtures['admin']> {
  const tag = randomUUID().slice(0, 8);
  const user = await http(`${url}/accounts/users`, { method: 'POST', headers: admin, json: { email: `walk-target-${tag}@example.org`, roles: ['analyst'] } });
  assert.equal(user.status, 201, user.text);
  const key = await http(`${url}/accounts/api-keys`, { method: 'POST', headers: admin, json: { name: `walk-target-${tag}`, scopes: ['taxii:read'] } });
  assert.equal(key.status, 201, key.text);
  return { userId: user.body.id, keyId: key.body.id };
}

/** Saved searches and history entries for the search routes (see SearchFixtures). */
async function searchFixtures(url: string, users: Record<Role, string>): Promise<SearchFixtures> {
  const create = async (role: Role, body: Record<string, unknown> = {}) => {
    const res = await http(`${url}/reviews/search/saved`, { method: 'POST', headers: asUser(users[role]), json: { name: `walk ${randomUUID()}`, query: 'romance', ...body } });
    assert.equal(res.status, 201, res.text);
    return res.body.id as string;
  };
  const sharedId = await create('analyst', { visibility: 'public' });
  const shared = await http(`${url}/reviews/search/saved/${sharedId}/share`, {
    method: 'POST',
    headers: asUser(users.analyst),
    json: { grant: (['admin', 'reviewer'] as const).map((role) => ({ role, permission: 'editor' })) },
  });
  assert.equal(shared.status, 200, shared.text);
  const fx: SearchFixtures = { sharedId, own: {}, deletable: {}, history: {} };
  for (const role of ROLES) {
    const searched = await http(`${url}/reviews/search/query`, { method: 'POST', headers: asUser(users[role]), json: { query: `walk ${role}` } });
    assert.equal(searched.status, 200, searched.text);
    const history = await http(`${url}/reviews/search/history?limit=1`, { headers: asUser(users[role]) });
    fx.history[role] = history.body.items[0].id;
    if (role === 'researcher') continue;
    fx.own[role] = await create(role);
    fx.deletable[role] = await create(role);
  }
  return fx;
}

/** A case per role to enqueue, a queued review per role to claim, and a review each role holds (claimed as that role) to decide. */
async function caseFixtures(url: string, users: Record<Role, string>): Promise<CaseFixtures> {
  const analyst = asUser(users.analyst);
  const newCase = async () => {
    const res = await http(`${url}/cases`, { method: 'POST', headers: analyst, json: { title: `access walk ${randomUUID().slice(0, 8)}` } });
    assert.equal(res.status, 201, res.text);
    return res.body.id as string;
  };
  const newReview = async () => {
    const res = await http(`${url}/reviews/`, { method: 'POST', headers: analyst, json: { case_id: await newCase(), reason: 'access walk' } });
    assert.equal(res.status, 201, res.text);
    return res.body.id as string;
  };
  const caseId = await newCase();
  const referral = await http(`${url}/cases/${caseId}/lea-referral`, { method: 'POST', headers: analyst, json: { agency: 'NCA', jurisdiction: 'UK', contact: 'desk@nca.example', status: 'draft' } });
  assert.equal(referral.status, 201, referral.text);
  const fx: CaseFixtures = { caseId, reviewId: await newReview(), enqueue: {}, claim: {}, decide: {} };
  for (const role of ROLES) {
    fx.enqueue[role] = await newCase();
    fx.claim[role] = await newReview();
    fx.decide[role] = await newReview();
    const claimed = await http(`${url}/reviews/${fx.decide[role]}/claim`, { method: 'POST', headers: asUser(users[role]) });
    assert.equal(claimed.status, role === 'researcher' ? 403 : 200, claimed.text);
  }
  return fx;
}

const key = (route: RouteDef) => `${route.method.toUpperCase()} ${route.path}`;

describe('access policy of every route', function () {
  this.timeout(240_000);
  const queue = `access-walk-${randomUUID().slice(0, 8)}`;
  let url: string;
  let fx: Fixtures;
  let adminEmail = '';
  const callers: Caller[] = [];

  before(async () => {
    // ALLOW_UNVERIFIED_HEADER (on loopback): the console's developer sign-in route answers too.
    const env = { SVC_TEMPORAL__TASK_QUEUE: queue, SVC_AUTH__TRUST_PROXY_HEADER: 'true', SVC_AUTH__ALLOW_UNVERIFIED_HEADER: 'true' };
    await startTestWorker(queue, env);
    url = (await startTestApi(env)).url;
    const users = await usersForEveryRole();
    for (const role of ROLES) callers.push({ label: role, headers: asUser(users[role]), kind: 'person', roles: [role] });
    callers.push({ label: 'person without roles', headers: asUser(`nobody-${randomUUID().slice(0, 8)}@example.org`), kind: 'person', roles: [] });
    callers.push({ label: 'no identity', headers: {}, kind: 'anonymous' });
    callers.push({ label: 'api key (all scopes)', headers: { 'X-API-KEY': await createTestApiKey([...API_KEY_SCOPES]) }, kind: 'service', scopes: API_KEY_SCOPES });
    for (const scope of API_KEY_SCOPES) {
      callers.push({ label: `api key (${scope})`, headers: { 'X-API-KEY': await createTestApiKey([scope]) }, kind: 'service', scopes: [scope] });
    }
    callers.push({ label: 'api key (no scope)', headers: { 'X-API-KEY': await createTestApiKey([]) }, kind: 'service', scopes: [] });

    adminEmail = users.admin;
    const admin = asUser(users.admin);
    const schedule = await http(`${url}/intelligence/scheduled-reports`, { method: 'POST', headers: admin, json: scheduleBody });
    assert.equal(schedule.status, 201, schedule.text);
    const sleeping = await http(`${url}/intelligence/scheduled-reports`, { method: 'POST', headers: admin, json: scheduleBody });
    assert.equal(sleeping.status, 201, sleeping.text);
    const generated = await http(`${url}/reports/generate`, { method: 'POST', headers: admin, json: reportBody });
    assert.equal(generated.status, 202, generated.text);
    const task = await waitFor('the fixture report', async () => {
      const t = await http(`${url}/tasks/${generated.body.task_id}`, { headers: admin });
      return ['completed', 'failed', 'cancelled'].includes(t.body.status) ? t.body : null;
    }, 60_000, 200);
    assert.equal(task.status, 'completed', JSON.stringify(task));
    // A report task on a queue no worker polls stays queued: it can be polled and updated by every allowed caller.
    const openReportTaskId = `report-${randomUUID()}`;
    await (await testTemporal()).workflow.start('generateReportWorkflow', {
      workflowId: openReportTaskId,
      taskQueue: `${queue}-idle`,
      args: [{ ...reportBody, recipients: [], requestedAt: new Date().toISOString(), requestedBy: 'access-walk' }],
    });
    // The sleeping schedule's workflow has been picked up by the worker (it is running, not queued).
    const sleepingScheduleTaskId: string = sleeping.body.workflow_id;
    await waitFor('the sleeping schedule to run', async () => {
      const t = await http(`${url}/tasks/${sleepingScheduleTaskId}`, { headers: admin });
      return t.body.status === 'running' && t.body.progress?.stage === 'waiting' ? true : null;
    }, 30_000, 200);
    // An intake processed by the worker, and one whose jobs stay queued (stored without starting its workflow).
    const intake = await http(`${url}/intakes`, { method: 'POST', headers: admin, body: intakeSubmission() });
    assert.equal(intake.status, 201, intake.text);
    await waitFor('the fixture intake to be processed', async () => (await http(`${url}/intakes/${intake.body.id}`, { headers: admin })).body.status === 'processed', 60_000, 200);
    const queuedIntakeId = randomUUID();
    const queuedIntakeJobId = randomUUID();
    await testKnex().transaction((trx) =>
      insertIntake(trx, {
        id: queuedIntakeId, source: 'access-walk', summary: 'queued', details: '', loss_amount: null, loss_currency: null, occurred_at: null, urls: [],
        submitted_by: 'access-walk', task_id: `intake-${queuedIntakeId}`, files: [], jobs: [{ id: queuedIntakeJobId, step: 'extract_text', position: 0 }],
      }),
    );
    const fixtureCase = await createCase(testKnex(), { title: 'access walk case' }, 'access-walk');
    const newPlaybook = async () => {
      const pb = await http(`${url}/playbooks/ssi`, { method: 'POST', headers: admin, json: playbookBody });
      assert.equal(pb.status, 201, pb.text);
      return pb.body.id as string;
    };
    const playbookId = await newPlaybook();
    const playbookIdsToDelete: string[] = [];
    for (let i = 0; i < callers.length; i++) playbookIdsToDelete.push(await newPlaybook());
    const walletScanId = `access-walk-${randomUUID()}`;
    await upsertWallets(testKnex(), walletScanId, [{ address: `TWALK${randomUUID().replace(/-/g, '')}`, token: 'USDT', network: 'tron', confidence: 'high', source: 'dom', pageUrl: 'https://access-walk.invalid/' }]);
    const scanId = randomUUID();
    await insertInvestigation(testKnex(), { scanId, url: 'http://192.0.2.10/', domain: '192.0.2.10', requestedBy: 'access-walk', playbookId: null, caseId: null, label: null, options: {} });
    await ensureScanPersona({ knex: testKnex(), config: testConfig(env) }, { scanId, url: 'http://192.0.2.10/' });
    const blobs = createBlobStore(testConfig(env).data_dir);
    const art = await blobs.put(Buffer.from('<html>access walk</html>'));
    const pageId = await insertPage(testKnex(), {
      scanId, url: 'http://192.0.2.10/', seq: 0, state: 'CAPTURE', title: 'walk', httpStatus: 200, serverIp: '192.0.2.10', tls: null, responseHeaders: {},
      screenshot: art, dom: art, har: art, capturedAt: new Date(),
    });
    await insertResponses(testKnex(), scanId, [{ url: `http://192.0.2.10/${REVEAL_MARK}reveal-0001-walk.png`, contentType: 'image/png', blobKey: art.key, sha256: art.sha256 }]);
    const dossier = await http(`${url}/reports/dossiers`, { method: 'POST', headers: admin, json: { title: 'access walk dossier', case_id: fixtureCase.id, scan_ids: [scanId] } });
    assert.equal(dossier.status, 202, dossier.text);
    await waitFor('the fixture dossier', async () => (await http(`${url}/reports/dossiers/${dossier.body.plan_id}`, { headers: admin })).body.status === 'ready', 60_000, 200);
    const endedScanId = randomUUID();
    await insertInvestigation(testKnex(), { scanId: endedScanId, url: 'http://192.0.2.11/', domain: '192.0.2.11', requestedBy: 'access-walk', playbookId: null, caseId: null, label: null, options: {} });
    const har = await blobs.put(Buffer.from(JSON.stringify({ log: { version: '1.2', entries: [] } })));
    await insertPage(testKnex(), {
      scanId: endedScanId, url: 'http://192.0.2.11/', seq: 0, state: 'CAPTURE', title: 'walk', httpStatus: 200, serverIp: '192.0.2.11', tls: null, responseHeaders: {},
      screenshot: art, dom: art, har, capturedAt: new Date(),
    });
    await setInvestigationState(testKnex(), endedScanId, { state: 'COMPLETE', status: 'completed' });
    const funnelScanId = randomUUID();
    await insertInvestigation(testKnex(), { scanId: funnelScanId, url: 'http://192.0.2.12/', domain: '192.0.2.12', requestedBy: 'access-walk', playbookId: null, caseId: null, label: null, options: {} });
    await (await testTemporal()).workflow.start('ssiInvestigationWorkflow', { workflowId: `ssi-${funnelScanId}`, taskQueue: `${queue}-idle`, args: [{ scanId: funnelScanId }] });
    const question = async (screenshotKey: string | null) =>
      (await openGuidance({ knex: testKnex(), config: testConfig(env) }, { requestId: randomUUID(), scanId: funnelScanId, kind: 'captcha', question: 'walk', screenshotKey })).request_id;
    const screenshotRequestId = await question(art.key);
    const requestIdsToAnswer: string[] = [];
    for (let i = 0; i < callers.length; i++) requestIdsToAnswer.push(await question(null));
    const { mail } = await receivePersonaMail({ knex: testKnex(), blobs, temporal: await testTemporal(), log: createLogger('silent') }, {
      scanId: funnelScanId, recipient: 'walk@personas.invalid', raw: Buffer.from('From: a@b.test\r\nSubject: walk\r\nMessage-ID: <walk@b.test>\r\n\r\nYour code is 1234\r\n'),
    });
    const linkedCases: Record<string, string> = {};
    for (const role of ROLES) {
      const linked = await createCase(testKnex(), { title: `access walk link ${role}` }, 'access-walk');
      await linkToCase(testKnex(), linked.id, { type: 'investigation', id: scanId }, 'access-walk');
      linkedCases[role] = linked.id;
    }
    const intel = await intelFixture();
    fx = {
      dossierId: dossier.body.plan_id,
      scheduleId: schedule.body.id, reportId: task.result.report_id, openReportTaskId, sleepingScheduleTaskId,
      intakeId: intake.body.id, intakeFileId: intake.body.files[0].id, linkedCases, queuedIntakeJobId, caseId: fixtureCase.id, playbookId, playbookIdsToDelete, walletScanId, scanId, pageId, endedScanId,
      cases: await caseFixtures(url, users),
      search: await searchFixtures(url, users),
      campaignId: (await testKnex()('campaigns').insert({ name: `access walk ${randomUUID()}`, created_by: 'access-walk', taxonomy: 'romance' }).returning('id'))[0].id,
      intel,
      alerts: await alertFixtures(url, users, intel.entityId),
      suggestions: { accept: {}, dismiss: {} },
      takedowns: { draft: {}, approved: {} },
      funnel: { scanId: funnelScanId, mailId: mail.id, screenshotRequestId, requestIdsToAnswer },
      admin: await adminFixture(url, admin),
    };
    for (const c of callers) {
      fx.suggestions.accept[c.label] = await suggestionFixture();
      fx.suggestions.dismiss[c.label] = await suggestionFixture();
      fx.takedowns.draft[c.label] = await takedownFixture(fx.endedScanId, 'draft');
      fx.takedowns.approved[c.label] = await takedownFixture(fx.endedScanId, 'approved');
    }
  });

  after(async () => {
    // Leave nothing active for later suites (the reconciliation job looks at every active schedule).
    const client = await testTemporal();
    for (const row of await listActiveSchedules(testKnex())) {
      if (row.created_by === adminEmail) await deactivateSchedule({ knex: testKnex(), temporal: client, taskQueue: queue }, row.id, 'access walk cleanup');
    }
    if (fx) await client.workflow.getHandle(fx.openReportTaskId).terminate('access walk done').catch(() => undefined);
    if (fx) await client.workflow.getHandle(`ssi-${fx.funnel.scanId}`).terminate('access walk done').catch(() => undefined);
    for (const id of Object.values(fx?.takedowns.approved ?? {})) await client.workflow.getHandle(`takedown-send-${id}`).terminate('access walk done').catch(() => undefined);
    // Review claims started expiry timers (an hour): end them with the walk.
    for await (const wf of client.workflow.list({ query: `TaskQueue = "${queue}" AND WorkflowType = "reviewClaimWorkflow" AND ExecutionStatus = "Running"` })) {
      await client.workflow.getHandle(wf.workflowId).terminate('access walk done').catch(() => undefined);
    }
  });

  it('declares a policy on every route', () => {
    for (const route of allRoutes()) assert.ok(route.access, `${key(route)} has no access policy`);
  });

  it('has one valid request for every route of the route table, and none for a route that does not exist', () => {
    const routeKeys = allRoutes().map(key).sort();
    assert.deepEqual(Object.keys(VALID_REQUESTS).sort(), routeKeys);
  });

  it('answers every route x caller as its policy says: 2xx when allowed, exactly 401/403 when not (on /tasks the task kind decides 404 or 403), never 5xx', async () => {
    const failures: string[] = [];
    let allowed = 0;
    let denied = 0;
    for (const route of allRoutes()) {
      const build = VALID_REQUESTS[key(route)];
      assert.ok(build, `${key(route)} has no valid request in VALID_REQUESTS`);
      for (const caller of callers) {
        const req = build(fx, caller);
        const res = await http(`${url}${req.path}`, {
          method: route.method.toUpperCase(),
          headers: { ...caller.headers, ...req.headers },
          ...(req.json === undefined ? {} : { json: req.json }),
          ...(req.form === undefined ? {} : { body: req.form }),
        });
        const want = expectedForKind(expected(route, caller), caller, req.kind);
        const where = `${key(route)} as ${caller.label}: got ${res.status}`;
        if (want === 'allow') {
          allowed++;
          if (res.status < 200 || res.status > 299) failures.push(`${where}, want 2xx (${res.text.slice(0, 200)})`);
        } else {
          denied++;
          const code = want === 401 ? 'unauthenticated' : want === 403 ? 'forbidden' : 'not_found';
          // TAXII routes answer TAXII error messages (error_code), the rest {"error": {"code"}}.
          const got = res.body?.error?.code ?? res.body?.error_code;
          if (res.status !== want || got !== code) failures.push(`${where} ${JSON.stringify(got)}, want ${want} ${code}`);
        }
      }
    }
    process.stdout.write(`      walked ${allRoutes().length} routes x ${callers.length} callers: ${allowed} allowed, ${denied} denied\n`);
    assert.deepEqual(failures, []);
    assert.ok(allowed > 0 && denied > 0);
  });

  it('denies everything that is not in the route table', async () => {
    const res = await http(`${url}/admin/secret`, { headers: callers[0].headers });
    assert.equal(res.status, 404);
    assert.equal(res.body.error.code, 'not_found');
  });

  it('ignores the proxy header unless it is trusted', async () => {
    const api = await startTestApi({ SVC_AUTH__TRUST_PROXY_HEADER: 'false' });
    const res = await http(`${api.url}/accounts/me`, { headers: callers[0].headers });
    assert.equal(res.status, 401);
  });
});
