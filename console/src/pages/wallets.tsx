// SSI Wallets: the cross-scan wallet search (token, network, address substring). A wallet that
// several sites show is marked and lists those sites: a sign of linked campaigns.
import { useState, type FormEvent } from 'react';
import { sdk } from '../api';
import { CopyButton, Empty, ErrorState, Loading, Time, useLoad } from '../components';
import { EntityLink } from '../entity-link';
import { explorerUrl } from '../explorers';
import { Link, navigate, useLocation } from '../router';

export function WalletsPage() {
  const { query } = useLocation();
  const applied = { token: query.get('token') ?? '', network: query.get('network') ?? '', address: query.get('address') ?? '', cursor: query.get('cursor') ?? '' };
  const [form, setForm] = useState(applied);
  const [formError, setFormError] = useState<string | null>(null);
  const key = JSON.stringify(applied);
  const [result, reload] = useLoad(
    () => sdk().request('get', '/investigations/ssi/wallets', { query: { token: applied.token || undefined, network: applied.network || undefined, address: applied.address || undefined, cursor: applied.cursor || undefined, limit: 50 } }),
    key,
  );
  const go = (q: Record<string, string>) => {
    const s = new URLSearchParams(Object.entries(q).filter(([, v]) => v)).toString();
    navigate(`/wallets${s ? `?${s}` : ''}`);
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (form.address.trim() && form.address.trim().length < 3) {
      setFormError('Type at least 3 characters of the address.');
      return;
    }
    setFormError(null);
    go({ token: form.token.trim(), network: form.network.trim(), address: form.address.trim() });
  };
  return (
    <>
      <h1>SSI wallets</h1>
      <p className="muted">Every wallet address found by any investigation. A wallet shown by several sites is marked: those sites are probably run by the same people.</p>
      <form className="card filters" onSubmit={submit} aria-label="Search wallets">
        <div className="field grow">
          <label htmlFor="ws-address">Address contains</label>
          <input id="ws-address" type="search" value={form.address} placeholder="at least 3 characters" onChange={(e) => setForm({ ...form, address: e.target.value })} />
        </div>
        <div className="field">
          <label htmlFor="ws-token">Token</label>
          <input id="ws-token" value={form.token} placeholder="USDT" onChange={(e) => setForm({ ...form, token: e.target.value })} />
        </div>
        <div className="field">
          <label htmlFor="ws-network">Network</label>
          <input id="ws-network" value={form.network} placeholder="tron" onChange={(e) => setForm({ ...form, network: e.target.value })} />
        </div>
        <button type="submit" className="primary">Search</button>
        {formError && <p className="form-error" role="alert">{formError}</p>}
      </form>
      {result.status === 'loading' && <Loading what="wallets" />}
      {result.status === 'error' && <ErrorState error={result.error} retry={reload} />}
      {result.status === 'ok' && result.data.items.length === 0 && (
        <Empty>{applied.address || applied.token || applied.network ? 'No wallet matches this search.' : 'No investigation has found a wallet yet.'}</Empty>
      )}
      {result.status === 'ok' && result.data.items.length > 0 && (
        <>
          <ul className="wallets" aria-label="Wallets">
            {result.data.items.map((w) => {
              const href = explorerUrl(w.network, w.address);
              const multi = w.scanCount > 1;
              return (
                <li key={`${w.network}:${w.address}`} className={`card wallet${multi ? ' multi' : ''}`}>
                  <div className="row">
                    <EntityLink type="wallet" value={w.address}><code className="address break">{w.address}</code></EntityLink>
                    <CopyButton value={w.address} label={`address ${w.address}`} />
                    {href && <a href={href} target="_blank" rel="noopener noreferrer">Explorer ↗</a>}
                    {multi && <span className="badge badge-multi">Seen on {w.scanCount} sites</span>}
                  </div>
                  <div className="muted small">
                    {w.tokens.join(', ')} on {w.network} · first seen <Time iso={w.firstSeenAt} /> · last seen <Time iso={w.lastSeenAt} />
                  </div>
                  <details open={multi}>
                    <summary>{w.scanCount === 1 ? '1 site' : `${w.scanCount} sites`}</summary>
                    <ul className="sites">
                      {w.scans.map((s) => (
                        <li key={s.scanId}>
                          <Link to={`/investigations/${s.scanId}/results`}>{s.url ?? s.scanId}</Link>
                          {s.pageUrl && s.pageUrl !== s.url && <span className="muted small"> (on {s.pageUrl})</span>} <span className="muted small"><Time iso={s.firstSeenAt} /></span>
                        </li>
                      ))}
                    </ul>
                  </details>
                </li>
              );
            })}
          </ul>
          <div className="pager">
            <button type="button" disabled={!applied.cursor} onClick={() => window.history.back()}>Previous page</button>
            <button type="button" disabled={!result.data.nextCursor} onClick={() => go({ ...applied, cursor: result.data.nextCursor ?? '' })}>Next page</button>
          </div>
        </>
      )}
    </>
  );
}
