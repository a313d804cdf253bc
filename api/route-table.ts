// The route table: every route of the API, each with its access policy. An undeclared route does
// not exist (404), and a route cannot be registered without a policy.
import type { RouteDef } from './route-definition';
import { accountRoutes } from './routes/account-routes';
import { analyticsRoutes } from './routes/analytics-routes';
import { auditRoutes } from './routes/audit-routes';
import { campaignRoutes } from './routes/campaign-routes';
import { intakeRoutes } from './routes/intake-routes';
import { evidenceRoutes } from './routes/evidence-routes';
import { intelligenceRoutes } from './routes/intelligence-routes';
import { investigationRoutes } from './routes/investigation-routes';
import { investigationWalletRoutes } from './routes/investigation-wallet-routes';
import { playbookRoutes } from './routes/playbook-routes';
import { caseRoutes } from './routes/case-routes';
import { dossierRoutes } from './routes/dossier-routes';
import { consoleRoutes } from './routes/console-routes';
import { leaReferralRoutes } from './routes/lea-referral-routes';
import { reportRoutes } from './routes/report-routes';
import { reviewRoutes } from './routes/review-routes';
import { searchRoutes } from './routes/search-routes';
import { savedSearchRoutes } from './routes/saved-search-routes';
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
    ...dossierRoutes,
    ...taskRoutes,
    ...caseRoutes,
    ...leaReferralRoutes,
    // /reviews/search/... (literal segments) win over /reviews/{id} whatever the order.
    ...searchRoutes,
    ...savedSearchRoutes,
    ...campaignRoutes,
    ...analyticsRoutes,
    ...reviewRoutes,
    ...intakeRoutes,
    ...intelligenceRoutes,
    ...auditRoutes,
    ...playbookRoutes,
    // The wallet routes (/investigations/ssi/wallets) come before /investigations/ssi/{scan_id}.
    ...investigationWalletRoutes,
    ...investigationRoutes,
    ...consoleRoutes,
    ...evidenceRoutes,
    ...exportRoutes,
    ...feedRoutes,
    ...taxiiRoutes,
  ];
  return routes;
}
