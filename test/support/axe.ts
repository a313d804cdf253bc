// Accessibility check of a console page with axe-core (Deque's engine, the one browsers' audits
// run), injected into the real Chromium page: resolves to the serious and critical violations,
// each as "rule: what (selectors)", so a test can assert the list is empty and show why if not.
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';

const require = createRequire(__filename);
let source: string | null = null;

interface AxeResult {
  violations: Array<{ id: string; impact: string | null; help: string; nodes: Array<{ target: unknown[] }> }>;
}

export async function seriousA11yViolations(page: Page): Promise<string[]> {
  source ??= readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
  const loaded = await page.evaluate(() => typeof (window as unknown as { axe?: unknown }).axe !== 'undefined');
  // Evaluated through the DevTools protocol, which the console's Content-Security-Policy does not govern
  // (an injected <script> tag would be refused by it).
  if (!loaded) await page.evaluate(source);
  const result = (await page.evaluate(() => (window as unknown as { axe: { run: (ctx: Document, opts: object) => Promise<unknown> } }).axe.run(document, { resultTypes: ['violations'] }))) as AxeResult;
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).slice(0, 5).join(', ')})`);
}
