// The console's shell: sign-in gate, navigation (by role), the global search box, and the route
// tree (TanStack Router: one route per view; state in the path and the query string) with cached
// data fetching (TanStack Query) around it.
import { QueryClientProvider } from '@tanstack/react-query';
import { createRootRoute, createRoute, createRouter, Outlet, RouterProvider, useParams } from '@tanstack/react-router';
import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { NotAvailable } from './components';
import { CaseDetailPage, CasesPage, IntakeDetailPage, IntakesPage } from './pages/intakes-cases';
import { DashboardPage } from './pages/dashboard';
import { InvestigationDetailPage } from './pages/investigation-detail';
import { InvestigationsPage } from './pages/investigations';
import { ReportsPage } from './pages/reports';
import { ReviewsPage } from './pages/reviews';
import { WalletsPage } from './pages/wallets';
import { EntityPage } from './pages/entity';
import { SearchPage } from './pages/search';
import { queryClient } from './query';
import { BASE, Link, navigate, registerRouter, useLocation } from './router';
import { hasRole, SessionProvider, SignInPage, useSession } from './session';
import type { Me } from './types';
import { AREAS } from './areas';
import type { NavItem } from './areas/types';

/** Top-level views; the API serves index.html for each (CONSOLE_VIEWS in api/routes/console/console-routes.ts). */
const NAV: NavItem[] = [
  { to: '/dashboard', label: 'Dashboard', roles: ['admin', 'analyst', 'researcher', 'reviewer'] },
  { to: '/search', label: 'Search', roles: ['admin', 'analyst', 'researcher', 'reviewer'] },
  { to: '/investigations', label: 'Investigations', roles: ['admin', 'analyst'] },
  { to: '/wallets', label: 'SSI wallets', roles: ['admin', 'analyst'] },
  { to: '/intakes', label: 'Intakes', roles: ['admin', 'analyst', 'reviewer'] },
  { to: '/cases', label: 'Cases', roles: ['admin', 'analyst', 'reviewer'] },
  { to: '/reviews', label: 'Review queue', roles: ['admin', 'analyst', 'reviewer'] },
  { to: '/reports', label: 'Scheduled reports', roles: ['admin', 'analyst'] },
  ...AREAS.flatMap((a) => a.nav ?? []),
];

function home(me: Me): string {
  // A reviewer's work is the review queue; analysts and admins start with investigations.
  if (hasRole(me, 'reviewer') && !hasRole(me, 'admin', 'analyst')) return '/reviews';
  return (NAV.find((n) => n.to !== '/dashboard' && n.to !== '/search' && hasRole(me, ...n.roles)) ?? NAV[0]).to;
}

/** "/" and /sign-in go to the person's first page. */
function Home() {
  const session = useSession();
  useEffect(() => {
    if (session.state === 'signed-in') navigate(home(session.me), { replace: true });
  }, [session]);
  return null;
}

type Params = Record<string, string | undefined>;
const useP = () => useParams({ strict: false }) as Params;

function InvestigationRoute() {
  const { scanId, tab } = useP();
  return <InvestigationDetailPage key={scanId} scanId={scanId!} tab={tab} />;
}
function IntakeRoute() {
  const { id } = useP();
  return <IntakeDetailPage key={id} id={id!} />;
}
function CaseRoute() {
  const { id } = useP();
  return <CaseDetailPage key={id} id={id!} />;
}
function EntityRoute() {
  const { id } = useP();
  return <EntityPage key={id ?? 'by-key'} id={id} />;
}
function NotFound() {
  const { path } = useLocation();
  return <NotAvailable what={`The page ${path}`} />;
}

/** The header's search box: Enter opens the search page with the query ("/" focuses it from anywhere). */
function GlobalSearch() {
  const { path, query } = useLocation();
  const [q, setQ] = useState(path === '/search' ? query.get('q') ?? '' : '');
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const t = e.target as HTMLElement | null;
      if (e.key !== '/' || e.ctrlKey || e.metaKey || e.altKey || (t && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName)))) return;
      e.preventDefault();
      input.current?.focus();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    navigate(`/search${q.trim() ? `?q=${encodeURIComponent(q.trim())}` : ''}`);
  };
  return (
    <form role="search" className="global-search" onSubmit={submit} aria-label="Search everything">
      <label htmlFor="global-q" className="sr-only">Search everything</label>
      <input id="global-q" ref={input} type="search" placeholder="Search ( / )" value={q} onChange={(e) => setQ(e.target.value)} />
    </form>
  );
}

function Shell() {
  const session = useSession();
  const { path } = useLocation();
  const main = useRef<HTMLElement>(null);
  useEffect(() => {
    // Moving between pages puts the keyboard focus at the start of the new page.
    main.current?.focus();
  }, [path]);
  if (session.state === 'loading') return <p className="state" role="status">Starting the console…</p>;
  if (session.state === 'choose-user') return <SignInPage local={session.local} signIn={session.signIn} />;
  if (session.state === 'no-identity') {
    return (
      <main id="main" className="sign-in">
        <h1>FIP console</h1>
        <div className="state error" role="alert"><p>{session.message}</p></div>
      </main>
    );
  }
  const me = session.me;
  const nav = NAV.filter((n) => hasRole(me, ...n.roles));
  const current = `/${path.split('/')[1] ?? ''}`;
  return (
    <>
      <a className="skip" href="#main">Skip to content</a>
      <header className="top">
        <Link to={home(me)} className="brand">FIP console</Link>
        <nav aria-label="Main">
          <ul>
            {nav.map((n) => (
              <li key={n.to}><Link to={n.to} aria-current={current === n.to ? 'page' : undefined}>{n.label}</Link></li>
            ))}
          </ul>
        </nav>
        <GlobalSearch />
        <div className="who">
          <span title={me.roles.join(', ')}>{me.email ?? 'service'} <span className="muted small">({me.roles.join(', ') || 'no roles'})</span></span>
          {session.local && <button type="button" onClick={session.signOut}>Switch user</button>}
        </div>
      </header>
      <main id="main" ref={main} tabIndex={-1}>
        {me.roles.length === 0 ? (
          <div className="state error" role="alert"><p>You are signed in as {me.email}, but you have no role on this platform. Ask an administrator to add one (<code>npx fip users add {me.email} --role analyst</code>).</p></div>
        ) : (
          <Outlet />
        )}
      </main>
    </>
  );
}

function Root() {
  return (
    <SessionProvider>
      <Shell />
    </SessionProvider>
  );
}

const root = createRootRoute({ component: Root, notFoundComponent: NotFound });
const route = (path: string, component: () => ReactNode) => createRoute({ getParentRoute: () => root, path, component });
const routeTree = root.addChildren([
  route('/', Home),
  route('/sign-in', Home),
  route('/dashboard', DashboardPage),
  route('/search', SearchPage),
  route('/entities', EntityRoute),
  route('/entities/$id', EntityRoute),
  route('/investigations', InvestigationsPage),
  route('/investigations/$scanId', InvestigationRoute),
  route('/investigations/$scanId/$tab', InvestigationRoute),
  route('/wallets', WalletsPage),
  route('/intakes', IntakesPage),
  route('/intakes/$id', IntakeRoute),
  route('/cases', CasesPage),
  route('/cases/$id', CaseRoute),
  route('/reviews', ReviewsPage),
  route('/reports', ReportsPage),
  ...AREAS.flatMap((a) => a.routes.map((r) => route(r.path, r.component))),
]);

/** Query strings stay plain (?q=abc&sort=-token), as people write and paste them. */
const router = createRouter({
  routeTree,
  basepath: BASE,
  parseSearch: (s) => Object.fromEntries(new URLSearchParams(s)),
  stringifySearch: (o) => {
    const q = new URLSearchParams(Object.entries(o).filter(([, v]) => v !== undefined && v !== null && v !== '').map(([k, v]) => [k, String(v)])).toString();
    return q ? `?${q}` : '';
  },
});
registerRouter(router);

export function App() {
  return (
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  );
}
