// Browser journey of the Appointments tab: a hospital adds a patient (API), schedules an
// appointment in the dialog, sees the calendar marker and the card, finds the slot "Booked" for
// the same doctor when scheduling again, changes the status, and cancels through the
// confirmation (ledgered). The patient sees the upcoming appointment on their dashboard. The
// hospital's time zone is one where it is early morning now (not the browser's), so today's slots
// are all ahead and the screens must place times in the hospital's zone, not the browser's.
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { formatInstant } from '../src/shared/time';
import {
  addPatient,
  signedInHospital,
  signedInPatient,
  toast,
  uniqueEmail,
  zoneAtHour,
} from './auth-helpers';
import { startJourney } from './journey';

const journey = startJourney();

const nav = (page: Page, tab: string) =>
  page.getByRole('navigation', { name: 'Hospital dashboard' }).getByRole('button', { name: tab });

async function pick(page: Page, label: string, option: string | RegExp) {
  await page.getByRole('dialog').getByRole('combobox', { name: label }).click();
  await page.getByRole('option', { name: option }).click();
}

describe('appointments', () => {
  it('schedules, refuses the same doctor’s booked slot, changes status and cancels on chain; the patient sees it', async () => {
    const hospital: BrowserContext = await journey.browser.newContext({
      viewport: { width: 1400, height: 1000 },
      timezoneId: 'UTC',
    });
    const zone = zoneAtHour(1, 7);
    await signedInHospital(hospital, journey.app.url, 'Riverside Clinic', zone);
    const email = uniqueEmail('appointment-patient');
    // Through the helper, which keeps the patient's activation code for signedInPatient below.
    const mrn = await addPatient(hospital, journey.app.url, {
      firstName: 'Ada',
      lastName: 'Lovelace',
      email,
    });

    const page = await hospital.newPage();
    await page.goto(`${journey.app.url}/hospital-dashboard`);
    await nav(page, 'Appointments').click();
    await page.getByRole('heading', { name: 'Appointment Management' }).waitFor();
    await page.getByRole('heading', { name: "Today's Schedule" }).waitFor();
    expect(await page.getByRole('columnheader').allTextContents()).toEqual([
      'Sun',
      'Mon',
      'Tue',
      'Wed',
      'Thu',
      'Fri',
      'Sat',
    ]);

    // Missing fields are refused in the dialog.
    await page.getByRole('button', { name: 'New Appointment' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Schedule Appointment' }).click();
    await toast(page, 'Please fill in all required fields').waitFor();

    // Schedule today at 10:00 hospital time (the dialog starts on the selected day, today); the
    // grid says which zone its times are in, since the browser's differs.
    await dialog.getByText(`(times in ${zone})`).waitFor();
    await dialog.getByRole('combobox', { name: 'Patient' }).fill('Ada');
    await page.getByRole('option', { name: `Ada Lovelace (${mrn})` }).click();
    await pick(page, 'Appointment Type', 'Consultation');
    await dialog.getByLabel('Doctor Name').fill('Dr. House');
    await pick(page, 'Department', 'Cardiology');
    await dialog.getByLabel('Location').fill('Room 12');
    await dialog.getByTestId('slot-10:00').getByRole('button').click();
    await dialog.getByRole('button', { name: 'Schedule Appointment' }).click();
    await toast(page, 'Appointment Created').waitFor();
    await dialog.waitFor({ state: 'detached' });

    // The marker (time and patient) and the card.
    const marker = page.getByTestId('calendar-marker').filter({ hasText: 'Ada Lovelace' });
    await marker.waitFor();
    expect(await marker.textContent()).toMatch(/10:00/);
    const card = page.getByTestId('appointment-card').filter({ hasText: 'Dr. House' });
    await card.getByText('Scheduled', { exact: true }).waitFor();
    await card.getByText('Room 12').waitFor();
    expect(await page.getByTestId('stat-Today').textContent()).toContain('1');

    // Scheduling again: the same doctor (any case) has 09:30–10:30 booked, 11:00 free.
    await page.getByRole('button', { name: 'New Appointment' }).click();
    await dialog.getByLabel('Doctor Name').fill('dr. house ');
    const booked = dialog.getByTestId('slot-10:30');
    await booked.getByRole('button', { name: '10:30 AM Booked' }).waitFor();
    expect(await booked.getByRole('button').isDisabled()).toBe(true);
    expect(await dialog.getByTestId('slot-09:30').getByRole('button').isDisabled()).toBe(true);
    expect(await dialog.getByTestId('slot-11:00').getByRole('button').isDisabled()).toBe(false);
    await booked.hover();
    await page.getByRole('tooltip', { name: 'Conflict with: Dr. House' }).waitFor();
    // Another doctor, no patient chosen: free.
    await dialog.getByLabel('Doctor Name').fill('Dr. Wilson');
    expect(await booked.getByRole('button').isDisabled()).toBe(false);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });

    // Status change.
    await card.getByRole('combobox', { name: 'Appointment status' }).click();
    await page.getByRole('option', { name: 'Confirmed' }).click();
    await toast(page, 'Status Updated').waitFor();
    await card.getByText('Confirmed', { exact: true }).waitFor();

    // The search and status filter narrow the schedule.
    await page.getByRole('textbox', { name: 'Search appointments' }).fill('neurology');
    await card.waitFor({ state: 'detached' });
    await page.getByRole('textbox', { name: 'Search appointments' }).fill('cardio');
    await card.waitFor();

    // The patient sees it on their dashboard.
    const patientContext = await journey.browser.newContext({ timezoneId: 'Asia/Tokyo' });
    await signedInPatient(patientContext, journey.app.url, mrn, email);
    const patientPage = await patientContext.newPage();
    await patientPage.goto(`${journey.app.url}/patient-dashboard`);
    const upcoming = patientPage.getByTestId('upcoming-appointment').filter({ hasText: 'Dr. House' });
    await upcoming.getByText('Consultation').waitFor();
    await upcoming.getByText(/Room 12/).waitFor();
    // In the patient's own zone, both zones named.
    const {
      items: [booked10],
    } = (await (await patientContext.request.get(`${journey.app.url}/api/appointments/patient`)).json()) as {
      items: { appointmentDate: string }[];
    };
    await upcoming
      .getByText(`${formatInstant(booked10.appointmentDate, zone)} at the hospital (${zone})`)
      .waitFor();
    await upcoming.getByText(/\(Asia\/Tokyo\)/).waitFor();
    expect(await patientPage.getByTestId('stat-Upcoming Appointments').textContent()).toContain('1');
    await upcoming.getByRole('button', { name: 'Reschedule' }).click();
    await toast(patientPage, 'contact your healthcare provider').waitFor();

    // Cancel through the confirmation: kept as cancelled, off the calendar, ledgered.
    await card.getByRole('button', { name: 'Cancel appointment' }).click();
    const confirm = page.getByRole('dialog');
    await confirm.getByText('Dr. House').waitFor();
    await confirm.getByText(/recorded on chain for audit/).waitFor();
    await confirm.getByRole('button', { name: 'Keep Appointment' }).waitFor();
    await confirm.getByRole('button', { name: 'Cancel Appointment' }).click();
    await toast(page, 'Appointment Cancelled').waitFor();
    await marker.waitFor({ state: 'detached' });
    await card.getByText('Cancelled', { exact: true }).waitFor();
    expect(await page.getByTestId('stat-Today').textContent()).toContain('0');

    const res = await patientContext.request.get(`${journey.app.url}/api/appointments/patient`);
    const {
      items: [cancelled],
    } = (await res.json()) as { items: { status: string; blockchainHash: string | null }[] };
    expect(cancelled?.status).toBe('cancelled');
    expect(cancelled?.blockchainHash).toMatch(/^[0-9a-f]{64}$/);
    await patientPage.reload();
    await patientPage.getByText('No upcoming appointments.', { exact: false }).waitFor();

    // Where it is evening now, today's slots have all begun: each is disabled and marked "Past".
    const evening = zoneAtHour(18, 23);
    const saved = await hospital.request.put(`${journey.app.url}/api/hospital/settings`, {
      data: { hospitalName: 'Riverside Clinic', adminEmail: uniqueEmail('admin'), timeZone: evening },
    });
    expect(saved.ok()).toBe(true);
    await page.reload();
    await nav(page, 'Appointments').click();
    await page.getByRole('button', { name: 'New Appointment' }).click();
    await dialog.getByText(`(times in ${evening})`).waitFor();
    // The slot's value stays 24-hour (its test id); its label reads like the cards, 12-hour.
    for (const [slot, label] of [
      ['09:00', '9:00 AM'],
      ['17:30', '5:30 PM'],
    ] as const) {
      const button = dialog.getByTestId(`slot-${slot}`).getByRole('button');
      await button.getByText(`${label} Past`).waitFor();
      expect(await button.isDisabled()).toBe(true);
    }

    await patientContext.close();
    await hospital.close();
  });
});
