// Browser journey of family proxy access (docs/decisions.md#family-proxy-access): the patient turns
// family sharing on and invites a relative, who registers through the link from the outbox, signs in
// on the family page and reads (views, downloads) a shared record; after the patient revokes the
// access in Manage Consent, the relative is refused.
import fs from 'node:fs';
import type { Route } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { samplePdf } from '../src/server/features/records/testing';
import { logIn, PASSWORD, signedInPatient, toast, uniqueEmail } from './auth-helpers';
import { hospitalWithPatient, uploadRecord } from './record-helpers';
import { mailedLink, startJourney } from './journey';

const journey = startJourney();
const pdfBytes = samplePdf('Family journey blood panel');

describe('family proxy access', () => {
  it('a relative invited by the patient registers, reads a record, and is refused once revoked', async () => {
    // A hospital adds the patient and uploads a record whose Family switch is on.
    const {
      context: hospital,
      url,
      mrn,
      patientId: patientRowId,
    } = await hospitalWithPatient(journey, {
      firstName: 'Maria',
      lastName: 'Lopez',
    });
    const upload = await uploadRecord(hospital, url, {
      patientId: patientRowId,
      recordType: 'lab-results',
      title: 'Blood panel',
      doctorName: 'Dr. Grey',
      department: 'cardiology',
      shareWithFamily: 'true',
      files: { name: 'blood-panel.pdf', mimeType: 'application/pdf', buffer: pdfBytes },
    });
    const recordId = upload.id;
    await hospital.close();

    // The patient, with family sharing off, adds a relative who may access the records.
    const patientContext = await journey.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const patient = await signedInPatient(patientContext, url, mrn, uniqueEmail('patient'));
    const me = (await (await patientContext.request.get(`${url}/api/auth/me`)).json()) as {
      user: { id: string };
    };
    await patientContext.request.put(`${url}/api/consent/${me.user.id}`, {
      data: { shareWithSpecialists: true, shareWithFamily: false },
    });
    const page = await patientContext.newPage();
    await page.goto(`${url}/patient-dashboard`);
    await page.getByRole('heading', { name: `Welcome back, ${patient.firstName}!` }).waitFor();
    const relativeEmail = uniqueEmail('relative');
    await page.getByRole('button', { name: 'Edit Profile' }).click();
    const modal = page.getByRole('dialog', { name: 'Edit Profile' });
    await modal.getByRole('tab', { name: /Family Contacts/ }).click();
    await modal.getByRole('button', { name: 'Add Contact' }).click();
    await modal.getByLabel('First Name').fill('Ana');
    await modal.getByLabel('Last Name').fill('Lopez');
    await modal.getByRole('combobox', { name: /^Relationship/ }).click();
    await page.getByRole('option', { name: 'Child' }).click();
    await modal.getByLabel('Email').fill(relativeEmail);
    await modal.getByLabel('Can Access Medical Records').check();
    await modal.getByRole('button', { name: 'Save Contact' }).click();
    await toast(page, 'Contact added').waitFor();
    // Family sharing is off: the invitation cannot be sent yet, and the server says why.
    const sendInvitation = modal.getByRole('button', { name: 'Send invitation to Ana Lopez' });
    await sendInvitation.click();
    await toast(page, 'Share with family').waitFor();
    await page.keyboard.press('Escape');
    await modal.waitFor({ state: 'detached' });

    // Turning family sharing on (the consent card's switch saves at once) mails the invitation.
    const consentCard = page.getByRole('region', { name: 'Consent & Sharing' });
    const familySwitch = consentCard.getByRole('switch', { name: 'Family Access' });
    await familySwitch.click({ force: true });
    await toast(page, 'Consent Updated').waitFor();
    await expect.poll(() => familySwitch.isChecked()).toBe(true);
    const link = await mailedLink(journey.app, relativeEmail, '/signup');

    // The relative follows the link: the signup is a family one, for the invited address.
    const relative = await journey.newPage({ viewport: { width: 1280, height: 900 } });
    await relative.goto(link);
    await relative.getByText('Family invitation').waitFor();
    expect(await relative.getByLabel('Email Address').inputValue()).toBe(relativeEmail);
    expect(await relative.getByRole('radiogroup', { name: 'Account Type' }).count()).toBe(0);
    await relative.getByLabel('First Name').fill('Ana');
    await relative.getByLabel('Last Name').fill('Lopez');
    await relative.getByLabel(/^Password/).fill(PASSWORD);
    await relative.getByLabel(/^Confirm Password/).fill(PASSWORD);
    await relative.getByRole('button', { name: 'Create Account' }).click();
    await relative.waitForURL(`${url}/family-login`);
    await logIn(relative, relativeEmail, PASSWORD);
    await relative.waitForURL(`${url}/family-dashboard`);

    // The Family dashboard: the patient, the shared record, verified, downloadable.
    await relative.getByRole('tab', { name: 'Maria Lopez' }).waitFor();
    const records = relative.getByRole('region', { name: 'Records of Maria Lopez' });
    await records.getByRole('button', { name: 'Open Blood panel' }).click();
    const dialog = relative.getByRole('dialog', { name: 'Blood panel' });
    await dialog.getByText('Blockchain Verified').waitFor();
    await dialog.getByText('blood-panel.pdf').waitFor();
    expect(await dialog.getByRole('button', { name: 'Update Consent' }).count()).toBe(0);
    const [download] = await Promise.all([
      relative.waitForEvent('download'),
      dialog.getByRole('button', { name: 'Download blood-panel.pdf' }).click(),
    ]);
    expect(fs.readFileSync(await download.path()).equals(pdfBytes)).toBe(true);
    await relative.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });

    // Records and appointments that cannot be loaded say so (not "No upcoming appointments", nor that
    // the access may have ended), and load on Try again.
    const proxyAppointments = /\/api\/proxy\/patients\/[^/]+\/appointments/;
    const proxyRecords = /\/api\/proxy\/patients\/[^/]+\/records/;
    const unavailable = (route: Route) =>
      route.fulfill({
        status: 503,
        contentType: 'application/json',
        body: '{"message":"Service unavailable"}',
      });
    await relative.route(proxyAppointments, unavailable);
    await relative.route(proxyRecords, unavailable);
    await relative.reload();
    const recordsFailed = records
      .getByRole('alert')
      .filter({ hasText: 'Medical records could not be loaded' });
    await recordsFailed.getByText('Check your connection and try again.').waitFor();
    expect(await records.getByText('the access may have ended', { exact: false }).count()).toBe(0);
    await relative.unroute(proxyRecords);
    await recordsFailed.getByRole('button', { name: 'Try again' }).click();
    await records.getByRole('button', { name: 'Open Blood panel' }).waitFor();
    expect(await recordsFailed.count()).toBe(0);
    const appointments = relative.getByRole('region', { name: 'Appointments of Maria Lopez' });
    const appointmentsFailed = appointments
      .getByRole('alert')
      .filter({ hasText: 'Appointments could not be loaded' });
    await appointmentsFailed.getByText('Check your connection and try again.').waitFor();
    expect(await appointments.getByText('No upcoming appointments.').count()).toBe(0);
    await relative.unroute(proxyAppointments);
    await appointmentsFailed.getByRole('button', { name: 'Try again' }).click();
    await appointments.getByText('No upcoming appointments.').waitFor();
    expect(await appointmentsFailed.count()).toBe(0);

    // The patient sees who holds access in Manage Consent, and revokes it.
    await page.reload();
    await consentCard.getByRole('button', { name: 'Manage Consent' }).click();
    const consentModal = page.getByRole('dialog', { name: 'Manage Consent' });
    await consentModal.getByText(relativeEmail, { exact: false }).waitFor();
    await consentModal.getByRole('button', { name: 'Revoke access of Ana Lopez' }).click();
    await toast(page, 'Access Revoked').waitFor();
    await consentModal.getByText('Nobody in your family can see your records.').waitFor();

    // The relative is refused at once: the dashboard is empty and the record is not found.
    await relative.reload();
    await relative.getByText('Nobody shares their records with you at the moment.').waitFor();
    const refused = await relative.context().request.get(`${url}/api/medical-records/record/${recordId}`);
    expect(refused.status()).toBe(404);
  });
});
