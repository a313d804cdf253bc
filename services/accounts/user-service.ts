// The people who may use the platform (their identity comes from the identity-aware proxy; their
// roles from here), as use cases. The CLI (`fip users`) and the admin routes call the same ones;
// every change is written to the audit log in the transaction that makes it (`actor`: who changed
// it, `cli` for the command line):
// - grantUserRoles: add a user, or add roles to one (re-activating it)
// - setUserRoles: replace a user's roles (an admin cannot take their own admin role away)
// - listUsers / listUsersPage: every user, active or removed (the page: newest first, filtered)
// - removeUser / disableUser: deactivate a user (kept for audit), by e-mail (false when there was
//   no such active user) or by id (404 when there is no such user; a removed one stays removed)
// - localSignInUsers: the users the console may sign in as on a developer's machine (404 elsewhere)
// - userPrincipal: the principal of a person the proxy vouched for (every signed-in request)
// - whoAmI: the caller as GET /accounts/me describes it (a person, or a service's API key)
import type { Knex } from 'knex';
import {
  addUserRoles,
  deactivateUser,
  findActiveUserByEmail,
  findUserForUpdate,
  listUsers as listUserRows,
  listUsersPage as listUserPage,
  setUserRoles as setUserRoleRow,
  type UserFilter,
  type UserRow,
} from '../../db/repositories/accounts/user-repository';
import { recordAuditEvent } from '../../db/repositories/audit/audit-event-repository';
import type { KeysetPage } from '../../domain/keyset';
import { localSignInEnabled } from '../../domain/accounts/local-sign-in';
import { isRole, type Principal, type Role } from '../../domain/accounts/roles';
import { ConflictError, NotFoundError } from '../errors';
import type { ServiceDeps } from '../service-deps';

export type { UserRow } from '../../db/repositories/accounts/user-repository';

export async function grantUserRoles(deps: Pick<ServiceDeps, 'knex'>, actor: string, email: string, roles: Role[]): Promise<UserRow> {
  return deps.knex.transaction(async (trx) => {
    const user = await addUserRoles(trx, email, roles);
    await recordAuditEvent(trx, { actor, action: 'user.roles.grant', target_type: 'user', target_id: user.email, details: { granted: roles, roles: user.roles } });
    return user;
  });
}

export async function setUserRoles(deps: Pick<ServiceDeps, 'knex'>, actor: string, id: string, roles: Role[]): Promise<UserRow> {
  return deps.knex.transaction(async (trx) => {
    const before = await findUserForUpdate(trx, id);
    if (!before) throw new NotFoundError(`no user ${id}`);
    // Losing the last way in is not undone from the console: another admin (or the CLI) must do it.
    if (before.email === actor && before.roles.includes('admin') && !roles.includes('admin')) {
      throw new ConflictError('you cannot take your own admin role away; ask another administrator');
    }
    const user = await setUserRoleRow(trx, id, roles);
    await recordAuditEvent(trx, { actor, action: 'user.roles.set', target_type: 'user', target_id: user.email, details: { before: before.roles, roles: user.roles } });
    return user;
  });
}

export async function listUsers(deps: Pick<ServiceDeps, 'knex'>): Promise<UserRow[]> {
  return listUserRows(deps.knex);
}

export async function listUsersPage(deps: Pick<ServiceDeps, 'knex'>, filter: UserFilter): Promise<KeysetPage<UserRow>> {
  return listUserPage(deps.knex, filter);
}

async function deactivate(trx: Knex.Transaction, actor: string, email: string): Promise<boolean> {
  const done = await deactivateUser(trx, email);
  if (done) await recordAuditEvent(trx, { actor, action: 'user.disable', target_type: 'user', target_id: email.toLowerCase() });
  return done;
}

export async function removeUser(deps: Pick<ServiceDeps, 'knex'>, actor: string, email: string): Promise<boolean> {
  return deps.knex.transaction((trx) => deactivate(trx, actor, email));
}

export async function disableUser(deps: Pick<ServiceDeps, 'knex'>, actor: string, id: string): Promise<UserRow> {
  return deps.knex.transaction(async (trx) => {
    const user = await findUserForUpdate(trx, id);
    if (!user) throw new NotFoundError(`no user ${id}`);
    if (user.email === actor) throw new ConflictError('you cannot disable yourself; ask another administrator');
    await deactivate(trx, actor, user.email);
    return (await findUserForUpdate(trx, id))!;
  });
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
