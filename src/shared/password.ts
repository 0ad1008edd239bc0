// Password strength (docs/spec.md#validation) and the 16-character generator, shared by the signup and
// provider-registration screens and their tests.
import { GENERATED_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH, PASSWORD_SYMBOLS } from './constants.js';

export interface PasswordChecks {
  length: boolean;
  uppercase: boolean;
  lowercase: boolean;
  number: boolean;
  symbol: boolean;
}

export function passwordChecks(password: string): PasswordChecks {
  return {
    length: password.length >= MIN_PASSWORD_LENGTH,
    uppercase: /[A-Z]/.test(password),
    lowercase: /[a-z]/.test(password),
    number: /[0-9]/.test(password),
    symbol: [...password].some((c) => PASSWORD_SYMBOLS.includes(c)),
  };
}

/** 0 to 5: how many of the five criteria hold. */
export function passwordScore(password: string): number {
  return Object.values(passwordChecks(password)).filter(Boolean).length;
}

/** Bar colour by score: red 1-2, yellow 3, blue 4, green 5 (Mantine colour names). */
export function strengthColor(score: number): 'red' | 'yellow' | 'blue' | 'green' | 'gray' {
  if (score >= 5) return 'green';
  if (score === 4) return 'blue';
  if (score === 3) return 'yellow';
  if (score >= 1) return 'red';
  return 'gray';
}

const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const DIGITS = '0123456789';

function randomIndex(max: number): number {
  // Rejection sampling keeps the choice uniform.
  const buf = new Uint32Array(1);
  const limit = Math.floor(0x1_0000_0000 / max) * max;
  for (;;) {
    globalThis.crypto.getRandomValues(buf);
    if (buf[0] < limit) return buf[0] % max;
  }
}

const pick = (chars: string) => chars[randomIndex(chars.length)];

/** 16 characters with at least one lowercase, uppercase, digit and symbol, shuffled. */
export function generatePassword(length = GENERATED_PASSWORD_LENGTH): string {
  const all = LOWER + UPPER + DIGITS + PASSWORD_SYMBOLS;
  const chars = [pick(LOWER), pick(UPPER), pick(DIGITS), pick(PASSWORD_SYMBOLS)];
  while (chars.length < length) chars.push(pick(all));
  for (let i = chars.length - 1; i > 0; i--) {
    const j = randomIndex(i + 1);
    [chars[i], chars[j]] = [chars[j], chars[i]];
  }
  return chars.join('');
}
