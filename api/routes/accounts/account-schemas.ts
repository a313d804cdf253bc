// Response schemas of the accounts: who is calling, and the console's local sign-in.
import { z } from 'zod';
import { ROLES } from '../../../domain/accounts/roles';

export const MeSchema = z
  .object({
    email: z.string().nullable(),
    roles: z.array(z.enum(ROLES)),
    service: z.object({ name: z.string(), scopes: z.array(z.string()) }).optional(),
  })
  .meta({ id: 'Me' });

export const LocalSignInSchema = z
  .object({
    identity_header: z.string().describe('The header the console sends with the chosen e-mail'),
    identity_prefix: z.string().describe('What the header\'s value holds before the e-mail (`accounts.google.com:`; empty: the bare e-mail)'),
    users: z.array(z.object({ email: z.string(), roles: z.array(z.enum(ROLES)) })),
  })
  .meta({ id: 'LocalSignIn' });
