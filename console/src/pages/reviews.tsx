// The review queue: filters in the URL (status: waiting, being reviewed, decided; priority; age;
// claimed by), each review with its case's title; claim, annotate and decide from the card, or
// open the review page (review-detail.tsx) for feedback and the action log.
import { useState, type FormEvent } from 'react';
import { sdk } from '../api';
import { describeError } from '../errors';
import { Empty, ErrorState, Loading, Pager, StatusBadge, Time, useLoad } from '../components';
import { invalidateLoads } from '../query';
import { Link, useSearchParam, useSearchParams } from '../router';
import { useMe } from '../session';
import type { ReviewWithCase } from '../types';

export const DECISIONS = [
  ['escalate', 'Escalate'],
  ['refer_to_lea', 'Refer to law enforcement (creates a draft LEA referral)'],
  ['close_no_action', 'Close, no action'],
  ['needs_more_info', 'Needs more information'],
] as const;
export type Decision = (typeof DECISIONS)[number][0];

export const STATUSES = [['queued', 'Waiting'], ['claimed', 'Being reviewed'], ['decided', 'Decided']] as const;
type Status = (typeof STATUSES)[number][0];
const PRIORITIES = ['critical', 'high', 'medium', 'low'];
/** The age filter: requested more than this long ago. */
export const AGES: Array<[string, string, number]> = [['1h', 'over an hour', 3_600_000], ['1d', 'over a day', 86_400_000], ['7d', 'over a week', 7 * 86_400_000]];

const errorText = (err: unknown) => describeError(err).sentence;

/** "Claimed by ana@… until 14:05 UTC (expired)". */
export function ClaimLine({ review }: { review: ReviewWithCase }) {
  if (!review.claimedBy || review.status !== 'claimed') return null;
  const expired = review.claimExpiresAt !== null && Date.parse(review.claimExpiresAt) < Date.now();
  return <> · claimed by <strong>{review.claimedBy}</strong>{review.claimExpiresAt && <> until <Time iso={review.claimExpiresAt} />{expired && ' (expired: anyone may claim it)'}</>}</>;
}

function ReviewCard({ review, mine, onDone }: { review: ReviewWithCase; mine: boolean; onDone: (notice: string, claimed: boolean) => void }) {
  const [note, setNote] = useState('');
  const [decision, setDecision] = useState('');
  const [rationale, setRationale] = useState('');
  const [msg, setMsg] = useState<{ text: string } | null>(null);
  const title = review.caseTitle || 'untitled case';
  const act = async (fn: () => Promise<unknown>, ok: string, claimed = false) => {
    setMsg(null);
    try {
      await fn();
      onDone(ok, claimed);
      return true;
    } catch (err) {
      setMsg({ text: errorText(err) });
      return false;
    }
  };
  const annotate = (e: FormEvent) => {
    e.preventDefault();
    void act(() => sdk().reviews.annotate(review.id, { note }), `Note added to the review of “${title}”.`).then((ok) => ok && setNote(''));
  };
  const decide = (e: FormEvent) => {
    e.preventDefault();
    void act(() => sdk().reviews.decide(review.id, { decision: decision as Decision, rationale }), `Decision recorded for “${title}”: ${decision.replace(/_/g, ' ')}.`);
  };
  const idp = `r-${review.id.slice(0, 8)}`;
  return (
    <li className="card review" aria-labelledby={`${idp}-title`}>
      <h3 id={`${idp}-title`}>
        <Link to={`/cases/${review.caseId}`}>{title}</Link> <span className={`prio prio-${review.priority}`}>{review.priority}</span>
      </h3>
      <p>{review.reason || <span className="muted">No reason given.</span>}</p>
      <p className="muted small">
        <StatusBadge status={review.status} /> requested by {review.requestedBy} <Time iso={review.createdAt} />
        <ClaimLine review={review} />
        {' · '}<Link to={`/reviews/${review.id}`} aria-label={`Open the review of ${title}`}>Open the review</Link>
      </p>
      {review.status === 'decided' && (
        <p><strong>{review.decision?.replace(/_/g, ' ')}</strong> by {review.decidedBy} <Time iso={review.decidedAt} />: <span className="prewrap">{review.rationale}</span></p>
      )}
      {!mine && review.status !== 'decided' && (
        <button type="button" className="primary" onClick={() => void act(() => sdk().reviews.claim(review.id), `Claimed the review of “${title}”: annotate and decide it below.`, true)}>
          {review.claimedBy && review.status === 'claimed' ? 'Take over claim' : 'Claim'}
        </button>
      )}
      {mine && review.status === 'claimed' && (
        <div className="review-forms">
          <form onSubmit={annotate}>
            <label htmlFor={`${idp}-note`}>Note</label>
            <textarea id={`${idp}-note`} required value={note} onChange={(e) => setNote(e.target.value)} rows={2} />
            <button type="submit">Add note</button>
          </form>
          <form onSubmit={decide}>
            <label htmlFor={`${idp}-decision`}>Decision</label>
            <select id={`${idp}-decision`} required value={decision} onChange={(e) => setDecision(e.target.value)}>
              <option value="">Choose…</option>
              {DECISIONS.map(([v, l]) => <option key={v} value={v}>{l}</option>)}
            </select>
            <label htmlFor={`${idp}-rationale`}>Rationale</label>
            <textarea id={`${idp}-rationale`} required value={rationale} onChange={(e) => setRationale(e.target.value)} rows={2} />
            <button type="submit" className="primary">Decide</button>
          </form>
        </div>
      )}
      {msg && <p role="alert" className="form-error">{msg.text}</p>}
    </li>
  );
}

export function ReviewsPage() {
  const me = useMe();
  const [statusParam] = useSearchParam('status', 'queued');
  const [params, setParams] = useSearchParams();
  const status: Status = (STATUSES.map(([s]) => s) as string[]).includes(statusParam) ? (statusParam as Status) : 'queued';
  const priority = params.get('priority') ?? '';
  const age = params.get('age') ?? '';
  const claimedBy = params.get('claimed_by') ?? '';
  const cursor = params.get('cursor');
  const [claimedText, setClaimedText] = useState(claimedBy);
  const [notice, setNotice] = useState<string | null>(null);
  const ageMs = AGES.find(([k]) => k === age)?.[2];
  // The age boundary moves with the clock only when the filter changes (a stable cache key).
  const [now] = useState(() => Date.now());
  const createdBefore = ageMs ? new Date(now - ageMs).toISOString() : undefined;
  const [queue, reload] = useLoad(
    () => sdk().reviews.queue({ status, priority: (priority || undefined) as 'high' | undefined, claimedBy: claimedBy || undefined, createdBefore, limit: 100 }).page(cursor),
    `${status}:${priority}:${age}:${claimedBy}:${cursor ?? ''}`,
  );
  const onDone = (text: string, claimed: boolean) => {
    setNotice(text);
    if (claimed && status !== 'claimed') setParams({ status: 'claimed', cursor: null });
    invalidateLoads();
  };
  const empty = status === 'queued' ? 'Nothing waiting for review' : status === 'claimed' ? 'Nobody is reviewing anything' : 'No decided review';
  const filtered = !!(priority || age || claimedBy);
  return (
    <>
      <h1>Review queue</h1>
      <div className="segmented" role="group" aria-label="Which reviews">
        {STATUSES.map(([s, l]) => <button key={s} type="button" aria-pressed={status === s} onClick={() => setParams({ status: s, cursor: null })}>{l}</button>)}
      </div>
      <form className="filters" aria-label="Filter reviews" onSubmit={(e) => { e.preventDefault(); setParams({ claimed_by: claimedText.trim(), cursor: null }); }}>
        <div className="field">
          <label htmlFor="rv-priority">Priority</label>
          <select id="rv-priority" value={priority} onChange={(e) => setParams({ priority: e.target.value, cursor: null })}>
            <option value="">Any</option>
            {PRIORITIES.map((p) => <option key={p} value={p}>{p}</option>)}
          </select>
        </div>
        <div className="field">
          <label htmlFor="rv-age">Requested</label>
          <select id="rv-age" value={age} onChange={(e) => setParams({ age: e.target.value, cursor: null })}>
            <option value="">Any time</option>
            {AGES.map(([k, l]) => <option key={k} value={k}>{l} ago</option>)}
          </select>
        </div>
        <div className="field">
          <label htmlFor="rv-claimed">Claimed by (e-mail)</label>
          <input id="rv-claimed" type="search" value={claimedText} onChange={(e) => setClaimedText(e.target.value)} onBlur={() => setParams({ claimed_by: claimedText.trim(), cursor: null })} />
        </div>
        {me?.email && <button type="button" onClick={() => { setClaimedText(me.email!); setParams({ claimed_by: me.email, status: 'claimed', cursor: null }); }}>Mine</button>}
        {filtered && <button type="button" onClick={() => { setClaimedText(''); setParams({ priority: null, age: null, claimed_by: null, cursor: null }); }}>Clear filters</button>}
      </form>
      {notice && <p role="status" className="ok-text">{notice}</p>}
      {queue.status === 'loading' && <Loading what="the review queue" />}
      {queue.status === 'error' && <ErrorState error={queue.error} retry={reload} />}
      {queue.status === 'ok' && queue.data.items.length === 0 && <Empty>{empty}{filtered ? ' matches these filters' : ''}.</Empty>}
      {queue.status === 'ok' && queue.data.items.length > 0 && (
        <ul className="cards reviews">
          {queue.data.items.map((r) => <ReviewCard key={r.id} review={r} mine={!!me?.email && r.claimedBy === me.email && r.status === 'claimed'} onDone={onDone} />)}
        </ul>
      )}
      {queue.status === 'ok' && (cursor || queue.data.nextCursor) && <Pager next={queue.data.nextCursor} cursor={cursor} setCursor={(c) => setParams({ cursor: c }, { push: true })} />}
    </>
  );
}
