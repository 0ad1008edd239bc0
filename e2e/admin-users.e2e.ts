// Account control (issue 9): the administrator finds a hospital in Users, suspends it (after the
// confirmation), the hospital is signed out and cannot sign in; reactivated, it can; verified, its
// row says so. Also that the Users page fits a phone's width.
import { describe, expect, it } from 'vitest';
import { PASSWORD, enableTwoFactor, logIn, signedInHospital, toast } from './auth-helpers';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from './harness';
import { startJourney } from './journey';

const journey = startJourney();

describe('the administrator’s Users table', () => {
  it('suspends a hospital (signed out at once, sign-in refused), reactivates and verifies it', async () => {
    const url = journey.app.url;
    const hospitalContext = await journey.browser.newContext();
    const hospital = await signedInHospital(hospitalContext, url, 'Harbor Clinic');
    const me = async () => (await (await hospitalContext.request.get(`${url}/api/auth/me`)).json()).user;
    expect(await me()).toMatchObject({ email: hospital.email });

    const admin = await journey.newPage({ viewport: { width: 1280, height: 900 } });
    await admin.goto(`${url}/medledger-login`);
    await logIn(admin, ADMIN_EMAIL, ADMIN_PASSWORD);
    await admin.waitForURL(`${url}/medledger/applications`);
    // Suspending needs two-factor sign-in, like reviewing applications.
    await enableTwoFactor(admin.context(), url);
    await admin
      .getByRole('navigation', { name: 'Administration' })
      .getByRole('link', { name: 'Users' })
      .click();
    await admin.waitForURL(`${url}/medledger/users`);
    await admin.getByRole('heading', { name: 'Users', level: 1 }).waitFor();

    await admin.getByLabel('Search users').fill('harbor');
    await admin.getByRole('button', { name: 'Search', exact: true }).click();
    const row = admin.getByRole('row').filter({ hasText: hospital.email });
    await row.getByText('Not verified').waitFor();
    await expect.poll(() => admin.getByTestId('user-row').count()).toBe(1);
    await row.getByText('Active', { exact: true }).waitFor();

    await row.getByRole('button', { name: 'Suspend Harbor Clinic' }).click();
    const confirm = admin.getByRole('dialog', { name: 'Suspend this account?' });
    await confirm.getByText(hospital.email).waitFor();
    await confirm.getByRole('button', { name: 'Suspend' }).click();
    await toast(admin, 'Account Suspended').waitFor();
    await row.getByText('Suspended', { exact: true }).waitFor();
    // The hospital's open session ended with the suspension.
    expect(await me()).toBeNull();

    const hospitalPage = await journey.newPage({ viewport: { width: 1280, height: 900 } });
    await hospitalPage.goto(`${url}/hospital-login`);
    await logIn(hospitalPage, hospital.email, PASSWORD);
    await toast(hospitalPage, 'This account is suspended. Contact support.').waitFor();
    expect(hospitalPage.url()).toBe(`${url}/hospital-login`);

    await row.getByRole('button', { name: 'Reactivate Harbor Clinic' }).click();
    await admin
      .getByRole('dialog', { name: 'Reactivate this account?' })
      .getByRole('button', { name: 'Reactivate' })
      .click();
    await toast(admin, 'Account Reactivated').waitFor();
    await row.getByText('Active', { exact: true }).waitFor();

    await hospitalPage.getByRole('button', { name: 'Sign In' }).click();
    await hospitalPage.waitForURL(`${url}/hospital-dashboard`);

    await row.getByRole('button', { name: 'Verify Harbor Clinic as a provider' }).click();
    await admin
      .getByRole('dialog', { name: 'Verify this provider?' })
      .getByRole('button', { name: 'Verify' })
      .click();
    await toast(admin, 'Provider Verified').waitFor();
    await row.getByText('Verified', { exact: true }).waitFor();

    // At a phone's width the table keeps its Actions visible without scrolling the page sideways.
    await admin.setViewportSize({ width: 390, height: 844 });
    await row.getByRole('button', { name: 'Suspend Harbor Clinic' }).waitFor();
    expect(await admin.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    const box = await row.getByRole('button', { name: 'Suspend Harbor Clinic' }).boundingBox();
    expect(box && box.x + box.width).toBeLessThanOrEqual(390);
  });
});
