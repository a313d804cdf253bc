// Every call into the crawler's browser goes through browserStep: a named step with a deadline. A
// hostile page can stall any Playwright call (a frame whose document never comes, an endless loop in
// the page's script, a screenshot of a renderer that never paints), and Playwright has no timeout on
// several of them (frame content, evaluate). At the deadline the step rejects with
// BrowserStepTimeout naming the step, so the caller can fail that page with a reason and go on; the
// abandoned call settles (or not) on its own, and closing the page ends it. withPageBudget bounds a
// page's steps together.
import { AsyncLocalStorage } from 'node:async_hooks';

/** The deadlines of the capture steps, in milliseconds (navigation takes the scan's page timeout). */
export const STEP_DEADLINES = {
  /** Waiting for the page to settle after a load, a click or a route change. */
  settle: 10_000,
  /** The DOM of the main frame. */
  snapshotMain: 10_000,
  /** The DOM of one child frame; a frame that does not answer is recorded and skipped. */
  snapshotFrame: 3_000,
  /** Listing the page's frames and the URLs their elements ask for. */
  frames: 5_000,
  /** The full-page screenshot; then the viewport alone gets the same again. */
  screenshot: 20_000,
  /** One evaluation in the page (title, links, visible text, coin tabs, image list). */
  evaluate: 10_000,
  /** One click or fill. */
  click: 5_000,
  /** One element screenshot (QR candidates). */
  elementShot: 5_000,
  /** Closing a page or a context. */
  close: 10_000,
  /** All the capture steps of one page together, after its load (withPageBudget). */
  capturePage: 60_000,
} as const;

/** A browser step that did not finish in time (or the page's budget ran out): the page is stuck (or hostile). */
export class BrowserStepTimeout extends Error {
  override name = 'BrowserStepTimeout';
  constructor(
    readonly step: string,
    readonly ms: number,
    /** Set when it was the page's whole budget (withPageBudget), not the step's own deadline, that ran out. */
    readonly pageBudgetMs: number | null = null,
  ) {
    super(pageBudgetMs === null ? `step "${step}" did not finish within ${formatMs(ms)}` : `the page's ${formatMs(pageBudgetMs)} ran out at step "${step}"`);
  }
}

interface PageBudget {
  until: number;
  ms: number;
}

const pageBudget = new AsyncLocalStorage<PageBudget>();

/**
 * Runs `work` with a budget for all its browser steps together: a page whose every step comes in
 * just under its own deadline still fails when the budget runs out (the step under way is cut
 * short, no later step starts). Whatever runs after `work` (failing the page, a new tab) is outside it.
 */
export function withPageBudget<T>(ms: number, work: () => Promise<T>): Promise<T> {
  return pageBudget.run({ until: Date.now() + ms, ms }, work);
}

function formatMs(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}

/**
 * Runs one browser call with a deadline. `call` should also pass the deadline to Playwright where
 * it takes one (so the browser stops too); the race is what holds when Playwright does not.
 */
export async function browserStep<T>(step: string, ms: number, call: () => Promise<T>): Promise<T> {
  const budget = pageBudget.getStore();
  const left = budget ? budget.until - Date.now() : Infinity;
  const byBudget = left < ms;
  if (byBudget && left <= 0) throw new BrowserStepTimeout(step, 0, budget!.ms);
  const waitMs = Math.min(ms, left);
  let timer: NodeJS.Timeout | undefined;
  const work = Promise.resolve().then(call);
  // The abandoned call may reject later (its page closed): that is expected, not an unhandled error.
  work.catch(() => undefined);
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(byBudget ? new BrowserStepTimeout(step, waitMs, budget!.ms) : new BrowserStepTimeout(step, ms)), waitMs);
  });
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/** The first line of an error, for an action's outcome. */
export function stepFailureReason(err: unknown): string {
  return (err instanceof Error ? err.message.split('\n')[0]! : String(err)).slice(0, 300);
}

/**
 * A page that got stuck (a browser step past its deadline) or whose renderer died: that page (or the
 * funnel's goal on it) fails and the scan goes on. Anything else (the browser gone, the database) is
 * the activity's failure, retried.
 */
export function isPageFailure(err: unknown): boolean {
  return err instanceof BrowserStepTimeout || (err instanceof Error && /(page|target) crashed/i.test(err.message));
}
