// The funnel's pure parts: reading fields and controls (English vocabulary), choosing the next
// actions for a goal (cookie banners, captchas, registration vs log-in forms, wizards, terms), and
// the persona's values (fiction phone ranges, password policy, the persona domain).
import assert from 'node:assert/strict';
import type { ControlDescriptor, FieldDescriptor } from '../../domain/investigations/funnel';
import { controlKindOf, fieldKindOf } from '../../domain/investigations/funnel-vocabulary';
import { planFunnelStep, looksGated, type FunnelPageView, type PageControl, type PageField } from '../../domain/investigations/funnel-heuristics';
import { isFictionPhone, passwordFitsPolicy, personaSite } from '../../domain/investigations/persona';
import { makePassword, makePersona } from '../../services/investigations/persona-factory';

const field = (f: Partial<FieldDescriptor>): FieldDescriptor => ({ tag: 'input', type: 'text', name: '', id: '', label: '', placeholder: '', autocomplete: '', required: false, ...f });
const control = (c: Partial<ControlDescriptor>): ControlDescriptor => ({ tag: 'button', role: '', text: '', ariaLabel: '', href: null, ...c });
let n = 0;
const pf = (f: Partial<FieldDescriptor>, extra: Partial<PageField> = {}): PageField => ({ selector: `[f="${n++}"]`, field: field(f), filled: false, form: 0, inModal: false, ...extra });
const pc = (c: Partial<ControlDescriptor>, extra: Partial<PageControl> = {}): PageControl => ({ selector: `[c="${n++}"]`, control: control(c), submit: false, form: -1, inModal: false, ...extra });
const view = (fields: PageField[], controls: PageControl[], more: Partial<FunnelPageView> = {}): FunnelPageView => ({ url: 'http://site.test/x', fields, controls, captchaWidget: false, mailNotice: false, ...more });

describe('funnel vocabulary and heuristics', () => {
  it('reads field kinds from type, autocomplete, name, label and placeholder', () => {
    assert.equal(fieldKindOf(field({ type: 'email' })), 'email');
    assert.equal(fieldKindOf(field({ placeholder: 'E-mail address' })), 'email');
    assert.equal(fieldKindOf(field({ type: 'password', name: 'password' })), 'password');
    assert.equal(fieldKindOf(field({ type: 'password', label: 'Confirm password' })), 'password_confirm');
    assert.equal(fieldKindOf(field({ type: 'password', name: 'password2' })), 'password_confirm');
    assert.equal(fieldKindOf(field({ type: 'password', name: 'password_repeat', label: 'Repeat password' })), 'password_confirm');
    assert.equal(fieldKindOf(field({ name: 'first_name' })), 'first_name');
    assert.equal(fieldKindOf(field({ label: 'Surname' })), 'last_name');
    assert.equal(fieldKindOf(field({ autocomplete: 'tel' })), 'phone');
    assert.equal(fieldKindOf(field({ type: 'date', name: 'dob' })), 'birth_date');
    assert.equal(fieldKindOf(field({ name: 'code', autocomplete: 'one-time-code' })), 'verification_code');
    assert.equal(fieldKindOf(field({ type: 'checkbox', label: 'I agree to the Terms of Service' })), 'terms');
    assert.equal(fieldKindOf(field({ type: 'checkbox', label: 'Send me offers' })), 'unknown');
    assert.equal(fieldKindOf(field({ name: 'captcha_answer', label: 'Code in the image' })), 'captcha');
    assert.equal(fieldKindOf(field({ name: 'nickname' })), 'username');
  });

  it('reads control kinds from text, aria-label and href', () => {
    assert.equal(controlKindOf(control({ text: 'Sign up' })), 'register');
    assert.equal(controlKindOf(control({ text: 'create account', tag: 'a', href: 'http://x/signup' })), 'register');
    assert.equal(controlKindOf(control({ text: 'Log in' })), 'login');
    assert.equal(controlKindOf(control({ text: 'Deposit' })), 'deposit');
    assert.equal(controlKindOf(control({ text: '充值', tag: 'a', href: 'http://x/recharge' })), 'deposit');
    assert.equal(controlKindOf(control({ text: 'Accept all' })), 'accept_cookies');
    assert.equal(controlKindOf(control({ text: 'Accept cookies' })), 'accept_cookies');
    assert.equal(controlKindOf(control({ text: '×' })), 'close_modal');
    assert.equal(controlKindOf(control({ text: 'Next' })), 'next');
    assert.equal(controlKindOf(control({ text: 'Verify' })), 'verify');
    assert.equal(controlKindOf(control({ text: 'About us' })), 'unknown');
  });

  it('fills a registration form (confirmation gets the password, the terms box is ticked) and submits it', () => {
    const email = pf({ type: 'email', name: 'email' });
    const pass = pf({ type: 'password', name: 'password' });
    const confirm = pf({ type: 'password', label: 'Confirm password' });
    const terms = pf({ type: 'checkbox', label: 'I agree to the terms' });
    const submit = pc({ text: 'Create account' }, { submit: true, form: 0 });
    const d = planFunnelStep(view([email, pass, confirm, terms], [pc({ text: 'Log in', tag: 'a', href: 'http://site.test/login' }), submit]), { goal: 'REGISTER', submitted: false, clicked: new Set() });
    assert.equal(d.kind, 'act');
    assert.deepEqual(d.kind === 'act' && d.actions, [
      { kind: 'fill', selector: email.selector, persona_field: 'email' },
      { kind: 'fill', selector: pass.selector, persona_field: 'password' },
      { kind: 'fill', selector: confirm.selector, persona_field: 'password' },
      { kind: 'check', selector: terms.selector },
      { kind: 'click', selector: submit.selector },
    ]);
  });

  it('on a log-in wall with REGISTER as the goal, follows the create-account link; after sign-up, a log-in form means registered', () => {
    const wall = view([pf({ type: 'email' }), pf({ type: 'password' })], [pc({ text: 'Log in' }, { submit: true, form: 0 }), pc({ text: 'create account', tag: 'a', href: 'http://site.test/signup' })]);
    const d = planFunnelStep(wall, { goal: 'REGISTER', submitted: false, clicked: new Set() });
    assert.ok(d.kind === 'act' && d.actions.length === 1 && d.actions[0]!.kind === 'click' && d.actions[0]!.selector === wall.controls[1]!.selector, JSON.stringify(d));
    assert.deepEqual(planFunnelStep(wall, { goal: 'REGISTER', submitted: true, clicked: new Set() }), { kind: 'reached', reason: 'registered; the site asks to log in', verify: false });
    const login = planFunnelStep(wall, { goal: 'LOGIN', submitted: false, clicked: new Set() });
    assert.ok(login.kind === 'act' && login.actions.map((a) => a.kind).join(',') === 'fill,fill,click', JSON.stringify(login));
  });

  it('walks a wizard step by step: a lone e-mail step is filled once a form was sent or no sign-up link is left', () => {
    const step = view([pf({ type: 'email', name: 'email' })], [pc({ text: '下一步' }, { submit: true, form: 0 }), pc({ text: '注册', tag: 'a', href: 'http://site.test/x' })]);
    const d = planFunnelStep(step, { goal: 'REGISTER', submitted: false, clicked: new Set() });
    assert.ok(d.kind === 'act' && d.submits && d.actions.at(-1)!.kind === 'click', JSON.stringify(d));
  });

  it('accepts a cookie banner first, sends a captcha to a human, and clicks the deposit link', () => {
    const banner = view([pf({ type: 'email' }), pf({ type: 'password' })], [pc({ text: 'Accept all' }, { inModal: true }), pc({ text: 'Register' })]);
    const d = planFunnelStep(banner, { goal: 'REGISTER', submitted: false, clicked: new Set() });
    assert.ok(d.kind === 'act' && d.actions[0]!.kind === 'click' && d.actions[0]!.selector === banner.controls[0]!.selector);
    const captcha = planFunnelStep(view([pf({ type: 'email' })], [], { captchaWidget: true }), { goal: 'REGISTER', submitted: false, clicked: new Set() });
    assert.equal(captcha.kind, 'ask_human');
    assert.equal(captcha.kind === 'ask_human' && captcha.action.guidance_kind, 'captcha');
    const dep = view([], [pc({ text: 'Deposit', tag: 'a', href: 'http://site.test/deposit' })]);
    const go = planFunnelStep(dep, { goal: 'NAVIGATE_DEPOSIT', submitted: false, clicked: new Set() });
    assert.ok(go.kind === 'act' && go.actions[0]!.kind === 'click');
    assert.equal(planFunnelStep({ ...dep, url: 'http://site.test/deposit' }, { goal: 'NAVIGATE_DEPOSIT', submitted: false, clicked: new Set(['k']) }).kind, 'reached');
    assert.equal(planFunnelStep(view([], []), { goal: 'NAVIGATE_DEPOSIT', submitted: false, clicked: new Set() }).kind, 'stuck');
    assert.equal(looksGated(dep), true);
    assert.equal(looksGated(view([], [pc({ text: 'About' })])), false);
  });

  it('makes personas from fiction ranges with passwords that pass common policies', () => {
    for (let i = 0; i < 200; i++) assert.ok(passwordFitsPolicy(makePassword()), 'letters and digits, 12-16');
    assert.ok(passwordFitsPolicy(makePassword(true), true), 'with a symbol when asked');
    const p = makePersona('persona.example');
    assert.match(p.email, /^[a-z]+\.[a-z]+\.\d{4}@persona\.example$/);
    assert.ok(isFictionPhone(p.phone), p.phone);
    assert.ok(passwordFitsPolicy(p.password));
    assert.match(p.birth_date, /^\d{4}-\d{2}-\d{2}$/);
    assert.notEqual(makePersona('persona.example').password, p.password);
    assert.equal(personaSite('https://www.shop.example.co.uk/login'), 'example.co.uk');
    assert.equal(personaSite('http://127.0.0.1:8080/x'), '127.0.0.1:8080');
  });
});
