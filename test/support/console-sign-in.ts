// Signs a person in to the console the way the tests' local sign-in does (loopback only): the user
// picker, "Sign in", then the main navigation. `fresh` first clears the previous person's session.
import type { Page } from 'playwright-core';

export async function signInToConsole(page: Page, apiUrl: string, email: string, opts: { fresh?: boolean } = {}): Promise<void> {
  if (opts.fresh) await page.evaluate(() => sessionStorage.clear());
  await page.goto(`${apiUrl}/console`);
  await page.getByLabel('User').selectOption(email);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('navigation', { name: 'Main' }).waitFor();
}
