// The funnel's states inside an investigation's workflow (any goal may wait in AWAITING_GUIDANCE for a
// human's answer): REGISTER -> VERIFY_CONTACT (a durable wait
// for the persona's mail) -> LOGIN -> NAVIGATE_DEPOSIT. Each goal is one browser activity on the
// worker holding the session; the workflow sees outcomes and URLs only, never persona values.
import { condition, type ActivityInterfaceFor } from '@temporalio/workflow';
import type { PlatformActivities } from '../../activities';
import type { PersonaMailSignal } from '../../domain/investigations/funnel';
import type { InvestigationState } from '../../domain/investigations/investigation-request';
import { askHuman } from './funnel-guidance';

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

/** A goal asks a human at most this often before the funnel stops there. */
const MAX_ASKS_PER_GOAL = 3;

/**
 * The agent cannot go on without a human (a captcha, a step it does not know): ask (the scan waits
 * in AWAITING_GUIDANCE, durably, until the answer, an abort or the timeout), then run the goal again
 * with the answer typed into the field it asked about. Answers the goal's last result, or how the
 * funnel ended (no answer in time, aborted, still asking).
 */
async function withGuidance(
  walk: FunnelWalk,
  state: InvestigationState,
  percent: number,
  run: (guidance?: { field: string | null; answer: string }) => Promise<GoalResult>,
): Promise<GoalResult | FunnelOutcome> {
  let result = await run();
  for (let asks = 0; result.outcome === 'ask_human'; asks++) {
    if (asks >= MAX_ASKS_PER_GOAL) return { outcome: `stopped in ${state}: still needs guidance after ${MAX_ASKS_PER_GOAL} answers`, depositUrl: null };
    const ask = result;
    const reply = await askHuman(
      walk.scanId,
      { kind: ask.guidanceKind, question: ask.question, ...(ask.field ? { field: ask.field } : {}), screenshotKey: ask.screenshotKey },
      { enter: (s) => walk.enter(s, percent, { waiting_for: ask.guidanceKind, in_state: state }) },
    );
    if (!reply) return { outcome: `needs guidance: ${ask.guidanceKind} in ${state}: no answer in time`, depositUrl: null };
    if ('action' in reply) return { outcome: `aborted in ${state}: the analyst aborted the funnel`, depositUrl: null };
    await walk.enter(state, percent);
    result = await run({ field: ask.field, answer: reply.answer });
  }
  return result;
}

/** Walks the funnel after EXPLORE; answers the deposit page's URL when it got there. */
export async function walkFunnel(walk: FunnelWalk): Promise<FunnelOutcome> {
  const { scanId, pageTimeoutS, enter, onBrowser } = walk;
  const gate = await onBrowser((b) => b.detectFunnelGate({ scanId, url: walk.startUrl, entryUrl: walk.entryUrl, pageTimeoutS }));
  if (!gate.gated) return { outcome: `not gated: ${gate.reason}`, depositUrl: null };

  const goal = async (state: 'REGISTER' | 'LOGIN' | 'NAVIGATE_DEPOSIT', percent: number): Promise<GoalResult | FunnelOutcome> => {
    await enter(state, percent);
    return withGuidance(walk, state, percent, (guidance) => onBrowser((b) => b.runFunnelGoal({ scanId, pageTimeoutS, goal: state, ...(guidance ? { guidance } : {}) })));
  };
  const stop = (state: InvestigationState, r: Exclude<GoalResult, { outcome: 'reached' }> | FunnelOutcome): FunnelOutcome =>
    'depositUrl' in r ? r : r.outcome === 'ask_human' ? { outcome: `needs guidance: ${r.guidanceKind} in ${state}: ${r.question}`, depositUrl: null } : { outcome: `stopped in ${state}: ${r.reason}`, depositUrl: null };

  if (!gate.registered) {
    const reg = await goal('REGISTER', 62);
    if ('depositUrl' in reg || reg.outcome !== 'reached') return stop('REGISTER', reg);
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
  if ('depositUrl' in login || login.outcome !== 'reached') return stop('LOGIN', login);
  const deposit = await goal('NAVIGATE_DEPOSIT', 68);
  if ('depositUrl' in deposit || deposit.outcome !== 'reached') return stop('NAVIGATE_DEPOSIT', deposit);
  return { outcome: 'deposit page reached', depositUrl: deposit.url };
}
