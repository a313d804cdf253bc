// A dossier (`dossier-<plan_id>`, POST /reports/dossiers): collect the artifacts of each source of
// the plan, then write the manifest and sign it. Every step is an idempotent activity and shows as
// progress (`collecting` with the source in hand, `signing`, `ready`).
import { ActivityFailure, ApplicationFailure, CancellationScope, isCancellation, proxyActivities } from '@temporalio/workflow';
import type { PlatformActivities } from '../../activities';
import { trackProgress } from '../tasks/task-progress';

const steps = proxyActivities<PlatformActivities>({
  startToCloseTimeout: '30 minutes',
  heartbeatTimeout: '30 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '30 seconds', maximumAttempts: 10 },
});
const bookkeeping = proxyActivities<PlatformActivities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1 second', maximumInterval: '10 seconds', maximumAttempts: 20 },
});

export interface DossierWorkflowInput {
  planId: string;
}

export interface DossierWorkflowResult {
  plan_id: string;
  status: 'ready';
  artifacts: number;
  manifest_sha256: string;
  key_id: string | null;
  detail_path: string;
}

export async function dossierWorkflow(input: DossierWorkflowInput): Promise<DossierWorkflowResult> {
  const progress = trackProgress('queued');
  const { planId } = input;
  try {
    const sources = await bookkeeping.beginDossier({ planId });
    for (const [i, source] of sources.entries()) {
      progress.set('collecting', Math.round((i / Math.max(sources.length, 1)) * 90), { source: `${source.kind}:${source.id}`, done: i, of: sources.length });
      await steps.collectDossierSource({ planId, source });
    }
    progress.set('signing', 90, { sources: sources.length });
    const sealed = await steps.sealDossier({ planId });
    progress.set('ready', 100, { artifacts: sealed.artifacts, manifest_sha256: sealed.manifest_sha256 });
    return { plan_id: planId, status: 'ready', artifacts: sealed.artifacts, manifest_sha256: sealed.manifest_sha256, key_id: sealed.key_id, detail_path: `/reports/dossiers/${planId}` };
  } catch (err) {
    const cause = err instanceof ActivityFailure ? err.cause : err;
    const publicMessage = isCancellation(err)
      ? 'the dossier task was cancelled'
      : cause instanceof ApplicationFailure && cause.type === 'DossierSourceMissing' ? cause.message : 'collecting the dossier failed';
    progress.set('failed', null, { error: publicMessage });
    // Recorded even when the task was cancelled (a cancelled scope would cancel this activity too).
    await CancellationScope.nonCancellable(() => bookkeeping.failDossier({ planId, message: publicMessage }));
    throw err;
  }
}
