// The `campaign-suggestions` Temporal Schedule: recomputes the campaign suggestions every
// SVC_ANALYTICS__CAMPAIGN_SUGGESTIONS_INTERVAL_MINUTES minutes (services/similarity/suggestion-service.ts).
import type { Client } from '@temporalio/client';
import { ensureIntervalSchedule } from '../tasks/interval-schedule';
import { campaignSuggestionsWorkflow } from '../../workflows/similarity/campaign-suggestions-workflow';

export const CAMPAIGN_SUGGESTIONS_SCHEDULE_ID = 'campaign-suggestions';

export async function ensureCampaignSuggestionsSchedule(client: Client, taskQueue: string, intervalMinutes: number): Promise<'created' | 'updated' | 'unchanged'> {
  return ensureIntervalSchedule(
    client,
    {
      scheduleId: CAMPAIGN_SUGGESTIONS_SCHEDULE_ID,
      workflow: campaignSuggestionsWorkflow,
      workflowId: 'campaign-suggestions',
      title: 'Campaign suggestions',
      purpose: 'recomputes the campaign suggestions from the linked sites (services/similarity/suggestion-service.ts)',
    },
    taskQueue,
    intervalMinutes,
  );
}
