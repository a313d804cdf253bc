// Saved searches on the search page: the built-in presets (GET /reviews/search/presets) as one-click
// runs; save the current query with tags; the list of saved searches the caller can see, filtered
// by tag, each with run, rename (owners and editors), share with users or roles as viewer or editor
// and delete (owners), export; export of the listed ones as one JSON file and import of such a
// file, all or nothing (one invalid document writes none, and the page lists each document's
// problems). The file is the import request itself: {"documents": [<export document>, ...]}, each
// document as GET /reviews/search/saved/{id}/export answers it (snake_case, as on the wire).
import { useState, type ChangeEvent, type FormEvent } from 'react';
import { ApiError, saveBlob, sdk } from '../api';
import { Empty, ErrorState, Loading, Time, useLoad } from '../components';
import { ConfirmButton } from '../confirm';
import { describeError } from '../errors';
import { invalidateLoads } from '../query';
import { Link } from '../router';
import { camelToSnake, type Schema } from '../../../sdk/src';

type Saved = Schema<'SavedSearch'>;
export interface CurrentSearch { query: string; types: string[]; sort: 'relevance' | 'newest' }

export function savedUrl(s: { query: string; types: string[]; sort: string; id?: string }): string {
  const q = new URLSearchParams({ q: s.query });
  if (s.types.length) q.set('types', s.types.join(','));
  if (s.sort !== 'relevance') q.set('sort', s.sort);
  if (s.id) q.set('saved', s.id);
  return `/search?${q}`;
}

/** The SDK's camelCase answer back to the wire's snake_case (filters are opaque: kept as they are). */
function toWire(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(toWire);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [camelToSnake(k), k === 'filters' ? x : toWire(x)]));
  return v;
}

/** The documents of an import file: {"documents": [...]}, a bare array, or one export document. */
export function importDocuments(text: string): unknown[] {
  const v = JSON.parse(text) as unknown;
  if (Array.isArray(v)) return v;
  if (v && typeof v === 'object' && Array.isArray((v as { documents?: unknown }).documents)) return (v as { documents: unknown[] }).documents;
  return [v];
}

function Presets() {
  const [presets] = useLoad(() => sdk().request('get', '/reviews/search/presets'), 'search-presets');
  if (presets.status !== 'ok' || presets.data.items.length === 0) return null;
  return (
    <nav aria-label="Presets" className="card presets">
      <h2 className="small">Presets</h2>
      <ul className="inline-list">
        {presets.data.items.map((p) => (
          <li key={p.id}><Link to={savedUrl(p)} title={`${p.description} (${p.query})`} aria-label={`Run preset ${p.name}`}>{p.name}</Link></li>
        ))}
      </ul>
    </nav>
  );
}

function ShareForm({ saved, done }: { saved: Saved; done: (msg: string) => void }) {
  const [kind, setKind] = useState<'user' | 'role'>('user');
  const [who, setWho] = useState('');
  const [permission, setPermission] = useState<'viewer' | 'editor'>('viewer');
  const [error, setError] = useState<string | null>(null);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    try {
      const grantee = kind === 'user' ? { user: who.trim() } : { role: who as 'analyst' };
      await sdk().request('post', '/reviews/search/saved/{id}/share', { path: { id: saved.id }, body: { grant: [{ ...grantee, permission }] } });
      done(`Shared “${saved.name}” with ${kind} ${who.trim()} as ${permission}.`);
      setWho('');
    } catch (err) {
      setError(describeError(err).sentence);
    }
  };
  return (
    <form className="filters" onSubmit={submit} aria-label={`Share ${saved.name}`}>
      <div className="field">
        <label htmlFor={`sh-kind-${saved.id}`}>Share with</label>
        <select id={`sh-kind-${saved.id}`} value={kind} onChange={(e) => { setKind(e.target.value as 'user'); setWho(''); }}>
          <option value="user">a user</option><option value="role">a role</option>
        </select>
      </div>
      <div className="field">
        <label htmlFor={`sh-who-${saved.id}`}>{kind === 'user' ? 'E-mail' : 'Role'}</label>
        {kind === 'user' ? (
          <input id={`sh-who-${saved.id}`} type="email" required value={who} onChange={(e) => setWho(e.target.value)} />
        ) : (
          <select id={`sh-who-${saved.id}`} required value={who} onChange={(e) => setWho(e.target.value)}>
            <option value="">choose</option>{['admin', 'analyst', 'reviewer', 'researcher'].map((r) => <option key={r} value={r}>{r}</option>)}
          </select>
        )}
      </div>
      <div className="field">
        <label htmlFor={`sh-perm-${saved.id}`}>Permission</label>
        <select id={`sh-perm-${saved.id}`} value={permission} onChange={(e) => setPermission(e.target.value as 'viewer')}>
          <option value="viewer">viewer (run)</option><option value="editor">editor (change)</option>
        </select>
      </div>
      <button type="submit">Share</button>
      {error && <p className="form-error" role="alert">{error}</p>}
    </form>
  );
}

function RenameForm({ saved, done }: { saved: Saved; done: (msg: string | null) => void }) {
  const [name, setName] = useState(saved.name);
  const [error, setError] = useState<string | null>(null);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    try {
      const s = await sdk().request('patch', '/reviews/search/saved/{id}', { path: { id: saved.id }, body: { name: name.trim() } });
      done(`Renamed “${saved.name}” to “${s.name}”.`);
    } catch (err) {
      setError(describeError(err).sentence);
    }
  };
  return (
    <form className="filters" onSubmit={submit} aria-label={`Rename ${saved.name}`}>
      <div className="field grow">
        <label htmlFor={`rn-${saved.id}`}>New name</label>
        <input id={`rn-${saved.id}`} required value={name} onChange={(e) => setName(e.target.value)} />
      </div>
      <button type="submit">Rename</button>
      <button type="button" onClick={() => done(null)}>Cancel</button>
      {error && <p className="form-error" role="alert">{error}</p>}
    </form>
  );
}

async function exportFile(items: Saved[], filename: string): Promise<void> {
  const docs = await Promise.all(items.map((s) => sdk().request('get', '/reviews/search/saved/{id}/export', { path: { id: s.id } })));
  saveBlob(new Blob([JSON.stringify({ documents: toWire(docs) }, null, 2)], { type: 'application/json' }), filename);
}

function ImportForm({ done }: { done: (msg: string) => void }) {
  const [problems, setProblems] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const onFile = async (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    e.target.value = '';
    if (!file) return;
    setProblems([]);
    setBusy(true);
    try {
      let documents: unknown[];
      try {
        documents = importDocuments(await file.text());
      } catch {
        setProblems([`${file.name} is not JSON.`]);
        return;
      }
      const r = await sdk().request('post', '/reviews/search/saved/import', { body: { documents, atomic: true } });
      const renamed = r.results.filter((x) => x.status === 'renamed').map((x) => `“${x.originalName}” as “${x.name}”`);
      done(`Imported ${r.created + r.renamed} saved search${r.created + r.renamed === 1 ? '' : 'es'} from ${file.name}${renamed.length ? ` (${renamed.join(', ')}: the name was taken)` : ''}.`);
    } catch (err) {
      const details = err instanceof ApiError && Array.isArray(err.details) ? (err.details as Array<{ path?: string; message?: string }>) : [];
      const where = (p: string) => {
        const m = /^body\.documents\.(\d+)\.?(.*)$/.exec(p);
        return m ? `Document ${Number(m[1]) + 1}${m[2] ? ` (${m[2]})` : ''}` : p;
      };
      setProblems(details.length ? details.map((d) => `${where(String(d.path ?? ''))}: ${d.message ?? ''}`) : [describeError(err).sentence]);
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="field">
      <label htmlFor="saved-import">Import saved searches (JSON file)</label>
      <input id="saved-import" type="file" accept="application/json,.json" disabled={busy} onChange={onFile} />
      {problems.length > 0 && (
        <div className="form-error" role="alert">
          <p>Nothing was imported:</p>
          <ul aria-label="Import problems">{problems.map((p, i) => <li key={i}>{p}</li>)}</ul>
        </div>
      )}
    </div>
  );
}

function SavedItem({ s, setTag, notify }: { s: Saved; setTag: (t: string) => void; notify: (m: string) => void }) {
  const [mode, setMode] = useState<'none' | 'share' | 'rename'>('none');
  const [error, setError] = useState<string | null>(null);
  const finished = (m: string | null) => {
    setMode('none');
    if (m) {
      notify(m);
      invalidateLoads();
    }
  };
  const act = async (what: () => Promise<unknown>) => {
    setError(null);
    try {
      await what();
    } catch (err) {
      setError(describeError(err).sentence);
    }
  };
  const editable = s.access === 'owner' || s.access === 'editor';
  return (
    <li className="card saved-search">
      <div>
        <Link to={savedUrl(s)} aria-label={`Run ${s.name}`}><strong>{s.name}</strong></Link> <code className="small">{s.query || '(everything)'}</code>
        {s.tags.map((t) => <button key={t} type="button" className="badge" aria-label={`Only tag ${t}`} onClick={() => setTag(t)}>{t}</button>)}
      </div>
      <div className="muted small">by {s.owner} · you are {s.access}{editable ? '' : ' (read-only)'} · {s.visibility} · updated <Time iso={s.updatedAt} />
        {s.shares && s.shares.length > 0 && <> · shared with {s.shares.map((sh) => `${sh.grantee} (${sh.permission})`).join(', ')}</>}
      </div>
      <div className="toolbar">
        {editable && mode !== 'rename' && <button type="button" onClick={() => setMode('rename')}>Rename…</button>}
        {s.access === 'owner' && mode !== 'share' && <button type="button" onClick={() => setMode('share')}>Share…</button>}
        <button type="button" onClick={() => act(() => exportFile([s], `${s.name.replace(/[^A-Za-z0-9._-]+/g, '-').slice(0, 80) || 'saved-search'}.fip-search.json`))} aria-label={`Export ${s.name}`}>Export</button>
        {s.access === 'owner' && (
          <ConfirmButton label="Delete" ariaLabel={`Delete ${s.name}`} question={`Delete the saved search “${s.name}” for everyone it is shared with?`} yes="Delete"
            onConfirm={() => act(async () => {
              await sdk().request('delete', '/reviews/search/saved/{id}', { path: { id: s.id } });
              finished(`Deleted “${s.name}”.`);
            })} />
        )}
      </div>
      {mode === 'rename' && <RenameForm saved={s} done={finished} />}
      {mode === 'share' && <ShareForm saved={s} done={finished} />}
      {error && <p className="form-error" role="alert">{error}</p>}
    </li>
  );
}

export function SavedSearches({ current }: { current: CurrentSearch }) {
  const [tag, setTag] = useState('');
  const [list, reload] = useLoad(() => sdk().request('get', '/reviews/search/saved', { query: { tag: tag || undefined, limit: 100 } }), `saved:${tag}`);
  const [name, setName] = useState('');
  const [tags, setTags] = useState('');
  const [notice, setNotice] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const save = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    try {
      const created = await sdk().request('post', '/reviews/search/saved', {
        body: { name: name.trim(), query: current.query, types: current.types as Array<'case'>, sort: current.sort, tags: tags.split(',').map((t) => t.trim()).filter(Boolean) },
      });
      setNotice(`Saved “${created.name}”.`);
      setName('');
      setTags('');
      invalidateLoads();
    } catch (err) {
      setError(describeError(err).sentence);
    }
  };
  const [tagOptions] = useLoad(() => sdk().request('get', '/reviews/search/tag-presets'), 'saved-tag-options');
  const knownTags = tagOptions.status === 'ok' ? [...new Set([...tagOptions.data.inUse.map((t) => t.tag), ...tagOptions.data.presets])] : [];
  const exportListed = async () => {
    setError(null);
    try {
      await exportFile(items, `saved-searches${tag ? `-${tag.replace(/[^A-Za-z0-9._-]+/g, '-')}` : ''}.fip-search.json`);
    } catch (err) {
      setError(describeError(err).sentence);
    }
  };
  const items = list.status === 'ok' ? list.data.items : [];
  return (
    <section aria-labelledby="saved-h">
      <Presets />
      <h2 id="saved-h">Saved searches</h2>
      <form className="card filters" onSubmit={save} aria-label="Save this search">
        <div className="field grow">
          <label htmlFor="saved-name">Name</label>
          <input id="saved-name" required value={name} onChange={(e) => setName(e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor="saved-tags">Tags (comma-separated)</label>
          <input id="saved-tags" value={tags} onChange={(e) => setTags(e.target.value)} />
        </div>
        <button type="submit" className="primary">Save this search</button>
        {error && <p className="form-error" role="alert">{error}</p>}
      </form>
      {notice && <p role="status" className="ok-text">{notice}</p>}
      <div className="filters">
        <div className="field">
          <label htmlFor="saved-tag-filter">Only with tag</label>
          <input id="saved-tag-filter" list="saved-tag-options" value={tag} onChange={(e) => setTag(e.target.value)} />
          <datalist id="saved-tag-options">{knownTags.map((t) => <option key={t} value={t} />)}</datalist>
        </div>
        <button type="button" disabled={items.length === 0} onClick={() => void exportListed()}>
          Export the {items.length} listed
        </button>
        <ImportForm done={(m) => { setNotice(m); invalidateLoads(); }} />
      </div>
      {list.status === 'loading' && <Loading what="saved searches" />}
      {list.status === 'error' && <ErrorState error={list.error} retry={reload} />}
      {list.status === 'ok' && items.length === 0 && <Empty>No saved search{tag ? ' with this tag' : ''}.</Empty>}
      {items.length > 0 && (
        <ul className="cards saved" aria-label="Saved searches">
          {items.map((s) => <SavedItem key={s.id} s={s} setTag={setTag} notify={setNotice} />)}
        </ul>
      )}
    </section>
  );
}
