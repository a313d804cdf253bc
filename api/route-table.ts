// The route table: every route of the API, each with its access policy. An undeclared route does
// not exist (404), and a route cannot be registered without a policy.
import type { RouteDef } from './route-definition';
import { accountRoutes } from './routes/account-routes';
import { systemRoutes } from './routes/system-routes';

let routes: RouteDef[] | null = null;

export function allRoutes(): RouteDef[] {
  routes ??= [...systemRoutes(allRoutes), ...accountRoutes];
  return routes;
}
