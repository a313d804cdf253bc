// What a form field or a button means, read from its attributes and text (English only here; the
// funnel heuristics call these two functions and nothing else for wording).
import type { ControlDescriptor, ControlKind, FieldDescriptor, FieldKind } from './funnel';

const AUTOCOMPLETE: Record<string, FieldKind> = {
  email: 'email', 'new-password': 'password', 'current-password': 'password', 'given-name': 'first_name', 'family-name': 'last_name', name: 'full_name',
  username: 'username', nickname: 'username', tel: 'phone', 'tel-national': 'phone', bday: 'birth_date', 'street-address': 'address_line', 'address-line1': 'address_line',
  'address-level2': 'city', 'postal-code': 'postcode', country: 'country', 'country-name': 'country', 'one-time-code': 'verification_code',
};

const CONFIRM = /confirm|repeat|again|re-?type|re-?enter|verify ?pass|password2|pass(word)?_?2|cpassword|repassword/;
const CAPTCHA = /captcha|recaptcha|hcaptcha|turnstile|security image|image code|picture code/;

export function fieldKindOf(f: FieldDescriptor): FieldKind {
  const text = [f.name, f.id, f.label, f.placeholder].join(' ').toLowerCase().replace(/[_-]+/g, ' ');
  const type = f.type.toLowerCase();
  if (CAPTCHA.test(text)) return 'captcha';
  if (type === 'checkbox') return /agree|terms|accept|privacy|policy|consent|conditions|i am (over|18)/.test(text) ? 'terms' : 'unknown';
  if (['hidden', 'submit', 'button', 'radio', 'file', 'image', 'reset'].includes(type)) return 'unknown';
  const auto = AUTOCOMPLETE[f.autocomplete.toLowerCase().trim().split(/\s+/).at(-1) ?? ''];
  if (type === 'password') return CONFIRM.test(text.replace(/ /g, '')) || CONFIRM.test(text) ? 'password_confirm' : 'password';
  if (auto) return auto;
  if (type === 'email') return 'email';
  if (type === 'tel') return /code|otp/.test(text) ? 'verification_code' : 'phone';
  if (type === 'date') return 'birth_date';
  if (/\be ?mail/.test(text)) return 'email';
  if (/pass(word)?|pwd/.test(text)) return CONFIRM.test(text) ? 'password_confirm' : 'password';
  if (/first ?name|given ?name|forename/.test(text)) return 'first_name';
  if (/last ?name|surname|family ?name/.test(text)) return 'last_name';
  if (/full ?name|your name|^\s*name\b|real ?name/.test(text)) return 'full_name';
  if (/user ?name|nick ?name|login|account/.test(text)) return 'username';
  if (/phone|mobile|tel\b|cell/.test(text)) return 'phone';
  if (/birth|dob|birthday/.test(text)) return 'birth_date';
  if (/post ?code|zip|postal/.test(text)) return 'postcode';
  if (/city|town/.test(text)) return 'city';
  if (/country/.test(text)) return 'country';
  if (/address|street/.test(text)) return 'address_line';
  if (/code|otp|verification|pin\b/.test(text)) return 'verification_code';
  return 'unknown';
}

export function controlKindOf(c: ControlDescriptor): ControlKind {
  const text = `${c.text} ${c.ariaLabel}`.toLowerCase().replace(/\s+/g, ' ').trim();
  const href = (c.href ?? '').toLowerCase();
  if (/cookie/.test(text) && /accept|allow|agree|ok|got it/.test(text)) return 'accept_cookies';
  if (/^(accept( all)?|allow all|got it)$/.test(text)) return 'accept_cookies';
  if (/^(×|x|✕|✖|close|dismiss|no thanks|not now|skip|later)$/.test(text)) return 'close_modal';
  if (/send (the )?code|get (the )?code|send verification|resend/.test(text)) return 'send_code';
  if (/sign ?up|register|create (an |your )?account|open (an )?account|join (now|us|free)|get started/.test(text)) return 'register';
  if (/log ?in|sign ?in/.test(text)) return 'login';
  if (/deposit|top ?up|recharge|add funds|fund (your )?account/.test(text)) return 'deposit';
  if (/^(verify|confirm|activate)\b/.test(text)) return 'verify';
  if (/^(next|continue|proceed)\b/.test(text)) return 'next';
  if (/^(submit|send|done|finish|ok|save)\b/.test(text)) return 'submit';
  if (/\/(register|signup|sign-up|join)\b/.test(href)) return 'register';
  if (/\/(login|signin|sign-in)\b/.test(href)) return 'login';
  if (/\/(deposit|recharge|topup|top-up)\b/.test(href)) return 'deposit';
  return 'unknown';
}
