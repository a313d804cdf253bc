// One intake: what was reported, its files, entities found, processing jobs (retry, cancel), the
// contact reveal for analysts (asks the purpose; the API audits every read), status moves by the
// intake state machine (only the moves the API lists as allowed), and attaching it to a case.
import { useState, type FormEvent } from 'react';
import { sdk } from '../api';
import { Empty, ErrorState, Loading, StatusBadge, Time, useLoad } from '../components';
import { EntityLink } from '../entity-link';
import { describeError } from '../errors';
import { invalidateLoads } from '../query';
import { Link, navigate } from '../router';
import { hasRole, useMe } from '../session';
import type { IntakeDetail } from '../types';
import { IntakeFiles } from './intake-files';
import { InvestigateUrl } from './case-investigations';
import { ConfirmAction, described, Field, fieldErrorsOf, label } from './case-work-ui';
import { ClassificationPanel } from './classification';

function ContactReveal({ id }: { id: string }) {
  const [purpose, setPurpose] = useState('');
  const [contact, setContact] = useState<{ reporterName: string | null; contactEmail: string | null; contactPhone: string | null } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const reveal = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    try {
      setContact(await sdk().intakes.contact(id, purpose));
    } catch (err) {
      setError(fieldErrorsOf(err).purpose ?? describeError(err).sentence);
    }
  };
  if (contact) {
    return (
      <dl className="facts" aria-label="Contact data">
        <dt>Name</dt><dd>{contact.reporterName ?? '—'}</dd>
        <dt>E-mail</dt><dd>{contact.contactEmail ?? '—'}</dd>
        <dt>Phone</dt><dd>{contact.contactPhone ?? '—'}</dd>
        <dt>Read for</dt><dd>{purpose} <span className="muted small">(recorded in the audit log)</span></dd>
      </dl>
    );
  }
  return (
    <form className="fields" onSubmit={reveal} aria-label="Reveal the contact data">
      <Field id="contact-purpose" label="Why do you need the contact data?" error={error ?? undefined} hint="recorded in the audit log with your name" grow>
        <input id="contact-purpose" required minLength={3} maxLength={500} value={purpose} onChange={(e) => setPurpose(e.target.value)} {...described('contact-purpose', error ?? undefined, true)} />
      </Field>
      <button type="submit" disabled={purpose.trim().length < 3}>Reveal contact</button>
    </form>
  );
}

function StatusMove({ i, done }: { i: IntakeDetail; done: () => void }) {
  const [to, setTo] = useState('');
  const [reason, setReason] = useState('');
  if (i.allowedStatusMoves.length === 0) return <p className="muted">No status move is allowed from {label(i.status)}.</p>;
  return (
    <div className="fields">
      <div className="field">
        <label htmlFor="intake-move">Move to</label>
        <select id="intake-move" value={to} onChange={(e) => setTo(e.target.value)}>
          <option value="">Choose…</option>
          {i.allowedStatusMoves.map((s) => <option key={s} value={s}>{label(s)}</option>)}
        </select>
      </div>
      <div className="field grow">
        <label htmlFor="intake-move-reason">Reason</label>
        <input id="intake-move-reason" value={reason} onChange={(e) => setReason(e.target.value)} />
      </div>
      <ConfirmAction
        label="Change status"
        disabled={!to}
        question={<>Move this intake from <strong>{label(i.status)}</strong> to <strong>{label(to)}</strong>?</>}
        run={async () => {
          await sdk().intakes.setStatus(i.id, { status: to as 'closed', reason: reason.trim() || undefined });
          setTo('');
          setReason('');
          invalidateLoads();
          done();
        }}
      />
    </div>
  );
}

function Jobs({ i, done }: { i: IntakeDetail; done: () => void }) {
  const canWrite = hasRole(useMe(), 'admin', 'analyst');
  if (i.jobs.length === 0) return <Empty>No processing job.</Empty>;
  const act = async (jobId: string, action: 'retry' | 'cancel') => {
    await sdk().intakes.jobAction(jobId, action);
    invalidateLoads();
    done();
  };
  return (
    <div className="table-wrap">
      <table>
        <caption className="sr-only">Processing jobs</caption>
        <thead><tr><th scope="col">Step</th><th scope="col">Status</th><th scope="col">Attempts</th><th scope="col">Error</th><th scope="col">Updated</th><th scope="col">Actions</th></tr></thead>
        <tbody>
          {i.jobs.map((j) => (
            <tr key={j.id}>
              <td data-label="Step">{label(j.step)}</td>
              <td data-label="Status"><StatusBadge status={j.status} /></td>
              <td data-label="Attempts">{j.attempts}</td>
              <td data-label="Error">{j.error ?? '—'}</td>
              <td data-label="Updated"><Time iso={j.updatedAt} /></td>
              <td data-label="Actions">
                {canWrite && (j.status === 'failed' || j.status === 'cancelled') && (
                  <ConfirmAction label={`Retry ${label(j.step)}`} question={`Run the ${label(j.step)} step again, and the steps after it?`} run={() => act(j.id, 'retry')} />
                )}
                {canWrite && (j.status === 'queued' || j.status === 'running') && (
                  <ConfirmAction label={`Cancel ${label(j.step)}`} question="Cancel this intake's open processing jobs? They can be retried later." run={() => act(j.id, 'cancel')} />
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function AttachToCase({ i, done }: { i: IntakeDetail; done: () => void }) {
  const [mode, setMode] = useState<'new' | 'existing'>('new');
  const [title, setTitle] = useState(i.summary.slice(0, 300));
  const [priority, setPriority] = useState('medium');
  const [caseId, setCaseId] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [cases] = useLoad(async () => (await sdk().request('get', '/cases', { query: { status: 'open', limit: 100 } })).items, 'open-cases');
  const attach = async () => {
    setErrors({});
    try {
      const body = mode === 'new' ? { create: { title, priority: priority as 'medium' } } : { caseId };
      const out = await sdk().intakes.attachToCase(i.id, body);
      invalidateLoads();
      done();
      navigate(`/cases/${out.caseId}`);
    } catch (err) {
      const f = fieldErrorsOf(err);
      setErrors(f);
      if (!Object.keys(f).length || f.form) throw err;
    }
  };
  return (
    <div className="card attach">
      <fieldset className="segmented">
        <legend>Attach to</legend>
        <label><input type="radio" name="attach-mode" checked={mode === 'new'} onChange={() => setMode('new')} /> a new case</label>
        <label><input type="radio" name="attach-mode" checked={mode === 'existing'} onChange={() => setMode('existing')} /> an existing case</label>
      </fieldset>
      <div className="fields">
        {mode === 'new' ? (
          <>
            <Field id="attach-title" label="New case title" error={errors.create} grow>
              <input id="attach-title" value={title} onChange={(e) => setTitle(e.target.value)} {...described('attach-title', errors.create)} />
            </Field>
            <div className="field">
              <label htmlFor="attach-priority">Priority</label>
              <select id="attach-priority" value={priority} onChange={(e) => setPriority(e.target.value)}>
                {['low', 'medium', 'high', 'critical'].map((p) => <option key={p}>{p}</option>)}
              </select>
            </div>
          </>
        ) : (
          <div className="field grow">
            <label htmlFor="attach-case">Open case</label>
            <select id="attach-case" value={caseId} onChange={(e) => setCaseId(e.target.value)}>
              <option value="">{cases.status === 'ok' ? (cases.data.length ? 'Choose…' : 'No open case') : 'Loading cases…'}</option>
              {cases.status === 'ok' && cases.data.map((c) => <option key={c.id} value={c.id}>{c.title} ({c.priority})</option>)}
            </select>
          </div>
        )}
        <ConfirmAction
          label="Attach"
          disabled={mode === 'new' ? !title.trim() : !caseId}
          question={mode === 'new' ? <>Create the case <strong>{title}</strong> and attach this intake to it?</> : 'Attach this intake to the chosen case?'}
          run={attach}
        />
      </div>
    </div>
  );
}

export function IntakeDetailPage({ id }: { id: string }) {
  const me = useMe();
  const [intake, reload] = useLoad(() => sdk().intakes.get(id), id);
  if (intake.status === 'loading') return <Loading what="the intake" />;
  if (intake.status === 'error') return <ErrorState error={intake.error} retry={reload} />;
  if (intake.status !== 'ok') return null;
  const i = intake.data;
  const canWrite = hasRole(me, 'admin', 'analyst');
  return (
    <>
      <p><Link to="/intakes">← Intakes</Link></p>
      <h1>{i.summary || 'Intake'}</h1>
      <dl className="facts">
        <dt>Status</dt><dd><StatusBadge status={i.status} />{i.statusReason && <span className="muted"> — {i.statusReason}</span>}</dd>
        <dt>Source</dt><dd>{i.source}</dd>
        <dt>Submitted by</dt><dd>{i.submittedBy}</dd>
        <dt>Received</dt><dd><Time iso={i.createdAt} /></dd>
        <dt>Happened</dt><dd><Time iso={i.occurredAt} /></dd>
        <dt>Loss</dt><dd>{i.lossAmount ? `${i.lossAmount} ${i.lossCurrency ?? ''}` : '—'}</dd>
        <dt>Case</dt><dd>{i.case ? <Link to={`/cases/${i.case.id}`}>{i.case.title}</Link> : 'not attached'}</dd>
      </dl>
      <h2>Details</h2>
      <p className="prewrap">{i.details || <span className="muted">none</span>}</p>
      {i.urls.length > 0 && (
        <>
          <h2>Web addresses</h2>
          <ul aria-label="Web addresses">{i.urls.map((u) => <li key={u}><EntityLink type="url" value={u} />{canWrite && <> <InvestigateUrl url={u} caseId={i.case?.id ?? null} /></>}</li>)}</ul>
        </>
      )}
      <h2>Files</h2>
      <IntakeFiles i={i} canOpen={hasRole(me, 'analyst')} />
      <ClassificationPanel kind="intake" id={i.id} classification={i.classification} onChanged={reload} />
      <h2>Entities found</h2>
      {i.entities.length === 0 ? <Empty>None yet.</Empty> : <ul>{i.entities.map((e) => <li key={e.id}><EntityLink id={e.id} type={e.type} value={e.displayValue} showType /></li>)}</ul>}
      <h2>Processing</h2>
      <Jobs i={i} done={reload} />
      {hasRole(me, 'analyst') && i.hasContact && (
        <>
          <h2>Contact data</h2>
          <ContactReveal id={i.id} />
        </>
      )}
      {canWrite && (
        <>
          <h2>Status</h2>
          <StatusMove i={i} done={reload} />
          {!i.case && (
            <>
              <h2>Case</h2>
              <AttachToCase i={i} done={reload} />
            </>
          )}
        </>
      )}
    </>
  );
}
