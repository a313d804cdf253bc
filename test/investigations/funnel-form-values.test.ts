// The funnel's form skills, pure: a sign-up form that asks for symbols in the password (a hint, a
// `pattern`, a complaint after a submit, in the vocabulary's languages), the parts of a birth date
// asked in three fields, and the persona's option of a select (a country by name or ISO code, a
// month by number or name); the heuristics fill selects only where the persona has an option.
import assert from 'node:assert/strict';
import type { FieldDescriptor } from '../../domain/investigations/funnel';
import { passwordNeedsSymbols, planFunnelStep, type FunnelPageView, type PageField } from '../../domain/investigations/funnel-heuristics';
import {
  birthDatePart, birthDatePartValue, countryCode, patternAsksForSymbols, pickOption, symbolsRequired, textAsksForSymbols, type SelectOption,
} from '../../domain/investigations/funnel-form-values';
import { fieldKindOf } from '../../domain/investigations/funnel-vocabulary';
import { passwordFitsPolicy } from '../../domain/investigations/persona';
import { makePassword } from '../../services/investigations/persona-factory';

const field = (f: Partial<FieldDescriptor>): FieldDescriptor => ({ tag: 'input', type: 'text', name: '', id: '', label: '', placeholder: '', autocomplete: '', required: false, ...f });
let n = 0;
const pf = (f: Partial<FieldDescriptor>, extra: Partial<PageField> = {}): PageField => ({ selector: `[f="${n++}"]`, field: field(f), filled: false, form: 0, inModal: false, ...extra });
const view = (fields: PageField[], more: Partial<FunnelPageView> = {}): FunnelPageView => ({ url: 'http://site.test/register', fields, controls: [{ selector: '[c="s"]', control: { tag: 'button', role: '', text: 'Create account', ariaLabel: '', href: null }, submit: true, form: 0, inModal: false }], captchaWidget: false, mailNotice: false, ...more });
const opts = (pairs: Array<[string, string]>): SelectOption[] => pairs.map(([value, text]) => ({ value, text }));

describe('funnel form values: password symbols, birth date parts, select options', () => {
  it('reads "symbols required" from hints and errors in the vocabulary\'s languages, not from refusals or unrelated text', () => {
    for (const said of [
      'Password must contain a special character', 'Use 8+ characters with at least one symbol (!@#$)', 'Your password must contain at least one special character.',
      '密码必须包含特殊字符', 'Mật khẩu phải có ký tự đặc biệt', 'La contraseña debe incluir un carácter especial', 'A senha deve conter caracteres especiais',
      'Пароль должен содержать спецсимвол', 'รหัสผ่านต้องมีอักขระพิเศษ', 'Kata sandi harus mengandung karakter khusus', 'Şifre en az bir özel karakter içermelidir', 'يجب أن تحتوي كلمة المرور على رمز خاص',
    ]) assert.ok(textAsksForSymbols(said), said);
    for (const said of ['Password must be 12 characters with upper and lower case letters and digits', 'No special characters allowed', 'Symbols are optional', 'Пароль не менее 8 символов', 'I agree to the Terms of Service', '']) {
      assert.ok(!textAsksForSymbols(said), said);
    }
  });

  it('reads "symbols required" from a pattern that turns down letters and digits only', () => {
    assert.ok(patternAsksForSymbols('(?=.*[A-Z])(?=.*[a-z])(?=.*\\d)(?=.*[^A-Za-z0-9]).{8,}'));
    assert.ok(patternAsksForSymbols('(?=.*[!@#$%^&*_=+-]).{8,32}'));
    assert.ok(!patternAsksForSymbols('[A-Za-z0-9]{8,}'));
    assert.ok(!patternAsksForSymbols('.{8,}'));
    assert.ok(!patternAsksForSymbols('(unbalanced'));
    assert.ok(symbolsRequired({ patterns: ['', '(?=.*\\W).{8,}'], texts: [] }));
    assert.ok(!symbolsRequired({ patterns: [''], texts: ['Email', 'Password'] }));
  });

  it('a sign-up page asks for symbols through a password field\'s hint or pattern, or a notice on the page; a page without a password field never does', () => {
    assert.ok(passwordNeedsSymbols(view([pf({ type: 'password', name: 'password' }, { hint: 'Password | at least one symbol', pattern: '' })])));
    assert.ok(passwordNeedsSymbols(view([pf({ type: 'password' }, { pattern: '(?=.*[^A-Za-z0-9]).{12,}' })])));
    assert.ok(passwordNeedsSymbols(view([pf({ type: 'password' })], { notices: ['Your password must contain at least one special character.'] })));
    assert.ok(!passwordNeedsSymbols(view([pf({ type: 'password' }, { hint: 'Password', pattern: '' })], { notices: ['Wrong e-mail or password'] })));
    assert.ok(!passwordNeedsSymbols(view([pf({ type: 'email' })], { notices: ['must contain a special character'] })));
  });

  it('makePassword(true) passes the policy with symbols; the default has none', () => {
    for (let i = 0; i < 50; i++) {
      const p = makePassword(true);
      assert.ok(passwordFitsPolicy(p, true) && /[^A-Za-z0-9]/.test(p), p);
      assert.ok(passwordFitsPolicy(makePassword()), 'letters and digits only');
    }
  });

  it('tells the parts of a birth date asked in three fields apart by options, name, placeholder or label', () => {
    const days = opts([['', 'Day'], ...Array.from({ length: 31 }, (_, i): [string, string] => [String(i + 1), String(i + 1)])]);
    const months = opts([['', 'Month'], ...['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'].map((m, i): [string, string] => [String(i + 1), m])]);
    const years = opts([['', 'Year'], ...Array.from({ length: 80 }, (_, i): [string, string] => [String(2010 - i), String(2010 - i)])]);
    const select = (name: string) => field({ tag: 'select', type: 'select', name });
    assert.equal(birthDatePart(select('a'), days), 'day');
    assert.equal(birthDatePart(select('b'), months), 'month');
    assert.equal(birthDatePart(select('c'), years), 'year');
    assert.equal(birthDatePart(field({ name: 'dob_day' })), 'day');
    assert.equal(birthDatePart(field({ name: 'birthMonth' })), 'month');
    assert.equal(birthDatePart(field({ placeholder: 'YYYY', name: 'dob3' })), 'year');
    assert.equal(birthDatePart(field({ name: 'birth_date', placeholder: 'DD/MM/YYYY' })), null);
    assert.equal(birthDatePart(field({ type: 'date', name: 'dob_day' })), null);
    assert.equal(birthDatePart(field({ label: 'Date of birth' })), null);
    for (const name of ['dob_day', 'dob_month', 'dob_year', 'birthday_year']) assert.equal(fieldKindOf(select(name)), 'birth_date', name);
    assert.equal(birthDatePartValue('1971-03-07', 'day'), '07');
    assert.equal(birthDatePartValue('1971-03-07', 'month'), '03');
    assert.equal(birthDatePartValue('1971-03-07', 'year'), '1971');
    assert.equal(pickOption(days, { kind: 'date_part', value: '07', part: 'day' }), '7');
    assert.equal(pickOption(months, { kind: 'date_part', value: '03', part: 'month' }), '3');
    assert.equal(pickOption(opts([['', '--'], ['jan', 'Jan'], ['feb', 'Feb'], ['mar', 'Mar']]), { kind: 'date_part', value: '03', part: 'month' }), 'mar');
    assert.equal(pickOption(opts([['', '--'], ['m1', '一月'], ['m2', '二月'], ['m3', '三月']]), { kind: 'date_part', value: '02', part: 'month' }), 'm2');
    assert.equal(pickOption(years, { kind: 'date_part', value: '1971', part: 'year' }), '1971');
    assert.equal(pickOption(years, { kind: 'date_part', value: '1899', part: 'year' }), null);
  });

  it('picks the persona\'s country by name or ISO code, in the vocabulary\'s languages, or none', () => {
    assert.equal(countryCode('United Kingdom'), 'GB');
    assert.equal(countryCode('gb'), 'GB');
    assert.equal(pickOption(opts([['', 'Select'], ['FR', 'France'], ['GB', 'United Kingdom']]), { kind: 'country', value: 'United Kingdom' }), 'GB');
    assert.equal(pickOption(opts([['', 'Select'], ['33', 'France'], ['44', 'United Kingdom']]), { kind: 'country', value: 'United Kingdom' }), '44');
    assert.equal(pickOption(opts([['', '—'], ['fr', 'FR'], ['gb', 'GB']]), { kind: 'country', value: 'United Kingdom' }), 'gb');
    assert.equal(pickOption(opts([['1', 'France'], ['2', 'GBR']]), { kind: 'country', value: 'United Kingdom' }), '2');
    assert.equal(pickOption(opts([['1', 'UK'], ['2', 'Ukraine']]), { kind: 'country', value: 'United Kingdom' }), '1');
    assert.equal(pickOption(opts([['fr', '法国'], ['gb', '英国']]), { kind: 'country', value: 'United Kingdom' }), 'gb');
    assert.equal(pickOption(opts([['fr', 'Francia'], ['gb', 'Reino Unido']]), { kind: 'country', value: 'United Kingdom' }), 'gb');
    assert.equal(pickOption(opts([['x', 'Великобритания'], ['y', 'Франция']]), { kind: 'country', value: 'United Kingdom' }), 'x');
    assert.equal(pickOption(opts([['UA', 'Ukraine'], ['FR', 'France']]), { kind: 'country', value: 'United Kingdom' }), null);
  });

  it('the heuristics fill a country select and birth date selects, and leave other selects alone', () => {
    const country = pf({ tag: 'select', type: 'select', name: 'country', label: 'Country' }, { options: opts([['', 'Select'], ['GB', 'United Kingdom']]) });
    const day = pf({ tag: 'select', type: 'select', name: 'dob_day', label: 'Day' });
    const title = pf({ tag: 'select', type: 'select', name: 'title', label: 'Title' }, { options: opts([['mr', 'Mr'], ['ms', 'Ms']]) });
    const decision = planFunnelStep(view([pf({ type: 'email' }), pf({ type: 'password' }), pf({ type: 'password', label: 'Confirm password' }), country, day, title]), { goal: 'REGISTER', submitted: false, clicked: new Set() });
    assert.equal(decision.kind, 'act');
    const fills = decision.kind === 'act' ? decision.actions.filter((a) => a.kind === 'fill') : [];
    const bySelector = new Map(fills.map((a) => [(a as { selector: string }).selector, (a as { persona_field: string }).persona_field]));
    assert.equal(bySelector.get(country.selector), 'country');
    assert.equal(bySelector.get(day.selector), 'birth_date');
    assert.ok(!bySelector.has(title.selector));
  });
});
