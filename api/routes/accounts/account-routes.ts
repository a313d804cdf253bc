import { z } from 'zod';
import { ROLES } from '../../../domain/accounts/roles';
import { defineRoute } from '../../route-definition';
import { ErrorSchema } from '../../common-schemas';

const MeSchema = z
  .object({
    email: z.string().nullable(),
    roles: z.array(z.enum(ROLES)),
    service: z.object({ name: z.string(), scopes: z.array(z.string()) }).optional(),
  })
  .meta({ id: 'Me' });

export const accountRoutes = [
  defineRoute({
    method: 'get',
    path: '/accounts/me',
    summary: 'The caller: e-mail and roles from the identity-aware proxy (or the API key\'s service)',
    tags: ['accounts'],
    access: { authenticated: true },
    responses: { 200: { description: 'The current identity', schema: MeSchema }, 401: { description: 'No identity', schema: ErrorSchema } },
    handler: async ({ principal }) => {
      if (principal?.kind === 'service') {
        return { body: { email: null, roles: [], service: { name: principal.name, scopes: principal.scopes } } };
      }
      return { body: { email: principal!.email, roles: principal!.roles } };
    },
  }),
];
