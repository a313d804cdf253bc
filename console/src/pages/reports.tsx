// Scheduled reports (admins): create a schedule, list them, deactivate one.
import { useState, type FormEvent } from 'react';
import { sdk } from '../api';
import { describeError } from '../errors';
import { Empty, ErrorState, Loading, Time, useLoad } from '../components';
import { hasRole, useMe } from '../session';
import type { Schedule } from '../types';

/** The create body as the SDK types it (generated from the API's schema). */
type NewSchedule = Parameters<ReturnType<typeof sdk>['scheduledReports']['create']>[0];

const ENTITY_TYPES = ['wallet', 'investigation', 'intake', 'case', 'person', 'organization', 'domain', 'indicator', 'campaign'];

function CreateSchedule({ onCreated }: { onCreated: (s: Schedule) => void }) {
  const [templates] = useLoad(() => sdk().reports.templates(), 'templates');
  const [template, setTemplate] = useState('');
  const [cadence, setCadence] = useState('weekly');
  const [format, setFormat] = useState('pdf');
  const [types, setTypes] = useState<string[]>(['wallet']);
  const [recipients, setRecipients] = useState('');
  const [error, setError] = useState<string | null>(null);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    try {
      const created = await sdk().scheduledReports.create({
        template: template as NewSchedule['template'], cadence: cadence as NewSchedule['cadence'], scope: { entity_types: types as NewSchedule['scope']['entity_types'] }, options: { format: format as NewSchedule['options']['format'] },
        recipients: recipients.split(/[\s,;]+/).filter(Boolean),
      });
      onCreated(created);
    } catch (err) {
      setError(describeError(err).sentence);
    }
  };
  if (templates.status === 'loading') return <Loading what="report templates" />;
  if (templates.status === 'error') return <ErrorState error={templates.error} />;
  if (templates.status !== 'ok') return null;
  const chosen = templates.data.items.find((t) => t.name === template);
  return (
    <form className="card" onSubmit={submit} aria-labelledby="new-schedule">
      <h2 id="new-schedule">New schedule</h2>
      <div className="fields">
        <div className="field">
          <label htmlFor="s-template">Template</label>
          <select id="s-template" required value={template} onChange={(e) => { setTemplate(e.target.value); const t = templates.data.items.find((x) => x.name === e.target.value); if (t) setTypes(t.defaultEntityTypes); }}>
            <option value="">Choose…</option>
            {templates.data.items.map((t) => <option key={t.name} value={t.name}>{t.title}</option>)}
          </select>
        </div>
        <div className="field">
          <label htmlFor="s-cadence">Cadence</label>
          <select id="s-cadence" value={cadence} onChange={(e) => setCadence(e.target.value)}>
            <option value="daily">Daily</option><option value="weekly">Weekly</option><option value="monthly">Monthly</option>
          </select>
        </div>
        <div className="field">
          <label htmlFor="s-format">Format</label>
          <select id="s-format" value={format} onChange={(e) => setFormat(e.target.value)}>
            {(chosen?.formats ?? ['pdf', 'csv', 'xlsx', 'json']).map((f) => <option key={f} value={f}>{f.toUpperCase()}</option>)}
          </select>
        </div>
        <div className="field grow">
          <label htmlFor="s-recipients">Recipients (e-mail addresses, comma-separated)</label>
          <input id="s-recipients" required value={recipients} onChange={(e) => setRecipients(e.target.value)} />
        </div>
      </div>
      {chosen && <p className="muted small">{chosen.description}</p>}
      <fieldset>
        <legend>Entity types in scope</legend>
        {ENTITY_TYPES.map((t) => (
          <label key={t} className="check">
            <input type="checkbox" checked={types.includes(t)} onChange={(e) => setTypes(e.target.checked ? [...types, t] : types.filter((x) => x !== t))} /> {t}
          </label>
        ))}
      </fieldset>
      <button type="submit" className="primary">Create schedule</button>
      {error && <p className="form-error" role="alert">Could not create: {error}</p>}
    </form>
  );
}

export function ReportsPage() {
  const me = useMe();
  const admin = hasRole(me, 'admin');
  const [list, reload] = useLoad(() => sdk().scheduledReports.list({ limit: 200 }).first(), 'schedules');
  const [notice, setNotice] = useState<string | null>(null);
  const deactivate = async (s: Schedule) => {
    try {
      await sdk().scheduledReports.deactivate(s.id);
      setNotice(`Deactivated the ${s.cadence} ${s.template} schedule (kept for audit).`);
      reload();
    } catch (err) {
      setNotice(`Could not deactivate: ${describeError(err).sentence}`);
    }
  };
  return (
    <>
      <h1>Scheduled reports</h1>
      {admin ? <CreateSchedule onCreated={(s) => { setNotice(`Created: ${s.cadence} ${s.template}, first run ${s.nextRunAt}.`); reload(); }} /> : <p className="muted">Only administrators create and deactivate schedules.</p>}
      {notice && <p role="status" className="ok-text">{notice}</p>}
      <h2>Schedules</h2>
      {list.status === 'loading' && <Loading what="schedules" />}
      {list.status === 'error' && <ErrorState error={list.error} retry={reload} />}
      {list.status === 'ok' && list.data.items.length === 0 && <Empty>No schedule yet.</Empty>}
      {list.status === 'ok' && list.data.items.length > 0 && (
        <div className="table-wrap">
          <table>
            <caption className="sr-only">Report schedules, newest first</caption>
            <thead><tr><th scope="col">Template</th><th scope="col">Cadence</th><th scope="col">Format</th><th scope="col">Recipients</th><th scope="col">Next run</th><th scope="col">Last run</th><th scope="col">Active</th>{admin && <th scope="col"><span className="sr-only">Actions</span></th>}</tr></thead>
            <tbody>
              {list.data.items.map((s) => (
                <tr key={s.id} className={s.isActive ? '' : 'inactive'}>
                  <td data-label="Template">{s.template}{s.lastError && <div className="warn small">{s.lastError}</div>}</td>
                  <td data-label="Cadence">{s.cadence}</td>
                  <td data-label="Format">{s.options.format}</td>
                  <td data-label="Recipients">{s.recipients.join(', ')}</td>
                  <td data-label="Next run">{s.isActive ? <Time iso={s.nextRunAt} /> : '—'}</td>
                  <td data-label="Last run"><Time iso={s.lastRunAt} /></td>
                  <td data-label="Active">{s.isActive ? 'yes' : 'no (deactivated)'}</td>
                  {admin && <td>{s.isActive && <button type="button" onClick={() => void deactivate(s)} aria-label={`Deactivate the ${s.cadence} ${s.template} schedule`}>Deactivate</button>}</td>}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
