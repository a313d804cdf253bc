// The review queue on real PostgreSQL and Temporal: ordering, exactly one winner among 50
// concurrent claims, claim expiry through the Temporal timer (a short TTL), renewal and decision
// cancelling the timer, a decision recorded once by the claimer or an admin, refer_to_lea creating
// a draft referral, and the append-only action log.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { Client } from '@temporalio/client';
import { allRoutes } from '../../api/route-table';
import { addUserRoles } from '../../db/repositories/accounts/user-repository';
import type { Role } from '../../domain/accounts/roles';
import { reviewClaimWorkflowId } from '../../services/reviews/review-claim-timer';
import { asUser, http } from '../support/http';
import { usersForEveryRole } from '../support/identities';
import { startTestApi, startTestWorker, testKnex, testTemporal } from '../support/platform';

describe('review queue', function () {
  this.timeout(90_000);
  const queue = `reviews-${randomUUID().slice(0, 8)}`;
  let url: string;
  let shortTtlUrl: string;
  let users: Record<Role, string>;
  let as: Record<Role, Record<string, string>>;
  let temporal: Client;

  before(async () => {
    users = await usersForEveryRole();
    as = Object.fromEntries(Object.entries(users).map(([r, e]) => [r, asUser(e)])) as Record<Role, Record<string, string>>;
    temporal = await testTemporal();
    await startTestWorker(queue);
    const env = { SVC_AUTH__TRUST_PROXY_HEADER: 'true', SVC_TEMPORAL__TASK_QUEUE: queue };
    url = (await startTestApi(env)).url;
    // 0.05 minutes = 3 s.
    shortTtlUrl = (await startTestApi({ ...env, SVC_REVIEW__CLAIM_TTL_MINUTES: '0.05' })).url;
  });

  const enqueue = async (priority?: string) => {
    const c = await http(`${url}/cases`, { method: 'POST', headers: as.analyst, json: { title: `review ${randomUUID().slice(0, 8)}`, priority: 'low' } });
    assert.equal(c.status, 201, c.text);
    const r = await http(`${url}/reviews/`, { method: 'POST', headers: as.analyst, json: { case_id: c.body.id, reason: 'check the wallets', ...(priority ? { priority } : {}) } });
    assert.equal(r.status, 201, r.text);
    return r.body as { id: string; case_id: string; priority: string };
  };
  const actions = async (id: string) => (await http(`${url}/reviews/${id}/actions`, { headers: as.reviewer })).body.items as Array<{ action: string; actor: string; details: Record<string, unknown> }>;

  it('enqueues a case once (409 for a second open review), moves it to in_review, and lists the queue by priority then age', async () => {
    const low = await enqueue();
    const critical = await enqueue('critical');
    const high = await enqueue('high');
    const olderHigh = high;
    const newerHigh = await enqueue('high');
    assert.equal(low.priority, 'low', 'defaults to the case priority');
    const again = await http(`${url}/reviews/`, { method: 'POST', headers: as.analyst, json: { case_id: low.case_id } });
    assert.equal(again.status, 409);
    assert.equal(again.body.error.details.review_id, low.id);
    assert.equal((await http(`${url}/cases/${low.case_id}`, { headers: as.analyst })).body.status, 'in_review');
    assert.equal((await http(`${url}/reviews/`, { method: 'POST', headers: as.reviewer, json: { case_id: low.case_id } })).status, 403);

    const mine = new Set([low.id, critical.id, olderHigh.id, newerHigh.id]);
    const order: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { status: number; body: { items: Array<{ id: string }>; next_cursor: string | null } } = await http(
        `${url}/reviews/queue?limit=2${cursor ? `&cursor=${cursor}` : ''}`,
        { headers: as.reviewer },
      );
      assert.equal(page.status, 200);
      order.push(...page.body.items.map((i) => i.id).filter((id) => mine.has(id)));
      cursor = page.body.next_cursor;
    } while (cursor);
    assert.deepEqual(order, [critical.id, olderHigh.id, newerHigh.id, low.id]);
    const onlyHigh = await http(`${url}/reviews/queue?priority=high&case_id=${newerHigh.case_id}`, { headers: as.analyst });
    assert.deepEqual(onlyHigh.body.items.map((i: { id: string }) => i.id), [newerHigh.id]);
  });

  it('of 50 concurrent claims by 50 reviewers exactly one wins; the others get 409 naming the holder', async () => {
    const review = await enqueue();
    const tag = randomUUID().slice(0, 8);
    const reviewers = Array.from({ length: 50 }, (_, i) => `rev-${i}-${tag}@example.org`);
    for (const r of reviewers) await addUserRoles(testKnex(), r, ['reviewer']);
    const results = await Promise.all(reviewers.map((r) => http(`${url}/reviews/${review.id}/claim`, { method: 'POST', headers: asUser(r) })));
    const winners = results.filter((r) => r.status === 200);
    assert.equal(winners.length, 1, `statuses: ${results.map((r) => r.status).join(',')}`);
    const holder = winners[0]!.body.claimed_by as string;
    const losers = results.filter((r) => r.status === 409);
    assert.equal(losers.length, 49);
    for (const l of losers) {
      assert.equal(l.body.error.details.holder, holder);
      assert.match(l.body.error.message, new RegExp(`claimed by ${holder.replace(/[.]/g, '\\.')}`));
    }
    const log = await actions(review.id);
    assert.deepEqual(log.map((a) => a.action), ['enqueue', 'claim']);
    assert.equal(log[1]!.actor, holder);
  });

  it('returns an abandoned claim to the queue when its Temporal timer fires (TTL 3 s), logged as a release', async () => {
    const review = await enqueue();
    const claim = await http(`${shortTtlUrl}/reviews/${review.id}/claim`, { method: 'POST', headers: as.reviewer });
    assert.equal(claim.status, 200, claim.text);
    assert.equal(claim.body.claim_task_id, reviewClaimWorkflowId(review.id, 1));
    const ttl = Date.parse(claim.body.claim_expires_at) - Date.parse(claim.body.claimed_at);
    assert.ok(Math.abs(ttl - 3000) < 50, `ttl ${ttl} ms`);
    const other = await http(`${url}/reviews/${review.id}/claim`, { method: 'POST', headers: as.analyst });
    assert.equal(other.status, 409);

    assert.equal(await temporal.workflow.getHandle(claim.body.claim_task_id).result(), 'released');
    const after = await http(`${url}/reviews/${review.id}`, { headers: as.reviewer });
    assert.equal(after.body.status, 'queued');
    assert.equal(after.body.claimed_by, null);
    const log = await actions(review.id);
    assert.deepEqual(log.map((a) => [a.action, a.actor]), [['enqueue', users.analyst], ['claim', users.reviewer], ['release', 'system']]);
    assert.equal(log[2]!.details.claimed_by, users.reviewer);
    const reclaimed = await http(`${url}/reviews/${review.id}/claim`, { method: 'POST', headers: as.analyst });
    assert.equal(reclaimed.status, 200);
    assert.equal(reclaimed.body.claimed_by, users.analyst);
  });

  it('an admin decides a review whose claim already expired (its timer has finished: nothing left to cancel)', async () => {
    const review = await enqueue();
    const claim = await http(`${shortTtlUrl}/reviews/${review.id}/claim`, { method: 'POST', headers: as.reviewer });
    assert.equal(claim.status, 200, claim.text);
    assert.equal(await temporal.workflow.getHandle(claim.body.claim_task_id).result(), 'released');
    const res = await http(`${url}/reviews/${review.id}/decision`, { method: 'POST', headers: as.admin, json: { decision: 'needs_more_info', rationale: 'ask the reporter' } });
    assert.equal(res.status, 200, res.text);
    assert.equal((await http(`${url}/cases/${review.case_id}`, { headers: as.admin })).body.status, 'open');
  });

  it('a renewal cancels the previous timer; a decision cancels the current one', async () => {
    const review = await enqueue();
    const first = await http(`${shortTtlUrl}/reviews/${review.id}/claim`, { method: 'POST', headers: as.reviewer });
    const renewed = await http(`${url}/reviews/${review.id}/claim`, { method: 'POST', headers: as.reviewer });
    assert.equal(renewed.status, 200);
    assert.equal(renewed.body.renewed, true);
    assert.ok(Date.parse(renewed.body.claim_expires_at) > Date.parse(first.body.claim_expires_at) + 60_000);
    assert.equal(await temporal.workflow.getHandle(first.body.claim_task_id).result(), 'cancelled');
    const decided = await http(`${url}/reviews/${review.id}/decision`, { method: 'POST', headers: as.reviewer, json: { decision: 'escalate', rationale: 'needs a senior' } });
    assert.equal(decided.status, 200, decided.text);
    assert.equal(await temporal.workflow.getHandle(renewed.body.claim_task_id).result(), 'cancelled');
    assert.equal((await http(`${url}/reviews/${review.id}`, { headers: as.reviewer })).body.status, 'decided');
  });

  it('records a decision once, only by the claimer or an admin, with an audit event; refer_to_lea refers the case and creates a draft referral', async () => {
    const review = await enqueue();
    const decide = (headers: Record<string, string>, decision = 'refer_to_lea') =>
      http(`${url}/reviews/${review.id}/decision`, { method: 'POST', headers, json: { decision, rationale: 'wallets match a known ring' } });
    const unclaimed = await decide(as.reviewer);
    assert.equal(unclaimed.status, 409);
    assert.match(unclaimed.body.error.message, /claim review/);
    assert.equal((await http(`${url}/reviews/${review.id}/claim`, { method: 'POST', headers: as.reviewer })).status, 200);
    const notClaimer = await decide(as.analyst);
    assert.equal(notClaimer.status, 403);
    assert.match(notClaimer.body.error.message, new RegExp(`only ${users.reviewer.replace(/[.]/g, '\\.')}`));
    const ok = await decide(as.reviewer);
    assert.equal(ok.status, 200, ok.text);
    assert.equal(ok.body.decision, 'refer_to_lea');
    assert.equal(ok.body.lea_referral_created, true);
    const twice = await decide(as.admin, 'close_no_action');
    assert.equal(twice.status, 409);
    assert.match(twice.body.error.message, /already decided \(refer_to_lea/);
    const audited = await testKnex()('audit_events').where({ target_type: 'review', target_id: review.id, action: 'review.decision' });
    assert.equal(audited.length, 1, 'one audit event for the one decision');
    assert.equal(audited[0].actor, users.reviewer);
    assert.deepEqual(audited[0].details, { case_id: review.case_id, decision: 'refer_to_lea' });

    const referral = await http(`${url}/cases/${review.case_id}/lea-referral`, { headers: as.analyst });
    assert.equal(referral.status, 200);
    assert.equal(referral.body.status, 'draft');
    assert.equal(referral.body.review_id, review.id);
    const detail = await http(`${url}/cases/${review.case_id}`, { headers: as.analyst });
    assert.equal(detail.body.status, 'referred');
    assert.deepEqual(detail.body.reviews.map((r: { id: string }) => r.id), [review.id]);
    assert.equal(detail.body.referral.id, referral.body.id);
    const ofCase = await http(`${url}/reviews/case/${review.case_id}`, { headers: as.reviewer });
    assert.deepEqual(ofCase.body.items.map((r: { id: string }) => r.id), [review.id]);
  });

  it('lets an admin decide without a claim (close_no_action closes the case)', async () => {
    const review = await enqueue();
    const res = await http(`${url}/reviews/${review.id}/decision`, { method: 'POST', headers: as.admin, json: { decision: 'close_no_action', rationale: 'duplicate' } });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.lea_referral_created, false);
    assert.equal((await http(`${url}/cases/${review.case_id}`, { headers: as.admin })).body.status, 'closed');
  });

  it('logs annotations and feedback with actor and time in the append-only log', async () => {
    const review = await enqueue();
    const note = await http(`${url}/reviews/${review.id}/annotate`, { method: 'POST', headers: as.reviewer, json: { note: 'same IBAN as case 12', target: { type: 'entity', id: 'abc' } } });
    assert.equal(note.status, 201, note.text);
    const fb = await http(`${url}/reviews/${review.id}/feedback`, { method: 'POST', headers: as.analyst, json: { rating: 2, comment: 'missed a wallet' } });
    assert.equal(fb.status, 201, fb.text);
    const bad = await http(`${url}/reviews/${review.id}/feedback`, { method: 'POST', headers: as.analyst, json: { rating: 6 } });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error.details[0].path, 'body.rating');
    const log = await actions(review.id);
    assert.deepEqual(log.map((a) => [a.action, a.actor]), [['enqueue', users.analyst], ['annotate', users.reviewer], ['feedback', users.analyst]]);
    assert.deepEqual(log[1]!.details, { note: 'same IBAN as case 12', target: { type: 'entity', id: 'abc' } });
    await assert.rejects(testKnex()('review_actions').where({ review_id: review.id }).update({ actor: 'someone-else' }), /append-only/);
    await assert.rejects(testKnex()('review_actions').where({ review_id: review.id }).delete(), /append-only/);
    // Found by the fuzz run: PostgreSQL text cannot hold NUL; such input is a 400 naming the field, not a 500.
    const nul = await http(`${url}/reviews/${review.id}/annotate`, { method: 'POST', headers: as.reviewer, json: { note: 'a\u0000b' } });
    assert.equal(nul.status, 400, nul.text);
    assert.equal(nul.body.error.details[0].path, 'body.note');
    const nulQuery = await http(`${url}/reviews/queue?claimed_by=a%00b`, { headers: as.reviewer });
    assert.equal(nulQuery.status, 400, nulQuery.text);
    assert.equal(nulQuery.body.error.details[0].path, 'query.claimed_by');
    assert.equal((await http(`${url}/reviews/${randomUUID()}/annotate`, { method: 'POST', headers: as.reviewer, json: { note: 'x' } })).status, 404);
  });

  it('never takes a literal segment for a review id: /reviews/{id} takes UUIDs, and the literal /reviews/search (legacy search) wins even when listed after it', async () => {
    const notUuid = await http(`${url}/reviews/not-a-review`, { headers: as.reviewer });
    assert.equal(notUuid.status, 400);
    assert.equal(notUuid.body.error.details[0].path, 'params.id');
    const search = await http(`${url}/reviews/search?q=romance&limit=1`, { headers: as.reviewer });
    assert.equal(search.status, 200, search.text);
    assert.ok(Array.isArray(search.body.items));
    const isSearch = (r: { path: string }) => r.path.startsWith('/reviews/search');
    const searchLast = [...allRoutes().filter((r) => !isSearch(r)), ...allRoutes().filter(isSearch)];
    const reordered = (await startTestApi({ SVC_AUTH__TRUST_PROXY_HEADER: 'true' }, { routes: searchLast })).url;
    const res = await http(`${reordered}/reviews/search?q=romance&limit=1`, { headers: as.reviewer });
    assert.equal(res.status, 200, res.text);
    assert.ok(Array.isArray(res.body.items));
  });
});
