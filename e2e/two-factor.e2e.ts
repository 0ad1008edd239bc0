// Two-factor sign-in in the browser (issue 9): a hospital user sets it up on the profile page
// (the secret read from the screen, the code computed here as an authenticator app would), sees the
// recovery codes once, signs out, and signs in again with the password and then a code.
import { describe, expect, it } from 'vitest';
import { logIn, signedInHospital, toast, totpCode } from './auth-helpers';
import { startJourney } from './journey';

const journey = startJourney();

describe('two-factor sign-in', () => {
  it('enrolls on the profile page, then signs in with a code after the password', async () => {
    const context = await journey.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const hospital = await signedInHospital(context, journey.app.url);
    const page = await context.newPage();
    await page.goto(`${journey.app.url}/profile/edit`);

    const section = page.getByRole('region', { name: 'Two-factor sign-in' });
    await section.getByRole('button', { name: 'Set up two-factor sign-in' }).click();
    await section.getByRole('img', { name: 'QR code for your authenticator app' }).waitFor();
    const secret = (await section.getByTestId('totp-secret').innerText()).trim();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);

    // A wrong code is refused with the server's message.
    await section
      .getByLabel('2. Enter the 6-digit code from the app')
      .fill('000000' === totpCode(secret) ? '111111' : '000000');
    await section.getByRole('button', { name: 'Turn on' }).click();
    await section.getByText('The code is not valid').waitFor();

    await section.getByLabel('2. Enter the 6-digit code from the app').fill(totpCode(secret));
    await section.getByRole('button', { name: 'Turn on' }).click();
    const codes = section.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem');
    await expect.poll(() => codes.count()).toBe(10);
    await section.getByRole('button', { name: 'Download' }).waitFor();
    await section.getByRole('button', { name: 'I have saved them' }).click();
    await section.getByText('On', { exact: true }).waitFor();
    await section.getByText('10 unused recovery codes left.').waitFor();

    // The sessions list shows this browser.
    await page.getByRole('region', { name: 'Sessions' }).getByText('This browser').waitFor();

    await page.getByRole('button', { name: 'Logout' }).click();
    await page.getByText('Healthcare Provider Login').waitFor();
    await page.goto(`${journey.app.url}/hospital-login`);
    await logIn(page, hospital.email, hospital.password);
    const code = page.getByLabel('Authentication code');
    await code.waitFor();
    // Nobody is signed in between the two steps.
    const between = await context.request.get(`${journey.app.url}/api/auth/me`);
    expect(await between.json()).toEqual({ user: null });

    // The next time step's code (the current one was used to turn it on; one step of drift is allowed).
    await code.fill(totpCode(secret, Date.now() + 30_000));
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.waitForURL(`${journey.app.url}/hospital-dashboard`);
    const me = await context.request.get(`${journey.app.url}/api/auth/me`);
    expect((await me.json()).user).toMatchObject({ email: hospital.email, twoFactorEnabled: true });
    expect(await toast(page, 'Login Failed').count()).toBe(0);
    await context.close();
  });

  it('signs out another session and changes the password on the profile page', async () => {
    const context = await journey.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const hospital = await signedInHospital(context, journey.app.url);
    // A second browser signed in to the same account.
    const other = await journey.browser.newContext();
    const signIn = await other.request.post(`${journey.app.url}/api/auth/login`, {
      data: { email: hospital.email, password: hospital.password },
    });
    expect(signIn.ok()).toBe(true);

    const page = await context.newPage();
    await page.goto(`${journey.app.url}/profile/edit#sessions`);
    const sessions = page.getByRole('region', { name: 'Sessions' });
    await expect.poll(() => sessions.getByRole('listitem').count()).toBe(2);
    await sessions.getByRole('button', { name: /^Sign out / }).click();
    await toast(page, 'Session Signed Out').waitFor();
    await expect.poll(() => sessions.getByRole('listitem').count()).toBe(1);
    const ended = await other.request.get(`${journey.app.url}/api/auth/me`);
    expect(await ended.json()).toEqual({ user: null });

    const form = page.getByRole('region', { name: 'Change password' });
    await form.getByLabel(/^Current password/).fill('Wrong!Passw0rd');
    await form.getByLabel(/^New password/).fill('N3w!Password-2031');
    await form.getByLabel(/^Confirm new password/).fill('N3w!Password-2032');
    await form.getByRole('button', { name: 'Change password' }).click();
    await form.getByText('Passwords do not match. Please try again.').waitFor();
    await form.getByLabel(/^Confirm new password/).fill('N3w!Password-2031');
    await form.getByRole('button', { name: 'Change password' }).click();
    await form.getByText('The current password is not correct.').waitFor();
    await form.getByLabel(/^Current password/).fill(hospital.password);
    await form.getByRole('button', { name: 'Change password' }).click();
    await toast(page, 'Password Changed').waitFor();
    const again = await other.request.post(`${journey.app.url}/api/auth/login`, {
      data: { email: hospital.email, password: 'N3w!Password-2031' },
    });
    expect(again.ok()).toBe(true);
    await Promise.all([context.close(), other.close()]);
  });
});
