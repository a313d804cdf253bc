// Creating a case (/cases/new) and editing one (/cases/<id>/edit): title, description, priority,
// assignee and the scam taxonomy. The status is moved on the case page (with a confirmation).
// The API's field errors show next to the fields they name.
import { useState, type FormEvent } from 'react';
import { TAXONOMY_ENTRIES } from '../../../domain/analytics/scam-taxonomy';
import { sdk } from '../api';
import { ErrorState, Loading, useLoad } from '../components';
import { describeError } from '../errors';
import { invalidateLoads } from '../query';
import { Link, navigate } from '../router';
import type { CaseDetail } from '../types';
import { described, Field, fieldErrorsOf } from './case-work-ui';

const PRIORITIES = ['low', 'medium', 'high', 'critical'] as const;

interface Values { title: string; description: string; priority: string; assignee: string; taxonomy: string }

function CaseForm({ existing }: { existing: CaseDetail | null }) {
  const [v, setV] = useState<Values>({
    title: existing?.title ?? '',
    description: existing?.description ?? '',
    priority: existing?.priority ?? 'medium',
    assignee: existing?.assignee ?? '',
    taxonomy: existing?.taxonomy ?? '',
  });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const set = (k: keyof Values, value: string) => setV((o) => ({ ...o, [k]: value }));
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setErrors({});
    setFormError(null);
    try {
      let id: string;
      if (existing) {
        const changes: Record<string, unknown> = {};
        if (v.title !== existing.title) changes.title = v.title;
        if (v.description !== existing.description) changes.description = v.description;
        if (v.priority !== existing.priority) changes.priority = v.priority;
        if (v.assignee.trim() !== (existing.assignee ?? '')) changes.assignee = v.assignee.trim() || null;
        if (v.taxonomy !== (existing.taxonomy ?? '')) changes.taxonomy = v.taxonomy || null;
        if (Object.keys(changes).length) await sdk().cases.update(existing.id, changes as never);
        id = existing.id;
      } else {
        const created = await sdk().cases.create({ title: v.title, description: v.description || undefined, priority: v.priority as 'medium', assignee: v.assignee.trim() || undefined });
        id = created.id;
        if (v.taxonomy) await sdk().cases.update(id, { taxonomy: v.taxonomy as never });
      }
      invalidateLoads();
      navigate(`/cases/${id}`);
    } catch (err) {
      const f = fieldErrorsOf(err);
      setErrors(f);
      setFormError(Object.keys(f).length ? 'The platform did not accept some fields: see the messages next to them.' : describeError(err).sentence);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form className="card case-form" onSubmit={submit} aria-label={existing ? 'Edit the case' : 'New case'} noValidate>
      <div className="fields">
        <Field id="case-title" label="Title (required)" error={errors.title} grow>
          <input id="case-title" required value={v.title} onChange={(e) => set('title', e.target.value)} {...described('case-title', errors.title)} />
        </Field>
        <Field id="case-priority" label="Priority" error={errors.priority}>
          <select id="case-priority" value={v.priority} onChange={(e) => set('priority', e.target.value)}>
            {PRIORITIES.map((p) => <option key={p}>{p}</option>)}
          </select>
        </Field>
      </div>
      <Field id="case-description" label="Description" error={errors.description} grow>
        <textarea id="case-description" rows={5} value={v.description} onChange={(e) => set('description', e.target.value)} {...described('case-description', errors.description)} />
      </Field>
      <div className="fields">
        <Field id="case-assignee" label="Assignee (e-mail)" error={errors.assignee} hint="empty: unassigned">
          <input id="case-assignee" type="email" value={v.assignee} onChange={(e) => set('assignee', e.target.value)} {...described('case-assignee', errors.assignee, true)} />
        </Field>
        <Field id="case-taxonomy" label="Scam type (taxonomy)" error={errors.taxonomy} grow>
          <select id="case-taxonomy" value={v.taxonomy} onChange={(e) => set('taxonomy', e.target.value)} {...described('case-taxonomy', errors.taxonomy)}>
            <option value="">Not classified</option>
            {TAXONOMY_ENTRIES.map((t) => <option key={t.path} value={t.path}>{`${'\u2003'.repeat(Math.max(0, t.depth - 1))}${t.label}`}</option>)}
          </select>
        </Field>
      </div>
      {formError && <p className="form-error" role="alert">{formError}</p>}
      <button type="submit" disabled={busy}>{busy ? 'Saving…' : existing ? 'Save changes' : 'Create case'}</button>{' '}
      <Link to={existing ? `/cases/${existing.id}` : '/cases'}>Cancel</Link>
    </form>
  );
}

export function CaseNewPage() {
  return (
    <>
      <p><Link to="/cases">← Cases</Link></p>
      <h1>New case</h1>
      <CaseForm existing={null} />
    </>
  );
}

export function CaseEditPage({ id }: { id: string }) {
  const [c, reload] = useLoad(() => sdk().cases.get(id), id);
  if (c.status === 'loading') return <Loading what="the case" />;
  if (c.status === 'error') return <ErrorState error={c.error} retry={reload} />;
  if (c.status !== 'ok') return null;
  return (
    <>
      <p><Link to={`/cases/${id}`}>← {c.data.title}</Link></p>
      <h1>Edit case</h1>
      <CaseForm key={c.data.updatedAt} existing={c.data} />
    </>
  );
}
