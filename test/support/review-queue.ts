// The console's review queue is shared by every test file of a run and shows 100 reviews a page,
// most urgent and then oldest first: a test's own (newest) review may be on a later page. This
// pages on, as a reviewer would, until `target` is shown.
import assert from 'node:assert/strict';
import type { Locator, Page } from 'playwright-core';

export async function pageQueueUntil(page: Page, target: Locator, maxPages = 50): Promise<void> {
  await page.getByRole('heading', { level: 1, name: 'Review queue' }).waitFor();
  for (let pages = 1; ; pages++) {
    await page.locator('ul.reviews').first().waitFor();
    if (await target.isVisible()) return;
    assert.ok(pages < maxPages, `not on the queue's first ${maxPages} pages`);
    const next = page.getByRole('button', { name: 'Next page' });
    assert.ok(await next.isVisible() && await next.isEnabled(), `no next page after ${pages} page(s), and it is not listed`);
    const before = await page.locator('ul.reviews > li').first().innerText();
    await next.click();
    // The next page is shown when its first card is another review.
    await page.waitForFunction((text) => (document.querySelector('ul.reviews > li') as HTMLElement | null)?.innerText !== text, before);
  }
}
