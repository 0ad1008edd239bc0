// The administrator sees every hospital account, including one that signed up directly (not
// through an application), and can mark its subscription active.
import { describe, expect, it } from 'vitest';
import { enableTwoFactor, logIn, signedInHospital, toast } from './auth-helpers';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from './harness';
import { startJourney } from './journey';

const journey = startJourney();

describe('hospital accounts on the administrator page', () => {
  it('lists a directly signed-up hospital in its trial and marks its subscription active', async () => {
    const hospitalContext = await journey.browser.newContext();
    const hospital = await signedInHospital(hospitalContext, journey.app.url, 'Lakeside Clinic');
    const before = await hospitalContext.request.get(`${journey.app.url}/api/billing/status`);
    expect((await before.json()).status).toBe('trialing');

    const page = await (
      await journey.browser.newContext({ viewport: { width: 1280, height: 900 } })
    ).newPage();
    await page.goto(`${journey.app.url}/medledger-login`);
    await logIn(page, ADMIN_EMAIL, ADMIN_PASSWORD);
    await page.waitForURL(`${journey.app.url}/medledger/applications`);
    // The administrator pages need two-factor sign-in (without it they show only its set-up).
    await enableTwoFactor(page.context(), journey.app.url);
    await page.reload();
    await page.getByRole('heading', { name: 'Hospital Accounts (1)' }).waitFor();
    const row = page.getByRole('row').filter({ hasText: hospital.email });
    // The badge is in the row twice: in its column, and under the name (shown on a phone).
    await row
      .getByText(/Trial until/)
      .filter({ visible: true })
      .waitFor();

    await row.getByRole('button', { name: 'Mark the subscription of Lakeside Clinic active' }).click();
    await toast(page, 'Subscription Active').waitFor();
    await row.getByText('Active', { exact: true }).filter({ visible: true }).waitFor();
    const after = await hospitalContext.request.get(`${journey.app.url}/api/billing/status`);
    expect(await after.json()).toMatchObject({ status: 'active', writeAllowed: true });
  });
});
