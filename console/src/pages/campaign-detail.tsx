// One campaign (/console/campaigns/<id>): GET /intelligence/campaigns/{id} (members, risk,
// taxonomy, timeline) and, for admins and analysts, GET /campaigns/{id}/lea-suggestions (the cases
// and investigations sharing its wallets, phones or domains, with the evidence). Writers rename it,
// change its status and taxonomy, add an entity by type and value, and remove members
// (PATCH /campaigns/{id}). Entity values are as the API answered them (masked per role).
import { useState, type FormEvent } from 'react';
import { ApiError, sdk } from '../api';
import { Empty, ErrorState, Loading, StatusBadge, Time, useLoad } from '../components';
import { ENTITY_TYPES, EntityLink, TYPE_LABELS } from '../entity-link';
import { describeError } from '../errors';
import { invalidateLoads } from '../query';
import { Link } from '../router';
import { hasRole, useMe } from '../session';
import type { Schema } from '../../../sdk/src';
import { CAMPAIGN_STATUSES, TaxonomySelect, type TaxonomyPath } from './campaigns';
import type { MemberRef } from './campaign-add';

type Detail = Schema<'CampaignDetail'>;
type Patch = { name?: string; status?: (typeof CAMPAIGN_STATUSES)[number]; taxonomy?: TaxonomyPath | null; members?: { add?: MemberRef[]; remove?: MemberRef[] } };

function useChange(id: string, reload: () => void): [(body: Patch, done: string) => Promise<boolean>, string | null, boolean] {
  const [msg, setMsg] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  const change = async (body: Patch, done: string) => {
    try {
      await sdk().request('patch', '/campaigns/{id}', { path: { id }, body });
      setMsg(done);
      setFailed(false);
      invalidateLoads();
      reload();
      return true;
    } catch (err) {
      setMsg(describeError(err).sentence);
      setFailed(true);
      return false;
    }
  };
  return [change, msg, failed];
}

function Settings({ c, change }: { c: Detail; change: (b: Patch, done: string) => Promise<boolean> }) {
  const [name, setName] = useState(c.name);
  const [status, setStatus] = useState(c.status);
  const [taxonomy, setTaxonomy] = useState(c.taxonomy ?? '');
  const save = (e: FormEvent) => {
    e.preventDefault();
    const body: Patch = {};
    if (name.trim() !== c.name) body.name = name.trim();
    if (status !== c.status) body.status = status;
    if (taxonomy !== (c.taxonomy ?? '')) body.taxonomy = (taxonomy || null) as TaxonomyPath | null;
    if (Object.keys(body).length) void change(body, body.name ? `Renamed to ${body.name}.` : 'Saved.');
  };
  return (
    <form className="fields card" onSubmit={save} aria-label="Change the campaign">
      <div className="field grow">
        <label htmlFor="cd-name">Name</label>
        <input id="cd-name" required maxLength={200} value={name} onChange={(e) => setName(e.target.value)} />
      </div>
      <div className="field">
        <label htmlFor="cd-status">Status</label>
        <select id="cd-status" value={status} onChange={(e) => setStatus(e.target.value as typeof status)}>
          {CAMPAIGN_STATUSES.map((s) => <option key={s} value={s}>{s}</option>)}
        </select>
      </div>
      <div className="field">
        <label htmlFor="cd-tax">Taxonomy</label>
        <TaxonomySelect id="cd-tax" value={taxonomy} onChange={setTaxonomy} empty="Not classified" />
      </div>
      <button type="submit" className="primary">Save</button>
    </form>
  );
}

function AddEntity({ change }: { change: (b: Patch, done: string) => Promise<boolean> }) {
  const [type, setType] = useState<string>('wallet');
  const [value, setValue] = useState('');
  const [err, setErr] = useState<string | null>(null);
  const add = async (e: FormEvent) => {
    e.preventDefault();
    setErr(null);
    try {
      const ent = await sdk().request('get', '/intelligence/entities/{type}/{value}', { path: { type: type as 'wallet', value: value.trim() } });
      if (await change({ members: { add: [{ type: 'entity', id: ent.id }] } }, `Added ${ent.displayValue}.`)) setValue('');
    } catch (x) {
      setErr(x instanceof ApiError && x.status === 404 ? `${TYPE_LABELS[type] ?? type} ${value.trim()} is not in the intelligence graph.` : describeError(x).sentence);
    }
  };
  return (
    <form className="fields" onSubmit={add} aria-label="Add an entity">
      <div className="field narrow">
        <label htmlFor="ae-type">Type</label>
        <select id="ae-type" value={type} onChange={(e) => setType(e.target.value)}>
          {ENTITY_TYPES.map((t) => <option key={t} value={t}>{TYPE_LABELS[t]}</option>)}
        </select>
      </div>
      <div className="field grow">
        <label htmlFor="ae-value">Value</label>
        <input id="ae-value" required value={value} onChange={(e) => setValue(e.target.value)} spellCheck={false} />
      </div>
      <button type="submit">Add entity</button>
      {err && <p className="form-error" role="alert">{err}</p>}
    </form>
  );
}

function LeaSuggestions({ id }: { id: string }) {
  const [s] = useLoad(() => sdk().request('get', '/campaigns/{id}/lea-suggestions', { path: { id }, query: { limit: 50 } }), id);
  if (s.status === 'loading') return <Loading what="LEA suggestions" />;
  if (s.status === 'error') return <p className="muted">{describeError(s.error).sentence}</p>;
  if (s.status !== 'ok' || s.data.items.length === 0) return <Empty>No suggestion: no case or investigation outside the campaign (or unreferred in it) shares its wallets, phones or domains.</Empty>;
  const weights = Object.entries(s.data.weights).map(([t, w]) => `${t} ${w}`).join(', ');
  return (
    <>
      <p className="muted small">Score: the sum over the shared entities of {weights}.</p>
      <ol className="suggestions">
        {s.data.items.map((i) => (
          <li key={`${i.kind}:${i.id}`}>
            <span className="badge">{i.kind}</span> <Link to={i.kind === 'case' ? `/cases/${i.id}` : `/investigations/${i.id}`}>{i.title}</Link>{' '}
            <span className="small">score {i.score} · {i.sharedEntities} shared · {i.reason === 'not_in_campaign' ? 'not in the campaign' : 'in the campaign, not referred'}</span>
            <ul className="small">
              {i.evidence.map((ev) => (
                <li key={`${ev.entityId}:${ev.sourceKind}:${ev.sourceId}`}>
                  <EntityLink id={ev.entityId} type={ev.type} value={ev.value} showType /> seen in {ev.sourceKind} <code>{ev.sourceId.slice(0, 8)}</code> <Time iso={ev.observedAt} />
                </li>
              ))}
            </ul>
          </li>
        ))}
      </ol>
    </>
  );
}

function CampaignView({ c, reload }: { c: Detail; reload: () => void }) {
  const me = useMe();
  const writer = hasRole(me, 'admin', 'analyst');
  const [change, msg, failed] = useChange(c.id, reload);
  const remove = (m: MemberRef, label: string) => void change({ members: { remove: [m] } }, `Removed ${label}.`);
  return (
    <>
      <p><Link to="/campaigns">← Campaigns</Link></p>
      <h1>{c.name}</h1>
      <dl className="facts">
        <dt>Status</dt><dd><StatusBadge status={c.status} /></dd>
        <dt>Taxonomy</dt><dd>{c.taxonomyLineage.length ? c.taxonomyLineage.join(' › ') : <span className="muted">unclassified</span>}</dd>
        <dt>Risk</dt><dd>{c.risk.score === null ? <span className="muted">no scored member</span> : <><strong>{c.risk.score} / 100</strong> <span className="muted small">(max {c.risk.max}, mean {c.risk.mean} over {c.risk.scoredEntities} scored entities)</span></>}</dd>
        <dt>Members</dt><dd>{c.cases} case{c.cases === 1 ? '' : 's'}, {c.entities} entit{c.entities === 1 ? 'y' : 'ies'}</dd>
        <dt>Created</dt><dd><Time iso={c.createdAt} /> by {c.createdBy}</dd>
      </dl>
      {c.description && <p className="prewrap">{c.description}</p>}
      {writer && <Settings key={`${c.name}:${c.status}:${c.taxonomy}`} c={c} change={change} />}
      {msg && <p role={failed ? 'alert' : 'status'} className={failed ? 'form-error' : 'ok-text'}>{msg}</p>}
      <section aria-labelledby="cd-cases">
        <h2 id="cd-cases">Cases ({c.memberCases.length})</h2>
        {c.memberCases.length === 0 ? <Empty>No case in this campaign.</Empty> : (
          <ul>
            {c.memberCases.map((k) => (
              <li key={k.id}>
                <Link to={`/cases/${k.id}`}>{k.title}</Link> <StatusBadge status={k.status} />
                {k.loss && <span className="muted small"> loss {k.loss.amount} {k.loss.currency}</span>}
                {k.referralStatus && <span className="muted small"> · referral {k.referralStatus}</span>}
                {writer && <> <button type="button" className="icon" onClick={() => remove({ type: 'case', id: k.id }, k.title)} aria-label={`Remove case ${k.title}`}>Remove</button></>}
              </li>
            ))}
          </ul>
        )}
      </section>
      <section aria-labelledby="cd-entities">
        <h2 id="cd-entities">Entities ({c.memberEntities.length})</h2>
        {writer && <AddEntity change={change} />}
        {c.memberEntities.length === 0 ? <Empty>No entity in this campaign.</Empty> : (
          <ul className="related">
            {c.memberEntities.map((e) => (
              <li key={e.id}>
                <EntityLink id={e.id} type={e.type} value={e.displayValue} showType />
                <span className="muted small"> {e.riskScore !== null ? `risk ${e.riskScore} · ` : ''}via {e.via.join(', ')}</span>
                {writer && e.via.includes('campaign') && <> <button type="button" className="icon" onClick={() => remove({ type: 'entity', id: e.id }, e.displayValue)} aria-label={`Remove entity ${e.displayValue}`}>Remove</button></>}
              </li>
            ))}
          </ul>
        )}
        {c.memberEntities.length > 0 && <p><Link to={`/graph?seed=${c.memberEntities[0]!.id}`}>Open the first entity in the graph</Link></p>}
      </section>
      <section aria-labelledby="cd-timeline">
        <h2 id="cd-timeline">Timeline</h2>
        {c.timeline.length === 0 ? <Empty>Nothing yet.</Empty> : (
          <ol className="timeline small">
            {c.timeline.map((t, i) => <li key={`${t.at}:${t.kind}:${t.recordId}:${i}`}><Time iso={t.at} /> {t.kind.replace(/_/g, ' ')} <span className="muted">({t.recordType} <code>{t.recordId.slice(0, 8)}</code>)</span></li>)}
          </ol>
        )}
      </section>
      {writer && (
        <section aria-labelledby="cd-lea">
          <h2 id="cd-lea">LEA referral suggestions</h2>
          <LeaSuggestions id={c.id} />
        </section>
      )}
    </>
  );
}

export function CampaignDetailPage({ id }: { id: string }) {
  const [c, reload] = useLoad(() => sdk().request('get', '/intelligence/campaigns/{id}', { path: { id } }), id);
  if (c.status === 'loading') return <Loading what="the campaign" />;
  if (c.status === 'error') return <ErrorState error={c.error} retry={reload} />;
  if (c.status !== 'ok') return null;
  return <CampaignView c={c.data} reload={reload} />;
}
