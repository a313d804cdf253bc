// SSI playbooks (administration): the list, the test-match tool (paste a URL, see which playbooks
// match it and which one an investigation would use), a playbook's detail, and the form that
// creates and edits one. URL patterns are globs, one a line; the steps are JSON as the API
// documents them (the API names the field of any mistake, e.g. "steps 2 selector").
import { useState, type FormEvent } from 'react';
import { sdk } from '../api';
import { Empty, ErrorState, Loading, Time, useLoad } from '../components';
import { describeError } from '../errors';
import { invalidateLoads } from '../query';
import { Link, navigate, useSearchParam, useSearchParams } from '../router';
import type { Playbook } from '../types';
import { Pager } from './admin-accounts';

type PlaybookBody = Parameters<ReturnType<typeof sdk>['playbooks']['create']>[0];
type MatchResult = Awaited<ReturnType<ReturnType<typeof sdk>['playbooks']['testMatch']>>;

const EXAMPLE_STEPS = '[\n  { "type": "click", "selector": "#deposit" }\n]';

function PlaybookForm({ initial, onSaved, onCancel }: { initial: Playbook | null; onSaved: (p: Playbook) => void; onCancel?: () => void }) {
  const [name, setName] = useState(initial?.name ?? '');
  const [patterns, setPatterns] = useState((initial?.urlPatterns ?? []).join('\n'));
  const [steps, setSteps] = useState(initial ? JSON.stringify(initial.steps, null, 2) : EXAMPLE_STEPS);
  const [enabled, setEnabled] = useState(initial?.enabled ?? true);
  const [error, setError] = useState<string | null>(null);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    let parsed: unknown;
    try {
      parsed = JSON.parse(steps || '[]');
    } catch (err) {
      setError(`The steps are not valid JSON: ${(err as Error).message}`);
      return;
    }
    const body = { name, urlPatterns: patterns.split('\n').map((p) => p.trim()).filter(Boolean), steps: parsed, enabled } as PlaybookBody;
    try {
      onSaved(initial ? await sdk().playbooks.replace(initial.id, body) : await sdk().playbooks.create(body));
    } catch (err) {
      setError(describeError(err).sentence);
    }
  };
  const heading = initial ? `Edit ${initial.name}` : 'New playbook';
  return (
    <form className="card" onSubmit={submit} aria-labelledby="playbook-form">
      <h3 id="playbook-form">{heading}</h3>
      <div className="fields">
        <div className="field grow">
          <label htmlFor="pb-name">Name</label>
          <input id="pb-name" required maxLength={200} value={name} onChange={(e) => setName(e.target.value)} />
        </div>
        <label className="check" htmlFor="pb-enabled"><input id="pb-enabled" type="checkbox" checked={enabled} onChange={(e) => setEnabled(e.target.checked)} /> Enabled</label>
      </div>
      <div className="field">
        <label htmlFor="pb-patterns">URL patterns (globs, one a line, e.g. <code>*.scam.example/deposit/**</code>)</label>
        <textarea id="pb-patterns" className="code" required rows={3} value={patterns} onChange={(e) => setPatterns(e.target.value)} />
      </div>
      <div className="field">
        <label htmlFor="pb-steps">Steps (JSON: click, fill, wait_for_text, coin_tabs, limit_pages)</label>
        <textarea id="pb-steps" className="code" rows={8} value={steps} onChange={(e) => setSteps(e.target.value)} />
      </div>
      <button type="submit" className="primary">{initial ? 'Save playbook' : 'Create playbook'}</button>{' '}
      {onCancel && <button type="button" onClick={onCancel}>Cancel</button>}
      {error && <p className="form-error" role="alert">Could not save: {error}</p>}
    </form>
  );
}

function TestMatch() {
  const [url, setUrl] = useSearchParam('test_url');
  const [draft, setDraft] = useState(url);
  const [result, setResult] = useState<MatchResult | null>(null);
  const [error, setError] = useState<string | null>(null);
  const run = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    setResult(null);
    setUrl(draft);
    try {
      setResult(await sdk().playbooks.testMatch(draft));
    } catch (err) {
      setError(describeError(err).sentence);
    }
  };
  return (
    <section className="card" aria-labelledby="test-match">
      <h3 id="test-match">Which playbook matches a URL?</h3>
      <form className="fields" onSubmit={run}>
        <div className="field grow">
          <label htmlFor="tm-url">URL of a site</label>
          <input id="tm-url" type="url" required placeholder="https://…" value={draft} onChange={(e) => setDraft(e.target.value)} />
        </div>
        <button type="submit" className="primary">Test the URL</button>
      </form>
      {error && <p className="form-error" role="alert">{error}</p>}
      {result && (
        <div role="status" aria-label="Test result">
          <p className="muted small">Matched against <code>{result.subject}</code></p>
          {result.matches.length === 0 ? (
            <p>No enabled playbook matches this URL: an investigation would run without one.</p>
          ) : (
            <ul>
              {result.matches.map((m) => (
                <li key={m.playbook.id}>
                  <Link to={`/admin/playbooks/${m.playbook.id}`}>{m.playbook.name}</Link> by the pattern <code>{m.pattern}</code>
                  {m.playbook.id === result.selectedPlaybookId && <strong> (an investigation of this URL uses this one)</strong>}
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </section>
  );
}

export function PlaybooksSection() {
  const [params] = useSearchParams();
  const cursor = params.get('cursor') ?? undefined;
  const [list, reload] = useLoad(() => sdk().request('get', '/playbooks/ssi', { query: { limit: 50, cursor } }), `playbooks ${cursor ?? ''}`);
  const [creating, setCreating] = useState(false);
  return (
    <>
      <h2 id="admin-section">Playbooks</h2>
      <TestMatch />
      {creating ? (
        <PlaybookForm initial={null} onCancel={() => setCreating(false)} onSaved={(p) => { invalidateLoads(); navigate(`/admin/playbooks/${p.id}`); }} />
      ) : (
        <p><button type="button" onClick={() => setCreating(true)}>New playbook</button></p>
      )}
      {list.status === 'loading' && <Loading what="playbooks" />}
      {list.status === 'error' && <ErrorState error={list.error} retry={reload} />}
      {list.status === 'ok' && list.data.items.length === 0 && <Empty>No playbook yet.</Empty>}
      {list.status === 'ok' && list.data.items.length > 0 && (
        <div className="table-wrap">
          <table>
            <caption className="sr-only">Playbooks, newest first</caption>
            <thead><tr><th scope="col">Name</th><th scope="col">URL patterns</th><th scope="col">Steps</th><th scope="col">Enabled</th><th scope="col">Updated</th></tr></thead>
            <tbody>
              {list.data.items.map((p) => (
                <tr key={p.id} className={p.enabled ? '' : 'inactive'}>
                  <td data-label="Name"><Link to={`/admin/playbooks/${p.id}`}>{p.name}</Link></td>
                  <td data-label="URL patterns">{p.urlPatterns.map((u) => <code key={u}>{u} </code>)}</td>
                  <td data-label="Steps">{p.steps.length}</td>
                  <td data-label="Enabled">{p.enabled ? 'yes' : 'no'}</td>
                  <td data-label="Updated"><Time iso={p.updatedAt} /> <span className="muted small">by {p.updatedBy}</span></td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {list.status === 'ok' && <Pager next={list.data.nextCursor} what="playbooks" />}
    </>
  );
}

export function PlaybookDetail({ id }: { id: string }) {
  const [pb, reload] = useLoad(() => sdk().playbooks.get(id), `playbook ${id}`);
  const [editing, setEditing] = useSearchParam('edit');
  const [confirming, setConfirming] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const remove = async (p: Playbook) => {
    try {
      await sdk().playbooks.delete(p.id);
      invalidateLoads();
      navigate('/admin/playbooks');
    } catch (err) {
      setError(describeError(err).sentence);
    }
  };
  return (
    <>
      <p><Link to="/admin/playbooks">All playbooks</Link></p>
      {pb.status === 'loading' && <Loading what="the playbook" />}
      {pb.status === 'error' && <ErrorState error={pb.error} retry={reload} />}
      {pb.status === 'ok' && (
        <>
          <h2 id="admin-section">Playbook {pb.data.name}</h2>
          {notice && <p role="status" className="ok-text">{notice}</p>}
          {editing ? (
            <PlaybookForm
              key={pb.data.updatedAt} initial={pb.data} onCancel={() => setEditing('')}
              onSaved={(p) => { setEditing(''); setNotice(`Saved ${p.name}.`); invalidateLoads(); reload(); }}
            />
          ) : (
            <>
              <dl className="facts">
                <dt>Enabled</dt><dd>{pb.data.enabled ? 'yes' : 'no'}</dd>
                <dt>URL patterns</dt><dd>{pb.data.urlPatterns.map((u) => <code key={u}>{u} </code>)}</dd>
                <dt>Created</dt><dd><Time iso={pb.data.createdAt} /> by {pb.data.createdBy}</dd>
                <dt>Updated</dt><dd><Time iso={pb.data.updatedAt} /> by {pb.data.updatedBy}</dd>
              </dl>
              <h3>Steps</h3>
              {pb.data.steps.length === 0 ? <Empty>No steps: the agent explores the site on its own.</Empty> : (
                <ol>{pb.data.steps.map((s, i) => <li key={i}><code>{JSON.stringify(s)}</code></li>)}</ol>
              )}
              <button type="button" onClick={() => setEditing('1')}>Edit</button>{' '}
              {!confirming && <button type="button" onClick={() => setConfirming(true)}>Delete</button>}
              {confirming && (
                <div className="notice" role="alertdialog" aria-label={`Delete ${pb.data.name}?`}>
                  <p>Delete {pb.data.name}? Investigations that used it keep their recorded steps; new ones no longer match it.</p>
                  <button type="button" onClick={() => void remove(pb.data)}>Yes, delete {pb.data.name}</button>{' '}
                  <button type="button" onClick={() => setConfirming(false)}>Keep it</button>
                </div>
              )}
              {error && <p className="form-error" role="alert">{error}</p>}
            </>
          )}
        </>
      )}
    </>
  );
}
