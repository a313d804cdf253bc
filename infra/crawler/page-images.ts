// The page's image-like elements that could hold a QR code (deposit pages often
// show the address only as a QR image). Each is screenshotted from the rendered page, so nothing is
// fetched again and the crawler's egress policy still decides every request; data: URIs, canvases
// drawn by a QR script and inline SVG work the same way.
import type { Page } from 'playwright-core';
import { browserStep, STEP_DEADLINES } from './browser-step';
import { unlessStuck } from './page-capture';

/** Elements smaller than this (CSS pixels) on either side cannot hold a readable QR code. */
const MIN_SIDE = 48;
/** QR codes are square; allow padding and captions around them. */
const MAX_ASPECT = 1.8;
const SELECTOR = 'img, canvas, svg, object[type^="image/"]';

/** Screenshots (PNG) of at most `max` visible, roughly square image-like elements, largest first. */
export async function qrCandidateShots(page: Page, max = 12): Promise<Buffer[]> {
  const indexes = await unlessStuck(browserStep('image list', STEP_DEADLINES.evaluate, () => page
    .evaluate(
      ({ selector, minSide, maxAspect, limit }) => {
        const all = Array.from(document.querySelectorAll(selector));
        return all
          .map((el, i) => {
            const r = el.getBoundingClientRect();
            const style = getComputedStyle(el);
            const hidden = style.visibility === 'hidden' || style.display === 'none' || Number(style.opacity) === 0;
            // An <svg> inside another <svg> is drawn by its parent.
            const nested = el.tagName.toLowerCase() === 'svg' && el.parentElement?.closest('svg') !== null;
            return { i, w: r.width, h: r.height, ok: !hidden && !nested };
          })
          .filter((e) => e.ok && e.w >= minSide && e.h >= minSide && Math.max(e.w, e.h) / Math.min(e.w, e.h) <= maxAspect)
          .sort((a, b) => b.w * b.h - a.w * a.h)
          .slice(0, limit)
          .map((e) => e.i);
      },
      { selector: SELECTOR, minSide: MIN_SIDE, maxAspect: MAX_ASPECT, limit: max },
    )), [] as number[]);
  const shots: Buffer[] = [];
  const elements = page.locator(SELECTOR);
  const ms = STEP_DEADLINES.elementShot;
  for (const i of indexes) {
    const shot = await unlessStuck(browserStep('image screenshot', ms + 1000, () => elements.nth(i).screenshot({ type: 'png', timeout: ms, animations: 'disabled' })), null);
    if (shot) shots.push(shot);
  }
  return shots;
}
