// Sign-in: who is using the console. Behind the identity-aware proxy, GET /accounts/me answers with
// the proxy's identity and there is nothing to do. On a developer's machine the API answers GET
// /accounts/local-sign-in (only in that mode) with the users one may act as; the person picks one
// and the console sends the identity header on its calls (identity.ts).
import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';
import { ApiError, sdk } from './api';
import { getIdentityHeader, setIdentityHeader } from './identity';
import type { Schema } from '../../sdk/src';
import type { Me, Role } from './types';

export type LocalSignIn = Schema<'LocalSignIn'>;

export type Session =
  | { state: 'loading' }
  | { state: 'signed-in'; me: Me; local: LocalSignIn | null; signOut: () => void }
  | { state: 'choose-user'; local: LocalSignIn; signIn: (email: string) => void }
  | { state: 'no-identity'; message: string };

const SessionContext = createContext<Session>({ state: 'loading' });
export const useSession = () => useContext(SessionContext);

export function useMe(): Me | null {
  const s = useSession();
  return s.state === 'signed-in' ? s.me : null;
}

export function hasRole(me: Me | null, ...roles: Role[]): boolean {
  return !!me && me.roles.some((r) => roles.includes(r));
}

export function SessionProvider({ children }: { children: ReactNode }) {
  const [session, setSession] = useState<Session>({ state: 'loading' });
  const [version, setVersion] = useState(0);
  useEffect(() => {
    let live = true;
    (async () => {
      let local: LocalSignIn | null = null;
      try {
        local = await sdk().request('get', '/accounts/local-sign-in');
      } catch (err) {
        if (!(err instanceof ApiError && err.status === 404)) throw err;
      }
      const refresh = () => setVersion((v) => v + 1);
      if (local) {
        const chosen = getIdentityHeader();
        const known = chosen && chosen.name === local.identityHeader && local.users.some((u) => `${local.identityPrefix}${u.email}` === chosen.value);
        if (!known) {
          setIdentityHeader(null);
          const l = local;
          if (live) setSession({ state: 'choose-user', local: l, signIn: (email) => { setIdentityHeader({ name: l.identityHeader, value: `${l.identityPrefix}${email}` }); refresh(); } });
          return;
        }
      } else {
        setIdentityHeader(null);
      }
      try {
        const me = await sdk().accounts.me();
        if (live) setSession({ state: 'signed-in', me, local, signOut: () => { setIdentityHeader(null); refresh(); } });
      } catch (err) {
        if (err instanceof ApiError && err.status === 401) {
          if (live) setSession({ state: 'no-identity', message: 'The platform did not receive an identity. Open the console through the identity-aware proxy.' });
        } else throw err;
      }
    })().catch((err: unknown) => {
      if (live) setSession({ state: 'no-identity', message: `The platform could not be reached: ${err instanceof Error ? err.message : String(err)}` });
    });
    return () => {
      live = false;
    };
  }, [version]);
  return <SessionContext.Provider value={session}>{children}</SessionContext.Provider>;
}

export function SignInPage({ local, signIn }: { local: LocalSignIn; signIn: (email: string) => void }) {
  const [email, setEmail] = useState(local.users[0]?.email ?? '');
  return (
    <main id="main" className="sign-in">
      <h1>Sign in to the FIP console</h1>
      <p className="notice" role="note">
        Developer sign-in: this API trusts the <code>{local.identityHeader}</code> header on loopback without verification, so you may act as any user.
        Behind the identity-aware proxy this page does not exist.
      </p>
      {local.users.length === 0 ? (
        <p className="state empty">No users yet. Add one with <code>npx fip users add you@example.org --role analyst</code>, then reload.</p>
      ) : (
        <form onSubmit={(e) => { e.preventDefault(); signIn(email); }}>
          <label htmlFor="user">User</label>
          <select id="user" value={email} onChange={(e) => setEmail(e.target.value)}>
            {local.users.map((u) => (
              <option key={u.email} value={u.email}>{u.email} ({u.roles.join(', ') || 'no roles'})</option>
            ))}
          </select>
          <button type="submit" className="primary">Sign in</button>
        </form>
      )}
    </main>
  );
}
