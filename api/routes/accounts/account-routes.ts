// Who is calling (services/accounts/user-service.ts). The console's local sign-in list is declared
// with the console's routes (api/routes/console/console-routes.ts).
import { whoAmI } from '../../../services/accounts/user-service';
import { defineRoute } from '../../route-definition';
import { ErrorSchema } from '../../common-schemas';
import { MeSchema } from './account-schemas';

export const accountRoutes = [
  defineRoute({
    method: 'get',
    path: '/accounts/me',
    summary: 'The caller: e-mail and roles from the identity-aware proxy (or the API key\'s service)',
    tags: ['accounts'],
    access: { authenticated: true },
    responses: { 200: { description: 'The current identity', schema: MeSchema }, 401: { description: 'No identity', schema: ErrorSchema } },
    handler: async ({ principal }) => ({ body: whoAmI(principal!) }),
  }),
];
