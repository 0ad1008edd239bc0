// Browser journeys of provider onboarding (docs/spec.md#purpose-and-users, #screens-and-routes and
// #messages): apply, the administrator approves, the registration link is followed from the outbox,
// the hospital registers and signs in; and a forgotten password is reset through the e-mailed link.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { PASSWORD, enableTwoFactor, logIn, toast, uniqueEmail } from './auth-helpers';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from './harness';
import { mailedLink as mailedLinkIn, startJourney } from './journey';

const journey = startJourney();

const mailedLink = (email: string, pathname: string) => mailedLinkIn(journey.app, email, pathname);

const newPage = () => journey.newPage({ viewport: { width: 1280, height: 900 } });

describe('provider onboarding', () => {
  const contactEmail = uniqueEmail('provider');
  let admin: Page;

  it('shows the administrator the empty state before any application', async () => {
    admin = await newPage();
    await admin.goto(`${journey.app.url}/medledger/applications`);
    // Signed out: sent to the administrator login.
    await admin.waitForURL(`${journey.app.url}/medledger-login`);
    await logIn(admin, ADMIN_EMAIL, ADMIN_PASSWORD);
    await admin.waitForURL(`${journey.app.url}/medledger/applications`);
    // Without two-factor sign-in the page shows nothing but the way to set it up (the server
    // answers none of its calls until then).
    await admin.getByText('Turn on two-factor sign-in first').waitFor();
    await admin.getByRole('link', { name: 'Set up two-factor sign-in' }).waitFor();
    expect(await admin.getByText('No provider applications yet').count()).toBe(0);
    await enableTwoFactor(admin.context(), journey.app.url);
    await admin.reload();
    await admin.getByText('No provider applications yet').waitFor();
  });

  it('lets a provider apply, with the spec messages for bad input, then returns home after 3 s', async () => {
    const page = await newPage();
    await page.goto(`${journey.app.url}/`);
    await page.getByRole('link', { name: 'Join MedLedger as a Healthcare Provider' }).click();
    await page.waitForURL(`${journey.app.url}/provider-apply`);
    await page.getByText('Hospital/Organization Information').waitFor();
    await page.getByText('Credentials (Optional)').waitFor();

    await page.getByLabel('Hospital/Organization Name').fill('H');
    await page.getByLabel('Website').fill('not a website');
    await page.getByLabel('Contact Email').fill('nobody');
    await page.getByRole('button', { name: 'Submit Application' }).click();
    await page.getByText('Hospital name must be at least 2 characters').waitFor();
    await page.getByText('Please enter a valid website URL').waitFor();
    await page.getByText('Contact name must be at least 2 characters').waitFor();
    await page.getByText('Please enter a valid email address').waitFor();

    await page.getByLabel('Hospital/Organization Name').fill('Harbour General Hospital');
    await page.getByLabel('Website').fill('harbour-general.example');
    await page.getByLabel('Address').fill('1 Quay Street');
    await page.getByLabel('Contact Name').fill('Hana Harbour');
    await page.getByLabel('Contact Email').fill(contactEmail);
    await page.getByLabel('Contact Phone').fill('+1 555 0199');
    await page.getByLabel('NPI Number').fill('1234567893');
    await page.getByLabel('License Number').fill('LIC-7');
    await page.getByRole('button', { name: 'Submit Application' }).click();
    await toast(page, 'Application Submitted Successfully!').waitFor();
    // The page's 3 s timer started before the toast was seen: it must not send the visitor home at
    // once (a loose lower bound, since a loaded machine delays seeing the toast).
    const submittedAt = Date.now();
    await page.getByText('Application submitted', { exact: true }).waitFor();
    await page.screenshot({ path: '/tmp/medledger-provider-apply.png', fullPage: true });
    await page.waitForURL(`${journey.app.url}/`, { timeout: 10_000 });
    expect(Date.now() - submittedAt).toBeGreaterThanOrEqual(1500);

    // A second application for the same contact e-mail is refused with the server's message.
    await page.goto(`${journey.app.url}/provider-apply`);
    await page.getByLabel('Hospital/Organization Name').fill('Harbour General Hospital');
    await page.getByLabel('Contact Name').fill('Hana Harbour');
    await page.getByLabel('Contact Email').fill(contactEmail);
    await page.getByRole('button', { name: 'Submit Application' }).click();
    await toast(page, 'Application Failed').filter({ hasText: 'already waiting for review' }).waitFor();
    await page.context().close();
  });

  it('lets the administrator approve the application, which e-mails a registration link', async () => {
    await admin.reload();
    await admin.getByRole('heading', { name: 'Pending Applications (1)' }).waitFor();
    const card = admin.getByRole('article', { name: 'Application of Harbour General Hospital' });
    await card.getByText(contactEmail).waitFor();
    await card.getByText('1234567893').waitFor();
    expect(
      await card.getByRole('link', { name: 'https://harbour-general.example/' }).getAttribute('href'),
    ).toBe('https://harbour-general.example/');
    await admin.screenshot({ path: '/tmp/medledger-applications.png', fullPage: true });
    await card.getByRole('button', { name: 'Approve' }).click();
    await admin
      .getByRole('dialog', { name: 'Approve this application?' })
      .getByRole('button', { name: 'Approve' })
      .click();
    await toast(admin, 'Application Approved').waitFor();
    await admin.getByRole('heading', { name: 'Pending Applications (0)' }).waitFor();
    await admin.getByRole('heading', { name: 'Reviewed Applications (1)' }).waitFor();
    await admin.getByRole('cell', { name: 'Harbour General Hospital' }).waitFor();
    await admin.getByText('Not registered yet').waitFor();
  });

  it('sends a link without a token back home with "Invalid Link"', async () => {
    const page = await newPage();
    await page.goto(`${journey.app.url}/provider-register`);
    await toast(page, 'Invalid Link').waitFor();
    await page.waitForURL(`${journey.app.url}/`, { timeout: 10_000 });
    await page.context().close();
  });

  it('registers the hospital from the e-mailed link and lets it sign in', async () => {
    const link = await mailedLink(contactEmail, '/provider-register');
    expect(link.startsWith(`${journey.app.url}/provider-register?token=`)).toBe(true);
    const page = await newPage();
    await page.goto(link);
    await page.getByRole('heading', { name: 'Complete Your Registration' }).waitFor();
    await page.getByText('7-day free trial').first().waitFor();
    await page.getByLabel('First Name').fill('Hana');
    await page.getByLabel('Last Name').fill('Harbour');
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill(PASSWORD);
    expect(await page.getByTestId('strength-meter').getAttribute('data-score')).toBe('5');
    await page.getByText('Lowercase letter').waitFor();
    await page.getByRole('textbox', { name: 'Confirm Password', exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Complete Registration' }).click();
    await toast(page, 'Account Created Successfully!').waitFor();
    await page.waitForURL(`${journey.app.url}/hospital-login`, { timeout: 10_000 });

    await logIn(page, contactEmail, PASSWORD);
    await page.waitForURL(`${journey.app.url}/hospital-dashboard`);
    await page.getByText('Harbour General Hospital').first().waitFor();
    await page.getByText('Free trial: 7 days left').waitFor();

    // The link is single-use.
    const again = await newPage();
    await again.goto(link);
    await again.getByLabel('First Name').fill('Eve');
    await again.getByLabel('Last Name').fill('Intruder');
    await again.getByRole('textbox', { name: 'Password', exact: true }).fill(PASSWORD);
    await again.getByRole('textbox', { name: 'Confirm Password', exact: true }).fill(PASSWORD);
    await again.getByRole('button', { name: 'Complete Registration' }).click();
    await toast(again, 'already been used').waitFor();
    await again.context().close();
    await page.context().close();

    // The administrator now sees the account and its trial, and can mark it paid (no Stripe here).
    await admin.reload();
    await admin.getByText('trialing').waitFor();
    await admin.getByRole('button', { name: 'Mark subscription active' }).click();
    await toast(admin, 'Subscription Active').waitFor();
    await admin.getByText('active', { exact: true }).waitFor();
    expect(await admin.getByRole('button', { name: 'Mark subscription active' }).count()).toBe(0);
  });

  it('lets the administrator reject an application after confirming', async () => {
    const applicant = await journey.browser.newContext();
    const res = await applicant.request.post(`${journey.app.url}/api/provider-applications`, {
      data: { hospitalName: 'Doubtful Clinic', contactName: 'Dee Doubt', contactEmail: uniqueEmail('doubt') },
    });
    expect(res.status()).toBe(201);
    await applicant.close();
    await admin.reload();
    const card = admin.getByRole('article', { name: 'Application of Doubtful Clinic' });
    await card.getByRole('button', { name: 'Reject' }).click();
    const confirm = admin.getByRole('dialog', { name: 'Reject this application?' });
    await confirm.getByRole('button', { name: 'Keep pending' }).click();
    await card.waitFor();
    await card.getByRole('button', { name: 'Reject' }).click();
    await confirm.getByRole('button', { name: 'Reject' }).click();
    await toast(admin, 'Application Rejected').waitFor();
    await card.waitFor({ state: 'detached' });
    await admin.getByRole('heading', { name: 'Reviewed Applications (2)' }).waitFor();
  });

  it('resets a forgotten password through the e-mailed link', async () => {
    const page = await newPage();
    await page.goto(`${journey.app.url}/hospital-login`);
    await page.getByRole('button', { name: 'Forgot password?' }).click();
    const dialog = page.getByRole('dialog', { name: 'Reset your password' });
    await dialog.getByLabel('Email Address').fill(contactEmail);
    await dialog.getByRole('button', { name: 'Send Reset Link' }).click();
    await dialog.getByText('If an account exists for this email').waitFor();
    await dialog.getByRole('button', { name: 'Done' }).click();

    const link = await mailedLink(contactEmail, '/reset-password');
    await page.goto(link);
    const newPassword = 'N3w!Harbour-pass';
    await page.getByRole('textbox', { name: 'New Password', exact: true }).fill(newPassword);
    await page.getByRole('textbox', { name: 'Confirm Password', exact: true }).fill(newPassword);
    await page.getByRole('button', { name: 'Set New Password' }).click();
    await page.getByText('Password changed').waitFor();

    await page.goto(`${journey.app.url}/hospital-login`);
    await logIn(page, contactEmail, PASSWORD);
    await toast(page, 'Login Failed').waitFor();
    await logIn(page, contactEmail, newPassword);
    await page.waitForURL(`${journey.app.url}/hospital-dashboard`);
    await page.context().close();
    await admin.context().close();
  });
});
