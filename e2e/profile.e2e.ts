// Browser journeys of a patient's profile page: the calendar subscription (the URL is shown once,
// a calendar app reads the appointments from it, renewing and revoking are asked first and end the
// old URL), and the settings sections that cannot be loaded (they say so and load on Try again).
import ICAL from 'ical.js';
import type { Locator } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { signedInPatient, toast, uniqueEmail } from './auth-helpers';
import { startJourney } from './journey';
import { bookAppointment, hospitalWithPatient } from './record-helpers';

const journey = startJourney();

/** A patient signed in (a new context) with one appointment booked by their hospital in 3 days. */
async function patientWithAppointment() {
  const {
    context: hospital,
    url,
    mrn,
    patientId,
  } = await hospitalWithPatient(journey, {
    firstName: 'Ada',
    lastName: 'Lovelace',
  });
  const appointmentDate = await bookAppointment(hospital, url, {
    patientId,
    doctorName: 'Dr. Grace Hopper',
    department: 'cardiology',
  });
  await hospital.close();
  const context = await journey.browser.newContext({ viewport: { width: 1280, height: 900 } });
  await signedInPatient(context, url, mrn, uniqueEmail('profile-patient'));
  return { context, url, appointmentDate };
}

/** What a calendar app gets from a subscription URL, with no session: status and the events. */
async function readFeed(feedUrl: string) {
  const res = await fetch(feedUrl);
  if (!res.ok) return { status: res.status, events: [] };
  const calendar = new ICAL.Component(ICAL.parse(await res.text()));
  const events = calendar.getAllSubcomponents('vevent').map((e) => new ICAL.Event(e));
  return { status: res.status, events };
}

describe("a patient's profile", () => {
  it('subscribes a calendar app to the appointments, renews and revokes the URL after asking', async () => {
    const { context, url, appointmentDate } = await patientWithAppointment();
    const page = await context.newPage();
    await page.goto(`${url}/profile/edit`);
    const section = page.getByRole('region', { name: 'Calendar subscription' });
    await section.getByRole('button', { name: 'Subscribe' }).click();
    const field = section.getByLabel('Subscription URL (shown once)');
    await field.waitFor();
    const first = await field.inputValue();
    const feed = await readFeed(first);
    expect(feed.status).toBe(200);
    expect(feed.events.map((e) => e.startDate.toJSDate().getTime())).toEqual([appointmentDate.getTime()]);
    expect(feed.events[0].summary).toBe('Appointment with Dr. Grace Hopper');

    // Renewing ends the URL the calendar app follows: asked first, and Keep changes nothing.
    await section.getByRole('button', { name: 'Renew URL' }).click();
    const renewDialog = page.getByRole('dialog', { name: 'Renew calendar URL' });
    await renewDialog.getByText('will stop receiving your appointments', { exact: false }).waitFor();
    await renewDialog.getByRole('button', { name: 'Keep current URL' }).click();
    await renewDialog.waitFor({ state: 'detached' });
    expect((await readFeed(first)).status).toBe(200);
    await section.getByRole('button', { name: 'Renew URL' }).click();
    await renewDialog.getByRole('button', { name: 'Renew URL' }).click();
    await expect.poll(() => field.inputValue()).not.toBe(first);
    const second = await field.inputValue();
    expect((await readFeed(first)).status).toBe(404);
    expect((await readFeed(second)).events).toHaveLength(1);

    // Once the page is left the URL is not shown again: only that a subscription exists.
    await page.reload();
    await section.getByText(/^Active since /).waitFor();
    expect(await field.count()).toBe(0);

    await section.getByRole('button', { name: 'Revoke' }).click();
    const revokeDialog = page.getByRole('dialog', { name: 'Revoke calendar URL' });
    await revokeDialog.getByRole('button', { name: 'Revoke URL' }).click();
    await toast(page, 'Calendar subscription').waitFor();
    await section.getByRole('button', { name: 'Subscribe' }).waitFor();
    expect((await readFeed(second)).status).toBe(404);
    await context.close();
  });

  it('says which settings could not be loaded, and loads them on Try again', async () => {
    const { context, url } = await patientWithAppointment();
    const page = await context.newPage();
    const settings = [
      '/api/calendar/feed',
      '/api/auth/2fa',
      '/api/auth/sessions',
      '/api/notifications/preferences',
    ];
    const failing = (request: URL) => settings.includes(request.pathname);
    await page.route(failing, (route) =>
      route.fulfill({
        status: 503,
        contentType: 'application/json',
        body: '{"message":"Service unavailable"}',
      }),
    );
    await page.goto(`${url}/profile/edit`);
    const sections: { region: string; what: string; loaded: (section: Locator) => Locator }[] = [
      {
        region: 'Calendar subscription',
        what: 'Your calendar subscription',
        loaded: (section) => section.getByRole('button', { name: 'Subscribe' }),
      },
      {
        region: 'Two-factor sign-in',
        what: 'Your two-factor settings',
        loaded: (section) => section.getByRole('button', { name: 'Set up two-factor sign-in' }),
      },
      { region: 'Sessions', what: 'Your sessions', loaded: (section) => section.getByRole('listitem') },
      {
        region: 'E-mail notifications',
        what: 'Your notification settings',
        loaded: (section) => section.getByRole('switch').first(),
      },
    ];
    for (const { region, what } of sections) {
      const failed = page.getByRole('region', { name: region }).getByRole('alert');
      await failed.filter({ hasText: `${what} could not be loaded` }).waitFor();
      await failed.getByText('Check your connection and try again.').waitFor();
    }
    await page.unroute(failing);
    for (const { region, loaded } of sections) {
      const section = page.getByRole('region', { name: region });
      await section.getByRole('button', { name: 'Try again' }).click();
      await loaded(section).waitFor();
      expect(await section.getByRole('alert').count()).toBe(0);
    }
    await context.close();
  });
});
