// The entity page: one wallet, e-mail, phone, bank account, domain, URL, IP, handle... of the
// intelligence graph. Its value and type (as the API answers them: masked per role), the risk score
// with each factor explained, an activity sparkline, sightings by source, the cases and the
// investigations and intakes it appears in, and its neighbours (each a link to its own page).
// Reached by id (/console/entities/<id>, every role) or by type and value
// (/console/entities?type=wallet&value=..., which the API resolves; not for researchers). People who
// may watch it get a Watch button (a watchlist with new sightings, new linked sites and risk changes).
import { ApiError, sdk } from '../api';
import { Empty, ErrorState, Loading, StatusBadge, Time, useLoad } from '../components';
import { EntityLink, TYPE_LABELS } from '../entity-link';
import { describeError } from '../errors';
import { Link, useSearchParam } from '../router';
import { hasRole, useMe } from '../session';
import { WatchButton } from './alerts';
import type { Schema } from '../../../sdk/src';
import { AddToCampaign } from './campaign-add';

type Detail = Schema<'IntelEntityDetail'>;

const FACTOR_LABELS: Record<string, string> = {};
const factorLabel = (f: string) => FACTOR_LABELS[f] ?? f.replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase());

function Sparkline({ points, label }: { points: Array<{ t: string; sightings: number }>; label: string }) {
  const w = 320;
  const h = 60;
  const max = Math.max(1, ...points.map((p) => p.sightings));
  const step = points.length > 1 ? w / (points.length - 1) : w;
  const d = points.map((p, i) => `${i ? 'L' : 'M'}${(i * step).toFixed(1)},${(h - 4 - (p.sightings / max) * (h - 8)).toFixed(1)}`).join(' ');
  const total = points.reduce((a, p) => a + p.sightings, 0);
  return (
    <figure>
      <svg className="sparkline" width={w} height={h} viewBox={`0 0 ${w} ${h}`} role="img" aria-label={`${label}: ${total} sightings, at most ${max} in one period`}>
        <path d={d} fill="none" stroke="#1d4ed8" strokeWidth="2" />
      </svg>
      <details>
        <summary className="small">The numbers</summary>
        <table className="small">
          <caption className="sr-only">{label}</caption>
          <thead><tr><th scope="col">From</th><th scope="col">Sightings</th></tr></thead>
          <tbody>{points.filter((p) => p.sightings > 0).map((p) => <tr key={p.t}><td><Time iso={p.t} /></td><td className="num">{p.sightings}</td></tr>)}</tbody>
        </table>
      </details>
    </figure>
  );
}

function Activity({ e }: { e: Detail }) {
  const [bucket, setBucket] = useSearchParam('bucket', 'day');
  const [a] = useLoad(() => sdk().request('get', '/intelligence/entities/{type}/{value}/activity', { path: { type: e.type, value: e.value }, query: { bucket: bucket as 'day' } }), `${e.id}:${bucket}`, { unavailableOn404: true });
  return (
    <section aria-labelledby="activity-h">
      <h2 id="activity-h">Activity</h2>
      <div className="segmented" role="group" aria-label="Period">
        {(['day', 'week', 'month'] as const).map((b) => <button key={b} type="button" aria-pressed={bucket === b} onClick={() => setBucket(b)}>{`per ${b}`}</button>)}
      </div>
      {a.status === 'loading' && <Loading what="the activity" />}
      {a.status === 'error' && <p className="muted">{describeError(a.error).sentence}</p>}
      {a.status === 'unavailable' && <p className="muted">No activity series for this value.</p>}
      {a.status === 'ok' && <Sparkline points={a.data.points} label={`Sightings per ${bucket} since ${a.data.since.slice(0, 10)}`} />}
    </section>
  );
}

function Neighbours({ e }: { e: Detail }) {
  const [n] = useLoad(() => sdk().request('get', '/intelligence/entities/{type}/{value}/neighbors', { path: { type: e.type, value: e.value }, query: { limit: 50 } }), e.id, { unavailableOn404: true });
  if (n.status === 'loading') return <Loading what="related entities" />;
  if (n.status === 'error') return <p className="muted">{describeError(n.error).sentence}</p>;
  if (n.status !== 'ok' || n.data.nodes.length === 0) return <Empty>No related entity.</Empty>;
  const weight = new Map<string, { kind: string; weight: number }>();
  for (const ed of n.data.edges) {
    const other = ed.src === e.id ? ed.dst : ed.src;
    const w = weight.get(other);
    if (!w || ed.weight > w.weight) weight.set(other, { kind: ed.kind, weight: ed.weight });
  }
  const nodes = n.data.nodes.filter((x) => x.id !== e.id).sort((a, b) => (weight.get(b.id)?.weight ?? 0) - (weight.get(a.id)?.weight ?? 0));
  return (
    <ul className="related">
      {nodes.map((x) => (
        <li key={x.id}>
          <EntityLink id={x.id} type={x.type} value={x.displayValue} showType />
          <span className="muted small"> {weight.get(x.id)?.kind.replace(/_/g, ' ')} · weight {weight.get(x.id)?.weight ?? 0}{x.riskScore !== null ? ` · risk ${x.riskScore}` : ''}</span>
        </li>
      ))}
    </ul>
  );
}

function searchQueryFor(e: Detail): string {
  const quoted = `"${e.value.replace(/"/g, '')}"`;
  if (e.type === 'wallet') return `wallet:${quoted}`;
  if (e.type === 'domain') return `domain:${quoted}`;
  if (e.type === 'url') return `url:${quoted}`;
  return quoted;
}

function AppearsIn({ e }: { e: Detail }) {
  const query = searchQueryFor(e);
  const [r] = useLoad(() => sdk().request('post', '/reviews/search/query', { body: { query, types: ['investigation', 'intake'], limit: 50 } }), `${e.id}:appears`);
  if (r.status === 'loading') return <Loading what="investigations and intakes" />;
  if (r.status === 'error') return <p className="muted">{describeError(r.error).sentence}</p>;
  if (r.status !== 'ok' || r.data.items.length === 0) return <Empty>No investigation or intake found with it.</Empty>;
  return (
    <ul>
      {r.data.items.map((h) => (
        <li key={`${h.type}:${h.id}`}>
          <span className="badge">{h.type}</span> <Link to={h.type === 'investigation' ? `/investigations/${h.id}` : `/intakes/${h.id}`}>{h.title}</Link>
        </li>
      ))}
    </ul>
  );
}

function EntityView({ e }: { e: Detail }) {
  const me = useMe();
  const researcher = !hasRole(me, 'admin', 'analyst', 'reviewer');
  return (
    <>
      <p><Link to="/search">← Search</Link></p>
      <h1 className="break"><span className="badge entity-type">{TYPE_LABELS[e.type] ?? e.type}</span> <span className="entity-value">{e.displayValue}</span></h1>
      <div className="toolbar"><Link to={`/graph?seed=${e.id}`}>Open in graph</Link><AddToCampaign what="this entity" members={[{ type: 'entity', id: e.id }]} /></div>
      <dl className="facts">
        <dt>Type</dt><dd>{TYPE_LABELS[e.type] ?? e.type}</dd>
        <dt>Value</dt><dd className="break"><code>{e.value}</code></dd>
        <dt>Risk score</dt><dd>{e.risk.score === null ? <span className="muted">not computed yet</span> : <strong>{e.risk.score} / 100</strong>}{e.risk.computedAt && <span className="muted small"> computed <Time iso={e.risk.computedAt} /></span>}</dd>
        <dt>Sightings</dt><dd>{e.sightingCount}</dd>
        <dt>First seen</dt><dd><Time iso={e.firstSeenAt} /></dd>
        <dt>Last seen</dt><dd><Time iso={e.lastSeenAt} /></dd>
        <dt>Victims</dt><dd>{e.victimCount ?? <span className="muted">withheld (too few to show)</span>}</dd>
        <dt>Loss</dt><dd>{e.lossByCurrency.length ? e.lossByCurrency.map((l) => `${l.amount} ${l.currency}`).join(', ') : '—'}</dd>
      </dl>
      {!researcher && <WatchButton entityId={e.id} label={`${TYPE_LABELS[e.type] ?? e.type} ${e.displayValue}`} />}
      <section aria-labelledby="risk-h">
        <h2 id="risk-h">Why this risk score</h2>
        {e.risk.factors.length === 0 ? <Empty>No factor computed yet.</Empty> : (
          <div className="table-wrap">
            <table className="factors">
              <caption className="sr-only">Risk factors: the input, the points it gave out of the most it can give, and the rule</caption>
              <thead><tr><th scope="col">Factor</th><th scope="col">Input</th><th scope="col">Points</th><th scope="col">Rule</th></tr></thead>
              <tbody>
                {e.risk.factors.map((f) => (
                  <tr key={f.factor}>
                    <td data-label="Factor">{factorLabel(f.factor)}</td>
                    <td data-label="Input" className="num">{f.input}</td>
                    <td data-label="Points" className="num">{f.points} of {f.max}</td>
                    <td data-label="Rule">{f.rule}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
      <section aria-labelledby="sightings-h">
        <h2 id="sightings-h">Sightings by source</h2>
        {e.sightingsBySource.length === 0 ? <Empty>No sighting.</Empty> : (
          <ul>{e.sightingsBySource.map((s) => <li key={s.sourceKind}><strong>{s.sourceKind}</strong>: {s.sightings} sighting{s.sightings === 1 ? '' : 's'}, <Time iso={s.firstObservedAt} /> to <Time iso={s.lastObservedAt} /></li>)}</ul>
        )}
      </section>
      {!researcher && <Activity e={e} />}
      <section aria-labelledby="cases-h">
        <h2 id="cases-h">Cases ({e.linkedCaseCount})</h2>
        {e.linkedCases.length === 0 ? <Empty>{e.linkedCaseCount > 0 ? 'Your role sees the number of cases, not the cases.' : 'In no case.'}</Empty> : (
          <ul>{e.linkedCases.map((c) => <li key={c.id}><Link to={`/cases/${c.id}`}>{c.title}</Link> <StatusBadge status={c.status} />{c.lossAmount && <span className="muted small"> loss {c.lossAmount} {c.lossCurrency}</span>} <span className="muted small">via {c.via.join(', ')}</span></li>)}</ul>
        )}
      </section>
      {!researcher && (
        <section aria-labelledby="appears-h">
          <h2 id="appears-h">Investigations and intakes</h2>
          <AppearsIn e={e} />
        </section>
      )}
      {!researcher && (
        <section aria-labelledby="related-h">
          <h2 id="related-h">Related entities</h2>
          <Neighbours e={e} />
        </section>
      )}
    </>
  );
}

export function EntityPage({ id }: { id?: string }) {
  const [type] = useSearchParam('type');
  const [value] = useSearchParam('value');
  const [e, reload] = useLoad<Detail>(
    () => (id ? sdk().request('get', '/intelligence/entities/{id}', { path: { id } }) : sdk().request('get', '/intelligence/entities/{type}/{value}', { path: { type: type as 'wallet', value } })),
    id ?? `${type}:${value}`,
  );
  if (!id && (!type || !value)) return <div className="state error" role="alert"><p>This link names no entity: it needs an entity id, or a type and a value.</p></div>;
  if (e.status === 'loading') return <Loading what="the entity" />;
  if (e.status === 'error') {
    if (e.error instanceof ApiError && e.error.status === 404) {
      return (
        <div className="state empty" role="status">
          <p><strong>{TYPE_LABELS[type] ?? 'This value'} <code>{value || id}</code> is not in the intelligence graph yet.</strong></p>
          <p className="muted">It enters the graph when an intake, case or investigation is processed into it.</p>
        </div>
      );
    }
    return <ErrorState error={e.error} retry={reload} />;
  }
  if (e.status !== 'ok') return null;
  return <EntityView e={e.data} />;
}
