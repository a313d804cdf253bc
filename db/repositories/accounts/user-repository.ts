import type { Knex } from 'knex';
import type { Role } from '../../../domain/accounts/roles';
import { keysetPage, type Keyset, type KeysetPage } from '../../keyset-page';
import { prepared } from '../../prepared-query';

export interface UserRow {
  id: string;
  email: string;
  roles: Role[];
  active: boolean;
  created_at: Date;
  updated_at: Date;
}

const ACTIVE_USER_BY_EMAIL = 'SELECT id, email, roles, active, created_at, updated_at FROM users WHERE email = ? AND active = true LIMIT 1';

/** Every request of a signed-in user asks this: a prepared statement (db/prepared-query.ts), written as SQL so that no request compiles it. */
export async function findActiveUserByEmail(knex: Knex, email: string): Promise<UserRow | undefined> {
  const { rows } = (await prepared(knex.raw(ACTIVE_USER_BY_EMAIL, [email.toLowerCase()]))) as { rows: UserRow[] };
  return rows[0];
}

/** Adds the roles to the user, creating or re-activating it. */
export async function addUserRoles(knex: Knex | Knex.Transaction, email: string, roles: Role[]): Promise<UserRow> {
  const [row] = await knex('users')
    .insert({ email: email.toLowerCase(), roles, active: true })
    .onConflict('email')
    .merge({
      roles: knex.raw('ARRAY(SELECT DISTINCT unnest(users.roles || excluded.roles) ORDER BY 1)'),
      active: true,
      updated_at: knex.fn.now(),
    })
    .returning('*');
  return row as UserRow;
}

export async function listUsers(knex: Knex): Promise<UserRow[]> {
  return knex<UserRow>('users').orderBy('email');
}

export interface UserFilter {
  /** Part of the e-mail address (case-insensitive). */
  q?: string;
  role?: Role;
  active?: boolean;
  limit: number;
  after?: Keyset;
}

/** Newest first, keyset-paginated. */
export async function listUsersPage(knex: Knex, f: UserFilter): Promise<KeysetPage<UserRow>> {
  const q = knex('users').select('*');
  if (f.q) q.whereRaw("email LIKE ? ESCAPE '\\'", [`%${f.q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`]);
  if (f.role) q.whereRaw('? = ANY(roles)', [f.role]);
  if (f.active !== undefined) q.where('active', f.active);
  return keysetPage<UserRow>(knex, q, { tsColumn: 'created_at', idColumn: 'id', limit: f.limit, after: f.after });
}

/** The user with that id, locked for the change the transaction makes. */
export async function findUserForUpdate(trx: Knex.Transaction, id: string): Promise<UserRow | undefined> {
  return trx<UserRow>('users').where({ id }).forUpdate().first();
}

/** Replaces the user's roles. */
export async function setUserRoles(trx: Knex.Transaction, id: string, roles: Role[]): Promise<UserRow> {
  const [row] = await trx('users').where({ id }).update({ roles: [...new Set(roles)].sort(), updated_at: trx.fn.now() }).returning('*');
  return row as UserRow;
}

/** Deactivates a user (kept for audit). Returns false when there was no such active user. */
export async function deactivateUser(knex: Knex | Knex.Transaction, email: string): Promise<boolean> {
  const n = await knex('users')
    .where({ email: email.toLowerCase(), active: true })
    .update({ active: false, updated_at: knex.fn.now() });
  return n > 0;
}
