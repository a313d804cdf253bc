// Headers that keep pages from being framed and downloads from being sniffed: every HTML page the
// API serves carries a Content-Security-Policy with frame-ancestors 'none' and X-Frame-Options: DENY,
// and the two documentation viewers still render in a real browser under their policy (no
// violation reported); every answer, downloads included, carries X-Content-Type-Options: nosniff.
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { launchChromium, resolveChromium } from '../../infra/chromium';
import { asUser, http } from '../support/http';
import { usersForEveryRole } from '../support/identities';
import { startTestApi } from '../support/platform';

function assertFrameProtected(headers: Headers, what: string): string {
  const csp = headers.get('content-security-policy') ?? '';
  assert.match(csp, /frame-ancestors 'none'/, `${what}: CSP ${JSON.stringify(csp)}`);
  assert.equal(headers.get('x-frame-options'), 'DENY', what);
  assert.equal(headers.get('x-content-type-options'), 'nosniff', what);
  return csp;
}

describe('security headers', function () {
  this.timeout(120_000);
  let url: string;
  let users: Awaited<ReturnType<typeof usersForEveryRole>>;
  before(async () => {
    url = (await startTestApi({ SVC_AUTH__TRUST_PROXY_HEADER: 'true' })).url;
    users = await usersForEveryRole();
  });

  for (const page of ['/docs', '/redoc', '/console', '/console/investigations']) {
    it(`${page} carries a CSP with frame-ancestors 'none' and X-Frame-Options: DENY`, async () => {
      const res = await http(`${url}${page}`);
      assert.equal(res.status, 200, res.text.slice(0, 200));
      assert.match(res.headers.get('content-type') ?? '', /text\/html/);
      const csp = assertFrameProtected(res.headers, page);
      assert.match(csp, /default-src '(none|self)'/);
      assert.doesNotMatch(csp, /unsafe-eval|\*/, 'no eval, no wildcard source');
    });
  }

  it('error answers and JSON answers carry them too', async () => {
    const missing = await http(`${url}/no/such/page`);
    assert.equal(missing.status, 404);
    assert.equal(assertFrameProtected(missing.headers, '404'), "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'");
    const denied = await http(`${url}/accounts/me`);
    assert.equal(denied.status, 401);
    assertFrameProtected(denied.headers, '401');
  });

  it('a download (an entity export) carries X-Content-Type-Options: nosniff', async () => {
    const res = await http(`${url}/exports/entities?fmt=csv`, { headers: asUser(users.analyst) });
    assert.equal(res.status, 200, res.text.slice(0, 200));
    assert.match(res.headers.get('content-disposition') ?? '', /attachment/);
    assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
  });

  describe('the documentation viewers render under their policy (Chromium)', () => {
    let browser: Browser;
    before(async () => {
      browser = await launchChromium(await resolveChromium());
    });
    after(() => browser?.close());

    async function render(path: string, ready: string): Promise<{ violations: string[]; text: string }> {
      const context = await browser.newContext();
      const violations: string[] = [];
      try {
        const page = await context.newPage();
        page.on('console', (m) => {
          if (/Content Security Policy|Refused to/i.test(m.text())) violations.push(m.text());
        });
        await page.exposeFunction('reportViolation', (v: string) => violations.push(v));
        await page.addInitScript(() => {
          document.addEventListener('securitypolicyviolation', (e) => {
            (window as unknown as { reportViolation(v: string): void }).reportViolation(`${e.violatedDirective} ${e.blockedURI}`);
          });
        });
        await page.goto(`${url}${path}`);
        await page.locator(ready).first().waitFor({ timeout: 30_000 });
        const text = await page.locator(ready).first().innerText();
        await page.waitForTimeout(500);
        return { violations, text };
      } finally {
        await context.close();
      }
    }

    it('/docs (Swagger UI) shows the document and reports no CSP violation', async () => {
      const { violations, text } = await render('/docs', '.swagger-ui .info .title');
      assert.match(text, /Fraud Intelligence Platform API/);
      assert.deepEqual(violations, []);
    });

    it('/redoc (ReDoc) shows the document; the policy blocks only its branding logo on a CDN', async () => {
      const { violations, text } = await render('/redoc', 'h1');
      assert.match(text, /Fraud Intelligence Platform API/);
      // ReDoc's side menu always asks https://cdn.redoc.ly for its logo and hides it when that fails:
      // the policy keeps the page from reaching out, and nothing else is refused.
      assert.deepEqual(violations.filter((v) => !v.includes('https://cdn.redoc.ly/redoc/logo-mini.svg')), []);
    });
  });
});
