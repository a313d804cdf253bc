// The console's shell: sign-in gate, navigation (by role), and the page for the current path.
import { useEffect, useRef } from 'react';
import { NotAvailable } from './components';
import { CaseDetailPage, CasesPage, IntakeDetailPage, IntakesPage } from './pages/intakes-cases';
import { DashboardPage } from './pages/dashboard';
import { InvestigationDetailPage } from './pages/investigation-detail';
import { InvestigationsPage } from './pages/investigations';
import { ReportsPage } from './pages/reports';
import { ReviewsPage } from './pages/reviews';
import { WalletsPage } from './pages/wallets';
import { Link, navigate, useLocation } from './router';
import { hasRole, SessionProvider, SignInPage, useSession } from './session';
import type { Me, Role } from './types';

interface NavItem {
  to: string;
  label: string;
  roles: Role[];
}

/** Top-level views; the API serves index.html for each (CONSOLE_VIEWS in api/routes/console/console-routes.ts). */
const NAV: NavItem[] = [
  { to: '/dashboard', label: 'Dashboard', roles: ['admin', 'analyst', 'researcher', 'reviewer'] },
  { to: '/investigations', label: 'Investigations', roles: ['admin', 'analyst'] },
  { to: '/wallets', label: 'SSI wallets', roles: ['admin', 'analyst'] },
  { to: '/intakes', label: 'Intakes', roles: ['admin', 'analyst', 'reviewer'] },
  { to: '/cases', label: 'Cases', roles: ['admin', 'analyst', 'reviewer'] },
  { to: '/reviews', label: 'Review queue', roles: ['admin', 'analyst', 'reviewer'] },
  { to: '/reports', label: 'Scheduled reports', roles: ['admin', 'analyst'] },
];

function home(me: Me): string {
  return (NAV.find((n) => n.to !== '/dashboard' && hasRole(me, ...n.roles)) ?? NAV[0]).to;
}

function Page({ me }: { me: Me }) {
  const { path } = useLocation();
  const [, view, id, tab] = path.split('/');
  useEffect(() => {
    if (path === '/' || view === 'sign-in') navigate(home(me), { replace: true });
  }, [path, view, me]);
  switch (view) {
    case 'investigations':
      return id ? <InvestigationDetailPage scanId={id} tab={tab} /> : <InvestigationsPage />;
    case 'wallets':
      return <WalletsPage />;
    case 'intakes':
      return id ? <IntakeDetailPage id={id} /> : <IntakesPage />;
    case 'cases':
      return id ? <CaseDetailPage id={id} /> : <CasesPage />;
    case 'reviews':
      return <ReviewsPage />;
    case 'reports':
      return <ReportsPage />;
    case 'dashboard':
      return <DashboardPage />;
    case undefined:
    case '':
    case 'sign-in':
      return null;
    default:
      return <NotAvailable what={`The page ${path}`} />;
  }
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
        <div className="who">
          <span title={me.roles.join(', ')}>{me.email ?? 'service'} <span className="muted small">({me.roles.join(', ') || 'no roles'})</span></span>
          {session.local && <button type="button" onClick={session.signOut}>Switch user</button>}
        </div>
      </header>
      <main id="main" ref={main} tabIndex={-1}>
        {me.roles.length === 0 ? (
          <div className="state error" role="alert"><p>You are signed in as {me.email}, but you have no role on this platform. Ask an administrator to add one (<code>npx fip users add {me.email} --role analyst</code>).</p></div>
        ) : (
          <Page me={me} />
        )}
      </main>
    </>
  );
}

export function App() {
  return (
    <SessionProvider>
      <Shell />
    </SessionProvider>
  );
}
