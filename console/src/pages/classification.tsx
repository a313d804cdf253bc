// An investigation's or intake's place in the scam taxonomy (the `classification` of its detail):
// label, confidence, who placed it and the evidence, with a "Correct" control for analysts
// (PUT …/classification: a taxonomy node and a reason; audited, and it wins over later automatic runs).
import { useState } from 'react';
import { sdk } from '../api';
import { Empty, Time } from '../components';
import { Link } from '../router';
import { hasRole, useMe } from '../session';
import { Field, described, fieldErrorsOf } from './case-work-ui';
import { TaxonomySelect } from './campaigns';

export interface ClassificationData {
  taxonomy: string;
  label: string;
  confidence: number;
  evidence: Array<{ feature: string; detail: string; weight: number }>;
  source: 'rules' | 'llm' | 'analyst';
  classifiedAt: string;
  automatic: { taxonomy: string; confidence: number; source: string } | null;
  correction: { by: string; reason: string; at: string } | null;
}

const SOURCE_TEXT = { rules: 'the rules', llm: 'the language model', analyst: 'an analyst' } as const;
type Put = (method: string, path: string, options: { body: unknown }) => Promise<unknown>;

export function ClassificationPanel({ kind, id, classification, onChanged }: { kind: 'investigation' | 'intake'; id: string; classification: ClassificationData | null | undefined; onChanged: () => void }) {
  const me = useMe();
  const [open, setOpen] = useState(false);
  const [taxonomy, setTaxonomy] = useState('');
  const [reason, setReason] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const c = classification;
  const path = kind === 'investigation' ? `/investigations/ssi/${id}/classification` : `/intakes/${id}/classification`;
  const save = async () => {
    setBusy(true);
    setErrors({});
    try {
      const client = sdk();
      await (client.request as unknown as Put).call(client, 'put', path, { body: { taxonomy, reason } });
      setOpen(false);
      setReason('');
      onChanged();
    } catch (err) {
      const f = fieldErrorsOf(err);
      setErrors(Object.keys(f).length ? f : { form: err instanceof Error ? err.message : String(err) });
    } finally {
      setBusy(false);
    }
  };
  return (
    <section aria-labelledby={`classification-${id}`} className="classification">
      <h2 id={`classification-${id}`}>Classification</h2>
      {!c ? <Empty>Not classified yet.</Empty> : (
        <>
          <p>
            {c.taxonomy === 'unclassified' ? <strong>Unclassified</strong> : <Link to={`/taxonomy?node=${encodeURIComponent(c.taxonomy)}`}>{c.label}</Link>}{' '}
            <span className="badge" data-classification-source={c.source}>by {SOURCE_TEXT[c.source]}</span>{' '}
            <span className="small">confidence {Math.round(c.confidence * 100)}%</span> <span className="muted small"><Time iso={c.classifiedAt} /></span>
          </p>
          {c.correction && c.automatic && <p className="muted small">The automatic prediction was {c.automatic.taxonomy}; corrected by {c.correction.by}: {c.correction.reason}</p>}
          {c.evidence.length > 0 && (
            <ul aria-label="Classification evidence" className="small">
              {c.evidence.map((e, i) => <li key={i}><strong>{e.feature}</strong> ({e.weight.toFixed(2)}): {e.detail}</li>)}
            </ul>
          )}
        </>
      )}
      {hasRole(me, 'analyst') && !open && <button type="button" onClick={() => { setTaxonomy(c && c.taxonomy !== 'unclassified' ? c.taxonomy : ''); setOpen(true); }}>Correct</button>}
      {open && (
        <div className="card fields">
          <Field id={`correct-taxonomy-${id}`} label="Taxonomy node" error={errors.taxonomy}>
            <TaxonomySelect id={`correct-taxonomy-${id}`} value={taxonomy} onChange={setTaxonomy} empty="Choose…" />
          </Field>
          <Field id={`correct-reason-${id}`} label="Reason" error={errors.reason} grow>
            <input id={`correct-reason-${id}`} value={reason} onChange={(e) => setReason(e.target.value)} {...described(`correct-reason-${id}`, errors.reason)} />
          </Field>
          <button type="button" disabled={busy || !taxonomy || reason.trim().length < 3} onClick={() => void save()}>Save correction</button>
          <button type="button" onClick={() => setOpen(false)}>Cancel</button>
          {errors.form && <p role="alert" className="form-error">{errors.form}</p>}
        </div>
      )}
    </section>
  );
}

/** The dashboard's figure: how often the automatic classification matched analysts' corrections. */
export function ClassificationAccuracy({ figure }: { figure: { accuracy: number | null; n: number } | undefined }) {
  if (!figure) return null;
  return (
    <li className="card kpi" data-kpi="classification-accuracy">
      <span className="kpi-value">{figure.accuracy === null ? '—' : `${Math.round(figure.accuracy * 100)}%`}</span>
      <span className="kpi-label">Classification accuracy ({figure.n} corrected)</span>
    </li>
  );
}
