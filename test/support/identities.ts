// Test identities: one person per role (in the users table) and API keys with chosen scopes.
import { randomUUID } from 'node:crypto';
import { ROLES, type ApiKeyScope, type Role } from '../../domain/accounts/roles';
import { generateApiKey } from '../../domain/accounts/api-key-format';
import { insertApiKey } from '../../db/repositories/accounts/api-key-repository';
import { addUserRoles } from '../../db/repositories/accounts/user-repository';
import { testKnex } from './platform';

/** Creates one user per role; returns role -> e-mail. */
export async function usersForEveryRole(): Promise<Record<Role, string>> {
  const tag = randomUUID().slice(0, 8);
  const out = {} as Record<Role, string>;
  for (const role of ROLES) {
    const email = `${role}-${tag}@example.org`;
    await addUserRoles(testKnex(), email, [role]);
    out[role] = email;
  }
  return out;
}

export async function createTestApiKey(scopes: ApiKeyScope[]): Promise<string> {
  const fresh = generateApiKey();
  await insertApiKey(testKnex(), { name: `test-${randomUUID().slice(0, 8)}`, prefix: fresh.prefix, hash: fresh.hash, scopes });
  return fresh.key;
}
