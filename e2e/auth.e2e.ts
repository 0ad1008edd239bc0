// Browser journeys of signing up and signing in (docs/spec.md#screens-and-routes, #roles and #messages).
import { describe, expect, it } from 'vitest';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from './harness';
import { mailedLink, startJourney } from './journey';
import {
  activationCodeOf,
  addPatient,
  logIn,
  PASSWORD,
  hospitalAccount,
  signedInHospital,
  signedInPatient,
  toast,
  uniqueEmail,
} from './auth-helpers';

const journey = startJourney();

const STORED_USER_KEY = 'medledger.user';

describe('signing up and signing in', () => {
  it('lets a hospital sign up at /signup?role=hospital and reach its dashboard from the hospital login', async () => {
    const context = await journey.browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: journey.app.url });
    const page = await context.newPage();
    const email = uniqueEmail('signup-hospital');

    await page.goto(`${journey.app.url}/signup?role=hospital&email=${encodeURIComponent(email)}`);
    await page.getByRole('heading', { name: 'Create Account' }).waitFor();
    // The role came with the link: no Account Type choice, no MRN, a Hospital/Clinic Name.
    expect(await page.getByText('Account Type').count()).toBe(0);
    expect(await page.getByLabel('Medical Record Number (MRN)').count()).toBe(0);
    expect(await page.getByLabel('Email Address').inputValue()).toBe(email);

    await page.getByLabel('First Name').fill('Grace');
    await page.getByLabel('Last Name').fill('Hopper');
    await page.getByLabel('Hospital/Clinic Name').fill('Riverside Clinic');

    // Generate fills both password fields with a strong 16-character password.
    await page.getByRole('button', { name: 'Generate' }).click();
    const generated = await page.getByLabel(/^Password/).inputValue();
    expect(generated).toHaveLength(16);
    expect(await page.getByLabel(/^Confirm Password/).inputValue()).toBe(generated);
    expect(await page.getByTestId('strength-meter').getAttribute('data-score')).toBe('5');

    await page.getByRole('button', { name: 'Copy' }).click();
    await toast(page, 'Password Copied').waitFor();
    await page.getByRole('button', { name: 'Copied!' }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(generated);
    await page.screenshot({ path: '/tmp/medledger-signup.png', fullPage: true });

    await page.getByRole('button', { name: 'Create Account' }).click();
    // The same answer as for a taken address; the welcome mail tells that the account is new.
    await toast(page, 'Check Your Email').waitFor();
    await page.waitForURL(`${journey.app.url}/hospital-login`);
    expect(await mailedLink(journey.app, email, '/')).toBe(`${journey.app.url}/`);

    await page.getByRole('heading', { name: 'Hospital Login' }).waitFor();
    await page.getByText('Enterprise Medical Records Access').waitFor();
    await page.screenshot({ path: '/tmp/medledger-hospital-login.png', fullPage: true });
    await page.getByLabel('Hospital ID / Email').fill(email);
    await page.getByLabel(/^Password/).fill(generated);
    await page.getByLabel('Remember me').check();
    await page.getByRole('button', { name: 'Sign In' }).click();

    await page.waitForURL(`${journey.app.url}/hospital-dashboard`);
    await page.getByText('Healthcare Portal').waitFor();
    await page.getByTestId('header-hospital-name').filter({ hasText: 'Riverside Clinic' }).waitFor();
    await page.getByTestId('header-user-name').filter({ hasText: 'Grace Hopper' }).waitFor();
    const stored = await page.evaluate((key) => localStorage.getItem(key), STORED_USER_KEY);
    expect(JSON.parse(stored ?? 'null')).toMatchObject({ email, role: 'hospital' });
    await context.close();
  });

  it("lets a patient sign up with the MRN and the activation code shown in the hospital's dialog", async () => {
    // The hospital adds the patient on its dashboard; the success dialog shows MRN and code once.
    const hospital = await journey.browser.newContext();
    await hospital.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: journey.app.url });
    await signedInHospital(hospital, journey.app.url);
    const desk = await hospital.newPage();
    await desk.goto(`${journey.app.url}/hospital-dashboard`);
    await desk.getByRole('heading', { name: 'Patient Management' }).waitFor();
    await desk.getByRole('button', { name: 'Add Patient' }).click();
    const form = desk.getByRole('dialog', { name: 'Add Patient' });
    await form.getByLabel('First Name').fill('Ada');
    await form.getByLabel('Last Name').fill('Lovelace');
    await form.getByRole('button', { name: 'Add Patient' }).click();
    const added = desk.getByRole('dialog', { name: 'Patient Added Successfully' });
    const code = ((await added.getByTestId('activation-code').textContent()) ?? '').trim();
    expect(code).toMatch(/^[0-9A-HJKMNP-TV-Z]{5}-[0-9A-HJKMNP-TV-Z]{5}$/);
    const mrn =
      /MRN\d{10}/.exec((await added.getByLabel('Activation details').textContent()) ?? '')?.[0] ?? '';
    expect(mrn).toBeTruthy();
    await added.getByRole('button', { name: 'Copy' }).click();
    await toast(desk, 'Activation Code Copied').waitFor();
    const copied = await desk.evaluate(() => navigator.clipboard.readText());
    expect(copied).toContain(`Medical Record Number: ${mrn}`);
    expect(copied).toContain(`Activation code: ${code}`);
    await added.getByRole('button', { name: 'Done' }).click();
    await added.waitFor({ state: 'detached' });
    // The code got lost: the hospital issues a new one from the patient's file; the old one is void.
    await desk.getByRole('button', { name: 'Open patient file of Ada Lovelace' }).click();
    await desk
      .getByRole('dialog', { name: 'Ada Lovelace' })
      .getByRole('button', { name: 'New Activation Code' })
      .click();
    const reissued = desk.getByRole('dialog', { name: 'New Activation Code' });
    const newCode = ((await reissued.getByTestId('activation-code').textContent()) ?? '').trim();
    expect(newCode).toMatch(/^[0-9A-HJKMNP-TV-Z]{5}-[0-9A-HJKMNP-TV-Z]{5}$/);
    expect(newCode).not.toBe(code);
    await reissued.getByText('Any earlier activation code of this patient no longer works.').waitFor();
    await reissued.getByRole('button', { name: 'Done' }).click();
    await reissued.waitFor({ state: 'detached' });
    await hospital.close();

    const email = uniqueEmail('signup-patient');
    const context = await journey.browser.newContext();
    const page = await context.newPage();
    await page.goto(`${journey.app.url}/signup?role=patient`);
    const mrnField = page.getByLabel('Medical Record Number (MRN)');
    expect(await mrnField.getAttribute('placeholder')).toMatch(/^MRN\d{4}\d+$/);
    await page.getByText('Enter the MRN provided by your healthcare provider').waitFor();
    // Typed in lower case, shown (and sent) upper-cased.
    await mrnField.pressSequentially(mrn.toLowerCase());
    expect(await mrnField.inputValue()).toBe(mrn);
    expect(await page.getByLabel('Hospital/Clinic Name').count()).toBe(0);

    await page.getByLabel('First Name').fill('Ada');
    await page.getByLabel('Last Name').fill('Lovelace');
    await page.getByLabel('Email Address').fill(email);
    await page.getByLabel(/^Password/).fill(PASSWORD);
    await page.getByLabel(/^Confirm Password/).fill(PASSWORD);
    // The replaced code is refused with the one message that does not say which part was wrong.
    const codeField = page.getByLabel('Activation code');
    await codeField.fill(code);
    await page.getByRole('button', { name: 'Create Account' }).click();
    const failure = toast(page, 'Registration Failed');
    await failure.waitFor();
    expect(await failure.textContent()).toContain(
      'We could not match this Medical Record Number and activation code',
    );
    // The new code, typed without the dash and in lower case.
    await codeField.fill(newCode.replace('-', '').toLowerCase());
    await page.getByRole('button', { name: 'Create Account' }).click();

    await page.waitForURL(`${journey.app.url}/patient-login`);
    await page.getByRole('heading', { name: 'Patient Login' }).waitFor();
    await page.screenshot({ path: '/tmp/medledger-patient-login.png', fullPage: true });
    await page.getByLabel('Email Address').fill(email);
    await page.getByLabel(/^Password/).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign In' }).click();

    await page.waitForURL(`${journey.app.url}/patient-dashboard`);
    await page.getByRole('heading', { name: 'Welcome back, Ada!' }).waitFor();
    await page.getByText('Patient Portal').waitFor();
    await context.close();
  });

  it('fills MRN and activation code from the e-mailed activation link', async () => {
    const hospital = await journey.browser.newContext();
    await signedInHospital(hospital, journey.app.url);
    const email = uniqueEmail('link-patient');
    const mrn = await addPatient(hospital, journey.app.url, { firstName: 'Lin', lastName: 'Kedin', email });
    await hospital.close();

    const context = await journey.browser.newContext();
    const page = await context.newPage();
    const code = activationCodeOf(mrn);
    await page.goto(`${journey.app.url}/signup?mrn=${mrn}&code=${code}`);
    expect(await page.getByLabel('Medical Record Number (MRN)').inputValue()).toBe(mrn);
    expect(await page.getByLabel('Activation code').inputValue()).toBe(code);
    expect(await page.getByLabel('Hospital/Clinic Name').count()).toBe(0);
    await page.getByLabel('First Name').fill('Lin');
    await page.getByLabel('Last Name').fill('Kedin');
    await page.getByLabel('Email Address').fill(email);
    await page.getByLabel(/^Password/).fill(PASSWORD);
    await page.getByLabel(/^Confirm Password/).fill(PASSWORD);
    await page.getByRole('button', { name: 'Create Account' }).click();
    await page.waitForURL(`${journey.app.url}/patient-login`);
    await context.close();
  });

  it('refuses a signup whose MRN no hospital gave, with the server message', async () => {
    const context = await journey.browser.newContext();
    const page = await context.newPage();
    await page.goto(`${journey.app.url}/signup`);
    // No role in the link: the Account Type radios are offered, Patient first.
    expect(await page.getByLabel('Patient', { exact: true }).isChecked()).toBe(true);
    await page.getByLabel('Medical Record Number (MRN)').fill('MRN2020000000');
    await page.getByLabel('Activation code').fill('ABCDE-FGHJK');
    await page.getByLabel('First Name').fill('Eve');
    await page.getByLabel('Last Name').fill('Unknown');
    await page.getByLabel('Email Address').fill(uniqueEmail('no-mrn'));
    await page.getByLabel(/^Password/).fill(PASSWORD);
    await page.getByLabel(/^Confirm Password/).fill(PASSWORD);
    await page.getByRole('button', { name: 'Create Account' }).click();
    const failure = toast(page, 'Registration Failed');
    await failure.waitFor();
    expect(await failure.textContent()).not.toContain('Something went wrong');
    expect(page.url()).toBe(`${journey.app.url}/signup`);
    await context.close();
  });

  it('stops a signup with mismatched or short passwords before calling the server', async () => {
    const context = await journey.browser.newContext();
    const page = await context.newPage();
    let registerCalls = 0;
    page.on('request', (req) => {
      if (req.url().endsWith('/api/auth/register')) registerCalls += 1;
    });
    await page.goto(`${journey.app.url}/signup?role=hospital`);
    await page.getByLabel('First Name').fill('Grace');
    await page.getByLabel('Last Name').fill('Hopper');
    await page.getByLabel('Hospital/Clinic Name').fill('Riverside Clinic');
    await page.getByLabel('Email Address').fill(uniqueEmail('weak'));
    await page.getByLabel(/^Password/).fill('abc12345');
    await page.getByLabel(/^Confirm Password/).fill('abc12346');
    await page.getByRole('button', { name: 'Create Account' }).click();
    await toast(page, 'Passwords do not match. Please try again.').waitFor();

    await page.getByLabel(/^Password/).fill('abc');
    await page.getByLabel(/^Confirm Password/).fill('abc');
    await page.getByRole('button', { name: 'Create Account' }).click();
    await toast(page, 'Password must be at least 8 characters long.').waitFor();
    expect(registerCalls).toBe(0);
    await context.close();
  });

  it('tells a patient using the hospital login "Access Denied"', async () => {
    const hospital = await journey.browser.newContext();
    await signedInHospital(hospital, journey.app.url);
    const email = uniqueEmail('wrong-door');
    const mrn = await addPatient(hospital, journey.app.url, { firstName: 'Ada', lastName: 'Lovelace' });
    await hospital.close();
    const setup = await journey.browser.newContext();
    await signedInPatient(setup, journey.app.url, mrn, email);
    await setup.close();

    const context = await journey.browser.newContext();
    const page = await context.newPage();
    await page.goto(`${journey.app.url}/hospital-login`);
    await logIn(page, email, PASSWORD);
    const denied = toast(page, 'Access Denied');
    await denied.waitFor();
    expect(await denied.textContent()).toContain('This login is for healthcare providers only.');
    expect(page.url()).toBe(`${journey.app.url}/hospital-login`);
    await context.close();
  });

  it('says "Login Failed" for a wrong password', async () => {
    const hospital = await hospitalAccount(journey.browser, journey.app.url);

    const context = await journey.browser.newContext();
    const page = await context.newPage();
    await page.goto(`${journey.app.url}/hospital-login`);
    await logIn(page, hospital.email, 'not-the-password');
    const failed = toast(page, 'Login Failed');
    await failed.waitFor();
    expect(await failed.textContent()).toContain('Invalid credentials. Please try again.');
    await page.getByRole('button', { name: 'Sign In' }).waitFor();
    expect(page.url()).toBe(`${journey.app.url}/hospital-login`);
    await context.close();
  });

  it('lets the administrator in at /medledger-login and refuses a hospital there', async () => {
    const context = await journey.browser.newContext();
    const page = await context.newPage();
    await page.goto(`${journey.app.url}/medledger-login`);
    await logIn(page, ADMIN_EMAIL, ADMIN_PASSWORD);
    await page.waitForURL(`${journey.app.url}/medledger/applications`);
    await page.getByText('MedLedger Admin').first().waitFor();
    await context.close();

    const hospital = await hospitalAccount(journey.browser, journey.app.url);
    const other = await journey.browser.newContext();
    const otherPage = await other.newPage();
    await otherPage.goto(`${journey.app.url}/medledger-login`);
    await logIn(otherPage, hospital.email, hospital.password);
    await toast(otherPage, 'Access Denied: This login is for MedLedger team administrators only.').waitFor();
    await other.close();
  });

  it('opens the forgot-password dialog from the login screen; if its code cannot be loaded, says so and keeps the form', async () => {
    const context = await journey.browser.newContext();
    const page = await context.newPage();
    const dialogChunk = /\/assets\/ForgotPasswordDialog-[^/]*\.js$/;
    await page.route(dialogChunk, (route) => route.abort());
    await page.goto(`${journey.app.url}/patient-login`);
    await page.getByRole('button', { name: 'Forgot password?' }).click();
    const alert = page.getByRole('alert').filter({ hasText: 'This part of MedLedger could not be loaded' });
    await alert.waitFor();
    // The sign-in form is still there and usable.
    await page.getByLabel('Email').fill('still@here.test');
    expect(await page.getByRole('dialog').count()).toBe(0);
    await page.unroute(dialogChunk);
    await alert.getByRole('button', { name: 'Reload' }).click();
    await page.getByRole('button', { name: 'Forgot password?' }).click();
    await page.getByRole('dialog').waitFor();
    await context.close();
  });

  it('signs out: clears the stored user, ends the session and returns to the login options', async () => {
    const context = await journey.browser.newContext();
    await signedInHospital(context, journey.app.url);
    const page = await context.newPage();
    await page.goto(`${journey.app.url}/hospital-dashboard`);
    await page.getByText('Healthcare Portal').waitFor();
    await page.getByRole('button', { name: 'Logout' }).click();

    await page.getByText('Healthcare Provider Login').waitFor();
    expect(new URL(page.url()).pathname).toBe('/');
    expect(await page.evaluate((key) => localStorage.getItem(key), STORED_USER_KEY)).toBeNull();
    const me = await context.request.get(`${journey.app.url}/api/auth/me`);
    expect([me.status(), await me.json()]).toEqual([200, { user: null }]);
    await context.close();
  });
});
