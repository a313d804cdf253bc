// Every workflow the platform's workers run. Workflow code imports only @temporalio/workflow,
// domain/ types and `import type` of activities.
export { reportScheduleWorkflow } from './reports/report-schedule-workflow';
export { generateReportWorkflow } from './reports/generate-report-workflow';
export { scheduledReportsJobWorkflow } from './reports/scheduled-reports-job-workflow';
export { intakeProcessingWorkflow } from './intakes/intake-processing-workflow';
export { ssiInvestigationWorkflow } from './investigations/ssi-investigation-workflow';
export { reviewClaimWorkflow } from './reviews/review-claim-workflow';
export { dossierWorkflow } from './dossiers/dossier-workflow';
export { watchlistAlertsWorkflow } from './alerts/watchlist-alerts-workflow';
export { analyticsRefreshWorkflow } from './analytics/analytics-refresh-workflow';
export { campaignSuggestionsWorkflow } from './similarity/campaign-suggestions-workflow';
export { analyticsRefresherWorkflow } from './analytics/analytics-refresher-workflow';
export { sendTakedownWorkflow } from './takedowns/send-takedown-workflow';
export { takedownWatchWorkflow } from './takedowns/takedown-watch-workflow';
