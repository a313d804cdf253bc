// What the browser context adds so that a page sees the investigation's visitor (a profile from
// domain/investigations/visitor-profile.ts), not an automated headless browser: an init script for
// the navigator properties the context options do not set (languages, platform, the client-hint
// brands, which name "HeadlessChrome"), and the same corrections on every request's headers. The
// launch side (no --enable-automation, no AutomationControlled blink feature, so navigator.webdriver
// is false) is infra/crawler/crawler-browser.ts's.
import type { VisitorProfile } from '../../domain/investigations/visitor-profile';

/** A string, not a function: the test runner's transpiler would add helpers that the page lacks. */
export function visitorInitScript(v: VisitorProfile): string {
  return `(() => {
  const define = (target, prop, value) => {
    try { Object.defineProperty(target, prop, { get: () => value, configurable: true, enumerable: true }); } catch (e) { /* kept as is */ }
  };
  const languages = Object.freeze(${JSON.stringify(v.languages)});
  define(Navigator.prototype, 'languages', languages);
  define(Navigator.prototype, 'language', languages[0]);
  define(Navigator.prototype, 'platform', ${JSON.stringify(v.platform)});
  const uad = navigator.userAgentData;
  if (uad) {
    const fix = (list) => (list || []).map((b) => ({ brand: String(b.brand).replace('HeadlessChrome', 'Google Chrome'), version: b.version }));
    const proto = Object.getPrototypeOf(uad);
    define(proto, 'brands', Object.freeze(fix(uad.brands)));
    const high = proto.getHighEntropyValues;
    if (typeof high === 'function') {
      proto.getHighEntropyValues = function (hints) {
        return high.call(this, hints).then((r) => Object.assign({}, r, { brands: fix(r.brands), fullVersionList: r.fullVersionList && fix(r.fullVersionList) }));
      };
    }
  }
})();`;
}

/** A request's headers as the visitor's browser would send them. */
export function visitorHeaders(headers: Record<string, string>, v: VisitorProfile): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    if (lower === 'user-agent') out[name] = v.userAgent;
    else if (lower === 'accept-language') out[name] = v.acceptLanguage;
    else if (lower.startsWith('sec-ch-ua')) out[name] = value.replace(/HeadlessChrome/g, 'Google Chrome');
    else out[name] = value;
  }
  return out;
}
