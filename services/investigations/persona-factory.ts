// Makes a persona's values with a maintained faker library (plausible, ordinary names and streets)
// and the platform's own randomness for what must not be guessed (the password, the mailbox).
import { randomInt } from 'node:crypto';
import { fakerEN_GB as faker } from '@faker-js/faker';
import type { PersonaValues } from '../../domain/investigations/persona';

const UPPER = 'ABCDEFGHJKLMNPQRSTUVWXYZ';
const LOWER = 'abcdefghijkmnopqrstuvwxyz';
const DIGITS = '23456789';
const SYMBOLS = '!#$%*+-=?@_';

function pick(chars: string): string {
  return chars[randomInt(chars.length)]!;
}

/** 12 to 16 characters with upper and lower case letters and digits (symbols only when asked). */
export function makePassword(symbols = false): string {
  const length = 12 + randomInt(5);
  const required = [pick(UPPER), pick(LOWER), pick(DIGITS), ...(symbols ? [pick(SYMBOLS)] : [])];
  const all = UPPER + LOWER + DIGITS + (symbols ? SYMBOLS : '');
  const chars = [...required];
  while (chars.length < length) chars.push(pick(all));
  for (let i = chars.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [chars[i], chars[j]] = [chars[j]!, chars[i]!];
  }
  return chars.join('');
}

const ascii = (s: string) => s.normalize('NFKD').replace(/[^A-Za-z]/g, '').toLowerCase();

/** A new persona whose e-mail is at `emailDomain` (SVC_SSI__PERSONA_EMAIL_DOMAIN). */
export function makePersona(emailDomain: string): PersonaValues {
  const first = faker.person.firstName();
  const last = faker.person.lastName();
  const tag = String(randomInt(1000, 10000));
  const birth = faker.date.birthdate({ mode: 'age', min: 28, max: 62 });
  return {
    first_name: first,
    last_name: last,
    full_name: `${first} ${last}`,
    username: `${ascii(first)}${ascii(last).slice(0, 6)}${tag}`,
    email: `${ascii(first)}.${ascii(last)}.${tag}@${emailDomain}`,
    password: makePassword(),
    // Ofcom's range for drama: 07700 900000 to 900999.
    phone: `07700 900${String(randomInt(1000)).padStart(3, '0')}`,
    birth_date: birth.toISOString().slice(0, 10),
    address_line: faker.location.streetAddress(),
    city: faker.location.city(),
    postcode: faker.location.zipCode(),
    country: 'United Kingdom',
  };
}
