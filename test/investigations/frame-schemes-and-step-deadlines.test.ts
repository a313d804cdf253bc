// The rules under the crawler's safety: which frames are read and which are skipped (with the
// reason), and the one helper every browser call goes through (a named step with a deadline).
import assert from 'node:assert/strict';
import { frameSkipReason } from '../../domain/investigations/frame-schemes';
import { BrowserStepTimeout, browserStep, withPageBudget } from '../../infra/crawler/browser-step';

describe('crawler frames and step deadlines', () => {
  it('reads web frames and frames that carry their own bytes', () => {
    for (const url of ['', 'https://pay.scam.test/frame', 'http://127.0.0.1:8080/x', '/inner', 'inner.html', 'about:blank', 'about:blank#x', 'about:srcdoc', 'ABOUT:BLANK', 'data:text/html,<p>x</p>', 'blob:https://pay.scam.test/0b5d']) {
      assert.equal(frameSkipReason(url), null, url);
    }
  });

  it('skips every non-web scheme, naming it', () => {
    const cases: Array<[string, RegExp]> = [
      ['file:///etc/passwd', /scheme file:/],
      ['chrome://version', /scheme chrome:/],
      ['chrome-extension://abc/popup.html', /scheme chrome-extension:/],
      ['chrome-untrusted://terminal/', /scheme chrome-untrusted:/],
      ['view-source:https://pay.scam.test/', /scheme view-source:/],
      ['devtools://devtools/bundled/inspector.html', /scheme devtools:/],
      ['about:settings', /about:settings: only about:blank and about:srcdoc/],
      ["javascript:'<p>hi</p>'", /scheme javascript:/],
      ['  JavaScript:alert(1)', /scheme javascript:/],
      ['filesystem:https://pay.scam.test/temporary/x', /scheme filesystem:/],
      ['ms-settings:', /scheme ms-settings:/],
    ];
    for (const [url, reason] of cases) {
      assert.match(frameSkipReason(url) ?? '(read)', reason, url);
    }
  });

  it('answers a browser call that finishes in time, and rejects one past its deadline naming the step', async () => {
    assert.equal(await browserStep('title', 1000, async () => 'ok'), 'ok');
    await assert.rejects(browserStep('dom snapshot', 1000, () => Promise.reject(new Error('Target closed'))), /Target closed/);
    const started = Date.now();
    await assert.rejects(browserStep('dom snapshot', 200, () => new Promise(() => undefined)), (err: unknown) => {
      assert.ok(err instanceof BrowserStepTimeout);
      assert.equal(err.step, 'dom snapshot');
      assert.equal(err.message, 'step "dom snapshot" did not finish within 200 ms');
      return true;
    });
    assert.ok(Date.now() - started < 1000);
    // A call abandoned at its deadline that fails later is not an unhandled rejection.
    await assert.rejects(browserStep('screenshot', 50, () => new Promise((_, reject) => setTimeout(() => reject(new Error('page closed')), 100))), BrowserStepTimeout);
    await new Promise((r) => setTimeout(r, 150));
  });

  it('bounds a page\'s steps together: steps each within their deadline fail when the page\'s budget runs out, and none starts after it', async () => {
    const slowStep = (name: string) => browserStep(name, 1000, () => new Promise((r) => setTimeout(() => r(name), 150)));
    let ran = 0;
    await assert.rejects(
      withPageBudget(400, async () => {
        for (const name of ['settle', 'dom snapshot', 'screenshot', 'title', 'links']) {
          await slowStep(name);
          ran++;
        }
      }),
      (err: unknown) => {
        assert.ok(err instanceof BrowserStepTimeout);
        assert.equal(err.pageBudgetMs, 400);
        assert.equal(err.step, 'screenshot');
        assert.match(err.message, /^the page's 400 ms ran out at step "screenshot"$/);
        return true;
      },
    );
    assert.equal(ran, 2, 'the third step was cut short, and no step started after it');
    // Outside the budget, steps have their own deadlines again.
    assert.equal(await slowStep('close page'), 'close page');
  });
});
