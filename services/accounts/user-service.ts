// The people who may use the platform (their identity comes from the identity-aware proxy; their
// roles from here), as use cases:
// - grantUserRoles: add a user, or add roles to one (re-activating it)
// - listUsers: every user, active or removed
// - removeUser: deactivate a user (kept for audit); false when there was no such active user
// - localSignInUsers: the users the console may sign in as on a developer's machine (404 elsewhere)
// - userPrincipal: the principal of a person the proxy vouched for (every signed-in request)
// - whoAmI: the caller as GET /accounts/me describes it (a person, or a service's API key)
import {
  addUserRoles,
  deactivateUser,
  findActiveUserByEmail,
  listUsers as listUserRows,
  type UserRow,
} from '../../db/repositories/accounts/user-repository';
import { localSignInEnabled } from '../../domain/accounts/local-sign-in';
import { isRole, type Principal, type Role } from '../../domain/accounts/roles';
import { NotFoundError } from '../errors';
import type { ServiceDeps } from '../service-deps';

export type { UserRow } from '../../db/repositories/accounts/user-repository';

export async function grantUserRoles(deps: Pick<ServiceDeps, 'knex'>, email: string, roles: Role[]): Promise<UserRow> {
  return addUserRoles(deps.knex, email, roles);
}

export async function listUsers(deps: Pick<ServiceDeps, 'knex'>): Promise<UserRow[]> {
  return listUserRows(deps.knex);
}

export async function removeUser(deps: Pick<ServiceDeps, 'knex'>, email: string): Promise<boolean> {
  return deactivateUser(deps.knex, email);
}

/** Only where the identity header is unverified by design (domain/accounts/local-sign-in.ts); elsewhere a 404. */
export async function localSignInUsers(deps: Pick<ServiceDeps, 'config' | 'knex'>): Promise<{ identity_header: string; identity_prefix: string; users: Array<{ email: string; roles: Role[] }> }> {
  const a = deps.config.auth;
  const enabled = localSignInEnabled({ host: deps.config.api.host, trustProxyHeader: a.trust_proxy_header, iapAudience: a.iap_audience, allowUnverifiedHeader: a.allow_unverified_header });
  if (!enabled) throw new NotFoundError('local sign-in is off: the console uses the identity-aware proxy\'s identity');
  const users = (await listUserRows(deps.knex)).filter((u) => u.active);
  return { identity_header: a.identity_header, identity_prefix: a.identity_prefix, users: users.map((u) => ({ email: u.email, roles: u.roles })) };
}

/**
 * A person the proxy vouched for: the roles of the active user with that e-mail (none when there is
 * no such user), plus admin for a bootstrap admin (`bootstrapAdmins`: lower-cased e-mails). Every
 * request of a signed-in user asks this: one prepared statement, nothing else.
 */
export async function userPrincipal(deps: Pick<ServiceDeps, 'knex'>, email: string, bootstrapAdmins: ReadonlySet<string>): Promise<Extract<Principal, { kind: 'user' }>> {
  const user = await findActiveUserByEmail(deps.knex, email);
  const roles = new Set<Role>((user?.roles ?? []).filter(isRole));
  if (bootstrapAdmins.has(email)) roles.add('admin');
  return { kind: 'user', email, roles: [...roles].sort() };
}

export function whoAmI(principal: Principal) {
  if (principal.kind === 'service') {
    return { email: null, roles: [], service: { name: principal.name, scopes: principal.scopes } };
  }
  return { email: principal.email, roles: principal.roles };
}
