// A case's LEA referral on the case page: create a draft, edit agency, jurisdiction, contact and the
// agency's reference, move it by its status machine (draft → submitted → acknowledged → closed,
// domain/cases/lea-referral-states.ts; each move asks for confirmation), with its status history.
// A draft created by a reviewer's refer_to_lea decision shows here like any other.
import { useState, type FormEvent } from 'react';
import { allowedReferralStatuses, type LeaReferralStatus } from '../../../domain/cases/lea-referral-states';
import { sdk } from '../api';
import { StatusBadge, Time } from '../components';
import { describeError } from '../errors';
import { invalidateLoads } from '../query';
import type { CaseDetail } from '../types';
import { ConfirmAction, described, Field, fieldErrorsOf, label } from './case-work-ui';

type Referral = NonNullable<CaseDetail['referral']>;

const MOVE_LABEL: Record<LeaReferralStatus, string> = { draft: 'Create draft', submitted: 'Mark submitted', acknowledged: 'Mark acknowledged', closed: 'Close referral' };

export function ReferralPanel({ caseId, referral, canWrite, done }: { caseId: string; referral: Referral | null; canWrite: boolean; done: () => void }) {
  const [v, setV] = useState({ agency: referral?.agency ?? '', jurisdiction: referral?.jurisdiction ?? '', contact: referral?.contact ?? '', reference: referral?.reference ?? '' });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<string | null>(null);
  const set = (k: keyof typeof v, value: string) => setV((o) => ({ ...o, [k]: value }));
  const save = async (status: LeaReferralStatus) => {
    setErrors({});
    setMessage(null);
    try {
      await sdk().cases.referToLea(caseId, { agency: v.agency, jurisdiction: v.jurisdiction, contact: v.contact, reference: v.reference.trim() || null, status });
      setMessage(referral && referral.status !== status ? `Referral moved to ${label(status)}.` : referral ? 'Referral saved.' : 'Draft referral created.');
      invalidateLoads();
      done();
    } catch (err) {
      const f = fieldErrorsOf(err);
      setErrors(f);
      if (!Object.keys(f).length) throw err;
      throw new Error('Some fields were not accepted: see the messages next to them.', { cause: err });
    }
  };
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    try {
      await save(referral?.status ?? 'draft');
    } catch (err) {
      setMessage(describeError(err).sentence);
    }
  };
  const next = referral ? allowedReferralStatuses(referral.status) : [];
  const editable = canWrite && referral?.status !== 'closed';
  return (
    <section aria-labelledby="referral-h" className="card referral">
      <h2 id="referral-h">LEA referral {referral && <StatusBadge status={referral.status} />}</h2>
      {!referral && <p className="muted">This case has not been referred to law enforcement.</p>}
      {referral?.reviewId && <p className="muted">Drafted by a review's refer-to-LEA decision.</p>}
      {referral && (
        <p className="small muted">Evidence signing key to give the agency: <code>{referral.evidenceSigningKey.keyId}</code> (fingerprint <code className="break">{referral.evidenceSigningKey.fingerprint}</code>)</p>
      )}
      {editable ? (
        <form onSubmit={submit} aria-label="LEA referral" noValidate>
          <div className="fields">
            {(['agency', 'jurisdiction', 'contact', 'reference'] as const).map((k) => (
              <Field key={k} id={`ref-${k}`} label={k === 'reference' ? "Agency's reference" : k[0].toUpperCase() + k.slice(1)} error={errors[k]} grow={k === 'contact'}>
                <input id={`ref-${k}`} value={v[k]} onChange={(e) => set(k, e.target.value)} {...described(`ref-${k}`, errors[k])} />
              </Field>
            ))}
          </div>
          <button type="submit">{referral ? 'Save referral' : 'Create draft referral'}</button>
        </form>
      ) : referral && (
        <dl className="facts">
          <dt>Agency</dt><dd>{referral.agency ?? '—'}</dd>
          <dt>Jurisdiction</dt><dd>{referral.jurisdiction ?? '—'}</dd>
          <dt>Contact</dt><dd>{referral.contact ?? '—'}</dd>
          <dt>Reference</dt><dd>{referral.reference ?? '—'}</dd>
        </dl>
      )}
      {canWrite && next.length > 0 && (
        <div className="toolbar" aria-label="Referral status moves" role="group">
          {next.map((s) => (
            <ConfirmAction key={s} label={MOVE_LABEL[s]} question={<>Move the referral from <strong>{label(referral!.status)}</strong> to <strong>{label(s)}</strong>?{s === 'closed' && ' A closed referral cannot be changed again.'}</>} run={() => save(s)} />
          ))}
        </div>
      )}
      {message && <p role="status">{message}</p>}
      {referral && referral.history.length > 0 && (
        <div className="table-wrap">
          <table>
            <caption>Referral history</caption>
            <thead><tr><th scope="col">When</th><th scope="col">From</th><th scope="col">To</th><th scope="col">By</th></tr></thead>
            <tbody>
              {referral.history.map((h, i) => (
                <tr key={`${h.at}-${i}`}>
                  <td data-label="When"><Time iso={h.at} /></td>
                  <td data-label="From">{h.fromStatus ? label(h.fromStatus) : '—'}</td>
                  <td data-label="To">{label(h.toStatus)}</td>
                  <td data-label="By">{h.actor}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
