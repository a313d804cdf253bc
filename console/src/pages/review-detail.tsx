// One review (/console/reviews/<id>): the case by its title, reason, claim holder and expiry, the
// decision with its rationale, and the append-only action log (/reviews/{id}/actions) with every
// note and rating; the claim holder adds notes and feedback and decides (after a confirmation:
// a decision is final).
import { useState, type FormEvent } from 'react';
import { sdk } from '../api';
import { ConfirmButton } from '../confirm';
import { describeError } from '../errors';
import { Empty, ErrorState, Loading, StatusBadge, Time, useLoad } from '../components';
import { invalidateLoads } from '../query';
import { Link } from '../router';
import { useMe } from '../session';
import type { Schema } from '../../../sdk/src';
import { ClaimLine, DECISIONS, type Decision } from './reviews';

type ReviewAction = Schema<'ReviewAction'>;

function ActionLog({ actions }: { actions: ReviewAction[] }) {
  if (actions.length === 0) return <Empty>Nothing logged yet.</Empty>;
  return (
    <ol className="timeline review-log">
      {actions.map((a) => {
        const d = a.details as { note?: string; rating?: number; comment?: string; decision?: string; rationale?: string; reason?: string; priority?: string };
        return (
          <li key={a.id}>
            <Time iso={a.at} /> <span className="badge">{a.action}</span> <strong>{a.actor}</strong>
            {d.note && <>: <span className="prewrap">{d.note}</span></>}
            {d.rating !== undefined && <>: rated {d.rating}/5{d.comment ? ` — ${d.comment}` : ''}</>}
            {d.decision && <>: {d.decision.replace(/_/g, ' ')}{d.rationale ? ` — ${d.rationale}` : ''}</>}
            {a.action === 'enqueue' && d.reason && <>: {d.reason}</>}
          </li>
        );
      })}
    </ol>
  );
}

export function ReviewDetailPage({ id }: { id: string }) {
  const me = useMe();
  const [review, reload] = useLoad(() => sdk().reviews.get(id), id);
  const [log, reloadLog] = useLoad(() => sdk().reviews.actions(id).toArray({ max: 1000 }).then((items) => ({ items })), `log:${id}`);
  const [note, setNote] = useState('');
  const [rating, setRating] = useState('');
  const [comment, setComment] = useState('');
  const [decision, setDecision] = useState('');
  const [rationale, setRationale] = useState('');
  const [notice, setNotice] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  if (review.status === 'loading') return <Loading what="the review" />;
  if (review.status === 'error') return <ErrorState error={review.error} retry={reload} />;
  if (review.status !== 'ok') return null;
  const r = review.data;
  const title = r.caseTitle || 'untitled case';
  const mine = !!me?.email && r.claimedBy === me.email && r.status === 'claimed';
  const act = async (fn: () => Promise<unknown>, ok: string) => {
    setError(null);
    setNotice(null);
    try {
      await fn();
      setNotice(ok);
      invalidateLoads();
      reload();
      reloadLog();
      return true;
    } catch (err) {
      setError(describeError(err).sentence);
      return false;
    }
  };
  const annotate = (e: FormEvent) => {
    e.preventDefault();
    void act(() => sdk().reviews.annotate(r.id, { note }), 'Note added.').then((ok) => ok && setNote(''));
  };
  const feedback = (e: FormEvent) => {
    e.preventDefault();
    void act(() => sdk().reviews.feedback(r.id, { rating: Number(rating), comment }), `Feedback recorded (${rating}/5).`).then((ok) => ok && (setRating(''), setComment('')));
  };
  const decisionLabel = DECISIONS.find(([v]) => v === decision)?.[1] ?? decision;
  return (
    <>
      <p><Link to="/reviews">← Review queue</Link></p>
      <h1>Review of “{title}”</h1>
      <dl className="facts">
        <dt>Case</dt><dd><Link to={`/cases/${r.caseId}`}>{title}</Link></dd>
        <dt>Status</dt><dd><StatusBadge status={r.status} /> <span className={`prio prio-${r.priority}`}>{r.priority}</span><ClaimLine review={r} /></dd>
        <dt>Reason</dt><dd className="prewrap">{r.reason || <span className="muted">none given</span>}</dd>
        <dt>Requested</dt><dd>by {r.requestedBy} <Time iso={r.createdAt} /></dd>
        {r.status === 'decided' && (
          <>
            <dt>Decision</dt><dd><strong>{r.decision?.replace(/_/g, ' ')}</strong> by {r.decidedBy} <Time iso={r.decidedAt} />{r.decision === 'refer_to_lea' && <> — a draft LEA referral is on <Link to={`/cases/${r.caseId}`}>the case</Link></>}</dd>
            <dt>Rationale</dt><dd className="prewrap">{r.rationale}</dd>
          </>
        )}
      </dl>
      {notice && <p role="status" className="ok-text">{notice}</p>}
      {error && <p role="alert" className="form-error">{error}</p>}
      {r.status !== 'decided' && !mine && (
        r.status === 'claimed' && r.claimedBy
          ? <ConfirmButton label="Take over the claim" question={`${r.claimedBy} holds this review; take it over?`} yes="Yes, take it over" onConfirm={() => act(() => sdk().reviews.claim(r.id), 'You hold the claim now: annotate and decide below.')} />
          : <button type="button" className="primary" onClick={() => void act(() => sdk().reviews.claim(r.id), 'Claimed: annotate and decide below.')}>Claim</button>
      )}
      {mine && (
        <div className="review-forms">
          <button type="button" onClick={() => void act(() => sdk().reviews.claim(r.id), 'Claim renewed.')}>Renew my claim</button>
          <form onSubmit={annotate}>
            <h2 id="rv-note-h">Add a note</h2>
            <label htmlFor="rv-note">Note</label>
            <textarea id="rv-note" required value={note} onChange={(e) => setNote(e.target.value)} rows={3} />
            <button type="submit">Add note</button>
          </form>
          <form onSubmit={feedback}>
            <h2 id="rv-fb-h">Feedback on the material</h2>
            <label htmlFor="rv-rating">Rating</label>
            <select id="rv-rating" required value={rating} onChange={(e) => setRating(e.target.value)}>
              <option value="">Choose…</option>
              {[5, 4, 3, 2, 1].map((n) => <option key={n} value={n}>{n} {n === 5 ? '(excellent)' : n === 1 ? '(poor)' : ''}</option>)}
            </select>
            <label htmlFor="rv-comment">Comment</label>
            <textarea id="rv-comment" value={comment} onChange={(e) => setComment(e.target.value)} rows={2} />
            <button type="submit">Send feedback</button>
          </form>
          <form onSubmit={(e) => e.preventDefault()}>
            <h2 id="rv-dec-h">Decide</h2>
            <label htmlFor="rv-decision">Decision</label>
            <select id="rv-decision" required value={decision} onChange={(e) => setDecision(e.target.value)}>
              <option value="">Choose…</option>
              {DECISIONS.map(([v, l]) => <option key={v} value={v}>{l}</option>)}
            </select>
            <label htmlFor="rv-rationale">Rationale</label>
            <textarea id="rv-rationale" required value={rationale} onChange={(e) => setRationale(e.target.value)} rows={3} />
            <ConfirmButton
              label="Decide" className="primary" disabled={!decision || !rationale.trim()}
              question={`Record “${decisionLabel}”? A decision is final.`} yes="Yes, record the decision"
              onConfirm={() => act(() => sdk().reviews.decide(r.id, { decision: decision as Decision, rationale }), `Decision recorded: ${decision.replace(/_/g, ' ')}.`)}
            />
          </form>
        </div>
      )}
      <h2>Action log</h2>
      {log.status === 'loading' && <Loading what="the action log" />}
      {log.status === 'error' && <ErrorState error={log.error} retry={reloadLog} />}
      {log.status === 'ok' && <ActionLog actions={log.data.items} />}
    </>
  );
}
