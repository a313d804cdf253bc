// An analyst's intake form: a report taken on behalf of a victim (hotline, walk-in, e-mail), with
// evidence files by drag and drop or a file picker. The browser checks each field as it is left
// with the API's own payload schema (domain/intakes/intake-payload.ts), and the API's answer is
// what counts: its field errors show next to the fields they name.
import { useState, type DragEvent, type FormEvent } from 'react';
import { IntakePayloadSchema } from '../../../domain/intakes/intake-payload';
import { sdk } from '../api';
import type { IntakePayload } from '../../../sdk/src';
import { describeError } from '../errors';
import { invalidateLoads } from '../query';
import { Link, navigate } from '../router';
import { described, Field, fieldErrorsOf } from './case-work-ui';

const FIELDS = ['summary', 'details', 'source', 'reporter_name', 'contact_email', 'contact_phone', 'loss_amount', 'loss_currency', 'occurred_at', 'urls'] as const;
type FieldName = (typeof FIELDS)[number];
type Values = Record<FieldName, string>;

const EMPTY: Values = { summary: '', details: '', source: 'analyst intake', reporter_name: '', contact_email: '', contact_phone: '', loss_amount: '', loss_currency: '', occurred_at: '', urls: '' };

/** The wire payload of the form's values: empty fields left out, URLs one per line, the date as ISO 8601. */
function wirePayload(v: Values): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of FIELDS) {
    const s = v[k].trim();
    if (!s) continue;
    if (k === 'urls') out.urls = s.split(/\s*\n\s*/).filter(Boolean);
    else if (k === 'occurred_at') out.occurred_at = Number.isNaN(Date.parse(s)) ? s : new Date(s).toISOString();
    else out[k] = k === 'details' ? v[k] : s;
  }
  return out;
}

const camel = (k: string) => k.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

export function IntakeFormPage() {
  const [values, setValues] = useState<Values>(EMPTY);
  const [files, setFiles] = useState<File[]>([]);
  const [dragging, setDragging] = useState(false);
  const [local, setLocal] = useState<Partial<Record<string, string>>>({});
  const [api, setApi] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const set = (k: FieldName, v: string) => {
    setValues((o) => ({ ...o, [k]: v }));
    setApi((o) => ({ ...o, [k]: '' }));
  };
  /** The API's schema, run in the browser on the field just left (its error shows at once). */
  const check = (k: FieldName) => {
    const parsed = IntakePayloadSchema.safeParse(wirePayload(values));
    const issue = parsed.success ? undefined : parsed.error.issues.find((i) => String(i.path[0]) === k);
    setLocal((o) => ({ ...o, [k]: values[k].trim() || k === 'summary' ? issue?.message : undefined }));
  };
  const errorOf = (k: string) => api[k] || local[k] || undefined;
  const addFiles = (list: FileList | null) => {
    // Copied now: the input's FileList empties when the input is reset after the change.
    const added = list ? Array.from(list) : [];
    if (added.length) setFiles((o) => [...o, ...added]);
  };
  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setDragging(false);
    addFiles(e.dataTransfer.files);
  };
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setFormError(null);
    setApi({});
    try {
      const wire = wirePayload(values);
      const payload = Object.fromEntries(Object.entries(wire).map(([k, v]) => [camel(k), v])) as unknown as IntakePayload;
      const created = await sdk().intakes.create(payload, files);
      invalidateLoads();
      navigate(`/intakes/${created.id}`);
    } catch (err) {
      const byField = fieldErrorsOf(err);
      setApi(byField);
      const unplaced = Object.keys(byField).filter((k) => !(FIELDS as readonly string[]).includes(k));
      setFormError(Object.keys(byField).length && !unplaced.length ? 'The platform did not accept some fields: see the messages next to them.' : describeError(err).sentence);
    } finally {
      setBusy(false);
    }
  };

  const input = (k: FieldName, lbl: string, opts: { type?: string; hint?: string; required?: boolean; grow?: boolean; textarea?: boolean } = {}) => (
    <Field id={`intake-${k}`} label={lbl} error={errorOf(k)} hint={opts.hint} grow={opts.grow}>
      {opts.textarea ? (
        <textarea id={`intake-${k}`} rows={k === 'details' ? 6 : 3} value={values[k]} onChange={(e) => set(k, e.target.value)} onBlur={() => check(k)} {...described(`intake-${k}`, errorOf(k), !!opts.hint)} />
      ) : (
        <input id={`intake-${k}`} type={opts.type ?? 'text'} required={opts.required} value={values[k]} onChange={(e) => set(k, e.target.value)} onBlur={() => check(k)} {...described(`intake-${k}`, errorOf(k), !!opts.hint)} />
      )}
    </Field>
  );

  return (
    <>
      <p><Link to="/intakes">← Intakes</Link></p>
      <h1>New intake</h1>
      <p className="muted">A report taken on behalf of a victim. Contact data goes to the vault: only analysts read it, and every read is audited.</p>
      <form className="card intake-form" onSubmit={submit} aria-label="New intake" noValidate>
        <fieldset>
          <legend>What happened</legend>
          <div className="fields">
            {input('summary', 'Summary (required)', { required: true, grow: true })}
            {input('source', 'Source', { hint: 'hotline, walk-in, partner…' })}
          </div>
          {input('details', 'Details', { textarea: true, grow: true, hint: 'the story, messages received, addresses and numbers used' })}
          {input('urls', 'Web addresses involved', { textarea: true, grow: true, hint: 'one per line, http(s)' })}
          <div className="fields">
            {input('loss_amount', 'Amount lost', { hint: 'e.g. 1250.50' })}
            {input('loss_currency', 'Currency', { hint: 'ISO 4217, e.g. EUR' })}
            {input('occurred_at', 'When it happened', { type: 'datetime-local' })}
          </div>
        </fieldset>
        <fieldset>
          <legend>The victim's contact (vault)</legend>
          <div className="fields">
            {input('reporter_name', 'Name')}
            {input('contact_email', 'E-mail', { type: 'email' })}
            {input('contact_phone', 'Phone', { type: 'tel' })}
          </div>
        </fieldset>
        <fieldset>
          <legend>Evidence files</legend>
          <div
            className={`dropzone${dragging ? ' dragging' : ''}`}
            data-testid="dropzone"
            onDragOver={(e) => { e.preventDefault(); setDragging(true); }}
            onDragLeave={() => setDragging(false)}
            onDrop={onDrop}
          >
            <p>Drop files here, or</p>
            <label htmlFor="intake-files">Choose files</label>{' '}
            <input id="intake-files" type="file" multiple onChange={(e) => { addFiles(e.target.files); e.target.value = ''; }} />
          </div>
          {files.length > 0 && (
            <ul aria-label="Files to send">
              {files.map((f, i) => (
                <li key={`${f.name}-${i}`}>
                  {f.name} <span className="muted small">({f.type || 'unknown type'}, {f.size} bytes)</span>{' '}
                  <button type="button" onClick={() => setFiles((o) => o.filter((_, j) => j !== i))} aria-label={`Remove ${f.name}`}>Remove</button>
                </li>
              ))}
            </ul>
          )}
          {errorOf('files') && <p className="form-error">{errorOf('files')}</p>}
        </fieldset>
        {formError && <p className="form-error" role="alert">{formError}</p>}
        <button type="submit" disabled={busy}>{busy ? 'Sending…' : 'Submit intake'}</button>
      </form>
    </>
  );
}
