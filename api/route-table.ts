// The route table: every route of the API, each with its access policy. An undeclared route does
// not exist (404), and a route cannot be registered without a policy.
import type { RouteDef } from './route-definition';
import { accountRoutes } from './routes/accounts/account-routes';
import { adminRoutes } from './routes/accounts/admin-routes';
import { alertRoutes } from './routes/alerts/alert-routes';
import { watchlistRoutes } from './routes/alerts/watchlist-routes';
import { analyticsRoutes } from './routes/analytics/analytics-routes';
import { auditRoutes } from './routes/audit/audit-routes';
import { campaignRoutes } from './routes/campaigns/campaign-routes';
import { campaignSuggestionRoutes } from './routes/campaigns/campaign-suggestion-routes';
import { intakeRoutes } from './routes/intakes/intake-routes';
import { evidenceRoutes } from './routes/evidence/evidence-routes';
import { intelligenceRoutes } from './routes/intelligence/intelligence-routes';
import { investigationRoutes } from './routes/investigations/investigation-routes';
import { investigationWalletRoutes } from './routes/wallets/wallet-routes';
import { playbookRoutes } from './routes/investigations/playbook-routes';
import { funnelRoutes } from './routes/investigations/funnel-routes';
import { similarSiteRoutes } from './routes/investigations/similar-site-routes';
import { classificationRoutes } from './routes/classification/classification-routes';
import { caseRoutes } from './routes/cases/case-routes';
import { dossierRoutes } from './routes/dossiers/dossier-routes';
import { consoleRoutes } from './routes/console/console-routes';
import { leaReferralRoutes } from './routes/cases/lea-referral-routes';
import { reportRoutes } from './routes/reports/report-routes';
import { reviewRoutes } from './routes/reviews/review-routes';
import { searchRoutes } from './routes/search/search-routes';
import { savedSearchRoutes } from './routes/search/saved-search-routes';
import { scheduledReportRoutes } from './routes/reports/scheduled-report-routes';
import { systemRoutes } from './routes/system/system-routes';
import { taskRoutes } from './routes/tasks/task-routes';
import { exportRoutes } from './routes/exports/export-routes';
import { feedRoutes } from './routes/exports/feed-routes';
import { mispRoutes } from './routes/exports/misp-routes';
import { taxiiRoutes } from './routes/exports/taxii-routes';
import { takedownRoutes } from './routes/takedowns/takedown-routes';

let routes: RouteDef[] | null = null;

export function allRoutes(): RouteDef[] {
  routes ??= [
    ...systemRoutes(allRoutes),
    ...accountRoutes,
    ...adminRoutes,
    ...scheduledReportRoutes,
    ...reportRoutes,
    ...dossierRoutes,
    ...taskRoutes,
    ...caseRoutes,
    ...leaReferralRoutes,
    // /reviews/search/... (literal segments) win over /reviews/{id} whatever the order.
    ...searchRoutes,
    ...savedSearchRoutes,
    // /campaigns/suggestions comes before /campaigns/{id}.
    ...campaignSuggestionRoutes,
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
    ...funnelRoutes,
    ...similarSiteRoutes,
    ...classificationRoutes,
    ...consoleRoutes,
    ...evidenceRoutes,
    ...exportRoutes,
    ...feedRoutes,
    ...taxiiRoutes,
    ...mispRoutes,
    ...watchlistRoutes,
    ...alertRoutes,
    ...takedownRoutes,
  ];
  return routes;
}
