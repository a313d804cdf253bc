// Request and response schemas of the administration of accounts (admins): users and their roles,
// API keys (the secret only in the create answer).
import { z } from 'zod';
import { API_KEY_NAME_RE } from '../../../domain/accounts/api-key-format';
import { API_KEY_SCOPES, ROLES } from '../../../domain/accounts/roles';
import { EmailAddressSchema } from '../../common-schemas';
import { pageQueryShape } from '../../pagination';

const booleanFilter = (what: string) =>
  z
    .enum(['true', 'false'])
    .optional()
    .transform((v) => (v === undefined ? undefined : v === 'true'))
    .describe(what);

const Roles = z.array(z.enum(ROLES)).min(1).max(ROLES.length).refine((r) => new Set(r).size === r.length, 'each role once');

export const UserListQuery = z.object({
  q: z.string().max(254).optional().describe('Part of the e-mail address (case-insensitive)'),
  role: z.enum(ROLES).optional().describe('Only users holding this role'),
  active: booleanFilter('Only active (true) or disabled (false) users'),
  ...pageQueryShape,
});

export const NewUserSchema = z
  .object({ email: EmailAddressSchema, roles: Roles.describe('Roles to grant; an existing user keeps its other roles and is re-activated') })
  .strict()
  .meta({ id: 'NewUser' });

export const UserRolesSchema = z
  .object({ roles: Roles.describe('The user\'s roles from now on (replaces them)') })
  .strict()
  .meta({ id: 'UserRoles' });

export const UserSchema = z
  .object({
    id: z.string().uuid(),
    email: z.string(),
    roles: z.array(z.enum(ROLES)),
    active: z.boolean().describe('false: disabled (kept for the audit trail)'),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'User' });

export const ApiKeyListQuery = z.object({
  active: booleanFilter('Only keys in use (true) or revoked ones (false)'),
  ...pageQueryShape,
});

export const NewApiKeySchema = z
  .object({
    name: z.string().regex(API_KEY_NAME_RE, '2-64 letters, digits, . _ - (who uses the key, e.g. intake-bot)'),
    scopes: z.array(z.enum(API_KEY_SCOPES)).min(1).max(API_KEY_SCOPES.length).refine((s) => new Set(s).size === s.length, 'each scope once'),
  })
  .strict()
  .meta({ id: 'NewApiKey' });

export const ApiKeySchema = z
  .object({
    id: z.string().uuid(),
    name: z.string(),
    key_prefix: z.string().describe('The key\'s public prefix (fip_<prefix>_…), to recognise it'),
    scopes: z.array(z.enum(API_KEY_SCOPES)),
    created_at: z.string(),
    last_used_at: z.string().nullable(),
    revoked_at: z.string().nullable(),
  })
  .meta({ id: 'ApiKey' });

export const CreatedApiKeySchema = ApiKeySchema.extend({
  key: z.string().describe('The secret key: shown in this answer only, never again (only its hash is stored)'),
}).meta({ id: 'CreatedApiKey' });
