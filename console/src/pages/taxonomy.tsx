// The taxonomy browser: the scam taxonomy tree (GET /taxonomy) with, per node, its cases and
// campaigns and its losses per currency (GET /analytics/widgets/loss-by-taxonomy), every figure
// rolled up to the parents. The selected node is in the URL (?node=investment/crypto): a deep link.
import { useMemo } from 'react';
import { getUntyped } from '../api';
import { Empty, ErrorState, Loading, Time, useLoad } from '../components';
import { Link, useSearchParam } from '../router';
import { formatMoney, type LossItem } from './dashboard-data';

interface TaxNode { path: string; slug: string; label: string; depth: number; cases: number | null; campaigns: number; children: TaxNode[] }
interface Taxonomy { asOf: string; nodes: TaxNode[]; unclassified: { cases: number | null; campaigns: number } }
interface Loss { asOf: string; currencies: string[]; items: LossItem[]; suppressedGroups: number }

const fmt = (n: number | null) => (n === null ? '—' : n.toLocaleString('en-GB'));

function flatten(nodes: TaxNode[], out = new Map<string, TaxNode>()): Map<string, TaxNode> {
  for (const n of nodes) {
    out.set(n.path, n);
    flatten(n.children, out);
  }
  return out;
}

function Tree({ nodes, losses, selected }: { nodes: TaxNode[]; losses: Map<string, LossItem>; selected: string }) {
  return (
    <ul className="tree">
      {nodes.map((n) => {
        const loss = losses.get(n.path)?.losses ?? [];
        return (
          <li key={n.path}>
            <Link to={`/taxonomy?node=${encodeURIComponent(n.path)}`} aria-current={n.path === selected ? 'true' : undefined} data-taxonomy={n.path}>{n.label}</Link>
            <span className="muted small"> {fmt(n.cases)} cases · {n.campaigns} campaigns{loss.length > 0 && ` · ${loss.map(formatMoney).join(', ')}`}</span>
            {n.children.length > 0 && <Tree nodes={n.children} losses={losses} selected={selected} />}
          </li>
        );
      })}
    </ul>
  );
}

function NodeDetail({ node, loss, currencies }: { node: TaxNode; loss: LossItem | undefined; currencies: string[] }) {
  const searchCases = `/search?q=${encodeURIComponent(`taxonomy:${node.path}*`)}`;
  return (
    <section className="card node-detail" aria-labelledby="tx-node">
      <h2 id="tx-node">{node.label}</h2>
      <p className="muted"><code>{node.path}</code></p>
      <ul className="kpis" aria-label={`Figures of ${node.label}`}>
        <li className="card kpi"><Link to={searchCases} className="kpi-link"><span className="kpi-value">{fmt(node.cases)}</span><span className="kpi-label">Cases (this type and below)</span></Link></li>
        <li className="card kpi"><Link to={`/campaigns?taxonomy=${encodeURIComponent(node.path)}`} className="kpi-link"><span className="kpi-value">{fmt(node.campaigns)}</span><span className="kpi-label">Campaigns</span></Link></li>
      </ul>
      <table className="data">
        <caption>Losses of {node.label} per currency</caption>
        <thead><tr><th scope="col">Currency</th><th scope="col">Loss</th></tr></thead>
        <tbody>
          {currencies.filter((c) => loss?.losses.some((l) => l.currency === c)).map((c) => {
            const a = loss!.losses.find((l) => l.currency === c)!;
            return <tr key={c}><th scope="row">{c}</th><td className="num" data-currency={c}>{formatMoney(a)}</td></tr>;
          })}
          {!loss?.losses.length && <tr><td colSpan={2}>No loss recorded under this type.</td></tr>}
        </tbody>
      </table>
      {node.children.length > 0 && <p>Includes: {node.children.map((c, i) => <span key={c.path}>{i > 0 && ', '}<Link to={`/taxonomy?node=${encodeURIComponent(c.path)}`}>{c.label}</Link></span>)}</p>}
    </section>
  );
}

export function TaxonomyPage() {
  const [selected] = useSearchParam('node');
  const [tax, reloadTax] = useLoad(() => getUntyped<Taxonomy>('/taxonomy'), 'taxonomy');
  const [loss, reloadLoss] = useLoad(() => getUntyped<Loss>('/analytics/widgets/loss-by-taxonomy'), 'loss-by-taxonomy');
  const losses = useMemo(() => new Map((loss.status === 'ok' ? loss.data.items : []).map((i) => [i.taxonomy, i])), [loss]);
  const byPath = useMemo(() => (tax.status === 'ok' ? flatten(tax.data.nodes) : new Map<string, TaxNode>()), [tax]);
  if (tax.status === 'loading' || loss.status === 'loading') return <><h1>Scam taxonomy</h1><Loading what="the taxonomy" /></>;
  if (tax.status === 'error') return <><h1>Scam taxonomy</h1><ErrorState error={tax.error} retry={reloadTax} /></>;
  if (loss.status === 'error') return <><h1>Scam taxonomy</h1><ErrorState error={loss.error} retry={reloadLoss} /></>;
  if (tax.status !== 'ok' || loss.status !== 'ok') return null;
  const node = selected ? byPath.get(selected) : undefined;
  return (
    <>
      <h1>Scam taxonomy</h1>
      <p className="as-of muted">Figures as of <Time iso={tax.data.asOf < loss.data.asOf ? tax.data.asOf : loss.data.asOf} />; each type counts the types below it.</p>
      <div className="split">
        <nav aria-label="Taxonomy tree"><Tree nodes={tax.data.nodes} losses={losses} selected={selected} /></nav>
        <div>
          {node ? <NodeDetail node={node} loss={losses.get(node.path)} currencies={loss.data.currencies} /> : selected ? <Empty>No scam type <code>{selected}</code>.</Empty> : <Empty>Choose a scam type to see its cases, campaigns and losses.</Empty>}
          <p className="muted">Without a scam type: {fmt(tax.data.unclassified.cases)} cases, {tax.data.unclassified.campaigns} campaigns.{loss.data.suppressedGroups > 0 && ` ${loss.data.suppressedGroups} types are left out: too few victims stand behind their losses.`}</p>
        </div>
      </div>
    </>
  );
}
