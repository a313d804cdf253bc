import type { Knex } from 'knex';
import type { Role } from '../../domain/auth/roles';
import { prepared } from '../prepared-query';

export interface UserRow {
  id: string;
  email: string;
  roles: Role[];
  active: boolean;
  created_at: Date;
  updated_at: Date;
}

/** Every request of a signed-in user asks this: a prepared statement (db/prepared-query.ts). */
export async function findActiveUserByEmail(knex: Knex, email: string): Promise<UserRow | undefined> {
  return (await prepared(knex('users').where({ email: email.toLowerCase(), active: true }).first('id', 'email', 'roles', 'active', 'created_at', 'updated_at'))) as UserRow | undefined;
}

/** Adds the roles to the user, creating or re-activating it. */
export async function addUserRoles(knex: Knex, email: string, roles: Role[]): Promise<UserRow> {
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

/** Deactivates a user (kept for audit). Returns false when there was no such active user. */
export async function deactivateUser(knex: Knex, email: string): Promise<boolean> {
  const n = await knex('users')
    .where({ email: email.toLowerCase(), active: true })
    .update({ active: false, updated_at: knex.fn.now() });
  return n > 0;
}
