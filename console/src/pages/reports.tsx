// Scheduled reports: admins create a schedule and deactivate one (after a confirmation); analysts
// and admins run one now (a one-off report with the schedule's template, scope and format, not
// e-mailed) with its live progress, and download the generated reports.
import { useState, type FormEvent } from 'react';
import { download, sdk, type SavedFile } from '../api';
import { ConfirmButton } from '../confirm';
import { describeError } from '../errors';
import { Empty, ErrorState, Loading, Time, useLoad } from '../components';
import { hasRole, useMe } from '../session';
import type { Schedule } from '../types';
import { TaskProgress } from './dossier-generate';

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

function GeneratedReports({ version }: { version: number }) {
  const [list, reload] = useLoad(() => sdk().reports.list({ limit: 50 }).first(), `generated:${version}`);
  const [saved, setSaved] = useState<Record<string, SavedFile | { error: string }>>({});
  const get = async (id: string, path: string) => {
    try {
      const r = await download(path, { hash: true });
      setSaved((s) => ({ ...s, [id]: r }));
    } catch (err) {
      setSaved((s) => ({ ...s, [id]: { error: describeError(err).sentence } }));
    }
  };
  return (
    <section aria-labelledby="generated-h">
      <h2 id="generated-h">Generated reports</h2>
      {list.status === 'loading' && <Loading what="generated reports" />}
      {list.status === 'error' && <ErrorState error={list.error} retry={reload} />}
      {list.status === 'ok' && list.data.items.length === 0 && <Empty>No report generated yet.</Empty>}
      {list.status === 'ok' && list.data.items.length > 0 && (
        <div className="table-wrap">
          <table>
            <caption className="sr-only">Generated reports, newest first</caption>
            <thead><tr><th scope="col">Title</th><th scope="col">Template</th><th scope="col">Format</th><th scope="col">Size</th><th scope="col">From</th><th scope="col">Generated</th><th scope="col">E-mail</th><th scope="col"><span className="sr-only">Download</span></th></tr></thead>
            <tbody>
              {list.data.items.map((r) => {
                const got = saved[r.id];
                return (
                  <tr key={r.id} data-report-id={r.id}>
                    <td data-label="Title">{r.title}</td>
                    <td data-label="Template">{r.template}</td>
                    <td data-label="Format">{r.format.toUpperCase()}</td>
                    <td data-label="Size">{r.sizeBytes} bytes</td>
                    <td data-label="From">{r.scheduleId ? 'schedule' : `one-off by ${r.requestedBy ?? '—'}`}</td>
                    <td data-label="Generated"><Time iso={r.createdAt} /></td>
                    <td data-label="E-mail">{r.deliveryStatus ?? 'not e-mailed'}</td>
                    <td>
                      <button type="button" aria-label={`Download ${r.title} (${r.format.toUpperCase()})`} onClick={() => void get(r.id, r.downloadPath)}>Download</button>
                      {got && 'error' in got && <span className="form-error" role="alert"> {got.error}</span>}
                      {got && 'filename' in got && <span className="small"> {got.filename}{got.sha256 && got.declaredSha256 && (got.sha256 === got.declaredSha256 ? ' (SHA-256 matches)' : ' (SHA-256 DIFFERS)')}</span>}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

export function ReportsPage() {
  const me = useMe();
  const admin = hasRole(me, 'admin');
  const runs = hasRole(me, 'admin', 'analyst');
  const [list, reload] = useLoad(() => sdk().scheduledReports.list({ limit: 200 }).first(), 'schedules');
  const [notice, setNotice] = useState<string | null>(null);
  const [running, setRunning] = useState<{ taskId: string; what: string } | null>(null);
  const [generated, setGenerated] = useState(0);
  const runNow = async (s: Schedule) => {
    setNotice(null);
    try {
      const t = await sdk().reports.generate({ template: s.template as NewSchedule['template'], scope: s.scope, options: s.options, recipients: [] });
      setRunning({ taskId: t.taskId, what: `The ${s.template} report` });
    } catch (err) {
      setNotice(`Could not run: ${describeError(err).sentence}`);
    }
  };
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
      {running && (
        <TaskProgress
          key={running.taskId} taskId={running.taskId} what={running.what}
          onEnd={(t) => { setNotice(t.status === 'completed' ? `${running.what} is ready: it is listed under Generated reports.` : `${running.what} ${t.status}.`); setGenerated((g) => g + 1); }}
        />
      )}
      <h2>Schedules</h2>
      {list.status === 'loading' && <Loading what="schedules" />}
      {list.status === 'error' && <ErrorState error={list.error} retry={reload} />}
      {list.status === 'ok' && list.data.items.length === 0 && <Empty>No schedule yet.</Empty>}
      {list.status === 'ok' && list.data.items.length > 0 && (
        <div className="table-wrap">
          <table>
            <caption className="sr-only">Report schedules, newest first</caption>
            <thead><tr><th scope="col">Template</th><th scope="col">Cadence</th><th scope="col">Format</th><th scope="col">Recipients</th><th scope="col">Next run</th><th scope="col">Last run</th><th scope="col">Active</th>{runs && <th scope="col"><span className="sr-only">Actions</span></th>}</tr></thead>
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
                  {runs && (
                    <td>
                      <button type="button" onClick={() => void runNow(s)} aria-label={`Run now: the ${s.cadence} ${s.template} report`} title="Generates it now, not e-mailed">Run now</button>{' '}
                      {admin && s.isActive && (
                        <ConfirmButton
                          label="Deactivate" ariaLabel={`Deactivate the ${s.cadence} ${s.template} schedule`}
                          question={`Stop the ${s.cadence} ${s.template} schedule? It sends no more reports and cannot be reactivated (it is kept for audit).`}
                          yes="Yes, deactivate" onConfirm={() => deactivate(s)}
                        />
                      )}
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <GeneratedReports version={generated} />
    </>
  );
}
