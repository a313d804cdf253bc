// One scam-site investigation, `ssi-<scan_id>`: QUEUED -> NAVIGATE -> CAPTURE -> EXPLORE ->
// [the funnel, when the site is gated: REGISTER -> VERIFY_CONTACT -> LOGIN -> NAVIGATE_DEPOSIT] ->
// DISCOVER_COIN_TABS -> EXTRACT_WALLETS -> COMPLETE (or FAILED, CANCELLED). The state is the
// `progress` query's stage and the FipStage search attribute (Temporal UI). Browser activities run on
// the task queue of the worker holding the scan's browser context (worker-specific task queues);
// when that worker is gone for good, the next step takes a new worker's queue.
import {
  ActivityFailure,
  ApplicationFailure,
  CancellationScope,
  TimeoutFailure,
  isCancellation,
  patched,
  proxyActivities,
  setHandler,
  upsertSearchAttributes,
} from '@temporalio/workflow';
import { defineSearchAttributeKey, SearchAttributeType, TimeoutType } from '@temporalio/common';
import type { PlatformActivities } from '../../activities';
import type { InvestigationState, InvestigationWorkflowInput, PlaybookStepInput } from '../../domain/investigations/investigation-request';
import { SEARCH_ATTRIBUTE_STAGE } from '../../domain/tasks/task-kinds';
import type { PersonaMailSignal } from '../../domain/investigations/funnel';
import { trackProgress } from '../tasks/task-progress';
import { walkFunnel } from './funnel-steps';
import { personaMailSignal } from './funnel-signals';

const FIP_STAGE = defineSearchAttributeKey(SEARCH_ATTRIBUTE_STAGE, SearchAttributeType.KEYWORD);

const shared = proxyActivities<PlatformActivities>({
  startToCloseTimeout: '10 minutes',
  heartbeatTimeout: '30 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '20 seconds', maximumAttempts: 10 },
});

/** Fingerprinting reads stored captures only: a few tries, then the investigation completes without. */
const fingerprinting = proxyActivities<PlatformActivities>({
  startToCloseTimeout: '5 minutes',
  retry: { initialInterval: '1 second', maximumInterval: '10 seconds', maximumAttempts: 3 },
});

function browserActivities(taskQueue: string) {
  return proxyActivities<PlatformActivities>({
    taskQueue,
    // A worker that died and is not coming back: give its queue up and take another worker's.
    scheduleToStartTimeout: '2 minutes',
    // Every browser call of a step has its own deadline (infra/crawler/browser-step.ts) and a stuck
    // page fails that page, not the step; this only bounds what is left (a 120 s page load, a long
    // playbook), and the retries are few so that no page holds the crawler for long.
    startToCloseTimeout: '5 minutes',
    // Heartbeats come every second; a dead worker is noticed after this and the step is retried.
    heartbeatTimeout: '15 seconds',
    retry: { initialInterval: '1 second', maximumInterval: '10 seconds', maximumAttempts: 3, nonRetryableErrorTypes: ['InvestigationTargetBlocked', 'InvestigationPageStuck', 'CrawlerSandboxUnavailable', 'ChromiumUnavailable'] },
  });
}

export interface InvestigationResult {
  scan_id: string;
  state: InvestigationState;
  final_url: string | null;
  pages: number;
  wallets: number;
  detail_path: string;
}

/** Closing the browser after a failure or a cancellation: brief, and never blocking the outcome. */
function closingActivities(taskQueue: string) {
  return proxyActivities<PlatformActivities>({ taskQueue, scheduleToStartTimeout: '20 seconds', startToCloseTimeout: '1 minute', retry: { maximumAttempts: 2 } });
}

function isScheduleToStartTimeout(err: unknown): boolean {
  return err instanceof ActivityFailure && err.cause instanceof TimeoutFailure && err.cause.timeoutType === TimeoutType.SCHEDULE_TO_START;
}

export async function ssiInvestigationWorkflow(input: InvestigationWorkflowInput): Promise<InvestigationResult> {
  const progress = trackProgress('QUEUED');
  const { scanId, options } = input;
  let pages = 0;
  let finalUrl: string | null = null;
  const enter = async (state: InvestigationState, percent: number, detail: Record<string, unknown> = {}) => {
    progress.set(state, percent, { scan_id: scanId, ...detail });
    upsertSearchAttributes([{ key: FIP_STAGE, value: state }]);
    const status = state === 'COMPLETE' ? 'completed' : state === 'FAILED' ? 'failed' : state === 'CANCELLED' ? 'cancelled' : 'running';
    await shared.setInvestigationState({ scanId, state, status, ...(typeof detail.error === 'string' ? { error: detail.error } : {}) });
  };
  upsertSearchAttributes([{ key: FIP_STAGE, value: 'QUEUED' }]);
  // A verification mail for the persona (the first one counts); buffered until VERIFY_CONTACT reads it.
  const mail: { first: PersonaMailSignal | null } = { first: null };
  setHandler(personaMailSignal, (m) => {
    mail.first ??= m;
  });

  let queue = await shared.investigationBrowserQueue();
  /** A browser step on the worker holding the session; a lost worker's queue is replaced once per step. */
  const onBrowser = async <T>(step: (b: ReturnType<typeof browserActivities>) => Promise<T>): Promise<T> => {
    for (let attempt = 0; ; attempt++) {
      try {
        return await step(browserActivities(queue));
      } catch (err) {
        if (!isScheduleToStartTimeout(err) || attempt >= 3) throw err;
        queue = await shared.investigationBrowserQueue();
      }
    }
  };

  try {
    const playbook = await shared.resolveInvestigationPlaybook({ scanId, url: input.url, playbookId: input.playbookId, auto: input.autoPlaybook });
    const steps: PlaybookStepInput[] = playbook?.steps ?? [];
    const pageSteps = steps.filter((s) => s.type === 'click' || s.type === 'fill' || s.type === 'wait_for_text');
    const coinTabSelectors = steps.flatMap((s) => (s.type === 'coin_tabs' ? s.selectors : []));
    const limit = steps.reduce((max, s) => (s.type === 'limit_pages' ? Math.min(max, s.max) : max), options.max_pages);
    const base = { scanId, pageTimeoutS: options.page_timeout_s };

    await enter('NAVIGATE', 5, { url: input.url, playbook_id: playbook?.id ?? null });
    const nav = await onBrowser((b) => b.navigateInvestigation({ ...base, url: input.url }));
    finalUrl = nav.finalUrl;

    await enter('CAPTURE', 15, { final_url: finalUrl, redirects: nav.chain.length - 1 });
    const first = await onBrowser((b) => b.captureInvestigationPage({ ...base, url: finalUrl!, state: 'CAPTURE', steps: pageSteps }));
    pages = first.captured ? 1 : 0;
    const withTabs: string[] = first.coinTabs > 0 || coinTabSelectors.length ? [finalUrl] : [];

    await enter('EXPLORE', 30, { pages, max_pages: limit });
    const seen = new Set<string>([finalUrl, input.url]);
    const frontier = first.links.filter((l) => !seen.has(l));
    while (frontier.length && pages < limit) {
      const next = frontier.shift()!;
      if (seen.has(next)) continue;
      seen.add(next);
      const page = await onBrowser((b) => b.captureInvestigationPage({ ...base, url: next, state: 'EXPLORE', steps: [] }));
      if (!page.captured) continue;
      pages++;
      if (page.coinTabs > 0 || coinTabSelectors.length) withTabs.push(next);
      for (const l of page.links) if (!seen.has(l)) frontier.push(l);
      progress.set('EXPLORE', Math.min(60, 30 + pages), { scan_id: scanId, pages, max_pages: limit });
    }

    // The funnel: runs recorded before it existed replay without it.
    let funnel: string | null = null;
    if (input.agent?.register !== false && patched('ssi-funnel')) {
      const walked = await walkFunnel({ scanId, startUrl: finalUrl, entryUrl: input.url, pageTimeoutS: options.page_timeout_s, enter, onBrowser, mail });
      funnel = walked.outcome;
      await shared.recordFunnelOutcome({ scanId, outcome: walked.outcome });
      if (walked.depositUrl) {
        const deposit = await onBrowser((b) => b.captureInvestigationPage({ ...base, url: walked.depositUrl!, state: 'NAVIGATE_DEPOSIT', steps: [] }));
        if (deposit.captured) pages++;
        // The deposit page first: its coin tabs are read while the session is still on it.
        const at = withTabs.indexOf(walked.depositUrl);
        if (at >= 0) withTabs.splice(at, 1);
        withTabs.unshift(walked.depositUrl);
      }
    }

    if (options.coin_tabs) {
      await enter('DISCOVER_COIN_TABS', 65, { pages_with_tabs: withTabs.length });
      for (const url of withTabs) await onBrowser((b) => b.discoverCoinTabs({ ...base, url, selectors: coinTabSelectors }));
    }
    await CancellationScope.nonCancellable(() => onBrowser((b) => b.closeInvestigationSession({ scanId })));

    await enter('EXTRACT_WALLETS', 85);
    const sweep = await shared.sweepInvestigationWallets({ scanId });
    // The scan's entities have new sightings: refresh their loss and risk score (a failure here
    // does not fail the investigation; the next sighting of each entity recomputes it).
    try {
      await shared.recomputeSourceRiskScores({ kind: 'investigation', id: scanId });
    } catch (err) {
      if (isCancellation(err)) throw err;
    }
    // The pages' fingerprints for similar sites (runs recorded before they existed replay without
    // them; a failure here does not fail the investigation, whose evidence is complete).
    if (patched('ssi-fingerprints')) {
      try {
        await fingerprinting.fingerprintInvestigation({ scanId });
        await fingerprinting.recomputeCampaignSuggestions();
      } catch (err) {
        if (isCancellation(err)) throw err;
      }
    }
    // Its place in the scam taxonomy, from its pages, wallets and kit (after the fingerprints that
    // find the kit's other sites); a failure leaves it unclassified, not failed.
    if (patched('ssi-classification')) {
      try {
        await fingerprinting.classifyInvestigation({ scanId });
      } catch (err) {
        if (isCancellation(err)) throw err;
      }
    }
    await enter('COMPLETE', 100, { pages, wallets: sweep.wallets, ...(funnel ? { funnel } : {}) });
    return { scan_id: scanId, state: 'COMPLETE', final_url: finalUrl, pages, wallets: sweep.wallets, detail_path: `/investigations/ssi/${scanId}` };
  } catch (err) {
    const cancelled = isCancellation(err);
    await CancellationScope.nonCancellable(async () => {
      // Keep what was captured; close the browser context on its worker (if that worker is alive).
      await closingActivities(queue).closeInvestigationSession({ scanId }).catch(() => undefined);
      const message = cancelled ? 'cancelled' : err instanceof ApplicationFailure || (err instanceof ActivityFailure && err.cause instanceof ApplicationFailure) ? publicMessage(err) : 'the investigation failed';
      await enter(cancelled ? 'CANCELLED' : 'FAILED', 100, { error: message, pages });
    });
    throw err;
  }
}

function publicMessage(err: unknown): string {
  const failure = err instanceof ActivityFailure ? err.cause : err;
  return failure instanceof Error ? failure.message.slice(0, 500) : 'the investigation failed';
}
