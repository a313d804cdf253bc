// What the agent does inside a page: load it, wait until it settles, follow a client-side route,
// run a playbook's clicks, fills and waits, find coin buttons and tabs, click one and wait for the
// DOM to change. Every browser call goes through browserStep (a named step with a deadline); what
// is captured of a page is page-capture.ts's.
import type { Page, Response } from 'playwright-core';
import { COIN_TAB_LABEL_SOURCE } from '../../domain/investigations/page-links';
import { browserStep, STEP_DEADLINES } from './browser-step';
import { unlessStuck } from './page-capture';

/** Loads `url` in the page (the scan's page timeout bounds it). */
export async function navigate(page: Page, url: string, timeoutMs: number): Promise<Response | null> {
  return browserStep('navigation', timeoutMs + 2000, () => page.goto(url, { waitUntil: 'load', timeout: timeoutMs }));
}

/** Waits (at most `ms`) until the page's URL is no longer `from`; false when it stayed. */
export async function waitForUrlChange(page: Page, from: string, ms: number): Promise<boolean> {
  return unlessStuck(browserStep('redirect', ms + 1000, () => page.waitForURL((u) => u.href !== from, { timeout: ms }).then(() => true)), false);
}

/** A client-side route change, the way the page's own links would make it. */
export async function changeRoute(page: Page, hash: string): Promise<void> {
  await browserStep('route change', STEP_DEADLINES.evaluate, () => page.evaluate((h) => void (location.hash = h), hash));
}

/**
 * Waits for the load, a short network quiet, then until the DOM has not changed for `quietMs` (at
 * most `maxMs`, and never past the settle deadline). A page too busy to answer is stuck:
 * BrowserStepTimeout.
 */
export async function settle(page: Page, opts: { quietMs: number; maxMs: number }): Promise<void> {
  await unlessStuck(browserStep('load', opts.maxMs + 1000, () => page.waitForLoadState('load', { timeout: opts.maxMs })), undefined);
  const idleMs = Math.min(opts.maxMs, 3000);
  await unlessStuck(browserStep('network idle', idleMs + 1000, () => page.waitForLoadState('networkidle', { timeout: idleMs })), undefined);
  const quiet = Math.round(Math.min(opts.quietMs, STEP_DEADLINES.settle / 2));
  const stop = Math.round(Math.min(opts.maxMs, STEP_DEADLINES.settle - 2000));
  // A string, not a function: the test runner's transpiler decorates named functions with helpers
  // that do not exist in the page.
  await unlessStuck(
    browserStep('settle', STEP_DEADLINES.settle, () =>
      page.evaluate(`new Promise((resolve) => {
      let timer;
      let stop;
      const done = () => { observer.disconnect(); clearTimeout(timer); clearTimeout(stop); resolve(); };
      const observer = new MutationObserver(() => { clearTimeout(timer); timer = setTimeout(done, ${quiet}); });
      timer = setTimeout(done, ${quiet});
      stop = setTimeout(done, ${stop});
      observer.observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
    })`),
    ),
    undefined,
  );
}

/** Waits `ms` (the page is given time to run its redirect scripts). */
export async function pause(page: Page, ms: number): Promise<void> {
  await browserStep('pause', ms + STEP_DEADLINES.click, () => page.waitForTimeout(ms));
}

/** A playbook's click or fill on the first element matching `selector`. */
export async function clickElement(page: Page, selector: string): Promise<void> {
  await browserStep('click', STEP_DEADLINES.click + 1000, () => page.locator(selector).first().click({ timeout: STEP_DEADLINES.click }));
}

export async function fillElement(page: Page, selector: string, value: string): Promise<void> {
  await browserStep('fill', STEP_DEADLINES.click + 1000, () => page.locator(selector).first().fill(value, { timeout: STEP_DEADLINES.click }));
}

/** A playbook's wait for text (its own timeout, at most 120 s by the playbook's schema). */
export async function waitForText(page: Page, text: string, timeoutMs: number): Promise<void> {
  await browserStep('wait for text', timeoutMs + 1000, () => page.getByText(text).first().waitFor({ timeout: timeoutMs }));
}

/**
 * Marks coin buttons and tabs of the main frame (`data-fip-coin-tab="<n>"`) and answers their
 * labels: clickable-looking leaf elements whose text names a coin, plus elements matching the
 * playbook's coin-tab selectors.
 */
export async function markCoinTabs(page: Page, extraSelectors: readonly string[]): Promise<string[]> {
  return browserStep('coin tabs', STEP_DEADLINES.evaluate, () => page.evaluate(
    ({ pattern, extra }) => {
      const re = new RegExp(pattern, 'i');
      const seen = new Set<Element>();
      const labels: string[] = [];
      const candidates = Array.from(document.querySelectorAll('button, [role="tab"], [role="button"], a, li, label, span, div'));
      const picked: Element[] = [];
      for (const sel of extra) {
        try {
          picked.push(...Array.from(document.querySelectorAll(sel)));
        } catch {
          // an invalid selector is skipped
        }
      }
      for (const el of candidates) {
        const text = (el as HTMLElement).innerText?.trim() ?? '';
        if (!text || text.length > 40 || !re.test(text)) continue;
        // The innermost element carrying the label (not its containers).
        if (Array.from(el.children).some((c) => ((c as HTMLElement).innerText ?? '').trim() === text)) continue;
        if (el instanceof HTMLAnchorElement && el.href && !/^(javascript:|#)/.test(el.getAttribute('href') ?? '#')) continue;
        picked.push(el);
      }
      for (const el of picked) {
        if (seen.has(el)) continue;
        const rect = (el as HTMLElement).getBoundingClientRect();
        if (rect.width === 0 && rect.height === 0) continue;
        seen.add(el);
        el.setAttribute('data-fip-coin-tab', String(labels.length));
        labels.push(((el as HTMLElement).innerText ?? '').trim().slice(0, 40) || `tab ${labels.length + 1}`);
      }
      return labels.slice(0, 50);
    },
    { pattern: COIN_TAB_LABEL_SOURCE, extra: [...extraSelectors] },
  ));
}


/** Clicks a marked coin tab and waits until the DOM changes and settles (at most `maxMs`). */
export async function clickAndWaitForChange(page: Page, selector: string, maxMs: number): Promise<boolean> {
  const changed = browserStep('dom change after click', maxMs + STEP_DEADLINES.click, () => page
    .evaluate<boolean>(`new Promise((resolve) => {
      let quiet = null;
      let seen = false;
      let stop;
      const finish = () => { observer.disconnect(); clearTimeout(stop); if (quiet) clearTimeout(quiet); resolve(seen); };
      const observer = new MutationObserver((records) => {
        if (records.every((r) => r.type === 'attributes' && r.attributeName === 'data-fip-coin-tab')) return;
        seen = true;
        if (quiet) clearTimeout(quiet);
        quiet = setTimeout(finish, 250);
      });
      stop = setTimeout(finish, ${Math.round(maxMs)});
      observer.observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
    })`)
    .catch(() => false));
  // Whatever the click does, the watcher above is not left behind unawaited.
  changed.catch(() => undefined);
  const clickMs = Math.min(maxMs, STEP_DEADLINES.click);
  await browserStep('click', clickMs + 1000, () => page.locator(selector).first().click({ timeout: clickMs }));
  return changed;
}
