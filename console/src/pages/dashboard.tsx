// The dashboards, written for people: three views (overview, impact, analytics; ?view= in the URL)
// read from the analytics routes (/dashboard/overview, /impact/dashboard, /intelligence/dashboard,
// /analytics/overview). Every figure has a human title, money is shown per currency (exact decimal
// strings, never summed across currencies), each view says how fresh its data is (`as_of`), and
// every figure is a link to the list behind it (cases, intakes, reviews, search, taxonomy,
// indicators). Investigation charts stay on the overview for analysts.
import { useMemo, type ReactNode } from 'react';
import { ApiError, getUntyped, sdk } from '../api';
import { ChartView } from '../chart';
import { Empty, ErrorState, Loading, NotAvailable, Time, useLoad } from '../components';
import { EntityLink, TYPE_LABELS } from '../entity-link';
import { Link, useSearchParam } from '../router';
import { hasRole, useMe } from '../session';
import { formatMoney, type Amount, type KpiCard, type LossItem } from './dashboard-data';
import { ClassificationAccuracy } from './classification';

// ---- shapes (the SDK camelCases keys) ---------------------------------------------------------

interface FunnelStage { stage: string; label: string; count: number | null; conversionFromPrevious: number | null }
interface Series { metric: string; points: Array<{ t: string; value: number | null }> }
interface Overview { asOf: string; kpis: KpiCard[]; funnel30d: FunnelStage[]; trend30d: Series[]; topTaxonomies: Array<{ taxonomy: string; label: string; cases: number }> }
interface Impact { asOf: string; kpis: KpiCard[]; currencies: string[]; lossByTaxonomy: LossItem[] }
interface TopEntity { id: string; type: string; value: string; displayValue: string; riskScore: number | null; sightings: number; lastSeenAt: string }
interface Intelligence {
  asOf: string;
  aggregateOnly: boolean;
  entities: { total: number; highRisk: number; sightings: number; byType: Array<{ type: string; entities: number; highRisk: number; sightings: number }> };
  indicators: { total: number; byCategory: Array<{ category: string; indicators: number }>; byTlp: Array<{ tlp: string; indicators: number }> };
  campaigns: { total: number; byStatus: Array<{ status: string; campaigns: number }> };
  platform: { intakes: number | null; cases: number | null; investigations: number; reviews: number | null; referrals: number | null };
  topEntities?: TopEntity[];
  classificationAccuracy?: { accuracy: number | null; n: number };
}
interface AnalyticsOverview { asOf: string; totals: Record<string, number | null>; intakePeak: { weekday: string; hour: number; intakes: number } | null; topCountries: Array<{ country: string; entities: number; intakes: number | null }> }

// ---- where each figure leads --------------------------------------------------------------------

/** The console list behind a KPI card (by the card's id). */
export const KPI_LINKS: Record<string, string> = {
  intakes: '/intakes',
  losses_recorded: '/taxonomy',
  total_loss: '/taxonomy',
  cases: '/cases',
  open_cases: '/cases?status=open',
  reviews_decided: '/reviews?status=decided',
  referrals: '/cases?status=referred',
  investigations: '/investigations',
  entities: '/search?q=sightings%3E%3D1&types=entity',
  high_risk_entities: '/search?q=risk%3E%3D70',
};
const STAGE_LINKS: Record<string, string> = { intakes: '/intakes', cases: '/cases', reviews: '/reviews?status=decided', referrals: '/cases?status=referred' };
const METRIC_LABELS: Record<string, string> = {
  intakes: 'Reports received', cases: 'Cases opened', decisions: 'Review decisions', reviews: 'Review decisions', referrals: 'LEA referrals',
  investigations: 'Sites investigated', sightings: 'Entity sightings', entities: 'New entities', losses: 'Losses recorded',
};
const human = (key: string) => METRIC_LABELS[key] ?? key.replace(/([a-z])([A-Z0-9])/g, '$1 $2').replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase());
const fmt = (n: number | null) => (n === null ? '—' : n.toLocaleString('en-GB'));
const suppressedNote = 'Hidden: fewer victims than the platform\'s minimum group size stand behind this figure.';

// ---- pieces -----------------------------------------------------------------------------------

function AsOf({ iso }: { iso: string }) {
  return <p className="as-of muted" data-as-of={iso}>Figures as of <Time iso={iso} /> (they refresh shortly after each change)</p>;
}

function Figure({ label, to, value, amounts, id }: { label: string; to?: string; value: number | null; amounts?: Amount[]; id?: string }) {
  const body = amounts ? (
    amounts.length ? <span className="kpi-value kpi-money">{amounts.map((a) => <span key={a.currency} className="money">{formatMoney(a)}</span>)}</span> : <span className="kpi-value">—</span>
  ) : (
    <span className="kpi-value" title={value === null ? suppressedNote : undefined}>{fmt(value)}</span>
  );
  return (
    <li className="card kpi" data-kpi={id}>
      {to ? <Link to={to} className="kpi-link">{body}<span className="kpi-label">{label}</span></Link> : <>{body}<span className="kpi-label">{label}</span></>}
    </li>
  );
}

function Kpis({ cards, label }: { cards: KpiCard[]; label: string }) {
  return <ul className="kpis" aria-label={label}>{cards.map((c) => <Figure key={c.id} id={c.id} label={c.label} to={KPI_LINKS[c.id]} value={c.value} amounts={c.amounts} />)}</ul>;
}

function useView<T>(path: string) {
  return useLoad(() => getUntyped<T>(path), path, { unavailableOn404: true });
}

function Loaded<T>({ state, what, reload, children }: { state: ReturnType<typeof useView<T>>[0]; what: string; reload: () => void; children: (data: T) => ReactNode }) {
  if (state.status === 'loading') return <Loading what={what} />;
  if (state.status === 'unavailable') return <NotAvailable what={what} />;
  if (state.status === 'error') {
    if (state.error instanceof ApiError && state.error.status === 403) return <Empty>Your role does not see {what}.</Empty>;
    return <ErrorState error={state.error} retry={reload} />;
  }
  return <>{children(state.data)}</>;
}

// ---- overview ---------------------------------------------------------------------------------

function InvestigationCharts() {
  const [data, reload] = useLoad(async () => {
    const [history, active] = await Promise.all([sdk().investigations.history({ limit: 200 }).first(), sdk().investigations.active({ limit: 200 }).first()]);
    return { history: history.items, active: active.items };
  }, 'inv-charts');
  const days = useMemo(() => {
    if (data.status !== 'ok') return null;
    const m = new Map<string, { completed: number; failed: number }>();
    for (const i of [...data.data.history].reverse()) {
      const day = (i.completedAt ?? i.createdAt).slice(0, 10);
      const d = m.get(day) ?? { completed: 0, failed: 0 };
      if (i.status === 'completed') d.completed++;
      else d.failed++;
      m.set(day, d);
    }
    return m;
  }, [data]);
  if (data.status === 'loading') return <Loading what="investigation figures" />;
  if (data.status === 'error') return <ErrorState error={data.error} retry={reload} />;
  if (!days || data.status !== 'ok') return null;
  return (
    <>
      <ul className="kpis" aria-label="Investigations">
        <Figure label="Investigations running now" to="/investigations" value={data.data.active.length} />
        <Figure label="Investigations finished (latest 200)" to="/investigations" value={data.data.history.length} />
      </ul>
      {days.size ? (
        <ChartView kind="bar" title="Investigations finished per day" labels={[...days.keys()]} series={[{ label: 'Completed', values: [...days.values()].map((d) => d.completed) }, { label: 'Failed or cancelled', values: [...days.values()].map((d) => d.failed) }]} />
      ) : <Empty>No finished investigation yet.</Empty>}
    </>
  );
}

function OverviewView() {
  const me = useMe();
  const [state, reload] = useView<Overview>('/dashboard/overview');
  return (
    <>
      <Loaded state={state} what="the overview" reload={reload}>
        {(d) => (
          <>
            <AsOf iso={d.asOf} />
            <Kpis cards={d.kpis} label="Platform figures" />
            <section aria-labelledby="ov-funnel">
              <h2 id="ov-funnel">Pipeline over the last 30 days</h2>
              <ol className="funnel">
                {d.funnel30d.map((s) => (
                  <li key={s.stage} className="card kpi">
                    <Link to={STAGE_LINKS[s.stage] ?? '/dashboard'} className="kpi-link">
                      <span className="kpi-value">{fmt(s.count)}</span>
                      <span className="kpi-label">{s.label}{s.conversionFromPrevious !== null && ` (${Math.round(s.conversionFromPrevious * 100)}% of the previous stage)`}</span>
                    </Link>
                  </li>
                ))}
              </ol>
            </section>
            <div className="charts">
              {d.trend30d.length > 0 && d.trend30d[0].points.length > 0 && (
                <ChartView kind="line" title="Daily activity over the last 30 days" labels={d.trend30d[0].points.map((p) => p.t)} series={d.trend30d.map((s) => ({ label: human(s.metric), values: s.points.map((p) => p.value ?? 0) }))} />
              )}
            </div>
            <section aria-labelledby="ov-top">
              <h2 id="ov-top">Most frequent scam types</h2>
              {d.topTaxonomies.length ? (
                <ol className="ranked">{d.topTaxonomies.map((t) => <li key={t.taxonomy}><Link to={`/taxonomy?node=${encodeURIComponent(t.taxonomy)}`}>{t.label}</Link> <span className="muted">{fmt(t.cases)} cases</span></li>)}</ol>
              ) : <Empty>No case has a scam type yet.</Empty>}
            </section>
          </>
        )}
      </Loaded>
      {hasRole(me, 'admin', 'analyst') && <section aria-labelledby="ov-inv"><h2 id="ov-inv">Investigations</h2><InvestigationCharts /></section>}
    </>
  );
}

// ---- impact -----------------------------------------------------------------------------------

/** Loss per currency for the top-level scam types (one bar per type, one series per currency). */
function LossChart({ items, currencies }: { items: LossItem[]; currencies: string[] }) {
  const top = items.filter((i) => i.parent === null);
  if (!top.length) return <Empty>No loss recorded under a scam type yet.</Empty>;
  return (
    <div className="charts">
      {currencies.map((cur) => {
        const rows = top.filter((i) => i.losses.some((l) => l.currency === cur));
        if (!rows.length) return null;
        return <ChartView key={cur} kind="bar" title={`Loss in ${cur} by scam type`} labels={rows.map((r) => r.label)} series={[{ label: cur, values: rows.map((r) => Number(r.losses.find((l) => l.currency === cur)!.amount)) }]} />;
      })}
    </div>
  );
}

function LossTable({ items, currencies }: { items: LossItem[]; currencies: string[] }) {
  return (
    <table className="data loss-table">
      <caption>Loss by scam type (each type includes the types below it)</caption>
      <thead><tr><th scope="col">Scam type</th><th scope="col">Cases</th>{currencies.map((c) => <th key={c} scope="col">{c}</th>)}</tr></thead>
      <tbody>
        {items.map((i) => (
          <tr key={i.taxonomy} data-taxonomy={i.taxonomy}>
            <th scope="row" style={{ paddingLeft: `${0.5 + i.depth * 1.2}em` }}><Link to={`/taxonomy?node=${encodeURIComponent(i.taxonomy)}`}>{i.label}</Link></th>
            <td>{i.cases === null ? '—' : <Link to={`/search?q=${encodeURIComponent(`taxonomy:${i.taxonomy}*`)}`}>{fmt(i.cases)}</Link>}</td>
            {currencies.map((c) => <td key={c} className="num">{i.losses.find((l) => l.currency === c)?.amount ?? ''}</td>)}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function ImpactView() {
  const [state, reload] = useView<Impact>('/impact/dashboard');
  return (
    <Loaded state={state} what="the impact figures" reload={reload}>
      {(d) => (
        <>
          <AsOf iso={d.asOf} />
          <Kpis cards={d.kpis} label="Impact figures" />
          <section aria-labelledby="im-loss">
            <h2 id="im-loss">Loss by scam type</h2>
            <LossChart items={d.lossByTaxonomy} currencies={d.currencies} />
            {d.lossByTaxonomy.length > 0 && <LossTable items={d.lossByTaxonomy} currencies={d.currencies} />}
          </section>
        </>
      )}
    </Loaded>
  );
}

// ---- analytics --------------------------------------------------------------------------------

function IntelligenceSection() {
  const [state, reload] = useView<Intelligence>('/intelligence/dashboard');
  return (
    <Loaded state={state} what="the intelligence figures" reload={reload}>
      {(d) => (
        <>
          <AsOf iso={d.asOf} />
          <ul className="kpis" aria-label="Intelligence figures">
            <Figure label="Entities in the graph" to="/search?q=sightings%3E%3D1&types=entity" value={d.entities.total} />
            <Figure label="High-risk entities (risk ≥ 70)" to="/search?q=risk%3E%3D70" value={d.entities.highRisk} />
            <Figure label="Indicators" to="/indicators" value={d.indicators.total} />
            <Figure label="Campaigns" to="/campaigns" value={d.campaigns.total} />
            <ClassificationAccuracy figure={d.classificationAccuracy} />
          </ul>
          <div className="split">
            <table className="data">
              <caption>Entities by type</caption>
              <thead><tr><th scope="col">Type</th><th scope="col">Entities</th><th scope="col">High risk</th><th scope="col">Sightings</th></tr></thead>
              <tbody>{d.entities.byType.map((t) => (
                <tr key={t.type}><th scope="row"><Link to={`/search?q=${encodeURIComponent(`type:${t.type}`)}`}>{TYPE_LABELS[t.type] ?? t.type}</Link></th><td className="num">{fmt(t.entities)}</td><td className="num"><Link to={`/search?q=${encodeURIComponent(`type:${t.type} risk>=70`)}`}>{fmt(t.highRisk)}</Link></td><td className="num">{fmt(t.sightings)}</td></tr>
              ))}</tbody>
            </table>
            <table className="data">
              <caption>Indicators by category</caption>
              <thead><tr><th scope="col">Category</th><th scope="col">Indicators</th></tr></thead>
              <tbody>{d.indicators.byCategory.map((c) => <tr key={c.category}><th scope="row"><Link to={`/indicators?category=${encodeURIComponent(c.category)}`}>{c.category}</Link></th><td className="num">{fmt(c.indicators)}</td></tr>)}</tbody>
            </table>
          </div>
          {d.topEntities && (
            <table className="data top-entities">
              <caption>Riskiest entities</caption>
              <thead><tr><th scope="col">Entity</th><th scope="col">Risk</th><th scope="col">Sightings</th><th scope="col">Last seen</th></tr></thead>
              <tbody>{d.topEntities.map((e) => (
                <tr key={e.id}><td><EntityLink id={e.id} type={e.type} value={e.value} showType>{e.displayValue}</EntityLink></td><td className="num">{e.riskScore ?? '—'}</td><td className="num">{fmt(e.sightings)}</td><td><Time iso={e.lastSeenAt} /></td></tr>
              ))}</tbody>
            </table>
          )}
        </>
      )}
    </Loaded>
  );
}

function AnalyticsSection() {
  const [state, reload] = useView<AnalyticsOverview>('/analytics/overview');
  return (
    <Loaded state={state} what="the all-time totals" reload={reload}>
      {(d) => (
        <>
          <ul className="kpis" aria-label="All-time totals">
            {Object.entries(d.totals).map(([k, v]) => <Figure key={k} label={`${human(k)} (all time)`} to={STAGE_LINKS[k] ?? KPI_LINKS[k]} value={v} />)}
          </ul>
          {d.intakePeak && <p>Reports arrive most often on <strong>{d.intakePeak.weekday}s at {String(d.intakePeak.hour).padStart(2, '0')}:00 UTC</strong> ({fmt(d.intakePeak.intakes)} reports).</p>}
          {d.topCountries.length > 0 && (
            <table className="data">
              <caption>Countries the entities point to (phone numbers, IBANs, country domains)</caption>
              <thead><tr><th scope="col">Country</th><th scope="col">Entities</th><th scope="col">Reports mentioning them</th></tr></thead>
              <tbody>{d.topCountries.map((c) => <tr key={c.country}><th scope="row">{c.country}</th><td className="num">{fmt(c.entities)}</td><td className="num">{fmt(c.intakes)}</td></tr>)}</tbody>
            </table>
          )}
        </>
      )}
    </Loaded>
  );
}

// ---- the page ---------------------------------------------------------------------------------

const VIEWS = [
  { id: 'overview', label: 'Overview' },
  { id: 'impact', label: 'Impact' },
  { id: 'analytics', label: 'Analytics' },
] as const;

export function DashboardPage() {
  const [view] = useSearchParam('view', 'overview');
  const current = VIEWS.find((v) => v.id === view) ?? VIEWS[0];
  return (
    <>
      <h1>Dashboard: {current.label.toLowerCase()}</h1>
      <nav aria-label="Dashboards" className="tabs">
        <ul>{VIEWS.map((v) => <li key={v.id}><Link to={`/dashboard?view=${v.id}`} aria-current={v.id === current.id ? 'page' : undefined}>{v.label}</Link></li>)}</ul>
      </nav>
      {current.id === 'overview' && <OverviewView />}
      {current.id === 'impact' && <ImpactView />}
      {current.id === 'analytics' && (
        <>
          <section aria-labelledby="an-intel"><h2 id="an-intel">Intelligence</h2><IntelligenceSection /></section>
          <section aria-labelledby="an-totals"><h2 id="an-totals">All-time totals</h2><AnalyticsSection /></section>
        </>
      )}
    </>
  );
}
