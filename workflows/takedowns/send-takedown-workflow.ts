// Sends an approved takedown (`takedown-send-<id>`): each recipient not yet mailed gets its mail (an
// activity per recipient, retried with backoff; the recipient row is marked once accepted, so a
// retry or a second send mails nobody twice), then the takedown is marked sent (or back to
// approved when a recipient could not be reached after every attempt).
import { proxyActivities } from '@temporalio/workflow';
import type { PlatformActivities } from '../../activities';
import { trackProgress } from '../tasks/task-progress';

const quick = proxyActivities<PlatformActivities>({ startToCloseTimeout: '1 minute', retry: { maximumAttempts: 5 } });
const mail = proxyActivities<PlatformActivities>({
  startToCloseTimeout: '2 minutes',
  retry: { initialInterval: '5 seconds', backoffCoefficient: 2, maximumInterval: '10 minutes', maximumAttempts: 6 },
});

export async function sendTakedownWorkflow(input: { takedownId: string }): Promise<{ sent: number; pending: number; failed: string[] }> {
  trackProgress('sending');
  const recipients = await quick.pendingTakedownRecipients({ takedownId: input.takedownId });
  const failed: string[] = [];
  for (const recipientId of recipients) {
    try {
      await mail.mailTakedownRecipient({ takedownId: input.takedownId, recipientId });
    } catch {
      failed.push(recipientId);
    }
  }
  trackProgress('finishing');
  return { ...(await quick.finishTakedownSend({ takedownId: input.takedownId })), failed };
}
