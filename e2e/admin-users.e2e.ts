// Account control (issue 9): the administrator finds a hospital in Users, suspends it (after the
// confirmation), the hospital is signed out and cannot sign in, and its share link stops (issue 56);
// reactivated with "restore" ticked, it can sign in and the link opens again; verified, its row says
// so. Also that the Users page fits a phone's width. And the patient's side: a sign-in
// refused on the wrong portal is no sign-in ("New Notifications" still counts the new record), and
// the record says its provider is not verified.
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { samplePdf } from '../src/server/features/records/testing';
import { linksIn, outboxMessages } from '../src/server/mail/read-message';
import {
  addPatient,
  enableTwoFactor,
  logIn,
  PASSWORD,
  signedInHospital,
  signedInPatient,
  toast,
  uniqueEmail,
} from './auth-helpers';
import { patientIdOf, uploadRecord } from './record-helpers';
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
    // The hospital sends a specialist a link to one of its records.
    const mrn = await addPatient(hospitalContext, url, { firstName: 'Sam', lastName: 'Shore' });
    const record = await uploadRecord(hospitalContext, url, {
      patientId: await patientIdOf(hospitalContext, url, mrn),
      recordType: 'lab-results',
      title: 'Echo report',
      shareWithSpecialists: 'true',
      files: { name: 'echo.pdf', mimeType: 'application/pdf', buffer: samplePdf('Echo report') },
    });
    const shared = await hospitalContext.request.post(`${url}/api/medical-records/${record.id}/shares`, {
      data: { recipientEmail: 'dr.echo@clinic.example', expiresInHours: 48 },
    });
    expect(shared.status()).toBe(201);
    const shareLink = outboxMessages(path.join(journey.app.dataDir, 'outbox'))
      .filter((m) => m.includes('To: dr.echo@clinic.example'))
      .flatMap(linksIn)
      .find((l) => new URL(l).pathname.startsWith('/shared/'))!;
    const specialist = await journey.browser.newContext();
    const linkOpens = async () =>
      (
        await specialist.request.get(`${url}/api/shares/${new URL(shareLink).pathname.split('/')[2]}`)
      ).status();
    expect(await linkOpens()).toBe(200);

    const admin = await journey.newPage({ viewport: { width: 1280, height: 900 } });
    await admin.goto(`${url}/medledger-login`);
    await logIn(admin, ADMIN_EMAIL, ADMIN_PASSWORD);
    await admin.waitForURL(`${url}/medledger/applications`);
    // The administrator pages need two-factor sign-in (without it they show only its set-up).
    await enableTwoFactor(admin.context(), url);
    await admin.reload();
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
    // The hospital's open session ended with the suspension, and its share link stopped.
    expect(await me()).toBeNull();
    expect(await linkOpens()).toBe(404);

    const hospitalPage = await journey.newPage({ viewport: { width: 1280, height: 900 } });
    await hospitalPage.goto(`${url}/hospital-login`);
    await logIn(hospitalPage, hospital.email, PASSWORD);
    await toast(hospitalPage, 'This account is suspended. Contact support.').waitFor();
    expect(hospitalPage.url()).toBe(`${url}/hospital-login`);

    await row.getByRole('button', { name: 'Reactivate Harbor Clinic' }).click();
    const reactivate = admin.getByRole('dialog', { name: 'Reactivate this account?' });
    // Restoring what the account shared is asked for, and not the default.
    const restore = reactivate.getByRole('checkbox', { name: /restore the share links and family access/ });
    expect(await restore.isChecked()).toBe(false);
    await restore.check();
    await reactivate.getByRole('button', { name: 'Reactivate' }).click();
    await toast(admin, 'Account Reactivated').waitFor();
    await admin.getByText('1 share link and 0 family grants restored').waitFor();
    await row.getByText('Active', { exact: true }).waitFor();
    expect(await linkOpens()).toBe(200);
    await specialist.close();

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

  it('a patient refused on the hospital login is not signed in, and New Notifications still counts the new record', async () => {
    const url = journey.app.url;
    const hospital = await journey.browser.newContext();
    await signedInHospital(hospital, url, 'Walk-in Clinic');
    const mrn = await addPatient(hospital, url, { firstName: 'Ada', lastName: 'Lovelace' });
    // The patient's first sign-in (through the API) is the last one before the new record.
    const setup = await journey.browser.newContext();
    const email = uniqueEmail('wrong-portal');
    await signedInPatient(setup, url, mrn, email);
    await setup.close();
    const thyroid = samplePdf('Thyroid panel of a walk-in clinic');
    await uploadRecord(hospital, url, {
      patientId: await patientIdOf(hospital, url, mrn),
      recordType: 'lab-results',
      title: 'Thyroid panel',
      files: { name: 'thyroid.pdf', mimeType: 'application/pdf', buffer: thyroid },
    });
    await hospital.close();

    const context = await journey.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${url}/hospital-login`);
    await logIn(page, email, PASSWORD);
    await toast(page, 'This login is for healthcare providers only.').waitFor();
    expect((await (await context.request.get(`${url}/api/auth/me`)).json()).user).toBeNull();

    await page.goto(`${url}/patient-login`);
    await logIn(page, email, PASSWORD);
    await page.waitForURL(`${url}/patient-dashboard`);
    const records = page.getByRole('region', { name: 'Recent Medical Records' });
    await records.getByText('Thyroid panel').waitFor();
    const stat = (p: Page, label: string) => p.getByTestId(`stat-${label}`).textContent();
    expect(await stat(page, 'New Notifications')).toBe('1');
    await records.getByText('Provider not verified by MedLedger').waitFor();
    await records.getByRole('button', { name: 'Open Thyroid panel' }).click();
    await page.getByRole('dialog').getByText('Provider not verified by MedLedger').waitFor();

    // Anyone checking the file at /verify is told the same, without the hospital's name.
    const visitor = await journey.newPage({ viewport: { width: 1280, height: 900 } });
    await visitor.goto(`${url}/verify`);
    await visitor
      .getByLabel('File to verify', { exact: true })
      .setInputFiles({ name: 'thyroid.pdf', mimeType: 'application/pdf', buffer: thyroid });
    const result = visitor.getByRole('status').filter({ hasText: 'Found in the ledger' });
    await result.getByText('Provider not verified by MedLedger').waitFor();
    expect(await result.textContent()).not.toContain('Walk-in Clinic');
    await visitor.context().close();
    await context.close();
  });
});
