// The review queue: claim a review, annotate it, decide it.
import { useState, type FormEvent } from 'react';
import { sdk } from '../api';
import { describeError } from '../errors';
import { Empty, ErrorState, Loading, StatusBadge, Time, useLoad } from '../components';
import { invalidateLoads } from '../query';
import { Link, useSearchParam } from '../router';
import { useMe } from '../session';
import type { Review } from '../types';

const DECISIONS = [
  ['escalate', 'Escalate'],
  ['refer_to_lea', 'Refer to law enforcement (creates a draft LEA referral)'],
  ['close_no_action', 'Close, no action'],
  ['needs_more_info', 'Needs more information'],
] as const;
type Decision = (typeof DECISIONS)[number][0];

const errorText = (err: unknown) => describeError(err).sentence;

function ReviewCard({ review, mine, onDone }: { review: Review; mine: boolean; onDone: (notice: string, claimed: boolean) => void }) {
  const [note, setNote] = useState('');
  const [decision, setDecision] = useState('');
  const [rationale, setRationale] = useState('');
  const [msg, setMsg] = useState<{ text: string } | null>(null);
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
    void act(() => sdk().reviews.annotate(review.id, { note }), `Note added to the review of case ${review.caseId.slice(0, 8)}.`).then((ok) => ok && setNote(''));
  };
  const decide = (e: FormEvent) => {
    e.preventDefault();
    void act(() => sdk().reviews.decide(review.id, { decision: decision as Decision, rationale }), `Decision recorded for case ${review.caseId.slice(0, 8)}: ${decision.replace(/_/g, ' ')}.`);
  };
  const idp = `r-${review.id.slice(0, 8)}`;
  return (
    <li className="card review" aria-labelledby={`${idp}-title`}>
      <h3 id={`${idp}-title`}>
        Review of <Link to={`/cases/${review.caseId}`}>case {review.caseId.slice(0, 8)}</Link> <span className={`prio prio-${review.priority}`}>{review.priority}</span>
      </h3>
      <p>{review.reason || <span className="muted">No reason given.</span>}</p>
      <p className="muted small">
        <StatusBadge status={review.status} /> requested by {review.requestedBy} <Time iso={review.createdAt} />
        {review.claimedBy && <> · claimed by {review.claimedBy}{review.claimExpiresAt && <> until <Time iso={review.claimExpiresAt} /></>}</>}
      </p>
      {!mine && review.status !== 'decided' && (
        <button type="button" className="primary" onClick={() => void act(() => sdk().reviews.claim(review.id), `Claimed the review of case ${review.caseId.slice(0, 8)}: annotate and decide it below.`, true)}>
          {review.claimedBy ? 'Take over claim' : 'Claim'}
        </button>
      )}
      {mine && (
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
  const [statusParam, setStatus] = useSearchParam('status', 'queued');
  const status: 'queued' | 'claimed' = statusParam === 'claimed' ? 'claimed' : 'queued';
  const [notice, setNotice] = useState<string | null>(null);
  const [queue, reload] = useLoad(() => sdk().reviews.queue({ status, limit: 100 }).first(), status);
  const onDone = (text: string, claimed: boolean) => {
    setNotice(text);
    if (claimed && status !== 'claimed') setStatus('claimed');
    invalidateLoads();
  };
  return (
    <>
      <h1>Review queue</h1>
      <div className="segmented" role="group" aria-label="Which reviews">
        <button type="button" aria-pressed={status === 'queued'} onClick={() => setStatus('queued')}>Waiting</button>
        <button type="button" aria-pressed={status === 'claimed'} onClick={() => setStatus('claimed')}>Being reviewed</button>
      </div>
      {notice && <p role="status" className="ok-text">{notice}</p>}
      {queue.status === 'loading' && <Loading what="the review queue" />}
      {queue.status === 'error' && <ErrorState error={queue.error} retry={reload} />}
      {queue.status === 'ok' && queue.data.items.length === 0 && <Empty>{status === 'queued' ? 'Nothing waiting for review.' : 'Nobody is reviewing anything.'}</Empty>}
      {queue.status === 'ok' && queue.data.items.length > 0 && (
        <ul className="cards reviews">
          {queue.data.items.map((r) => <ReviewCard key={r.id} review={r} mine={!!me?.email && r.claimedBy === me.email} onDone={onDone} />)}
        </ul>
      )}
    </>
  );
}
