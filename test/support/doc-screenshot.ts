// Screenshots for the docs, taken by the end-to-end tests that reach the page anyway: written to
// docs/images/<name>.png only when FIP_DOC_SCREENSHOTS=1 (a normal test run writes nothing).
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';

export async function docScreenshot(page: Page, name: string): Promise<void> {
  if (process.env.FIP_DOC_SCREENSHOTS !== '1') return;
  const dir = join(__dirname, '..', '..', 'docs', 'images');
  await mkdir(dir, { recursive: true });
  await page.screenshot({ path: join(dir, `${name}.png`), fullPage: false });
}
