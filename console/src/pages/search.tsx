// Search: the platform's query language (POST /reviews/search/query) with inline syntax help and
// autocomplete of fields and values from GET /reviews/search/schema; results grouped by record type
// with the matched words highlighted; a local history of recent queries; presets and saved searches
// (search-saved.tsx). The query, the record types and the sort are in the URL. A query the API
// refuses (400) is shown as a sentence naming the line and column, never as JSON.
import { Fragment, useMemo, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { ApiError, sdk } from '../api';
import { Empty, ErrorState, Loading, useLoad } from '../components';
import { EntityLink, TYPE_LABELS } from '../entity-link';
import { describeError } from '../errors';
import { Link, useSearchParams } from '../router';
import { hasRole, useMe } from '../session';
import type { Schema } from '../../../sdk/src';
import { SavedSearches } from './search-saved';

type SearchSchema = Schema<'SearchSchema'>;
type Hit = Schema<'SearchHit'>;

const RECORD_LABELS: Record<string, string> = { case: 'Cases', intake: 'Intakes', investigation: 'Investigations', entity: 'Entities', wallet: 'Wallets', indicator: 'Indicators' };
const HISTORY_KEY = 'fip.console.search-history';
const HISTORY_MAX = 20;

// ---- history (this browser only) ----------------------------------------------------------------

function readHistory(): string[] {
  try {
    const v = JSON.parse(localStorage.getItem(HISTORY_KEY) ?? '[]') as unknown;
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
  } catch {
    return [];
  }
}

function remember(q: string): void {
  if (!q.trim()) return;
  localStorage.setItem(HISTORY_KEY, JSON.stringify([q, ...readHistory().filter((h) => h !== q)].slice(0, HISTORY_MAX)));
}

// ---- snippets: the API's HTML-escaped text with <mark> elements, rendered without innerHTML ------

const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'", '&#x27;': "'" };
const unescape = (s: string) => s.replace(/&(amp|lt|gt|quot|#39|#x27);/g, (m) => ENTITIES[m] ?? m);

export function Snippet({ html }: { html: string }) {
  const parts = html.split(/(<mark>|<\/mark>)/);
  const out: ReactNode[] = [];
  let marked = false;
  parts.forEach((p, i) => {
    if (p === '<mark>') marked = true;
    else if (p === '</mark>') marked = false;
    else if (p) out.push(marked ? <mark key={i}>{unescape(p)}</mark> : <Fragment key={i}>{unescape(p)}</Fragment>);
  });
  return <span className="snippet">{out}</span>;
}

// ---- autocomplete -------------------------------------------------------------------------------

interface Suggestion {
  label: string;
  hint: string;
  /** The query with this suggestion applied. */
  apply: string;
}

export function suggestionsFor(query: string, schema: SearchSchema): Suggestion[] {
  const m = /(^|[\s(])(-?)([^\s()]*)$/.exec(query);
  if (!m) return [];
  const token = m[3];
  const head = query.slice(0, query.length - token.length);
  const colon = token.indexOf(':');
  if (colon < 0) {
    if (!token) return [];
    const t = token.toLowerCase();
    return schema.fields
      .filter((f) => f.name.startsWith(t) && f.name !== t)
      .slice(0, 10)
      .map((f) => ({ label: `${f.name}:`, hint: `${f.type} — ${f.description.split('. ')[0]}`, apply: `${head}${f.name}:` }));
  }
  const field = schema.fields.find((f) => f.name === token.slice(0, colon).toLowerCase());
  if (!field) return [];
  const partial = token.slice(colon + 1).replace(/^"/, '').toLowerCase();
  const values = field.values ?? [];
  if (values.length) {
    return values
      .filter((v) => v.toLowerCase().startsWith(partial) && v.toLowerCase() !== partial)
      .slice(0, 12)
      .map((v) => ({ label: `${field.name}:${v}`, hint: field.description.split('. ')[0], apply: `${head}${field.name}:${/\s/.test(v) ? `"${v}"` : v} ` }));
  }
  if (!partial) return field.examples.slice(0, 5).map((ex) => ({ label: ex, hint: `example (${field.type})`, apply: `${head}${ex} ` }));
  return [];
}

function QueryInput({ value, onChange, schema, onSubmit }: { value: string; onChange: (v: string) => void; schema: SearchSchema | null; onSubmit: () => void }) {
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const input = useRef<HTMLInputElement>(null);
  const list = schema && open ? suggestionsFor(value, schema) : [];
  const accept = (s: Suggestion) => {
    onChange(s.apply);
    setActive(0);
    input.current?.focus();
  };
  const onKey = (e: KeyboardEvent<HTMLInputElement>) => {
    if (list.length && (e.key === 'ArrowDown' || e.key === 'ArrowUp')) {
      e.preventDefault();
      setActive((a) => (a + (e.key === 'ArrowDown' ? 1 : list.length - 1)) % list.length);
    } else if (list.length && (e.key === 'Tab' || (e.key === 'Enter' && active >= 0 && list[active]))) {
      e.preventDefault();
      accept(list[active]);
    } else if (e.key === 'Escape' && list.length) {
      e.preventDefault();
      setOpen(false);
    }
    else if (e.key === 'Enter') {
      e.preventDefault();
      onSubmit();
    }
  };
  return (
    <div className="field grow combo">
      <label htmlFor="search-q">Query</label>
      <input
        id="search-q" ref={input} type="search" autoComplete="off" spellCheck={false} value={value} placeholder='romance status:open loss:>5000 wallet:TQ*'
        role="combobox" aria-expanded={list.length > 0} aria-controls="search-suggestions" aria-autocomplete="list"
        aria-activedescendant={list.length ? `sugg-${active}` : undefined} aria-describedby="search-syntax-hint"
        onChange={(e) => { onChange(e.target.value); setOpen(true); setActive(0); }} onKeyDown={onKey} onBlur={() => setTimeout(() => setOpen(false), 150)} onFocus={() => setOpen(true)}
      />
      <p id="search-syntax-hint" className="muted small">Fields as <code>field:value</code> (Tab completes), <code>AND</code>, <code>OR</code>, <code>NOT</code>, <code>"phrases"</code>, <code>*</code> wildcards; see Syntax below.</p>
      {list.length > 0 && (
        <ul id="search-suggestions" role="listbox" className="suggestions" aria-label="Suggestions">
          {list.map((s, i) => (
            <li key={s.label} id={`sugg-${i}`} role="option" aria-selected={i === active} onMouseDown={(e) => { e.preventDefault(); accept(s); }}>
              <code>{s.label}</code> <span className="muted small">{s.hint}</span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function SyntaxHelp({ schema }: { schema: SearchSchema }) {
  return (
    <details className="syntax-help card">
      <summary>Syntax and fields</summary>
      <table>
        <caption className="sr-only">Query syntax</caption>
        <thead><tr><th scope="col">Form</th><th scope="col">Meaning</th><th scope="col">Example</th></tr></thead>
        <tbody>{schema.syntax.map((s) => <tr key={s.form}><td><code>{s.form}</code></td><td>{s.meaning}</td><td><code>{s.example}</code></td></tr>)}</tbody>
      </table>
      <table>
        <caption className="sr-only">Fields</caption>
        <thead><tr><th scope="col">Field</th><th scope="col">Type</th><th scope="col">Records</th><th scope="col">What</th></tr></thead>
        <tbody>{schema.fields.map((f) => <tr key={f.name}><td><code>{f.name}</code></td><td>{f.type}</td><td>{f.recordTypes.join(', ')}</td><td>{f.description}{f.values?.length ? <> Values: {f.values.join(', ')}.</> : null}</td></tr>)}</tbody>
      </table>
    </details>
  );
}

// ---- results ------------------------------------------------------------------------------------

function HitTitle({ hit }: { hit: Hit }) {
  const r = hit.record as Record<string, unknown>;
  switch (hit.type) {
    case 'case': return <Link to={`/cases/${hit.id}`}>{hit.title}</Link>;
    case 'intake': return <Link to={`/intakes/${hit.id}`}>{hit.title}</Link>;
    case 'investigation': return <Link to={`/investigations/${hit.id}`}>{hit.title}</Link>;
    case 'entity':
    case 'indicator': return <EntityLink id={hit.id} type={String(r.type ?? 'entity')} value={hit.title} showType />;
    case 'wallet': return <EntityLink type="wallet" value={String(r.address ?? hit.title)}>{hit.title}</EntityLink>;
    default: return <>{hit.title}</>;
  }
}

function Results({ query, types, sort }: { query: string; types: string[]; sort: 'relevance' | 'newest' }) {
  const [res, reload] = useLoad(
    () => sdk().request('post', '/reviews/search/query', { body: { query, types: types.length ? (types as Array<'case'>) : undefined, sort, limit: 100 } }),
    JSON.stringify([query, types, sort]),
  );
  if (res.status === 'loading') return <Loading what="results" />;
  if (res.status === 'error') {
    if (res.error instanceof ApiError && res.error.status === 400) {
      const d = describeError(res.error);
      return <div className="state error" role="alert"><p><strong>This query cannot run.</strong> {d.sentence}</p></div>;
    }
    return <ErrorState error={res.error} retry={reload} />;
  }
  if (res.status !== 'ok') return null;
  const r = res.data;
  if (r.aggregates) {
    return (
      <section aria-label="Counts">
        <p className="muted">Your role sees how many records match, per type (not the records).</p>
        <ul>{r.aggregates.map((a) => <li key={a.type}>{RECORD_LABELS[a.type] ?? a.type}: {a.count}{a.capped ? '+' : ''}</li>)}</ul>
      </section>
    );
  }
  if (r.items.length === 0) return <Empty>Nothing matches this query.</Empty>;
  const groups = new Map<string, Hit[]>();
  for (const h of r.items) groups.set(h.type, [...(groups.get(h.type) ?? []), h]);
  return (
    <div className="hits">
      <p className="muted small" role="status">{r.totalEstimate}{r.totalCapped ? '+' : ''} matching records{r.nextCursor ? ` (the first ${r.items.length} shown)` : ''}</p>
      {[...groups].map(([type, hits]) => (
        <section key={type} className="hit-group" aria-labelledby={`hits-${type}`}>
          <h2 id={`hits-${type}`}>{RECORD_LABELS[type] ?? type} ({hits.length})</h2>
          <ul className="cards">
            {hits.map((h) => (
              <li key={`${h.type}:${h.id}`} className="card hit">
                <div><HitTitle hit={h} /> <span className="muted small">matched {h.matchedFields.join(', ')}</span></div>
                {h.snippet && <p className="small"><Snippet html={h.snippet} /></p>}
              </li>
            ))}
          </ul>
        </section>
      ))}
    </div>
  );
}

// ---- the page -----------------------------------------------------------------------------------

export function SearchPage() {
  const me = useMe();
  const [params, setParams] = useSearchParams();
  const query = params.get('q') ?? '';
  const types = useMemo(() => (params.get('types') ?? '').split(',').filter(Boolean), [params]);
  const sort = params.get('sort') === 'newest' ? 'newest' : 'relevance';
  const [draft, setDraft] = useState(query);
  const [seen, setSeen] = useState(query);
  if (seen !== query) {
    setSeen(query);
    setDraft(query);
  }
  const [schema] = useLoad(() => sdk().request('get', '/reviews/search/schema'), 'schema');
  const [history, setHistory] = useState(readHistory);
  const run = () => {
    remember(draft.trim());
    setHistory(readHistory());
    setParams({ q: draft.trim() || null, saved: null }, { push: true });
  };
  const searched = params.has('q');
  const recordTypes = schema.status === 'ok' ? schema.data.recordTypes : ['case', 'intake', 'investigation', 'entity', 'wallet', 'indicator'];
  return (
    <>
      <h1>Search</h1>
      <form className="card" onSubmit={(e) => { e.preventDefault(); run(); }} aria-label="Search">
        <div className="filters">
          <QueryInput value={draft} onChange={setDraft} schema={schema.status === 'ok' ? schema.data : null} onSubmit={run} />
          <button type="submit" className="primary">Search</button>
        </div>
        <fieldset className="filters">
          <legend>Record types</legend>
          {recordTypes.map((t) => (
            <label key={t} className="check">
              <input type="checkbox" checked={types.includes(t)} onChange={(e) => setParams({ types: (e.target.checked ? [...types, t] : types.filter((x) => x !== t)).join(',') })} /> {RECORD_LABELS[t] ?? t}
            </label>
          ))}
          <label htmlFor="search-sort">Order</label>
          <select id="search-sort" value={sort} onChange={(e) => setParams({ sort: e.target.value === 'relevance' ? null : e.target.value })}>
            <option value="relevance">most relevant first</option><option value="newest">newest first</option>
          </select>
        </fieldset>
      </form>
      {schema.status === 'ok' && <SyntaxHelp schema={schema.data} />}
      {history.length > 0 && (
        <nav aria-label="Recent searches" className="small">
          Recent: {history.slice(0, 8).map((h) => <Fragment key={h}><Link to={`/search?q=${encodeURIComponent(h)}`}>{h}</Link>{' · '}</Fragment>)}
          <button type="button" className="icon" onClick={() => { localStorage.removeItem(HISTORY_KEY); setHistory([]); }}>Clear history</button>
        </nav>
      )}
      {searched ? <Results query={query} types={types} sort={sort} /> : <p className="muted">Type a query{hasRole(me, 'admin', 'analyst', 'reviewer') ? ', or run one of the saved searches below' : ''}. Entities: {Object.values(TYPE_LABELS).join(', ')}.</p>}
      {/* The roles of SAVED_SEARCH_ROLES (api/routes/search/saved-search-routes.ts): a researcher would get 403s. */}
      {hasRole(me, 'admin', 'analyst', 'reviewer') && <SavedSearches current={{ query, types, sort }} />}
    </>
  );
}
