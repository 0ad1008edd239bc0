// Steps shared by the browser journeys: accounts made through the API (fast) or the screens,
// and the toast lookup. Every page of one BrowserContext shares its cookies with context.request.
import { Secret, TOTP } from 'otpauth';
import type { Browser, BrowserContext, Page } from 'playwright-core';

export const PASSWORD = 'Str0ng!Passw0rd';

let counter = 0;
export function uniqueEmail(prefix: string): string {
  counter += 1;
  return `${prefix}-${Date.now().toString(36)}-${counter}@example.com`;
}

export interface Account {
  email: string;
  password: string;
  firstName: string;
  lastName: string;
}

async function post(context: BrowserContext, url: string, path: string, data: unknown) {
  const res = await context.request.post(`${url}${path}`, { data });
  if (!res.ok()) throw new Error(`${path} answered ${res.status()}: ${await res.text()}`);
  return res.json();
}

/** Registers a hospital through the API and signs the context in as it. */
export async function signedInHospital(
  context: BrowserContext,
  url: string,
  hospitalName = 'Riverside Clinic',
  timeZone?: string,
) {
  const account: Account = {
    email: uniqueEmail('hospital'),
    password: PASSWORD,
    firstName: 'Grace',
    lastName: 'Hopper',
  };
  await post(context, url, '/api/auth/register', { ...account, role: 'hospital', hospitalName, timeZone });
  await post(context, url, '/api/auth/login', { email: account.email, password: account.password });
  return { ...account, hospitalName };
}

/** Registers a hospital through the API in a context of its own: an account to sign in to on a screen. */
export async function hospitalAccount(browser: Browser, url: string) {
  const setup = await browser.newContext();
  const account = await signedInHospital(setup, url);
  await setup.close();
  return account;
}

/** The activation code each patient got when `addPatient` added it (the API shows it only once). */
const activationCodes = new Map<string, string>();

/** The activation code the hospital was given for the patient with this MRN (added by `addPatient`). */
export function activationCodeOf(mrn: string): string {
  const code = activationCodes.get(mrn);
  if (!code) throw new Error(`no activation code known for ${mrn}: add the patient with addPatient`);
  return code;
}

/** As the signed-in hospital of `context`, adds a patient; answers its MRN (its code: activationCodeOf). */
export async function addPatient(
  context: BrowserContext,
  url: string,
  patient: { firstName: string; lastName: string; email?: string },
) {
  const created = (await post(context, url, '/api/patients', patient)) as {
    patientId: string;
    activationCode: string;
  };
  activationCodes.set(created.patientId, created.activationCode);
  return created.patientId;
}

/** Registers a patient (with the MRN and activation code a hospital got) through the API, and signs in. */
export async function signedInPatient(context: BrowserContext, url: string, mrn: string, email: string) {
  const account: Account = { email, password: PASSWORD, firstName: 'Ada', lastName: 'Lovelace' };
  const activationCode = activationCodeOf(mrn);
  await post(context, url, '/api/auth/register', { ...account, role: 'patient', mrn, activationCode });
  await post(context, url, '/api/auth/login', { email, password: PASSWORD });
  return account;
}

/** The toast (Mantine notification, role="alert") containing `text`. */
export function toast(page: Page, text: string) {
  return page.getByRole('alert').filter({ hasText: text });
}

/** Fills and submits one of the login screens. */
export async function logIn(page: Page, email: string, password: string) {
  // Pages load on first visit: until the sign-in form is there, the previous page may still show.
  await page.getByRole('button', { name: 'Sign In' }).waitFor();
  await page.getByRole('textbox').first().fill(email);
  await page.getByLabel(/^Password/).fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
}

/** An authenticator app for a base32 secret (RFC 6238, SHA-1, 6 digits, 30 s), as the tests compute it. */
export function totpCode(secret: string, at = Date.now()): string {
  return new TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(secret) }).generate({
    timestamp: at,
  });
}

/**
 * Turns two-factor sign-in on for the account the context is signed in as, through the API
 * (administrators review applications only with it); answers the secret.
 */
export async function enableTwoFactor(context: BrowserContext, url: string): Promise<string> {
  const { secret } = (await post(context, url, '/api/auth/2fa/setup', {})) as { secret: string };
  // The code of the previous step (accepted as drift), so that the next sign-in's code is unused.
  await post(context, url, '/api/auth/2fa/enable', { code: totpCode(secret, Date.now() - 30_000) });
  return secret;
}

/**
 * A fixed-offset zone where the hour now is between `from` and `to` (inclusive), so a journey can
 * rely on today's slots (09:00–17:30) being all ahead (01–07) or all past (18–23) there, whenever
 * it runs. Etc/GMT-5 is UTC+5 (POSIX signs). Never UTC itself: the journeys' browsers run in UTC,
 * and the app names the hospital's zone only where it differs from the browser's (a journey run
 * between 01:00 and 02:00 UTC got UTC here and missed that label).
 */
export function zoneAtHour(from: number, to: number, now = new Date()): string {
  for (let offset = -12; offset <= 14; offset++) {
    const hour = (now.getUTCHours() + offset + 24) % 24;
    if (offset !== 0 && hour >= from && hour <= to)
      return `Etc/GMT${offset > 0 ? '-' : '+'}${Math.abs(offset)}`;
  }
  throw new Error(`no zone where it is ${from}–${to} h now`);
}
