// The funnel's deterministic heuristics: given what a page shows (its visible fields and controls,
// read in the browser) and the funnel's goal, the next actions. Wording is read only through
// fieldKindOf / controlKindOf (funnel-vocabulary.ts); this file decides what to do with the kinds:
// cookie banners first, a captcha goes to a human (never solved), registration and log-in forms are
// told apart, wizards are filled step by step, the terms box is ticked, the confirmation gets the
// same password. Pure: unit-tested alone.
import type { ControlDescriptor, ControlKind, FieldDescriptor, FieldKind, FunnelAction, FunnelState, PersonaField, PiiExposureKind } from './funnel';
import { controlKindOf, fieldKindOf } from './funnel-vocabulary';
import { symbolsRequired, type SelectOption } from './funnel-form-values';

export interface PageField {
  /** A selector the browser side made unique (e.g. `[data-fip-field="3"]`). */
  selector: string;
  field: FieldDescriptor;
  /** The field already holds a value (or is ticked). */
  filled: boolean;
  /** Index of its form on the page, -1 outside any form. */
  form: number;
  inModal: boolean;
  /** A select's options (value and text), for choosing the persona's (funnel-form-values.ts). */
  options?: SelectOption[];
  /** A password field's `pattern` attribute ('' without one). */
  pattern?: string;
  /** The words around a password field (its title, description, the block it sits in): where a site says what it wants. */
  hint?: string;
}

export interface PageControl {
  selector: string;
  control: ControlDescriptor;
  /** A submit button of a form (button without type, type=submit, input type=submit). */
  submit: boolean;
  form: number;
  inModal: boolean;
}

/** The visible part of a page as the heuristics see it. */
export interface FunnelPageView {
  url: string;
  fields: PageField[];
  controls: PageControl[];
  /** A known captcha widget (reCAPTCHA, hCaptcha, Turnstile, GeeTest frames or containers). */
  captchaWidget: boolean;
  /** The page says a code or link was sent (check your mail). */
  mailNotice: boolean;
  /** Visible alerts, errors and hints on the page (a sign-up form's complaint after a submit). */
  notices?: string[];
}

export interface FunnelContext {
  goal: FunnelState;
  /** A form was submitted in this goal already. */
  submitted: boolean;
  /** Navigation controls already clicked in this goal (`controlKey`). */
  clicked: ReadonlySet<string>;
  /** A human answered this goal's question (the captcha): the agent goes on instead of asking again. */
  guided?: boolean;
}

export type FunnelDecision =
  | { kind: 'act'; actions: FunnelAction[]; submits: boolean; navKey?: string }
  | { kind: 'reached'; reason: string; verify: boolean }
  | { kind: 'ask_human'; action: Extract<FunnelAction, { kind: 'ask_human' }> }
  | { kind: 'stuck'; reason: string };

const PERSONA_OF: Partial<Record<FieldKind, PersonaField>> = {
  email: 'email', password: 'password', password_confirm: 'password', first_name: 'first_name', last_name: 'last_name', full_name: 'full_name',
  username: 'username', phone: 'phone', birth_date: 'birth_date', address_line: 'address_line', city: 'city', postcode: 'postcode', country: 'country',
  verification_code: 'verification_code',
};

/** What a filled field exposed of the persona (the detail's pii_exposures); null for the site's own code. */
export function exposureKindOf(kind: FieldKind): PiiExposureKind | null {
  switch (kind) {
    case 'email': return 'email';
    case 'password': case 'password_confirm': return 'password';
    case 'first_name': case 'last_name': case 'full_name': case 'username': return 'name';
    case 'phone': return 'phone';
    case 'birth_date': return 'birth_date';
    case 'address_line': case 'city': case 'postcode': case 'country': return 'address';
    default: return null;
  }
}

/** A navigation control's identity across observations of one page. */
export function controlKey(url: string, c: ControlDescriptor): string {
  return `${url.split('#')[0]}|${c.text.trim().slice(0, 60)}|${c.href ?? ''}`;
}

interface Classified { fields: Array<PageField & { kind: FieldKind }>; controls: Array<PageControl & { kind: ControlKind }> }

function classify(view: FunnelPageView): Classified {
  return {
    fields: view.fields.map((f) => ({ ...f, kind: fieldKindOf(f.field) })),
    controls: view.controls.map((c) => ({ ...c, kind: controlKindOf(c.control) })),
  };
}

const REGISTRATION_HINTS: ReadonlySet<FieldKind> = new Set(['password_confirm', 'terms', 'first_name', 'last_name', 'full_name', 'phone', 'birth_date', 'address_line']);

/** A log-in form: a password with nothing a registration asks besides the identifier. */
function isLoginForm(c: Classified): boolean {
  return c.fields.some((f) => f.kind === 'password') && !c.fields.some((f) => REGISTRATION_HINTS.has(f.kind)) && !c.controls.some((x) => x.submit && x.kind === 'register');
}

const SELECTABLE: ReadonlySet<FieldKind> = new Set(['country', 'birth_date']);

function fillActions(fields: Classified['fields']): FunnelAction[] {
  const actions: FunnelAction[] = [];
  for (const f of fields) {
    if (f.filled) continue;
    if (f.kind === 'terms') actions.push({ kind: 'check', selector: f.selector });
    const persona = PERSONA_OF[f.kind];
    // A select is filled only where the persona has an option to pick (its country, its birth date's parts).
    if (persona && persona !== 'verification_code' && (f.field.tag !== 'select' || SELECTABLE.has(f.kind))) actions.push({ kind: 'fill', selector: f.selector, persona_field: persona });
  }
  return actions;
}

/** The control that sends the form the fields belong to. */
function submitControl(c: Classified, fields: Classified['fields'], wanted: readonly ControlKind[]): (PageControl & { kind: ControlKind }) | undefined {
  const form = fields[0]?.form ?? -1;
  const inModal = fields.some((f) => f.inModal);
  const sameForm = c.controls.filter((x) => (form >= 0 ? x.form === form : x.inModal === inModal));
  return (
    sameForm.find((x) => x.submit && x.kind !== 'accept_cookies' && x.kind !== 'close_modal') ??
    sameForm.find((x) => wanted.includes(x.kind)) ??
    c.controls.find((x) => x.submit && wanted.includes(x.kind))
  );
}

/** The control leads to the page shown now (a site's nav link to itself). */
function pointsHere(href: string | null, url: string): boolean {
  if (!href) return false;
  return href === url || (!href.includes('#') && href.split('#')[0] === url.split('#')[0]);
}

function pendingNav(view: FunnelPageView, c: Classified, ctx: FunnelContext, kind: ControlKind): Classified['controls'] {
  return c.controls.filter((x) => x.kind === kind && !x.submit && !ctx.clicked.has(controlKey(view.url, x.control)) && !pointsHere(x.control.href, view.url));
}

function clickNav(view: FunnelPageView, c: Classified, ctx: FunnelContext, kinds: readonly ControlKind[]): FunnelDecision | null {
  for (const kind of kinds) {
    const target = pendingNav(view, c, ctx, kind)[0];
    if (target) return { kind: 'act', actions: [{ kind: 'click', selector: target.selector }], submits: false, navKey: controlKey(view.url, target.control) };
  }
  return null;
}

/** The next actions on this page for the goal (one batch: the fields of a form and its submit). */
export function planFunnelStep(view: FunnelPageView, ctx: FunnelContext): FunnelDecision {
  const c = classify(view);
  const captcha = c.fields.find((f) => f.kind === 'captcha');
  if ((view.captchaWidget || captcha) && !ctx.guided) {
    return { kind: 'ask_human', action: { kind: 'ask_human', guidance_kind: 'captcha', question: 'The site shows a captcha; the agent does not solve captchas.', ...(captcha ? { field: captcha.selector } : {}) } };
  }
  const cookies = c.controls.find((x) => x.kind === 'accept_cookies' && !ctx.clicked.has(controlKey(view.url, x.control)));
  if (cookies) return { kind: 'act', actions: [{ kind: 'click', selector: cookies.selector }], submits: false, navKey: controlKey(view.url, cookies.control) };

  const login = isLoginForm(c);
  const code = c.fields.find((f) => f.kind === 'verification_code' && !f.filled);
  const passwords = c.fields.some((f) => f.kind === 'password' || f.kind === 'password_confirm');
  const fillable = c.fields.filter((f) => PERSONA_OF[f.kind] || f.kind === 'terms');

  if (ctx.goal === 'REGISTER') {
    if (code && !passwords) return { kind: 'reached', reason: 'the site asks for a verification code', verify: true };
    if (ctx.submitted && (login || (!passwords && !fillable.some((f) => !f.filled)))) return { kind: 'reached', reason: login ? 'registered; the site asks to log in' : 'registered', verify: view.mailNotice };
    if (ctx.submitted && view.mailNotice && !passwords) return { kind: 'reached', reason: 'registered; the site sent mail', verify: true };
    if (!login && fillable.some((f) => !f.filled) && (passwords || ctx.submitted || !pendingNav(view, c, ctx, 'register').length)) {
      const submit = submitControl(c, fillable, ['register', 'next', 'submit', 'verify']);
      if (!submit) return { kind: 'stuck', reason: 'a sign-up form without a button the agent recognises' };
      return { kind: 'act', actions: [...fillActions(fillable), { kind: 'click', selector: submit.selector }], submits: true };
    }
    return clickNav(view, c, ctx, ['register']) ?? (ctx.submitted ? { kind: 'reached', reason: 'registered', verify: view.mailNotice } : { kind: 'stuck', reason: 'no sign-up form or link' });
  }
  if (ctx.goal === 'LOGIN') {
    if (login) {
      const submit = submitControl(c, fillable, ['login', 'submit', 'next']);
      if (!submit) return { kind: 'stuck', reason: 'a log-in form without a button the agent recognises' };
      const ids = fillable.filter((f) => f.kind === 'email' || f.kind === 'username' || f.kind === 'phone' || f.kind === 'password');
      return { kind: 'act', actions: [...fillActions(ids.map((f) => ({ ...f, filled: false }))), { kind: 'click', selector: submit.selector }], submits: true };
    }
    if (!passwords && ctx.submitted) return { kind: 'reached', reason: 'logged in', verify: false };
    // A log-in link still offered means the session is not in (a site's own account link would not be one).
    return clickNav(view, c, ctx, ['login']) ?? { kind: 'reached', reason: 'already logged in (no log-in form or link)', verify: false };
  }
  if (ctx.goal === 'VERIFY_CONTACT') {
    if (code) {
      const submit = submitControl(c, [code], ['verify', 'submit', 'next']);
      return { kind: 'act', actions: [{ kind: 'fill', selector: code.selector, persona_field: 'verification_code' }, ...(submit ? [{ kind: 'click' as const, selector: submit.selector }] : [])], submits: true };
    }
    return { kind: 'reached', reason: ctx.submitted ? 'code entered' : 'no code field', verify: false };
  }
  // NAVIGATE_DEPOSIT
  if (ctx.clicked.size > 0 && !pendingNav(view, c, ctx, 'deposit').length) return { kind: 'reached', reason: 'on the deposit page', verify: false };
  return clickNav(view, c, ctx, ['deposit']) ?? (ctx.clicked.size > 0 ? { kind: 'reached', reason: 'on the deposit page', verify: false } : { kind: 'stuck', reason: 'no deposit link or button' });
}

/** Whether a page looks gated: a sign-up or log-in form or link, or a deposit control. */
export function looksGated(view: FunnelPageView): boolean {
  const c = classify(view);
  return c.fields.some((f) => f.kind === 'password') || c.controls.some((x) => x.kind === 'register' || x.kind === 'login' || x.kind === 'deposit');
}

/** The sign-up form on this page wants a symbol in the password (a field's pattern or hint, or a message shown). */
export function passwordNeedsSymbols(view: FunnelPageView): boolean {
  const passwords = view.fields.filter((f) => f.field.type === 'password');
  if (!passwords.length) return false;
  return symbolsRequired({ patterns: passwords.map((f) => f.pattern ?? ''), texts: [...passwords.map((f) => f.hint ?? ''), ...(view.notices ?? [])] });
}
