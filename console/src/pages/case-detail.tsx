// The case page's working parts: the status move (only the moves the case status machine allows,
// each confirmed), "Request a review" (confirmed; on a referred case it says the case goes back to
// in review), and the timeline composed from what the case page already loads (intakes,
// investigations, reviews with their reasons and rationales, the referral's history) and the
// case's dossiers.
import { allowedCaseTransitions, type CaseStatus } from '../../../domain/cases/case-states';
import { sdk } from '../api';
import { Empty, Time, useLoad } from '../components';
import { invalidateLoads } from '../query';
import { Link } from '../router';
import type { CaseDetail } from '../types';
import { ConfirmAction, label } from './case-work-ui';

const MOVE_NOTE: Partial<Record<CaseStatus, string>> = {
  closed: 'A closed case can only be reopened.',
  referred: 'Referred means handed to law enforcement: record the referral below.',
  open: 'The case goes back to work.',
  in_review: 'The case waits for a reviewer.',
};

export function CaseStatusMoves({ d, done }: { d: CaseDetail; done: () => void }) {
  const moves = allowedCaseTransitions(d.status);
  return (
    <div className="toolbar" role="group" aria-label="Case status moves">
      {moves.map((to) => (
        <ConfirmAction
          key={to}
          label={to === 'open' && d.status === 'closed' ? 'Reopen' : `Move to ${label(to)}`}
          question={<>Move this case from <strong>{label(d.status)}</strong> to <strong>{label(to)}</strong>? {MOVE_NOTE[to]}</>}
          run={async () => {
            await sdk().cases.update(d.id, { status: to });
            invalidateLoads();
            done();
          }}
        />
      ))}
    </div>
  );
}

/** "Request a review": always confirmed; a referred case is said to go back to in review. */
export function RequestReview({ d, done }: { d: CaseDetail; done: (msg: string) => void }) {
  const pending = d.reviews.find((r) => r.status !== 'decided');
  const question = d.status === 'referred'
    ? <>This case is <strong>referred</strong>. Requesting a review moves it back to <strong>in review</strong> while the reviewer decides. Request the review anyway?</>
    : d.status === 'closed'
      ? <>This case is <strong>closed</strong>. Request a review of it anyway?</>
      : <>Put this case in the review queue?{d.status === 'open' && ' It moves to in review.'}</>;
  return (
    <ConfirmAction
      label="Request a review"
      disabled={!!pending}
      question={question}
      run={async () => {
        await sdk().reviews.create({ caseId: d.id, reason: 'requested from the console' });
        invalidateLoads();
        done('Review requested: it is in the review queue.');
      }}
    />
  );
}

interface Event { at: string; what: string; detail?: string; link?: string; by?: string }

export function CaseTimeline({ d }: { d: CaseDetail }) {
  const [dossiers] = useLoad(async () => (await sdk().request('get', '/reports/dossiers', { query: { caseId: d.id, limit: 50 } as never })).items, `dossiers:${d.id}`);
  const events: Event[] = [{ at: d.createdAt, what: 'Case created', by: d.createdBy }];
  for (const i of d.intakes) events.push({ at: i.linkedAt, what: 'Intake attached', link: `/intakes/${i.id}`, by: i.linkedBy });
  for (const i of d.investigations) events.push({ at: i.linkedAt, what: 'Investigation linked', link: `/investigations/${i.id}`, by: i.linkedBy });
  for (const r of d.reviews) {
    events.push({ at: r.createdAt, what: 'Review requested', detail: r.reason, by: r.requestedBy });
    if (r.claimedAt) events.push({ at: r.claimedAt, what: 'Review claimed', by: r.claimedBy ?? undefined, detail: r.claimExpiresAt && !r.decidedAt ? `claim expires ${r.claimExpiresAt.replace('T', ' ').slice(0, 16)} UTC` : undefined });
    if (r.decidedAt && r.decision) events.push({ at: r.decidedAt, what: `Review decided: ${label(r.decision)}`, detail: r.rationale ?? undefined, by: r.decidedBy ?? undefined });
  }
  for (const h of d.referral?.history ?? []) events.push({ at: h.at, what: h.fromStatus ? `Referral ${label(h.fromStatus)} → ${label(h.toStatus)}` : `Referral ${label(h.toStatus)}`, by: h.actor });
  if (dossiers.status === 'ok') {
    for (const x of dossiers.data) events.push({ at: x.createdAt, what: `Dossier ${label(x.status)}`, detail: x.title, by: x.createdBy });
  }
  events.sort((a, b) => b.at.localeCompare(a.at));
  if (events.length === 0) return <Empty>Nothing yet.</Empty>;
  return (
    <ol className="timeline" aria-label="Case timeline, newest first">
      {events.map((e, i) => (
        <li key={`${e.at}-${i}`}>
          <Time iso={e.at} /> — {e.link ? <Link to={e.link}>{e.what}</Link> : <strong>{e.what}</strong>}
          {e.by && <span className="muted"> by {e.by}</span>}
          {e.detail && <p className="prewrap timeline-note">{e.detail}</p>}
        </li>
      ))}
    </ol>
  );
}
