// The capture steps of a page, one named function each, every browser call through browserStep
// (browser-step.ts): the frames worth reading (non-web frames skipped with the reason), the DOM after
// scripts of every frame, the screenshot, the title, the links and the visible text. A step that
// does not finish in time throws BrowserStepTimeout for the main frame (the page is stuck); a child
// frame that does not answer is skipped and recorded, the page goes on.
import type { Frame, Page } from 'playwright-core';
import { frameSkipReason } from '../../domain/investigations/frame-schemes';
import type { FoundLink } from '../../domain/investigations/page-links';
import { stripUnsafeNameCharacters } from '../../domain/text-safety';
import { BrowserStepTimeout, browserStep, STEP_DEADLINES } from './browser-step';

/** A frame the capture did not read, and why. */
export interface SkippedFrame {
  url: string;
  reason: string;
}

export interface PageFrames {
  /** The main frame first, then the child frames worth reading. */
  frames: Frame[];
  skipped: SkippedFrame[];
}

/** Frames beyond this many are not read (a page of a thousand frames would take the page's time). */
const MAX_FRAMES = 50;
/** All child frames of one step together get at most this long. */
const FRAMES_BUDGET_MS = 15_000;

/** Resolves to `fallback` when `work` fails for any reason but a stuck step (which is rethrown). */
export async function unlessStuck<T>(work: Promise<T>, fallback: T): Promise<T> {
  try {
    return await work;
  } catch (err) {
    if (err instanceof BrowserStepTimeout) throw err;
    return fallback;
  }
}

/**
 * The frames of the page worth reading. A frame the browser gave no URL (a refused load) is judged
 * by what its element asked for (its src attribute).
 */
export async function pageFrames(page: Page): Promise<PageFrames> {
  const main = page.mainFrame();
  const frames: Frame[] = [main];
  const skipped: SkippedFrame[] = [];
  for (const frame of page.frames()) {
    if (frame === main) continue;
    let url = frame.url();
    if (!url) {
      try {
        url = await browserStep('frame enumeration', STEP_DEADLINES.frames, async () => {
          const element = await frame.frameElement();
          try {
            return (await element.getAttribute('src')) ?? '';
          } finally {
            void element.dispose().catch(() => undefined);
          }
        });
      } catch (err) {
        skipped.push({ url: '(unknown)', reason: err instanceof BrowserStepTimeout ? `its element did not answer within ${STEP_DEADLINES.frames / 1000} s` : 'its element is gone' });
        continue;
      }
    }
    const reason = frameSkipReason(url);
    if (reason) skipped.push({ url, reason });
    else if (frames.length > MAX_FRAMES) skipped.push({ url, reason: `more than ${MAX_FRAMES} frames on the page` });
    else frames.push(frame);
  }
  return { frames, skipped };
}

/**
 * Runs `read` on the main frame (a stuck main frame throws) and on each child frame within the
 * frames' budget (a child frame that does not answer is added to `skipped`, once).
 */
async function eachFrame<T>(found: PageFrames, step: string, ms: number, read: (frame: Frame) => Promise<T>): Promise<Array<{ frame: Frame; value: T }>> {
  const [main, ...children] = found.frames;
  const out = [{ frame: main!, value: await browserStep(step, ms, () => read(main!)) }];
  const budgetEnd = Date.now() + FRAMES_BUDGET_MS;
  for (const frame of children) {
    const left = budgetEnd - Date.now();
    const url = frame.url() || '(no url)';
    if (left <= 0) {
      if (!found.skipped.some((s) => s.url === url)) found.skipped.push({ url, reason: `${step}: the frames' ${FRAMES_BUDGET_MS / 1000} s were spent` });
      continue;
    }
    try {
      out.push({ frame, value: await browserStep(step, Math.min(STEP_DEADLINES.snapshotFrame, left), () => read(frame)) });
    } catch (err) {
      if (err instanceof BrowserStepTimeout && !found.skipped.some((s) => s.url === url)) found.skipped.push({ url, reason: `${step}: the frame did not answer within ${err.ms / 1000} s` });
      // any other failure: the frame went away meanwhile; nothing to read
    }
  }
  return out;
}

/** The DOM after scripts of the main frame followed by each readable child frame's, labelled by URL. */
export async function captureDomSnapshot(page: Page, found: PageFrames): Promise<string> {
  const parts = (await eachFrame(found, 'dom snapshot', STEP_DEADLINES.snapshotMain, (frame) => frame.content())).map(({ frame, value }, i) =>
    i === 0 ? value : `\n<!-- fip:frame ${frame.url().replace(/--/g, '%2D%2D')} -->\n${value}`,
  );
  for (const s of found.skipped) parts.push(`\n<!-- fip:frame-skipped ${s.url.replace(/--/g, '%2D%2D')}: ${s.reason.replace(/--/g, '-')} -->`);
  return parts.join('');
}

/** A full-page PNG screenshot, or the viewport's (half the deadline) when the full page does not come in time. */
export async function captureScreenshot(page: Page): Promise<Buffer> {
  const ms = STEP_DEADLINES.screenshot;
  try {
    return await browserStep('full-page screenshot', ms, () => page.screenshot({ fullPage: true, type: 'png', timeout: ms }));
  } catch {
    // A page too tall to render in time still has a viewport (a stuck one fails here too, sooner).
    const viewportMs = ms / 2;
    return browserStep('screenshot', viewportMs, () => page.screenshot({ type: 'png', timeout: viewportMs }));
  }
}

/**
 * The page's title as stored and shown (results, console, reports): a hostile site's title loses
 * bidirectional formatting and control characters like any stored name; the captured HTML keeps
 * the original.
 */
export async function captureTitle(page: Page): Promise<string | null> {
  return stripUnsafeNameCharacters(await unlessStuck(browserStep('title', STEP_DEADLINES.evaluate, () => page.title()), '')).trim() || null;
}

/** Links of every readable frame (anchors and areas), with their visible text. */
export async function captureLinks(page: Page, found: PageFrames): Promise<FoundLink[]> {
  const read = (frame: Frame) =>
    frame
      .evaluate(() => Array.from(document.querySelectorAll('a[href], area[href]')).map((a) => ({ href: (a as HTMLAnchorElement).href, text: (a.textContent ?? '').trim().slice(0, 100) })))
      .catch(() => [] as FoundLink[]);
  return (await eachFrame(found, 'links', STEP_DEADLINES.evaluate, read)).flatMap((r) => r.value).slice(0, 5000);
}

/** The visible text of every readable frame. */
export async function captureVisibleText(page: Page, found: PageFrames): Promise<string> {
  const read = (frame: Frame) => frame.evaluate(() => document.body?.innerText ?? '').catch(() => '');
  return (await eachFrame(found, 'visible text', STEP_DEADLINES.evaluate, read)).map((r) => r.value).join('\n');
}

/** What the page shows after a reveal: its screenshot, and the DOM after scripts of its readable frames. */
export interface RevealCapture {
  screenshot: Buffer;
  html: string;
  skipped: SkippedFrame[];
}

/**
 * The capture point after every reveal (a coin-tab click, a playbook step, a funnel step): the
 * screenshot and the DOM snapshot of the page as the step left it, through the same named,
 * deadline-bound steps as a page's capture (a stuck page throws BrowserStepTimeout).
 */
export async function captureAfterReveal(page: Page): Promise<RevealCapture> {
  const found = await pageFrames(page);
  const html = await captureDomSnapshot(page, found);
  const screenshot = await captureScreenshot(page);
  return { screenshot, html, skipped: found.skipped };
}
