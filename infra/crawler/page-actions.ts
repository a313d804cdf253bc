// What the agent does inside a page: wait until it settles, snapshot the DOM after scripts (every
// frame), list its links, find coin buttons and tabs, click one and wait for the DOM to change.
import type { Page } from 'playwright-core';
import { COIN_TAB_LABEL_SOURCE, type FoundLink } from '../../domain/investigations/page-links';
import { stripUnsafeNameCharacters } from '../../domain/text-safety';

/** Waits for the load, a short network quiet, then until the DOM has not changed for `quietMs`. */
export async function settle(page: Page, opts: { quietMs: number; maxMs: number }): Promise<void> {
  await page.waitForLoadState('load', { timeout: opts.maxMs }).catch(() => undefined);
  await page.waitForLoadState('networkidle', { timeout: Math.min(opts.maxMs, 3000) }).catch(() => undefined);
  // A string, not a function: the test runner's transpiler decorates named functions with helpers
  // that do not exist in the page.
  await page
    .evaluate(`new Promise((resolve) => {
      let timer;
      let stop;
      const done = () => { observer.disconnect(); clearTimeout(timer); clearTimeout(stop); resolve(); };
      const observer = new MutationObserver(() => { clearTimeout(timer); timer = setTimeout(done, ${Math.round(opts.quietMs)}); });
      timer = setTimeout(done, ${Math.round(opts.quietMs)});
      stop = setTimeout(done, ${Math.round(opts.maxMs)});
      observer.observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
    })`)
    .catch(() => undefined);
}

/** The DOM after scripts of the main frame followed by each child frame's, labelled by URL. */
export async function snapshotHtml(page: Page): Promise<string> {
  const parts = [await page.content()];
  for (const frame of page.frames()) {
    if (frame === page.mainFrame()) continue;
    const html = await frame.content().catch(() => null);
    if (html !== null) parts.push(`\n<!-- fip:frame ${frame.url().replace(/--/g, '%2D%2D')} -->\n${html}`);
  }
  return parts.join('');
}

/**
 * The page's title as stored and shown (results, console, reports): a hostile site's title loses
 * bidirectional formatting and control characters like any stored name; the captured HTML keeps
 * the original.
 */
export async function pageTitle(page: Page): Promise<string | null> {
  return stripUnsafeNameCharacters(await page.title().catch(() => '')).trim() || null;
}

/** Links of every frame (anchors and areas), with their visible text. */
export async function collectLinks(page: Page): Promise<FoundLink[]> {
  const out: FoundLink[] = [];
  for (const frame of page.frames()) {
    const links = await frame
      .evaluate(() => Array.from(document.querySelectorAll('a[href], area[href]')).map((a) => ({ href: (a as HTMLAnchorElement).href, text: (a.textContent ?? '').trim().slice(0, 100) })))
      .catch(() => [] as FoundLink[]);
    out.push(...links);
  }
  return out.slice(0, 5000);
}

export async function visibleText(page: Page): Promise<string> {
  const parts: string[] = [];
  for (const frame of page.frames()) parts.push(await frame.evaluate(() => document.body?.innerText ?? '').catch(() => ''));
  return parts.join('\n');
}

/**
 * Marks coin buttons and tabs of the main frame (`data-fip-coin-tab="<n>"`) and answers their
 * labels: clickable-looking leaf elements whose text names a coin, plus elements matching the
 * playbook's coin-tab selectors.
 */
export async function markCoinTabs(page: Page, extraSelectors: readonly string[]): Promise<string[]> {
  return page.evaluate(
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
  );
}


/** Clicks a marked coin tab and waits until the DOM changes and settles (at most `maxMs`). */
export async function clickAndWaitForChange(page: Page, selector: string, maxMs: number): Promise<boolean> {
  const changed = page
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
    .catch(() => false);
  await page.locator(selector).first().click({ timeout: Math.min(maxMs, 5000) });
  return changed;
}
