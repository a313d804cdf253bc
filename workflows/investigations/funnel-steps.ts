// The funnel's states inside an investigation's workflow: REGISTER -> VERIFY_CONTACT (a durable wait
// for the persona's mail) -> LOGIN -> NAVIGATE_DEPOSIT. Each goal is one browser activity on the
// worker holding the session; the workflow sees outcomes and URLs only, never persona values.
import { condition, type ActivityInterfaceFor } from '@temporalio/workflow';
import type { PlatformActivities } from '../../activities';
import type { PersonaMailSignal } from '../../domain/investigations/funnel';
import type { InvestigationState } from '../../domain/investigations/investigation-request';

type Browser = ActivityInterfaceFor<PlatformActivities>;
type GoalResult = Awaited<ReturnType<PlatformActivities['runFunnelGoal']>>;

export interface FunnelWalk {
  scanId: string;
  startUrl: string;
  /** The URL the investigation was asked for (a revisit with a stored session starts there). */
  entryUrl: string;
  pageTimeoutS: number;
  enter: (state: InvestigationState, percent: number, detail?: Record<string, unknown>) => Promise<void>;
  onBrowser: <T>(step: (b: Browser) => Promise<T>) => Promise<T>;
  /** The first verification mail that reached the persona (set by the workflow's signal handler). */
  mail: { first: PersonaMailSignal | null };
}

export interface FunnelOutcome {
  /** Where the funnel ended: 'deposit page reached', 'not gated: …', 'needs guidance: …', 'stopped: …'. */
  outcome: string;
  depositUrl: string | null;
}

/**
 * The agent cannot go on without a human (a captcha, a step it does not know). For now the funnel
 * ends here with the outcome "needs guidance"; this is where the guidance wait (askHuman, the
 * AWAITING_GUIDANCE state) plugs in: ask, then retry the goal with the answer, or end on abort or timeout.
 */
export async function needsGuidance(_walk: FunnelWalk, state: InvestigationState, result: Extract<GoalResult, { outcome: 'ask_human' }>): Promise<FunnelOutcome> {
  return { outcome: `needs guidance: ${result.guidanceKind} in ${state}: ${result.question}`, depositUrl: null };
}

/** Walks the funnel after EXPLORE; answers the deposit page's URL when it got there. */
export async function walkFunnel(walk: FunnelWalk): Promise<FunnelOutcome> {
  const { scanId, pageTimeoutS, enter, onBrowser } = walk;
  const gate = await onBrowser((b) => b.detectFunnelGate({ scanId, url: walk.startUrl, entryUrl: walk.entryUrl, pageTimeoutS }));
  if (!gate.gated) return { outcome: `not gated: ${gate.reason}`, depositUrl: null };

  const goal = async (state: 'REGISTER' | 'LOGIN' | 'NAVIGATE_DEPOSIT', percent: number): Promise<GoalResult> => {
    await enter(state, percent);
    return onBrowser((b) => b.runFunnelGoal({ scanId, pageTimeoutS, goal: state }));
  };
  const stop = (state: InvestigationState, r: Exclude<GoalResult, { outcome: 'reached' }>): Promise<FunnelOutcome> | FunnelOutcome =>
    r.outcome === 'ask_human' ? needsGuidance(walk, state, r) : { outcome: `stopped in ${state}: ${r.reason}`, depositUrl: null };

  if (!gate.registered) {
    const reg = await goal('REGISTER', 62);
    if (reg.outcome !== 'reached') return stop('REGISTER', reg);
    if (reg.verify) {
      await enter('VERIFY_CONTACT', 64);
      const arrived = await condition(() => walk.mail.first !== null, `${gate.verifyWaitMinutes} minutes`);
      if (!arrived) return { outcome: `stopped in VERIFY_CONTACT: no verification mail within ${gate.verifyWaitMinutes} minutes`, depositUrl: null };
      const mail = walk.mail.first!;
      const verified = await onBrowser((b) => b.useVerificationMail({ scanId, pageTimeoutS, codes: mail.codes, links: mail.links }));
      if (verified.outcome !== 'reached') return stop('VERIFY_CONTACT', verified);
    }
  }
  const login = await goal('LOGIN', 66);
  if (login.outcome !== 'reached') return stop('LOGIN', login);
  const deposit = await goal('NAVIGATE_DEPOSIT', 68);
  if (deposit.outcome !== 'reached') return stop('NAVIGATE_DEPOSIT', deposit);
  return { outcome: 'deposit page reached', depositUrl: deposit.url };
}
