// Administration of accounts (admins only): users and their roles, API keys. The use cases are
// the ones `fip users` and `fip keys` call (services/accounts/), each audited; the schemas are
// ./admin-schemas.ts.
import type { z } from 'zod';
import { principalName } from '../../../domain/accounts/principal-name';
import { createApiKey, listApiKeysPage, revokeApiKeyById, type ApiKeySummary } from '../../../services/accounts/api-key-service';
import { disableUser, grantUserRoles, listUsersPage, setUserRoles, type UserRow } from '../../../services/accounts/user-service';
import { ErrorSchema, UuidParam } from '../../common-schemas';
import { encodeCursor, pageSchema } from '../../pagination';
import { defineRoute, type AccessPolicy } from '../../route-definition';
import { ApiKeyListQuery, ApiKeySchema, CreatedApiKeySchema, NewApiKeySchema, NewUserSchema, UserListQuery, UserRolesSchema, UserSchema } from './admin-schemas';

const ADMINS: AccessPolicy = { roles: ['admin'] };

function userView(u: UserRow): z.infer<typeof UserSchema> {
  return { id: u.id, email: u.email, roles: u.roles, active: u.active, created_at: u.created_at.toISOString(), updated_at: u.updated_at.toISOString() };
}

function apiKeyView(k: ApiKeySummary): z.infer<typeof ApiKeySchema> {
  return {
    id: k.id, name: k.name, key_prefix: k.key_prefix, scopes: k.scopes, created_at: k.created_at.toISOString(),
    last_used_at: k.last_used_at?.toISOString() ?? null, revoked_at: k.revoked_at?.toISOString() ?? null,
  };
}

export const adminRoutes = [
  defineRoute<Record<string, never>, z.infer<typeof UserListQuery>>({
    method: 'get',
    path: '/accounts/users',
    summary: 'The users, active and disabled, newest first (admins)',
    tags: ['accounts'],
    access: ADMINS,
    request: { query: UserListQuery },
    responses: { 200: { description: 'A page of users', schema: pageSchema(UserSchema, 'UserPage') } },
    handler: async ({ query, deps }) => {
      const page = await listUsersPage(deps, { q: query.q || undefined, role: query.role, active: query.active, limit: query.limit, after: query.cursor });
      return { body: { items: page.rows.map(userView), next_cursor: encodeCursor(page.next) } };
    },
  }),
  defineRoute<Record<string, never>, Record<string, never>, z.infer<typeof NewUserSchema>>({
    method: 'post',
    path: '/accounts/users',
    summary: 'Add a user with roles, or add roles to an existing one (re-activating it); audited (admins)',
    tags: ['accounts'],
    access: ADMINS,
    request: { body: NewUserSchema },
    responses: { 201: { description: 'The user', schema: UserSchema } },
    handler: async ({ body, principal, deps }) => ({ status: 201, body: userView(await grantUserRoles(deps, principalName(principal), body.email, body.roles)) }),
  }),
  defineRoute<{ id: string }, Record<string, never>, z.infer<typeof UserRolesSchema>>({
    method: 'put',
    path: '/accounts/users/{id}/roles',
    summary: 'Replace a user\'s roles; audited with the roles before (admins; not your own admin role)',
    tags: ['accounts'],
    access: ADMINS,
    request: { params: UuidParam, body: UserRolesSchema },
    responses: {
      200: { description: 'The user', schema: UserSchema },
      404: { description: 'No such user', schema: ErrorSchema },
      409: { description: 'You would take your own admin role away', schema: ErrorSchema },
    },
    handler: async ({ params, body, principal, deps }) => ({ body: userView(await setUserRoles(deps, principalName(principal), params.id, body.roles)) }),
  }),
  defineRoute<{ id: string }>({
    method: 'post',
    path: '/accounts/users/{id}/disable',
    summary: 'Disable a user (kept for the audit trail; a disabled user stays disabled); audited (admins; not yourself)',
    tags: ['accounts'],
    access: ADMINS,
    request: { params: UuidParam },
    responses: {
      200: { description: 'The user, disabled', schema: UserSchema },
      404: { description: 'No such user', schema: ErrorSchema },
      409: { description: 'You would disable yourself', schema: ErrorSchema },
    },
    handler: async ({ params, principal, deps }) => ({ body: userView(await disableUser(deps, principalName(principal), params.id)) }),
  }),
  defineRoute<Record<string, never>, z.infer<typeof ApiKeyListQuery>>({
    method: 'get',
    path: '/accounts/api-keys',
    summary: 'The API keys, newest first, never their secret (admins)',
    tags: ['accounts'],
    access: ADMINS,
    request: { query: ApiKeyListQuery },
    responses: { 200: { description: 'A page of API keys', schema: pageSchema(ApiKeySchema, 'ApiKeyPage') } },
    handler: async ({ query, deps }) => {
      const page = await listApiKeysPage(deps, { active: query.active, limit: query.limit, after: query.cursor });
      return { body: { items: page.rows.map(apiKeyView), next_cursor: encodeCursor(page.next) } };
    },
  }),
  defineRoute<Record<string, never>, Record<string, never>, z.infer<typeof NewApiKeySchema>>({
    method: 'post',
    path: '/accounts/api-keys',
    summary: 'Create an API key with scopes: its secret is in this answer only; audited (admins)',
    tags: ['accounts'],
    access: ADMINS,
    request: { body: NewApiKeySchema },
    responses: {
      201: { description: 'The key, with its secret (shown once)', schema: CreatedApiKeySchema },
      409: { description: 'An active key has that name', schema: ErrorSchema },
    },
    handler: async ({ body, principal, deps }) => {
      const created = await createApiKey(deps, principalName(principal), { name: body.name, scopes: body.scopes });
      return { status: 201, body: { ...apiKeyView(created.summary), key: created.key } };
    },
  }),
  defineRoute<{ id: string }>({
    method: 'post',
    path: '/accounts/api-keys/{id}/revoke',
    summary: 'Revoke an API key: the API refuses it from now on (a revoked key stays revoked); audited (admins)',
    tags: ['accounts'],
    access: ADMINS,
    request: { params: UuidParam },
    responses: { 200: { description: 'The key, revoked', schema: ApiKeySchema }, 404: { description: 'No such key', schema: ErrorSchema } },
    handler: async ({ params, principal, deps }) => ({ body: apiKeyView(await revokeApiKeyById(deps, principalName(principal), params.id)) }),
  }),
];
