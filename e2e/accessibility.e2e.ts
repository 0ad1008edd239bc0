// Every main screen, as a visitor, a hospital, a patient, a relative and an administrator, on a
// desktop and on a 320 px phone, with lists holding long names: axe-core finds no serious or
// critical WCAG 2.1 A/AA violation, nothing makes the page scroll sideways, no button, tab or label
// is cut off, and a screenshot of each is saved under test-results/screenshots/ for a reviewer to
// look through after every change. And what axe cannot see: where the focus goes when a dialog
// closes (also over another dialog), and what screen readers are given to name and announce.
import fs from 'node:fs';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { samplePdf } from '../src/server/features/records/testing';
import {
  addPatient,
  enableTwoFactor,
  PASSWORD,
  signedInHospital,
  signedInPatient,
  toast,
  uniqueEmail,
} from './auth-helpers';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from './harness';
import { mailedLink, startJourney } from './journey';
import { bookAppointment, patientIdOf, uploadRecord } from './record-helpers';

const journey = startJourney();

const SCREENSHOTS = path.resolve('test-results/screenshots');

// The phone is 320 px wide, the width WCAG 2.1's Reflow (1.4.10) asks content to fit without
// scrolling sideways (a small phone, or a 1280 px window at 400 % zoom). Mantine's smallest
// breakpoint is 576 px, so a 390 px phone gets the same layout with more room.
const VIEWPORTS = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 320, height: 700 },
];

/** Serious and critical violations on the page as it is now, one line each. */
async function seriousViolations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/** What scrolls sideways: the page itself, or a box inside it (a table hiding its Actions). */
const sidewaysScrolling = (page: Page) =>
  page.evaluate(() => {
    const found: string[] = [];
    const root = document.documentElement;
    if (root.scrollWidth > root.clientWidth)
      found.push(`the page by ${root.scrollWidth - root.clientWidth} px`);
    for (const element of Array.from(document.body.querySelectorAll<HTMLElement>('*'))) {
      const { overflowX } = getComputedStyle(element);
      if ((overflowX === 'auto' || overflowX === 'scroll') && element.scrollWidth > element.clientWidth + 1) {
        const label = element.getAttribute('aria-label') ?? element.className.toString().slice(0, 40);
        found.push(
          `<${element.tagName.toLowerCase()} ${label}> by ${element.scrollWidth - element.clientWidth} px`,
        );
      }
    }
    return found;
  });

/**
 * Controls and labels that are cut off: their box by an ancestor that hides overflow (or by the
 * window), or their own text inside them (a button's label that hides overflow). Text ended with an
 * ellipsis on purpose is not counted, nor a field's value, nor Mantine parts that hide overflow by
 * design (text kept for screen readers only; a switch's track, whose thumb's shadow overflows it).
 */
const cutOffControls = (page: Page) =>
  page.evaluate(() => {
    const found = new Set<string>();
    const name = (element: Element) =>
      `<${element.tagName.toLowerCase()} ${(element.getAttribute('aria-label') ?? element.textContent ?? '').trim().slice(0, 60)}>`;
    const hidesOverflow = (style: CSSStyleDeclaration) =>
      style.overflowX === 'hidden' || style.overflowX === 'clip';
    const controls = document.body.querySelectorAll<HTMLElement>(
      'button, a, input, select, textarea, label, h1, h2, h3, h4, [role=tab], [role=switch], .mantine-Badge-root',
    );
    for (const control of Array.from(controls)) {
      const box = control.getBoundingClientRect();
      // Not shown, or wholly outside the window (a closed drawer's links).
      if (box.width === 0 || box.height === 0 || getComputedStyle(control).visibility === 'hidden') continue;
      if (box.right <= 0 || box.left >= window.innerWidth) continue;
      // The boxes that clip it: ancestors that hide overflow, up to the first that scrolls (which the
      // reader can scroll to it; sidewaysScrolling reports that box), else up to the window.
      let [left, right] = [-Infinity, Infinity];
      let inScrollingBox = false;
      for (let parent = control.parentElement; parent && !inScrollingBox; parent = parent.parentElement) {
        const style = getComputedStyle(parent);
        inScrollingBox = style.overflowX === 'auto' || style.overflowX === 'scroll';
        if (hidesOverflow(style)) {
          const parentBox = parent.getBoundingClientRect();
          [left, right] = [Math.max(left, parentBox.left), Math.min(right, parentBox.right)];
        }
      }
      if (!inScrollingBox) [left, right] = [Math.max(left, 0), Math.min(right, window.innerWidth)];
      if (box.left < left - 1 || box.right > right + 1)
        found.add(`${name(control)} is cut off by its container`);
      // A field's value scrolls inside it by design (a long address, a feed URL to copy).
      if (control.matches('input, select, textarea')) continue;
      for (const part of [control, ...Array.from(control.querySelectorAll<HTMLElement>('*'))]) {
        const style = getComputedStyle(part);
        if (/VisuallyHidden|Switch-track/.test(part.className.toString())) continue;
        if (style.textOverflow === 'ellipsis' || !hidesOverflow(style)) continue;
        if (part.scrollWidth > part.clientWidth + 1) {
          found.add(`${name(control)}: ${part.scrollWidth - part.clientWidth} px of its text are cut off`);
          break;
        }
      }
    }
    return [...found];
  });

const screenshotName = (role: string, pagePath: string, viewport: string) =>
  `${role}${pagePath.replace(/[^a-z0-9]+/gi, '-').replace(/-$/, '')}-${viewport}.png`;

interface Screen {
  path: string;
  /** Text the screen shows once loaded. */
  ready: string;
  /** Opens a dialog on it, say; the screenshot is named after `name`. */
  then?: (page: Page) => Promise<void>;
  name?: string;
}

/** A `then` that clicks the button of this name and waits for the dialog it opens. */
const dialogFrom =
  (button: string, dialog: string = button) =>
  async (page: Page) => {
    await page.getByRole('button', { name: button, exact: true }).first().click();
    await page.getByRole('dialog', { name: dialog }).waitFor();
    await page.waitForLoadState('networkidle');
  };

/**
 * Opens each screen (waiting for `ready` text) at both widths; collects what axe finds, any
 * sideways overflow and cut-off control, and saves a screenshot.
 */
async function check(role: string, context: BrowserContext, screens: Screen[]): Promise<string[]> {
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  const found: string[] = [];
  for (const viewport of VIEWPORTS) {
    const page = await context.newPage();
    await page.setViewportSize({ width: viewport.width, height: viewport.height });
    for (const { path: pagePath, ready, then, name = pagePath } of screens) {
      await page.goto(`${journey.app.url}${pagePath}`);
      await page.getByText(ready, { exact: false }).first().waitFor();
      await then?.(page);
      // A dialog fades in (a CSS transition): colours read mid-way are paler than the real ones, and
      // axe then finds a button's label of too little contrast that the finished dialog does not have.
      await page.waitForFunction(() => !document.getAnimations().some((a) => a instanceof CSSTransition));
      const where = `${viewport.name} ${name}`;
      for (const line of await seriousViolations(page)) found.push(`${where}: ${line}`);
      for (const what of await sidewaysScrolling(page)) found.push(`${where}: scrolls sideways: ${what}`);
      for (const what of await cutOffControls(page)) found.push(`${where}: ${what}`);
      await page.screenshot({
        path: path.join(SCREENSHOTS, screenshotName(role, name, viewport.name)),
        fullPage: true,
      });
    }
    await page.close();
  }
  return found;
}

// Names as long as real ones get, so that a list row that cannot fit them on a phone shows.
const LONG_NAME = { firstName: 'Maximiliana', lastName: 'Lovelace-Featherstonehaugh' };
const PATIENT_NAME = `${LONG_NAME.firstName} ${LONG_NAME.lastName}`;
const LONG_TITLE = 'Comprehensive metabolic panel with lipid profile follow-up';
const LONG_FILE_NAME = 'comprehensive-metabolic-panel-2026-11-20-signed.pdf';

/**
 * A new hospital (signed in, its context) with a patient of a long name, two records shared with
 * family (one of a long title and file name), an appointment in three days and one on the 1st of
 * next month; the patient's MRN.
 */
async function hospitalWithRecords() {
  const url = journey.app.url;
  const hospital = await journey.browser.newContext();
  await signedInHospital(hospital, url);
  const mrn = await addPatient(hospital, url, LONG_NAME);
  const patientId = await patientIdOf(hospital, url, mrn);
  const doctorName = 'Dr. Bartholomew Grey-Richardson';
  for (const [title, fileName] of [
    ['Blood panel', 'blood-panel.pdf'],
    [LONG_TITLE, LONG_FILE_NAME],
  ]) {
    await uploadRecord(hospital, url, {
      patientId,
      recordType: 'lab-results',
      title,
      doctorName,
      department: 'cardiology',
      // Shared both ways: Share with a Specialist is offered only for a record shared with specialists.
      shareWithSpecialists: 'true',
      shareWithFamily: 'true',
      files: { name: fileName, mimeType: 'application/pdf', buffer: samplePdf(title) },
    });
  }
  const appointment = { patientId, doctorName, department: 'cardiology' };
  await bookAppointment(hospital, url, appointment);
  // And one on the 1st of next month, in the calendar's last row unless this month ends on a
  // Saturday: a day of another month, shown set apart, whose marker must keep its contrast.
  const now = new Date();
  await bookAppointment(
    hospital,
    url,
    appointment,
    new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1, 14)),
  );
  return { hospital, mrn };
}

/**
 * The patient of `hospitalWithRecords`, signed in (its context), with family sharing on and a
 * relative of a long name who may access the records (invited by e-mail, not yet registered).
 */
async function patientWithRelative() {
  const url = journey.app.url;
  const { hospital, mrn } = await hospitalWithRecords();
  const patient = await journey.browser.newContext();
  await signedInPatient(patient, url, mrn, uniqueEmail('a11y-patient'));
  const me = (await (await patient.request.get(`${url}/api/auth/me`)).json()) as { user: { id: string } };
  await patient.request.put(`${url}/api/consent/${me.user.id}`, {
    data: { shareWithSpecialists: true, shareWithFamily: true },
  });
  const relativeEmail = uniqueEmail('a11y-relative');
  const contact = await patient.request.post(`${url}/api/family-contacts`, {
    data: { ...LONG_NAME, relationship: 'child', email: relativeEmail, canAccessRecords: true },
  });
  expect(contact.status()).toBe(201);
  return { hospital, patient, relativeEmail };
}

/** On the patient dashboard: opens the record of the long title. */
async function openRecord(page: Page) {
  await page.getByRole('button', { name: `Open ${LONG_TITLE}` }).click();
  await page.getByRole('dialog', { name: LONG_TITLE }).getByText(LONG_FILE_NAME).waitFor();
}

describe('accessibility (axe-core)', () => {
  it('finds nothing serious on the public pages', async () => {
    const context = await journey.browser.newContext();
    const found = await check('visitor', context, [
      { path: '/', ready: 'Healthcare Provider Login' },
      { path: '/hospital-login', ready: 'Remember me' },
      { path: '/patient-login', ready: 'Remember me' },
      { path: '/medledger-login', ready: 'Remember me' },
      { path: '/family-login', ready: 'Remember me' },
      { path: '/shared/no-such-link', ready: 'Link not available' },
      { path: '/signup', ready: 'Create' },
      { path: '/provider-apply', ready: 'Join MedLedger as a Healthcare Provider' },
      { path: '/verify', ready: 'Drop a file here' },
      { path: '/no-such-page', ready: '404' },
      {
        path: '/hospital-login',
        ready: 'Remember me',
        name: '/forgot-password',
        then: dialogFrom('Forgot password?', 'Reset your password'),
      },
    ]);
    expect(found).toEqual([]);
    await context.close();
  });

  it('finds nothing serious on every tab of the hospital dashboard', async () => {
    const { hospital: context } = await hospitalWithRecords();
    const found = await check('hospital', context, [
      { path: '/hospital-dashboard', ready: 'Lovelace' },
      { path: '/hospital-dashboard?tab=upload', ready: 'Upload' },
      { path: '/hospital-dashboard?tab=appointments', ready: 'Appointments' },
      { path: '/hospital-dashboard?tab=audit', ready: 'Audit' },
      { path: '/hospital-dashboard?tab=settings', ready: 'Settings' },
      { path: '/profile/edit', ready: 'Profile' },
    ]);
    expect(found).toEqual([]);
    await context.close();
  });

  it("finds nothing serious in the hospital's dialogs: a patient's file, a record, new patient and appointment", async () => {
    const { hospital: context } = await hospitalWithRecords();
    const patientFile = async (page: Page) => {
      await page.getByRole('button', { name: `Open patient file of ${PATIENT_NAME}` }).click();
      await page.getByRole('dialog', { name: PATIENT_NAME }).getByText(LONG_TITLE).waitFor();
    };
    const patients = { path: '/hospital-dashboard?tab=patients', ready: 'Lovelace' };
    const found = await check('hospital', context, [
      { ...patients, name: '/patient-file', then: patientFile },
      {
        ...patients,
        name: '/record',
        then: async (page) => {
          await patientFile(page);
          await page
            .getByRole('dialog', { name: PATIENT_NAME })
            .getByRole('button', { name: `View ${LONG_TITLE}` })
            .click();
          await page.getByRole('dialog', { name: LONG_TITLE }).getByText(LONG_FILE_NAME).waitFor();
        },
      },
      { ...patients, name: '/add-patient', then: dialogFrom('Add Patient') },
      {
        path: '/hospital-dashboard?tab=appointments',
        ready: 'Appointments',
        name: '/new-appointment',
        then: dialogFrom('New Appointment', 'Schedule New Appointment'),
      },
    ]);
    expect(found).toEqual([]);
    await context.close();
  });

  it('finds nothing serious on the patient dashboard, a record and the profile page', async () => {
    const { hospital, patient: context } = await patientWithRelative();
    const found = await check('patient', context, [
      { path: '/patient-dashboard', ready: LONG_TITLE },
      { path: '/patient-dashboard', ready: LONG_TITLE, name: '/record', then: openRecord },
      { path: '/profile/edit', ready: 'Profile' },
    ]);
    expect(found).toEqual([]);
    await Promise.all([context.close(), hospital.close()]);
  });

  it("finds nothing serious in the patient's dialogs and on the family dashboard", async () => {
    const url = journey.app.url;
    const { hospital, patient: context, relativeEmail } = await patientWithRelative();
    const dashboard = { path: '/patient-dashboard', ready: LONG_TITLE };
    const found = await check('patient', context, [
      { ...dashboard, name: '/edit-profile', then: dialogFrom('Edit Profile') },
      {
        ...dashboard,
        name: '/family-contacts',
        then: async (page) => {
          await dialogFrom('Edit Profile')(page);
          const dialog = page.getByRole('dialog', { name: 'Edit Profile' });
          await dialog.getByRole('tab', { name: /Family Contacts/ }).click();
          await dialog.getByText(LONG_NAME.lastName).first().waitFor();
          // With the delete confirmation open in the card.
          await dialog
            .getByRole('button', { name: /^Delete / })
            .first()
            .click();
          await dialog.getByRole('button', { name: 'Keep contact' }).waitFor();
        },
      },
      { ...dashboard, name: '/consent', then: dialogFrom('Manage Consent') },
      {
        ...dashboard,
        name: '/share',
        then: async (page) => {
          await openRecord(page);
          await dialogFrom('Share with a Specialist')(page);
        },
      },
    ]);

    // The relative registers through the mailed invitation and signs in.
    const relative = await journey.browser.newContext();
    const link = new URL(await mailedLink(journey.app, relativeEmail, '/signup'));
    const registered = await relative.request.post(`${url}/api/auth/register`, {
      data: {
        ...LONG_NAME,
        email: relativeEmail,
        password: PASSWORD,
        role: 'family',
        inviteToken: link.searchParams.get('invite'),
      },
    });
    expect(registered.status()).toBe(201);
    await relative.request.post(`${url}/api/auth/login`, {
      data: { email: relativeEmail, password: PASSWORD },
    });
    found.push(...(await check('family', relative, [{ path: '/family-dashboard', ready: LONG_TITLE }])));
    expect(found).toEqual([]);
    await Promise.all([context.close(), hospital.close(), relative.close()]);
  });

  it('finds nothing serious on the administrator pages', async () => {
    const context = await journey.browser.newContext();
    const res = await context.request.post(`${journey.app.url}/api/auth/login`, {
      data: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD },
    });
    expect(res.ok()).toBe(true);
    // With two-factor on, so that the page checked is the applications list, not only its set-up.
    await enableTwoFactor(context, journey.app.url);
    const found = await check('admin', context, [{ path: '/medledger/applications', ready: 'Applications' }]);
    expect(found).toEqual([]);
    await context.close();
  });
});

// Asked again and again by expect.poll: each time, an element not (or no longer) there fails at once.
const ASK = { timeout: 1_000 };

/** Whether `element` has the focus. */
const hasFocus = (element: Locator) =>
  element.evaluate((el) => el === document.activeElement, undefined, ASK);

/** Whether the focus is inside `container` (a dialog). */
const holdsFocus = (container: Locator) =>
  container.evaluate((el) => el.contains(document.activeElement), undefined, ASK);

/** Presses Tab until `target` has the focus, as a keyboard user gets to it. */
async function tabTo(page: Page, target: Locator) {
  for (let presses = 0; presses < 60; presses++) {
    if (await hasFocus(target)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error('60 presses of Tab did not reach the control');
}

/** Presses Enter on `button` (focused first) and waits for the dialog it opens to take the focus. */
async function openWithKeyboard(page: Page, button: Locator, dialog: Locator) {
  await button.focus();
  await page.keyboard.press('Enter');
  await expect.poll(() => dialog.count()).toBe(1);
  await expect.poll(() => holdsFocus(dialog)).toBe(true);
}

describe('keyboard and screen readers', () => {
  it('gives the focus back to the button that opened a dialog when Esc closes it, also the first time', async () => {
    const { hospital: context } = await hospitalWithRecords();
    const page = await context.newPage();
    await page.goto(`${journey.app.url}/hospital-dashboard`);
    const main = page.getByRole('main');
    await main.getByText(LONG_NAME.lastName).first().waitFor();

    // Add Patient, reached with Tab and pressed with Enter; its dialog's code loads on this first use.
    const addButton = main.getByRole('button', { name: 'Add Patient' });
    await tabTo(page, addButton);
    await page.keyboard.press('Enter');
    const addDialog = page.getByRole('dialog', { name: 'Add Patient' });
    await expect.poll(() => holdsFocus(addDialog)).toBe(true);
    await page.keyboard.press('Escape');
    await addDialog.waitFor({ state: 'detached' });
    await expect.poll(() => hasFocus(addButton)).toBe(true);

    // The patient's file, then one of its records over it (each opened for the first time): Esc
    // closes the record only, the focus goes back to its View button, and then to the file's button.
    const fileButton = main.getByRole('button', { name: `Open patient file of ${PATIENT_NAME}` });
    const file = page.getByRole('dialog', { name: PATIENT_NAME });
    await openWithKeyboard(page, fileButton, file);
    const viewButton = file.getByRole('button', { name: `View ${LONG_TITLE}` });
    const record = page.getByRole('dialog', { name: LONG_TITLE });
    await openWithKeyboard(page, viewButton, record);
    await page.keyboard.press('Escape');
    await record.waitFor({ state: 'detached' });
    await expect.poll(() => hasFocus(viewButton)).toBe(true);
    expect(await file.isVisible()).toBe(true);
    await page.keyboard.press('Escape');
    await file.waitFor({ state: 'detached' });
    await expect.poll(() => hasFocus(fileButton)).toBe(true);
    await context.close();
  });

  it('closes only the top dialog on Esc: Share with a Specialist over a record, then the record', async () => {
    const { hospital, patient: context } = await patientWithRelative();
    const page = await context.newPage();
    await page.goto(`${journey.app.url}/patient-dashboard`);
    const openButton = page.getByRole('button', { name: `Open ${LONG_TITLE}` });
    const record = page.getByRole('dialog', { name: LONG_TITLE });
    await openWithKeyboard(page, openButton, record);
    await record.getByText(LONG_FILE_NAME).waitFor();
    const shareButton = record.getByRole('button', { name: 'Share with a Specialist' });
    const share = page.getByRole('dialog', { name: 'Share with a Specialist' });
    await openWithKeyboard(page, shareButton, share);

    // One Esc: the share form closes, the record stays open, with the focus back on Share.
    await page.keyboard.press('Escape');
    await share.waitFor({ state: 'detached' });
    await expect.poll(() => hasFocus(shareButton)).toBe(true);
    // Still so once any closing transition would have ended.
    await page.waitForFunction(() => !document.getAnimations().some((a) => a instanceof CSSTransition));
    expect(await record.isVisible()).toBe(true);
    expect(await holdsFocus(record)).toBe(true);

    // The next Esc closes the record, and the focus goes back to the list's button.
    await page.keyboard.press('Escape');
    await record.waitFor({ state: 'detached' });
    await expect.poll(() => hasFocus(openButton)).toBe(true);
    await Promise.all([context.close(), hospital.close()]);
  });

  it("names a toast's close button", async () => {
    const context = await journey.browser.newContext();
    await signedInHospital(context, journey.app.url);
    const page = await context.newPage();
    await page.goto(`${journey.app.url}/hospital-dashboard?tab=upload`);
    await page.getByRole('heading', { name: 'Upload Medical Records' }).waitFor();
    // Uploading an empty form says what is missing in a toast.
    await page.getByRole('button', { name: 'Upload Record', exact: true }).click();
    const shown = toast(page, 'Missing Information');
    await shown.getByRole('button', { name: 'Close notification' }).click();
    await shown.waitFor({ state: 'detached' });
    await context.close();
  });

  it('gives fixed hints in dialogs and pages as notes, not as alerts a screen reader breaks in with', async () => {
    const { hospital, patient: context } = await patientWithRelative();
    const page = await context.newPage();
    await page.goto(`${journey.app.url}/patient-dashboard`);
    const note = (container: Locator, text: string) =>
      container.getByRole('note').filter({ hasText: text }).waitFor();

    await page.getByRole('button', { name: 'Manage Consent' }).click();
    const consent = page.getByRole('dialog', { name: 'Manage Consent' });
    await note(consent, 'Consent changes are recorded on the blockchain');
    expect(await consent.getByRole('alert').count()).toBe(0);
    await consent.getByRole('button', { name: 'Cancel' }).click();
    await consent.waitFor({ state: 'detached' });

    await openRecord(page);
    await page
      .getByRole('dialog', { name: LONG_TITLE })
      .getByRole('button', { name: 'Share with a Specialist' })
      .click();
    const share = page.getByRole('dialog', { name: 'Share with a Specialist' });
    await note(share, 'revokes every link at once');
    expect(await share.getByRole('alert').count()).toBe(0);

    const hospitalPage = await hospital.newPage();
    await hospitalPage.goto(`${journey.app.url}/profile/edit`);
    await note(hospitalPage.getByRole('main'), 'Hospital details are managed by a system administrator.');
    expect(await hospitalPage.getByRole('main').getByRole('alert').count()).toBe(0);
    await Promise.all([context.close(), hospital.close()]);
  });
});
