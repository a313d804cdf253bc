// The dashboard: charts of what the platform offers. Investigation and wallet charts come from the
// investigation routes (always there); analytics widgets come from whichever analytics routes the
// API documents (GET /openapi.json), drawn generically: numbers as KPI cards, lists of labelled
// numbers as bar charts, {nodes, links} flows as bars of link weights. No analytics route: a clear
// "not available" state.
import { useMemo, useState, useEffect } from 'react';
import { ApiError, availablePaths, getUntyped, objectUrl, sdk } from '../api';
import { ChartView, type Series } from '../chart';
import { Empty, ErrorState, Loading, NotAvailable, useLoad } from '../components';
import { hasRole, useMe } from '../session';

/** Analytics routes the dashboard draws when the API has them (parameter-free GETs). */
export const ANALYTICS_ROUTES = ['/analytics/overview', '/intelligence/dashboard', '/impact/dashboard', '/dashboard/overview'];
const WIDGET_PREFIX = '/analytics/widgets/';
const GRAPH_PNG = '/intelligence/graph.png';

function InvestigationCharts() {
  const [data, reload] = useLoad(async () => {
    const [history, active, wallets] = await Promise.all([
      sdk().investigations.history({ limit: 200 }).first(),
      sdk().investigations.active({ limit: 200 }).first(),
      sdk().wallets.search({ limit: 500 }).first(),
    ]);
    return { history: history.items, active: active.items, wallets: wallets.items };
  }, 'inv-charts');
  const charts = useMemo(() => {
    if (data.status !== 'ok') return null;
    const { history, active, wallets } = data.data;
    const days = new Map<string, { completed: number; failed: number }>();
    for (const i of [...history].reverse()) {
      const day = (i.completedAt ?? i.createdAt).slice(0, 10);
      const d = days.get(day) ?? { completed: 0, failed: 0 };
      if (i.status === 'completed') d.completed++;
      else d.failed++;
      days.set(day, d);
    }
    const byNetwork = new Map<string, number>();
    for (const w of wallets) byNetwork.set(w.network, (byNetwork.get(w.network) ?? 0) + 1);
    const networks = [...byNetwork.entries()].sort((a, b) => b[1] - a[1]);
    return {
      kpis: [
        ['Running now', active.length],
        ['Finished (latest 200)', history.length],
        ['Distinct wallets (latest 500)', wallets.length],
        ['Wallets on several sites', wallets.filter((w) => w.scanCount > 1).length],
      ] as Array<[string, number]>,
      dayLabels: [...days.keys()],
      daySeries: [{ label: 'completed', values: [...days.values()].map((d) => d.completed) }, { label: 'failed or cancelled', values: [...days.values()].map((d) => d.failed) }],
      netLabels: networks.map(([n]) => n),
      netSeries: [{ label: 'wallets', values: networks.map(([, c]) => c) }],
    };
  }, [data]);
  if (data.status === 'loading') return <Loading what="investigation figures" />;
  if (data.status === 'error') return <ErrorState error={data.error} retry={reload} />;
  if (!charts) return null;
  return (
    <>
      <ul className="kpis">{charts.kpis.map(([l, v]) => <li key={l} className="card kpi"><span className="kpi-value">{v}</span><span className="kpi-label">{l}</span></li>)}</ul>
      <div className="charts">
        {charts.dayLabels.length ? <ChartView kind="bar" title="Investigations finished per day" labels={charts.dayLabels} series={charts.daySeries} /> : <Empty>No finished investigation yet.</Empty>}
        {charts.netLabels.length ? <ChartView kind="doughnut" title="Wallets by network" labels={charts.netLabels} series={charts.netSeries} /> : <Empty>No wallet found yet.</Empty>}
      </div>
    </>
  );
}

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

const LABEL_KEYS = ['label', 'name', 'key', 'taxonomy', 'country', 'stage', 'bucket', 'date', 'day', 'period', 'category', 'type', 'status'];

/** Turns a chart-ready JSON answer into KPI numbers and charts, whatever its exact shape. */
function describe(body: Json): { kpis: Array<[string, number | string]>; charts: Array<{ title: string; labels: string[]; series: Series[] }> } {
  const kpis: Array<[string, number | string]> = [];
  const charts: Array<{ title: string; labels: string[]; series: Series[] }> = [];
  const visit = (value: Json, name: string) => {
    if (typeof value === 'number') kpis.push([name, value]);
    else if (typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value)) kpis.push([name, value]);
    else if (Array.isArray(value) && value.length && value.every((v) => v && typeof v === 'object' && !Array.isArray(v))) {
      const rows = value as Array<Record<string, Json>>;
      const labelKey = LABEL_KEYS.find((k) => rows.every((r) => typeof r[k] === 'string' || typeof r[k] === 'number'));
      const numKeys = Object.keys(rows[0]).filter((k) => k !== labelKey && rows.every((r) => typeof r[k] === 'number' || (typeof r[k] === 'string' && /^-?\d+(\.\d+)?$/.test(r[k] as string))));
      if (labelKey && numKeys.length) {
        charts.push({ title: name, labels: rows.map((r) => String(r[labelKey])), series: numKeys.slice(0, 4).map((k) => ({ label: k.replace(/_/g, ' '), values: rows.map((r) => Number(r[k])) })) });
      }
    } else if (value && typeof value === 'object' && !Array.isArray(value)) {
      for (const [k, v] of Object.entries(value)) visit(v, name ? `${name} · ${k.replace(/_/g, ' ')}` : k.replace(/_/g, ' '));
    }
  };
  visit(body, '');
  return { kpis: kpis.slice(0, 12), charts: charts.slice(0, 8) };
}

function Widget({ path }: { path: string }) {
  const [data, reload] = useLoad(() => getUntyped<Json>(path), path, { unavailableOn404: true });
  if (data.status === 'loading') return <Loading what={path} />;
  if (data.status === 'unavailable') return <NotAvailable what={path} />;
  if (data.status === 'error') {
    if (data.error instanceof ApiError && data.error.status === 403) return null;
    return <ErrorState error={data.error} retry={reload} />;
  }
  if (data.status !== 'ok') return null;
  const { kpis, charts } = describe(data.data);
  return (
    <section className="widget" aria-label={path}>
      <h3><code>{path}</code></h3>
      {kpis.length > 0 && <ul className="kpis">{kpis.map(([l, v]) => <li key={l} className="card kpi"><span className="kpi-value">{v}</span><span className="kpi-label">{l}</span></li>)}</ul>}
      <div className="charts">{charts.map((c) => <ChartView key={c.title} kind="bar" title={c.title} labels={c.labels} series={c.series} />)}</div>
      {kpis.length === 0 && charts.length === 0 && <Empty>No figures yet.</Empty>}
    </section>
  );
}

function GraphImage() {
  const [src, setSrc] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let url: string | null = null;
    objectUrl(GRAPH_PNG).then((u) => { url = u; setSrc(u); }, () => setFailed(true));
    return () => { if (url) URL.revokeObjectURL(url); };
  }, []);
  if (failed) return <NotAvailable what="The relationship graph" />;
  if (!src) return <Loading what="the relationship graph" />;
  return <img className="graph" src={src} alt="Relationship graph of entities (wallets, domains, people, organizations)" />;
}

export function DashboardPage() {
  const me = useMe();
  const [paths] = useLoad(availablePaths, 'openapi');
  const analytics = paths.status === 'ok' ? [...paths.data].filter((p) => ANALYTICS_ROUTES.includes(p) || (p.startsWith(WIDGET_PREFIX) && !p.includes('{'))).sort() : [];
  return (
    <>
      <h1>Dashboard</h1>
      {hasRole(me, 'admin', 'analyst') && <section aria-labelledby="d-inv"><h2 id="d-inv">Investigations and wallets</h2><InvestigationCharts /></section>}
      <section aria-labelledby="d-an">
        <h2 id="d-an">Analytics</h2>
        {paths.status === 'loading' && <Loading what="analytics" />}
        {paths.status === 'ok' && analytics.length === 0 && <NotAvailable what="Analytics (dashboards and widgets)" />}
        {analytics.map((p) => <Widget key={p} path={p} />)}
      </section>
      {paths.status === 'ok' && paths.data.has(GRAPH_PNG) && <section aria-labelledby="d-graph"><h2 id="d-graph">Relationship graph</h2><GraphImage /></section>}
    </>
  );
}
