// "Add to campaign": one action for the entity, case and investigation pages. It lists the
// campaigns (GET /campaigns) and adds the page's members with PATCH /campaigns/{id}
// ({members: {add: [...]}}): an entity, a case, or an investigation's entities (its site's domain
// and its wallets, as the graph holds them). Admins and analysts only (the API's writers).
import { useState } from 'react';
import { ApiError, sdk } from '../api';
import { useLoad } from '../components';
import { describeError } from '../errors';
import { invalidateLoads } from '../query';
import { Link } from '../router';
import { hasRole, useMe } from '../session';

export type MemberRef = { type: 'case' | 'entity'; id: string };

/** The graph entities of an investigation: its site's domain and its wallets (those in the graph). */
export async function investigationMembers(url: string, wallets: Array<{ address: string }>): Promise<MemberRef[]> {
  let host = '';
  try {
    host = new URL(url).hostname;
  } catch {
    // A URL the browser cannot read: its wallets only.
  }
  const keys = [...(host ? [{ type: 'domain' as const, value: host }] : []), ...wallets.slice(0, 200).map((w) => ({ type: 'wallet' as const, value: w.address }))];
  const found = await Promise.all(
    keys.map((k) =>
      sdk()
        .request('get', '/intelligence/entities/{type}/{value}', { path: k })
        .then((e) => e.id)
        .catch((err: unknown) => {
          if (err instanceof ApiError && err.status === 404) return null;
          throw err;
        }),
    ),
  );
  return [...new Set(found.filter((id): id is string => Boolean(id)))].map((id) => ({ type: 'entity', id }));
}

export function AddToCampaign({ what, members }: { what: string; members: MemberRef[] | (() => Promise<MemberRef[]>) }) {
  const me = useMe();
  const [open, setOpen] = useState(false);
  if (!hasRole(me, 'admin', 'analyst')) return null;
  return (
    <div className="add-to-campaign">
      {!open ? <button type="button" onClick={() => setOpen(true)}>Add to campaign</button> : <AddForm what={what} members={members} close={() => setOpen(false)} />}
    </div>
  );
}

function AddForm({ what, members, close }: { what: string; members: MemberRef[] | (() => Promise<MemberRef[]>); close: () => void }) {
  const [list] = useLoad(() => sdk().request('get', '/campaigns', { query: { limit: 500 } }), 'add-to-campaign');
  const [choice, setChoice] = useState('');
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<{ ok: boolean; text: string; id?: string; name?: string } | null>(null);
  const add = async () => {
    if (!choice) return;
    setBusy(true);
    setResult(null);
    try {
      const refs = typeof members === 'function' ? await members() : members;
      if (refs.length === 0) {
        setResult({ ok: false, text: `Nothing to add: ${what} has no entity in the intelligence graph yet.` });
        return;
      }
      const c = await sdk().request('patch', '/campaigns/{id}', { path: { id: choice }, body: { members: { add: refs } } });
      setResult({ ok: true, text: `Added ${what} to`, id: c.id, name: c.name });
      invalidateLoads();
    } catch (err) {
      setResult({ ok: false, text: `Could not add ${what}: ${describeError(err).sentence}` });
    } finally {
      setBusy(false);
    }
  };
  return (
    <form className="filters" aria-label="Add to campaign" onSubmit={(e) => { e.preventDefault(); void add(); }}>
      <div className="field grow">
        <label htmlFor="atc-campaign">Campaign</label>
        <select id="atc-campaign" value={choice} onChange={(e) => setChoice(e.target.value)} disabled={list.status !== 'ok'}>
          <option value="">{list.status === 'ok' ? (list.data.items.length ? 'Choose a campaign' : 'No campaign yet') : 'Loading campaigns…'}</option>
          {list.status === 'ok' && list.data.items.map((c) => <option key={c.id} value={c.id}>{c.name}</option>)}
        </select>
      </div>
      <button type="submit" className="primary" disabled={!choice || busy}>Add</button>
      <button type="button" onClick={close}>Cancel</button>
      <Link to="/campaigns">New campaign…</Link>
      {list.status === 'error' && <p className="form-error" role="alert">{describeError(list.error).sentence}</p>}
      {result && (
        <p role="status" className={result.ok ? 'ok-text' : 'form-error'}>
          {result.text}{result.id && <> <Link to={`/campaigns/${result.id}`}>{result.name}</Link>.</>}
        </p>
      )}
    </form>
  );
}
