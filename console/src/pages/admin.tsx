// The administration area's frame: its sections as links (each section has its own URL, so a link
// pasted to a colleague opens the same one) and the "not allowed" page for everyone but admins.
import { useParams } from '@tanstack/react-router';
import { Link } from '../router';
import { hasRole, useMe } from '../session';
import { ApiKeysSection, UsersSection } from './admin-accounts';
import { AuditSection } from './admin-audit';
import { PlaybookDetail, PlaybooksSection } from './admin-playbooks';

const SECTIONS = [
  { id: 'users', label: 'Users and roles' },
  { id: 'keys', label: 'API keys' },
  { id: 'audit', label: 'Audit log' },
  { id: 'playbooks', label: 'Playbooks' },
] as const;

export function NotAllowed({ what }: { what: string }) {
  return (
    <div className="state error" role="alert">
      <h1>Not allowed</h1>
      <p><strong>{what} is for administrators only.</strong> Your roles do not include admin; ask an administrator if you need something changed here.</p>
    </div>
  );
}

export function AdminPage() {
  const me = useMe();
  const { section, id } = useParams({ strict: false }) as { section?: string; id?: string };
  if (!hasRole(me, 'admin')) return <NotAllowed what="Administration" />;
  const current = SECTIONS.find((s) => s.id === section) ?? SECTIONS[0];
  return (
    <>
      <h1>Administration</h1>
      <nav aria-label="Administration sections" className="tabs">
        {SECTIONS.map((s) => (
          <Link key={s.id} to={`/admin/${s.id}`} className="tab" aria-current={s.id === current.id ? 'page' : undefined}>{s.label}</Link>
        ))}
      </nav>
      <section className="panel" aria-labelledby="admin-section">
        {current.id === 'users' && <UsersSection />}
        {current.id === 'keys' && <ApiKeysSection />}
        {current.id === 'audit' && <AuditSection />}
        {current.id === 'playbooks' && (id ? <PlaybookDetail key={id} id={id} /> : <PlaybooksSection />)}
      </section>
    </>
  );
}
