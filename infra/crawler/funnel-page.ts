// The funnel agent's eyes and hands in a page: read the visible form fields and controls (marked
// `data-fip-field` / `data-fip-control` so an action can name them), spot captcha widgets and
// "check your mail" notices, and carry out one action. Values typed come from the caller (the
// persona, opened from the vault in the activity); nothing here logs them.
import type { Page } from 'playwright-core';
import type { FunnelPageView } from '../../domain/investigations/funnel-heuristics';
import { browserStep, STEP_DEADLINES } from './browser-step';

// A string, not a function: the test runner's transpiler decorates named functions with helpers
// that do not exist in the page.
const READ_PAGE = `(() => {
  const visible = (el) => { const r = el.getBoundingClientRect(); const s = getComputedStyle(el); return r.width > 0 && r.height > 0 && s.visibility !== 'hidden' && s.display !== 'none' && Number(s.opacity) > 0.05; };
  const text = (el) => ((el && (el.innerText || el.textContent)) || '').replace(/\\s+/g, ' ').trim().slice(0, 120);
  const forms = Array.from(document.forms);
  // A label's own words, without the options of a select (or a textarea's text) inside it.
  const labelText = (l) => { const c = l.cloneNode(true); c.querySelectorAll('select, option, textarea').forEach((x) => x.remove()); return (c.textContent || '').replace(/\\s+/g, ' ').trim().slice(0, 120); };
  // The words around a password field: its title, what it is described by, and the nearest block holding more than its label.
  const around = (el) => {
    const parts = [el.getAttribute('title') || ''];
    for (const id of (el.getAttribute('aria-describedby') || '').split(/\\s+/).filter(Boolean)) { const d = document.getElementById(id); if (d) parts.push(text(d)); }
    const own = el.labels && el.labels[0] ? labelText(el.labels[0]).length : 0;
    for (let e = el.parentElement, i = 0; e && e !== document.body && i < 4; e = e.parentElement, i++) {
      const t = (e.innerText || '').replace(/\\s+/g, ' ').trim();
      if (t.length > own + 8) { parts.push(t.slice(0, 400)); break; }
      if (e.tagName === 'FORM') break;
    }
    return parts.filter(Boolean).join(' | ').slice(0, 600);
  };
  const inModal = (el) => { for (let e = el; e && e !== document.body; e = e.parentElement) { if (e.matches('dialog,[role=dialog],[aria-modal=true],.modal')) return true; const p = getComputedStyle(e).position; if (p === 'fixed') return true; } return false; };
  document.querySelectorAll('[data-fip-field]').forEach((e) => e.removeAttribute('data-fip-field'));
  document.querySelectorAll('[data-fip-control]').forEach((e) => e.removeAttribute('data-fip-control'));
  const fields = [];
  for (const el of Array.from(document.querySelectorAll('input, select, textarea'))) {
    const type = (el.getAttribute('type') || (el.tagName === 'INPUT' ? 'text' : el.tagName.toLowerCase())).toLowerCase();
    if (['hidden', 'submit', 'button', 'reset', 'image'].includes(type)) continue;
    const box = type === 'checkbox' || type === 'radio' ? (el.closest('label') || el) : el;
    if (!visible(el) && !visible(box)) continue;
    let label = el.labels && el.labels[0] ? labelText(el.labels[0]) : '';
    if (!label) label = el.getAttribute('aria-label') || '';
    if (!label && el.parentElement) label = text(el.parentElement).slice(0, 80);
    const n = fields.length;
    el.setAttribute('data-fip-field', String(n));
    fields.push({
      selector: '[data-fip-field="' + n + '"]',
      field: { tag: el.tagName.toLowerCase(), type, name: el.getAttribute('name') || '', id: el.id || '', label, placeholder: el.getAttribute('placeholder') || '', autocomplete: el.getAttribute('autocomplete') || '', required: el.required === true },
      filled: type === 'checkbox' || type === 'radio' ? el.checked : el.tagName === 'SELECT' ? el.value !== '' && el.selectedIndex > 0 : el.value !== '',
      ...(el.tagName === 'SELECT' ? { options: Array.from(el.options).slice(0, 400).map((o) => ({ value: o.value, text: (o.text || '').replace(/\\s+/g, ' ').trim().slice(0, 80) })) } : {}),
      ...(type === 'password' ? { pattern: el.getAttribute('pattern') || '', hint: around(el) } : {}),
      form: el.form ? forms.indexOf(el.form) : -1,
      inModal: inModal(el),
    });
  }
  const controls = [];
  for (const el of Array.from(document.querySelectorAll('button, a[href], [role=button], input[type=submit], input[type=button]'))) {
    if (!visible(el) || controls.length >= 200) continue;
    const n = controls.length;
    el.setAttribute('data-fip-control', String(n));
    const isInput = el.tagName === 'INPUT';
    const submit = (el.tagName === 'BUTTON' && el.type === 'submit' && !!el.form) || (isInput && el.type === 'submit');
    controls.push({
      selector: '[data-fip-control="' + n + '"]',
      control: { tag: el.tagName.toLowerCase(), role: el.getAttribute('role') || '', text: isInput ? (el.value || '') : text(el), ariaLabel: el.getAttribute('aria-label') || el.getAttribute('title') || '', href: el.tagName === 'A' ? el.href : null },
      submit,
      form: el.form ? forms.indexOf(el.form) : -1,
      inModal: inModal(el),
    });
  }
  const captchaWidget = !!document.querySelector('iframe[src*="recaptcha"], iframe[src*="hcaptcha"], iframe[src*="turnstile"], iframe[src*="geetest"], .g-recaptcha, .h-captcha, .cf-turnstile, .geetest_holder, img[src*="captcha" i], img[alt*="captcha" i], img[id*="captcha" i]');
  const body = text(document.body ? { innerText: document.body.innerText.slice(0, 20000) } : null);
  const mailNotice = /check your (e-?mail|inbox|mailbox)|we('ve| have)? (just )?sent (you )?(a|an|the) (code|link|e-?mail)|(verification|activation) (code|link|e-?mail) (has been |was )?sent/i.test(document.body ? document.body.innerText : '');
  const notices = Array.from(document.querySelectorAll('[role=alert], [aria-live], .error, .errors, .alert, .invalid-feedback, .help-block, .form-error, .field-error, .msg, .message, .warning, .tip, .hint'))
    .filter(visible).map((e) => text(e)).filter(Boolean).slice(0, 12);
  return { url: location.href, fields, controls, captchaWidget, mailNotice, notices, bodyLength: body.length };
})()`;

/** What the page shows now, as the heuristics read it. */
export async function readFunnelPage(page: Page): Promise<FunnelPageView> {
  const view = await browserStep('read form', STEP_DEADLINES.evaluate, () => page.evaluate<FunnelPageView & { bodyLength: number }>(READ_PAGE));
  return { url: view.url, fields: view.fields, controls: view.controls, captchaWidget: view.captchaWidget, mailNotice: view.mailNotice, notices: view.notices };
}

/** Types `value` into the field (its previous content replaced). */
export async function typeInto(page: Page, selector: string, value: string): Promise<void> {
  await browserStep('fill', STEP_DEADLINES.click + 1000, () => page.locator(selector).first().fill(value, { timeout: STEP_DEADLINES.click }));
}

/** Ticks a checkbox (a styled one hidden under its label is ticked through the label). */
export async function tick(page: Page, selector: string): Promise<void> {
  await browserStep('check', STEP_DEADLINES.click + 1000, () => page.locator(selector).first().setChecked(true, { timeout: STEP_DEADLINES.click, force: true }));
}

/** Chooses an option of a select (by its value or label; `{ value }` by its value only). */
export async function chooseOption(page: Page, selector: string, value: string | { value: string }): Promise<void> {
  await browserStep('select', STEP_DEADLINES.click + 1000, () => page.locator(selector).first().selectOption(value, { timeout: STEP_DEADLINES.click }).then(() => undefined));
}

export async function press(page: Page, selector: string): Promise<void> {
  await browserStep('click', STEP_DEADLINES.click + 1000, () => page.locator(selector).first().click({ timeout: STEP_DEADLINES.click }));
}

/** The browser context's cookies and storage (for the persona's stored session). */
export async function sessionState(page: Page): Promise<string> {
  const state = await browserStep('storage state', STEP_DEADLINES.evaluate, () => page.context().storageState());
  return JSON.stringify(state);
}

/** Puts a stored session's cookies back into the context (a revisit of the site). */
export async function restoreSessionState(page: Page, stored: string): Promise<void> {
  const state = JSON.parse(stored) as { cookies?: Parameters<ReturnType<Page['context']>['addCookies']>[0] };
  if (state.cookies?.length) await browserStep('restore cookies', STEP_DEADLINES.evaluate, () => page.context().addCookies(state.cookies!));
}
