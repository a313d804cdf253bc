// The route table: every route of the API, each with its access policy. An undeclared route does
// not exist (404), and a route cannot be registered without a policy.
import type { RouteDef } from './route-definition';
import { accountRoutes } from './routes/account-routes';
import { auditRoutes } from './routes/audit-routes';
import { intakeRoutes } from './routes/intake-routes';
import { investigationRoutes } from './routes/investigation-routes';
import { investigationWalletRoutes } from './routes/investigation-wallet-routes';
import { playbookRoutes } from './routes/playbook-routes';
import { caseRoutes } from './routes/case-routes';
import { leaReferralRoutes } from './routes/lea-referral-routes';
import { reportRoutes } from './routes/report-routes';
import { reviewRoutes } from './routes/review-routes';
import { scheduledReportRoutes } from './routes/scheduled-report-routes';
import { systemRoutes } from './routes/system-routes';
import { taskRoutes } from './routes/task-routes';
import { exportRoutes } from './routes/export-routes';
import { feedRoutes } from './routes/feed-routes';
import { taxiiRoutes } from './routes/taxii-routes';

let routes: RouteDef[] | null = null;

export function allRoutes(): RouteDef[] {
  routes ??= [
    ...systemRoutes(allRoutes),
    ...accountRoutes,
    ...scheduledReportRoutes,
    ...reportRoutes,
    ...taskRoutes,
    ...caseRoutes,
    ...leaReferralRoutes,
    ...reviewRoutes,
    ...intakeRoutes,
    ...auditRoutes,
    ...playbookRoutes,
    // The wallet routes (/investigations/ssi/wallets) come before /investigations/ssi/{scan_id}.
    ...investigationWalletRoutes,
    ...investigationRoutes,
    ...exportRoutes,
    ...feedRoutes,
    ...taxiiRoutes,
  ];
  return routes;
}
