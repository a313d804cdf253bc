// Every workflow the platform's workers run. Workflow code imports only @temporalio/workflow,
// domain/ types and `import type` of activities.
export { reportScheduleWorkflow } from './report-schedule-workflow';
export { generateReportWorkflow } from './generate-report-workflow';
export { scheduledReportsJobWorkflow } from './scheduled-reports-job-workflow';
export { intakeProcessingWorkflow } from './intakes/intake-processing-workflow';
export { ssiInvestigationWorkflow } from './ssi-investigation-workflow';
export { reviewClaimWorkflow } from './review-claim-workflow';
export { dossierWorkflow } from './dossier-workflow';
export { analyticsRefreshWorkflow } from './analytics-refresh-workflow';
