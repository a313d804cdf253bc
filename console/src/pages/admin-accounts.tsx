// Administration of accounts: users and their roles (add, change roles, disable) and API keys
// (create with scopes, the secret shown once with a copy button, revoke). Filters and the page
// cursor live in the URL; every change asks for confirmation where it takes something away and
// shows its result at once.
import { useState, type FormEvent } from 'react';
import { sdk } from '../api';
import { CopyButton, Empty, ErrorState, Loading, Time, useLoad } from '../components';
import { describeError } from '../errors';
import { invalidateLoads } from '../query';
import { useSearchParam, useSearchParams } from '../router';
import { useMe } from '../session';
import type { ApiKey, CreatedApiKey, Role, User } from '../types';

const ROLES: Role[] = ['admin', 'analyst', 'researcher', 'reviewer'];
const SCOPES = ['intake:write', 'tasks:update', 'reports:read', 'reports:write', 'investigations:read', 'investigations:write', 'taxii:read'] as const;
type Scope = (typeof SCOPES)[number];

/** "Next page" / "First page" over a cursor kept in the URL. */
export function Pager({ next, what }: { next: string | null | undefined; what: string }) {
  const [cursor, setCursor] = useSearchParam('cursor');
  if (!next && !cursor) return null;
  return (
    <div className="pager">
      {cursor && <button type="button" onClick={() => setCursor('')}>First page of {what}</button>}
      {next && <button type="button" onClick={() => setCursor(next)}>Next page of {what}</button>}
    </div>
  );
}

function Checkboxes<T extends string>({ legend, options, value, onChange, idPrefix }: { legend: string; options: readonly T[]; value: T[]; onChange: (v: T[]) => void; idPrefix: string }) {
  return (
    <fieldset>
      <legend>{legend}</legend>
      {options.map((o) => (
        <label key={o} className="check" htmlFor={`${idPrefix}-${o}`}>
          <input id={`${idPrefix}-${o}`} type="checkbox" checked={value.includes(o)} onChange={(e) => onChange(e.target.checked ? [...value, o] : value.filter((x) => x !== o))} /> {o}
        </label>
      ))}
    </fieldset>
  );
}

function AddUser({ onDone }: { onDone: (msg: string) => void }) {
  const [email, setEmail] = useState('');
  const [roles, setRoles] = useState<Role[]>(['analyst']);
  const [error, setError] = useState<string | null>(null);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    try {
      const u = await sdk().request('post', '/accounts/users', { body: { email, roles } });
      setEmail('');
      onDone(`Added ${u.email} (${u.roles.join(', ')}).`);
    } catch (err) {
      setError(describeError(err).sentence);
    }
  };
  return (
    <form className="card" onSubmit={submit} aria-labelledby="add-user">
      <h3 id="add-user">Add a user</h3>
      <div className="fields">
        <div className="field grow">
          <label htmlFor="new-user-email">E-mail address</label>
          <input id="new-user-email" type="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
        </div>
      </div>
      <Checkboxes legend="Roles" options={ROLES} value={roles} onChange={setRoles} idPrefix="new-user-role" />
      <p className="muted small">An existing user keeps their other roles and is enabled again.</p>
      <button type="submit" className="primary" disabled={roles.length === 0}>Add user</button>
      {error && <p className="form-error" role="alert">Could not add: {error}</p>}
    </form>
  );
}

function UserRow({ user, self, onDone }: { user: User; self: boolean; onDone: (msg: string) => void }) {
  const [editing, setEditing] = useState(false);
  const [roles, setRoles] = useState<Role[]>(user.roles);
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const act = async (what: () => Promise<User>, msg: (u: User) => string) => {
    setError(null);
    try {
      const u = await what();
      setEditing(false);
      setConfirming(false);
      onDone(msg(u));
    } catch (err) {
      setError(describeError(err).sentence);
    }
  };
  const save = () => act(() => sdk().request('put', '/accounts/users/{id}/roles', { path: { id: user.id }, body: { roles } }), (u) => `${u.email} now has the roles ${u.roles.join(', ')}.`);
  const disable = () => act(() => sdk().request('post', '/accounts/users/{id}/disable', { path: { id: user.id } }), (u) => `Disabled ${u.email} (kept for the audit trail).`);
  return (
    <tr className={user.active ? '' : 'inactive'}>
      <td data-label="E-mail">{user.email}{self && <span className="muted small"> (you)</span>}</td>
      <td data-label="Roles">
        {editing ? <Checkboxes legend={`Roles of ${user.email}`} options={ROLES} value={roles} onChange={setRoles} idPrefix={`roles-${user.id}`} /> : user.roles.join(', ') || <span className="muted">none</span>}
      </td>
      <td data-label="Status">{user.active ? 'active' : 'disabled'}</td>
      <td data-label="Added"><Time iso={user.createdAt} /></td>
      <td>
        {editing ? (
          <>
            <button type="button" className="primary" onClick={() => void save()} disabled={roles.length === 0}>Save roles of {user.email}</button>{' '}
            <button type="button" onClick={() => { setEditing(false); setRoles(user.roles); }}>Cancel</button>
          </>
        ) : (
          <button type="button" onClick={() => setEditing(true)} aria-label={`Change roles of ${user.email}`}>Change roles</button>
        )}{' '}
        {user.active && !self && !confirming && <button type="button" onClick={() => setConfirming(true)} aria-label={`Disable ${user.email}`}>Disable</button>}
        {confirming && (
          <div className="notice" role="alertdialog" aria-label={`Disable ${user.email}?`}>
            <p>Disable {user.email}? They lose every role at once; the account stays for the audit trail.</p>
            <button type="button" onClick={() => void disable()}>Yes, disable {user.email}</button>{' '}
            <button type="button" onClick={() => setConfirming(false)}>Keep the user</button>
          </div>
        )}
        {error && <p className="form-error" role="alert">{error}</p>}
      </td>
    </tr>
  );
}

export function UsersSection() {
  const me = useMe();
  const [q, setQ] = useSearchParam('q');
  const [role, setRole] = useSearchParam('role');
  const [active, setActive] = useSearchParam('active');
  const [params] = useSearchParams();
  const cursor = params.get('cursor') ?? undefined;
  const [notice, setNotice] = useState<string | null>(null);
  const [list, reload] = useLoad(
    () => sdk().request('get', '/accounts/users', { query: { q: q || undefined, role: (role || undefined) as Role | undefined, active: (active || undefined) as 'true' | 'false' | undefined, limit: 50, cursor } }),
    `users ${q} ${role} ${active} ${cursor ?? ''}`,
  );
  const done = (msg: string) => {
    setNotice(msg);
    invalidateLoads();
    reload();
  };
  return (
    <>
      <h2 id="admin-section">Users and roles</h2>
      <AddUser onDone={done} />
      {notice && <p role="status" className="ok-text">{notice}</p>}
      <div className="filters" role="group" aria-label="Filter users">
        <div className="field grow">
          <label htmlFor="users-q">E-mail contains</label>
          <input id="users-q" type="search" value={q} onChange={(e) => setQ(e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor="users-role">Role</label>
          <select id="users-role" value={role} onChange={(e) => setRole(e.target.value)}>
            <option value="">Any role</option>
            {ROLES.map((r) => <option key={r} value={r}>{r}</option>)}
          </select>
        </div>
        <div className="field">
          <label htmlFor="users-active">Status</label>
          <select id="users-active" value={active} onChange={(e) => setActive(e.target.value)}>
            <option value="">Active and disabled</option><option value="true">Active</option><option value="false">Disabled</option>
          </select>
        </div>
      </div>
      {list.status === 'loading' && <Loading what="users" />}
      {list.status === 'error' && <ErrorState error={list.error} retry={reload} />}
      {list.status === 'ok' && list.data.items.length === 0 && <Empty>No user matches.</Empty>}
      {list.status === 'ok' && list.data.items.length > 0 && (
        <div className="table-wrap">
          <table>
            <caption className="sr-only">Users, newest first</caption>
            <thead><tr><th scope="col">E-mail</th><th scope="col">Roles</th><th scope="col">Status</th><th scope="col">Added</th><th scope="col"><span className="sr-only">Actions</span></th></tr></thead>
            <tbody>{list.data.items.map((u) => <UserRow key={`${u.id} ${u.updatedAt}`} user={u} self={u.email === me?.email} onDone={done} />)}</tbody>
          </table>
        </div>
      )}
      {list.status === 'ok' && <Pager next={list.data.nextCursor} what="users" />}
    </>
  );
}

function CreateKey({ onCreated }: { onCreated: (k: CreatedApiKey) => void }) {
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<Scope[]>([]);
  const [error, setError] = useState<string | null>(null);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    try {
      const k = await sdk().request('post', '/accounts/api-keys', { body: { name, scopes } });
      setName('');
      setScopes([]);
      onCreated(k);
    } catch (err) {
      setError(describeError(err).sentence);
    }
  };
  return (
    <form className="card" onSubmit={submit} aria-labelledby="create-key">
      <h3 id="create-key">Create an API key</h3>
      <div className="fields">
        <div className="field grow">
          <label htmlFor="key-name">Name (who uses the key, e.g. intake-bot)</label>
          <input id="key-name" required pattern="[A-Za-z0-9][A-Za-z0-9._\-]{1,63}" value={name} onChange={(e) => setName(e.target.value)} />
        </div>
      </div>
      <Checkboxes legend="Scopes (only what the service needs)" options={SCOPES} value={scopes} onChange={setScopes} idPrefix="key-scope" />
      <button type="submit" className="primary" disabled={scopes.length === 0}>Create key</button>
      {error && <p className="form-error" role="alert">Could not create: {error}</p>}
    </form>
  );
}

function KeyRow({ k, onDone }: { k: ApiKey; onDone: (msg: string) => void }) {
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const revoke = async () => {
    setError(null);
    try {
      const r = await sdk().request('post', '/accounts/api-keys/{id}/revoke', { path: { id: k.id } });
      setConfirming(false);
      onDone(`Revoked the key ${r.name}: the platform refuses it from now on.`);
    } catch (err) {
      setError(describeError(err).sentence);
    }
  };
  return (
    <tr className={k.revokedAt ? 'inactive' : ''}>
      <td data-label="Name">{k.name}</td>
      <td data-label="Prefix"><code>fip_{k.keyPrefix}_…</code></td>
      <td data-label="Scopes">{k.scopes.join(', ')}</td>
      <td data-label="Created"><Time iso={k.createdAt} /></td>
      <td data-label="Last used"><Time iso={k.lastUsedAt} /></td>
      <td data-label="Status">{k.revokedAt ? <>revoked <Time iso={k.revokedAt} /></> : 'active'}</td>
      <td>
        {!k.revokedAt && !confirming && <button type="button" onClick={() => setConfirming(true)} aria-label={`Revoke the key ${k.name}`}>Revoke</button>}
        {confirming && (
          <div className="notice" role="alertdialog" aria-label={`Revoke the key ${k.name}?`}>
            <p>Revoke {k.name}? Every service using it is refused at once; this cannot be undone.</p>
            <button type="button" onClick={() => void revoke()}>Yes, revoke {k.name}</button>{' '}
            <button type="button" onClick={() => setConfirming(false)}>Keep the key</button>
          </div>
        )}
        {error && <p className="form-error" role="alert">{error}</p>}
      </td>
    </tr>
  );
}

export function ApiKeysSection() {
  const [active, setActive] = useSearchParam('active');
  const [params] = useSearchParams();
  const cursor = params.get('cursor') ?? undefined;
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [list, reload] = useLoad(
    () => sdk().request('get', '/accounts/api-keys', { query: { active: (active || undefined) as 'true' | 'false' | undefined, limit: 50, cursor } }),
    `keys ${active} ${cursor ?? ''}`,
  );
  const done = (msg: string) => {
    setNotice(msg);
    invalidateLoads();
    reload();
  };
  return (
    <>
      <h2 id="admin-section">API keys</h2>
      <CreateKey onCreated={(k) => { setCreated(k); setNotice(null); invalidateLoads(); reload(); }} />
      {created && (
        <div className="card" role="region" aria-labelledby="new-key">
          <h3 id="new-key">The key {created.name}</h3>
          <p><strong>Copy it now: it is shown this once.</strong> The platform keeps only its hash.</p>
          <p className="secret"><code data-testid="new-key-secret">{created.key}</code> <CopyButton value={created.key} label={`the key ${created.name}`} /></p>
          <button type="button" onClick={() => setCreated(null)}>I have copied it</button>
        </div>
      )}
      {notice && <p role="status" className="ok-text">{notice}</p>}
      <div className="filters">
        <div className="field">
          <label htmlFor="keys-active">Status</label>
          <select id="keys-active" value={active} onChange={(e) => setActive(e.target.value)}>
            <option value="">Active and revoked</option><option value="true">Active</option><option value="false">Revoked</option>
          </select>
        </div>
      </div>
      {list.status === 'loading' && <Loading what="API keys" />}
      {list.status === 'error' && <ErrorState error={list.error} retry={reload} />}
      {list.status === 'ok' && list.data.items.length === 0 && <Empty>No API key.</Empty>}
      {list.status === 'ok' && list.data.items.length > 0 && (
        <div className="table-wrap">
          <table>
            <caption className="sr-only">API keys, newest first (never their secret)</caption>
            <thead><tr><th scope="col">Name</th><th scope="col">Prefix</th><th scope="col">Scopes</th><th scope="col">Created</th><th scope="col">Last used</th><th scope="col">Status</th><th scope="col"><span className="sr-only">Actions</span></th></tr></thead>
            <tbody>{list.data.items.map((k) => <KeyRow key={`${k.id} ${k.revokedAt ?? ''}`} k={k} onDone={done} />)}</tbody>
          </table>
        </div>
      )}
      {list.status === 'ok' && <Pager next={list.data.nextCursor} what="API keys" />}
    </>
  );
}
