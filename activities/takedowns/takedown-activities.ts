// The takedown activities: mail one recipient, the send's pending recipients and its end
// (services/takedowns/takedown-delivery.ts), and the watch's list and one site check
// (services/takedowns/takedown-watch.ts). Idempotent: a recipient is marked once mailed, a check
// writes its own history row and starts a re-investigation under a derived scan id.
import type { Client } from '@temporalio/client';
import type { Knex } from 'knex';
import type { AppConfig } from '../../config/config';
import { createTakedownDelivery } from '../../services/takedowns/takedown-delivery';
import { checkTakedownSite, takedownsToWatch, type SiteCheck } from '../../services/takedowns/takedown-watch';

export type { SiteCheck };

export function createTakedownActivities(deps: { knex: Knex; config: AppConfig; temporal: Client }) {
  const delivery = createTakedownDelivery(deps);
  return {
    async pendingTakedownRecipients(input: { takedownId: string }): Promise<string[]> {
      return delivery.pendingRecipients(input.takedownId);
    },
    async mailTakedownRecipient(input: { takedownId: string; recipientId: string }): Promise<'sent' | 'already'> {
      return delivery.mailRecipient(input.takedownId, input.recipientId);
    },
    async finishTakedownSend(input: { takedownId: string }): Promise<{ sent: number; pending: number }> {
      return delivery.finishSend(input.takedownId);
    },
    async takedownsToWatch(): Promise<string[]> {
      return takedownsToWatch(deps);
    },
    async checkTakedownSite(input: { takedownId: string }): Promise<SiteCheck> {
      return checkTakedownSite(deps, 'schedule:takedown-watch', input.takedownId, false);
    },
  };
}
