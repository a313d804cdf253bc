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
      // Marks of an earlier pass (elements a script has not replaced) would name two elements alike.
      document.querySelectorAll('[data-fip-coin-tab]').forEach((el) => el.removeAttribute('data-fip-coin-tab'));
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


/**
 * Records what the page writes to the clipboard (navigator.clipboard.writeText and
 * document.execCommand('copy')): copy buttons often hold an address the page never shows whole.
 * Added to every page of an investigation's context (an init script; a string for the transpiler's sake).
 */
export const CLIPBOARD_HOOK = `(() => {
  const writes = [];
  Object.defineProperty(window, '__fipClipboard', { value: writes, enumerable: false });
  const clip = navigator.clipboard;
  if (clip && clip.writeText) {
    const original = clip.writeText.bind(clip);
    Object.defineProperty(clip, 'writeText', { value: (text) => { writes.push(String(text)); return original(text).catch(() => undefined); }, configurable: true });
  }
  const exec = document.execCommand.bind(document);
  document.execCommand = (cmd, ...rest) => {
    if (String(cmd).toLowerCase() === 'copy') {
      const active = document.activeElement;
      const selected = active && 'value' in active && typeof active.selectionStart === 'number' ? String(active.value).slice(active.selectionStart, active.selectionEnd) : String(getSelection() || '');
      if (selected) writes.push(selected);
    }
    return exec(cmd, ...rest);
  };
})();`;

/** What the page wrote to the clipboard since the last call. */
export async function takeClipboardWrites(page: Page): Promise<string[]> {
  return unlessStuck(browserStep('clipboard', STEP_DEADLINES.evaluate, () => page.evaluate<string[]>('(window.__fipClipboard || []).splice(0)')), []);
}

/** Clicks (at most `max`) visible copy buttons, each once: what they copy is read by takeClipboardWrites. */
export async function clickCopyButtons(page: Page, max = 3): Promise<number> {
  const count = await unlessStuck(browserStep('copy buttons', STEP_DEADLINES.evaluate, () => page.evaluate<number>(`(() => {
    const re = /copy|复制|複製|sao chép|copiar|копир|kopyala|salin|คัดลอก|نسخ/i;
    let n = 0;
    for (const el of Array.from(document.querySelectorAll('button, [role="button"], a, span, i, svg, div'))) {
      if (n >= ${Math.round(max)} || el.hasAttribute('data-fip-coin-tab') || el.closest('[data-fip-coin-tab]')) continue;
      const text = ((el.innerText || '') + ' ' + (el.getAttribute('aria-label') || '') + ' ' + (el.getAttribute('title') || '') + ' ' + (el.getAttribute('class') || '')).trim();
      if (!re.test(text) || text.length > 60 || Array.from(el.children).some((c) => re.test((c.innerText || '') + (c.getAttribute('class') || '')))) continue;
      const r = el.getBoundingClientRect();
      if (r.width === 0 && r.height === 0) continue;
      el.setAttribute('data-fip-copy', String(n++));
    }
    return n;
  })()`)), 0);
  for (let i = 0; i < count; i++) {
    await unlessStuck(browserStep('click', STEP_DEADLINES.click + 1000, () => page.locator(`[data-fip-copy="${i}"]`).first().click({ timeout: STEP_DEADLINES.click })), undefined);
  }
  return count;
}

/**
 * Clicks a marked coin tab and waits until what it shows has settled (at most `maxMs`): the
 * requests the click started have answered and the DOM has been quiet for a moment after them (a
 * script that answers late and then rebuilds the panel is waited for). False when nothing changed.
 */
export async function clickAndWaitForChange(page: Page, selector: string, maxMs: number): Promise<boolean> {
  const deadline = Date.now() + maxMs;
  let pending = 0;
  let lastNetwork = Date.now();
  const started = () => { pending++; lastNetwork = Date.now(); };
  const ended = () => { pending = Math.max(0, pending - 1); lastNetwork = Date.now(); };
  await unlessStuck(browserStep('watch dom', STEP_DEADLINES.evaluate, () => page.evaluate(`(() => {
    if (window.__fipWatch) window.__fipWatch.observer.disconnect();
    const watch = { n: 0, last: 0, observer: null };
    watch.observer = new MutationObserver((records) => {
      if (records.every((r) => r.type === 'attributes' && (r.attributeName === 'data-fip-coin-tab' || r.attributeName === 'data-fip-copy'))) return;
      watch.n++;
      watch.last = performance.now();
    });
    watch.observer.observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
    Object.defineProperty(window, '__fipWatch', { value: watch, configurable: true, enumerable: false });
  })()`)), undefined);
  page.on('request', started);
  page.on('requestfinished', ended);
  page.on('requestfailed', ended);
  try {
    const clickMs = Math.min(maxMs, STEP_DEADLINES.click);
    await browserStep('click', clickMs + 1000, () => page.locator(selector).first().click({ timeout: clickMs }));
    for (;;) {
      const now = Date.now();
      // A navigation away ends the watch: the new document is what the tab shows.
      const dom = await unlessStuck(browserStep('dom change after click', STEP_DEADLINES.evaluate, () => page
        .evaluate<{ n: number; quietMs: number } | null>('window.__fipWatch ? { n: window.__fipWatch.n, quietMs: performance.now() - window.__fipWatch.last } : null')), null);
      if (!dom) return true;
      const networkQuiet = pending === 0 && now - lastNetwork >= 300;
      if (dom.n > 0 && networkQuiet && dom.quietMs >= 400) return true;
      // Nothing changed and nothing is on its way: the tab shows what it showed.
      if (dom.n === 0 && networkQuiet && now - (deadline - maxMs) >= 2000) return false;
      if (now >= deadline) return dom.n > 0;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } finally {
    page.off('request', started);
    page.off('requestfinished', ended);
    page.off('requestfailed', ended);
    await page.evaluate('window.__fipWatch && window.__fipWatch.observer.disconnect()').catch(() => undefined);
  }
}

/**
 * Clicks the coin tab labelled `label` (its `occurrence`-th one) as the page shows it now: a script
 * that rebuilt the tabs since they were marked left new elements, found again by their label.
 */
export async function clickCoinTab(page: Page, label: string, occurrence: number, extraSelectors: readonly string[], maxMs: number): Promise<boolean> {
  const labels = await markCoinTabs(page, extraSelectors);
  const at = labels.flatMap((l, i) => (l === label ? [i] : []))[occurrence];
  if (at === undefined) throw new Error(`the coin tab ${JSON.stringify(label)} is no longer on the page`);
  return clickAndWaitForChange(page, `[data-fip-coin-tab="${at}"]`, maxMs);
}
