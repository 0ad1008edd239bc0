// Browser journey of staff accounts (docs/decisions.md#staff-accounts): a hospital admin invites a
// clinician and a front-desk member on the Staff tab; each joins from the mailed link and signs
// in, the header naming their role; the clinician uploads a record (the Practitioner select names
// them) and the admin's audit trail names them with the hospital; the front desk sees the record
// listed but not what is in it (and the server refuses it 403); the admin deactivates the
// clinician, whose session ends at once and whose sign-in is refused; the Staff tab on a phone.
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { samplePdf } from '../src/server/features/records/testing';
import { PASSWORD, addPatient, logIn, signedInHospital, toast, uniqueEmail } from './auth-helpers';
import { mailedLink, startJourney } from './journey';
import { fixtureFiles, patientIdOf } from './record-helpers';

const journey = startJourney();
const HOSPITAL = 'Northgate Hospital';
const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };
const files = fixtureFiles('staff', { 'chest-xray.pdf': samplePdf('Chest X-ray report') });

interface Person {
  email: string;
  firstName: string;
  lastName: string;
  /** The role's label, as the Role select and the header word it. */
  roleLabel: 'Clinician' | 'Front desk';
}
const fullName = (p: Person) => `${p.firstName} ${p.lastName}`;

const clinician: Person = {
  email: uniqueEmail('clinician'),
  firstName: 'Cleo',
  lastName: 'Curie',
  roleLabel: 'Clinician',
};
const frontDesk: Person = {
  email: uniqueEmail('desk'),
  firstName: 'Frank',
  lastName: 'Desmond',
  roleLabel: 'Front desk',
};

const nav = (page: Page, tab: string) =>
  page.getByRole('navigation', { name: 'Hospital dashboard' }).getByRole('button', { name: tab });

/** The rows of one of the Staff tab's tables ("Staff members" or "Invitations waiting") naming `text`. */
const rowOf = (page: Page, table: string, text: string) =>
  page.getByRole('table', { name: table }).getByRole('row').filter({ hasText: text });

/**
 * The hospital's patients as this member's dashboard lists them: the Patients tab shows the
 * organization's patients to every staff role (docs/decisions.md#staff-accounts, route table).
 */
async function expectOrganizationPatient(page: Page, who: string) {
  const list = await page.request.get(`${journey.app.url}/api/patients`);
  expect(list.status()).toBe(200);
  const { total } = (await list.json()) as { total: number };
  expect(total, `patients of ${HOSPITAL} listed for ${who}`).toBe(1);
  await nav(page, 'Patients').click();
  await page.getByRole('button', { name: 'Open patient file of Ada Lovelace' }).waitFor();
}

/** The audit trail's record-upload entries (one Paper each, inside the Transaction History Paper). */
const uploadEntries = (page: Page) =>
  page
    .locator('.mantine-Paper-root')
    .filter({ has: page.getByText('record upload', { exact: true }) })
    .filter({ hasNot: page.getByRole('heading', { name: 'Transaction History' }) });

const pageOverflows = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);

/** Fills and sends the Invite Staff dialog; waits for its toast and for the dialog to close. */
async function invite(page: Page, person: Person) {
  await page.getByRole('button', { name: 'Invite Staff' }).click();
  const dialog = page.getByRole('dialog', { name: 'Invite Staff' });
  await dialog.getByLabel('Email').fill(person.email);
  await dialog.getByLabel('First Name').fill(person.firstName);
  await dialog.getByLabel('Last Name').fill(person.lastName);
  await dialog.getByRole('combobox', { name: 'Role' }).click();
  await page.getByRole('option', { name: person.roleLabel, exact: true }).click();
  expect(await dialog.getByRole('combobox', { name: 'Role' }).inputValue()).toBe(person.roleLabel);
  await dialog.getByRole('button', { name: 'Send Invitation' }).click();
  await toast(page, 'Invitation Sent').filter({ hasText: person.email }).waitFor();
  await dialog.waitFor({ state: 'detached' });
}

/** Opens the mailed /join-staff link in a new context, creates the account and signs in. */
async function join(person: Person): Promise<Page> {
  const url = journey.app.url;
  const link = await mailedLink(journey.app, person.email, '/join-staff');
  expect(link.startsWith(`${url}/join-staff?token=`)).toBe(true);
  const page = await journey.newPage({ viewport: DESKTOP });
  await page.goto(link);
  await page.getByRole('heading', { name: 'Join Your Hospital' }).waitFor();
  // The address is the invited one, and not for the invited person to change.
  const email = page.getByLabel('Email Address');
  expect(await email.inputValue()).toBe(person.email);
  expect(await email.getAttribute('readonly')).not.toBeNull();
  await page.getByLabel('First Name').fill(person.firstName);
  await page.getByLabel('Last Name').fill(person.lastName);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(PASSWORD);
  await page.getByRole('textbox', { name: 'Confirm Password', exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Create Account' }).click();
  await page.getByRole('status').filter({ hasText: 'Account created' }).waitFor();
  await page.getByRole('link', { name: 'Go to Healthcare Provider Login' }).click();
  await page.waitForURL(`${url}/hospital-login`);
  await logIn(page, person.email, PASSWORD);
  await page.waitForURL(`${url}/hospital-dashboard`);
  await expect
    .poll(() => page.getByTestId('header-hospital-name').textContent())
    .toBe(`${person.roleLabel} · ${HOSPITAL}`);
  await page
    .getByTestId('header-user-name')
    .filter({ hasText: fullName(person) })
    .waitFor();
  return page;
}

describe('staff accounts', () => {
  let adminContext: BrowserContext;
  let admin: Page;
  let adminEmail: string;
  let mrn: string;
  let clinicianPage: Page;
  let deskPage: Page;
  let clinicianId: string;
  let record: { id: string; attachments: { url: string }[] };

  it('lets the hospital admin invite a clinician and a front-desk member from the Staff tab', async () => {
    const url = journey.app.url;
    adminContext = await journey.browser.newContext({ viewport: DESKTOP });
    adminEmail = (await signedInHospital(adminContext, url, HOSPITAL)).email;
    mrn = await addPatient(adminContext, url, { firstName: 'Ada', lastName: 'Lovelace' });
    admin = await adminContext.newPage();
    await admin.goto(`${url}/hospital-dashboard`);
    await expect
      .poll(() => admin.getByTestId('header-hospital-name').textContent())
      .toBe(`Hospital admin · ${HOSPITAL}`);
    await nav(admin, 'Staff').click();
    await admin.getByRole('heading', { name: 'Staff', exact: true }).waitFor();
    // The organization's own account is its first member, its admin.
    await rowOf(admin, 'Staff members', 'Grace Hopper (you)').filter({ hasText: 'Hospital admin' }).waitFor();
    await admin.getByText('No invitations waiting.').waitFor();

    await invite(admin, clinician);
    await invite(admin, frontDesk);
    const waiting = admin.getByRole('table', { name: 'Invitations waiting' }).getByTestId('invitation-row');
    await expect.poll(() => waiting.count()).toBe(2);
    await rowOf(admin, 'Invitations waiting', clinician.email).filter({ hasText: 'Clinician' }).waitFor();
    await rowOf(admin, 'Invitations waiting', frontDesk.email).filter({ hasText: 'Front desk' }).waitFor();
    expect(await rowOf(admin, 'Invitations waiting', fullName(clinician)).count()).toBe(1);
    // Invited is not yet a member.
    expect(await admin.getByRole('table', { name: 'Staff members' }).getByTestId('staff-row').count()).toBe(
      1,
    );
  });

  it('lets each invited person join from the mailed link and sign in, the header naming their role', async () => {
    clinicianPage = await join(clinician);
    deskPage = await join(frontDesk);

    // Both are members now, with the roles the admin chose, and no invitation is waiting.
    await admin.reload();
    await rowOf(admin, 'Staff members', clinician.email).filter({ hasText: 'Clinician' }).waitFor();
    await rowOf(admin, 'Staff members', frontDesk.email).filter({ hasText: 'Front desk' }).waitFor();
    await admin.getByText('No invitations waiting.').waitFor();

    const me = await clinicianPage.context().request.get(`${journey.app.url}/api/auth/me`);
    const { user } = (await me.json()) as { user: { id: string; staffRole: string; hospitalId: string } };
    expect(user.staffRole).toBe('clinician');
    clinicianId = user.id;
  });

  it('lets the clinician upload a record as its practitioner, and the audit trail names them', async () => {
    const url = journey.app.url;
    const page = clinicianPage;
    // A clinician has no Staff tab and no organization audit trail.
    await nav(page, 'Patients').waitFor();
    expect(await nav(page, 'Staff').count()).toBe(0);
    expect(await nav(page, 'Audit Trail').count()).toBe(0);
    await expectOrganizationPatient(page, 'its clinician');
    await nav(page, 'Upload Records').click();
    await page.getByRole('heading', { name: 'Upload Medical Records' }).waitFor();
    // The Practitioner select names the signed-in clinician by default, so no free-text doctor.
    const practitioner = page.getByRole('combobox', { name: 'Practitioner' });
    await expect.poll(() => practitioner.inputValue()).toBe(`${fullName(clinician)} · Clinician`);
    expect(await page.getByLabel('Doctor Name').count()).toBe(0);

    await page.getByRole('combobox', { name: 'Patient' }).fill('Lovelace');
    await page.getByRole('option', { name: `Ada Lovelace (${mrn})` }).click();
    await page.getByRole('combobox', { name: 'Record Type' }).click();
    await page.getByRole('option', { name: 'Imaging' }).click();
    await page.getByLabel('Title').fill('Chest X-ray');
    await page.getByLabel('Description').fill('Clear lung fields, no effusion');
    await page.locator('input[type="file"]').setInputFiles([files['chest-xray.pdf']]);
    const uploaded = page.waitForResponse(
      (r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/api/medical-records',
    );
    await page.getByRole('button', { name: 'Upload Record', exact: true }).click();
    const response = await uploaded;
    expect(response.status()).toBe(201);
    const body = (await response.json()) as {
      id: string;
      practitionerId: string | null;
      doctorName: string | null;
      attachments: { url: string }[];
    };
    expect(body.practitionerId).toBe(clinicianId);
    expect(body.doctorName).toBe(fullName(clinician));
    expect(body.attachments).toHaveLength(1);
    record = body;
    await toast(page, 'Record Uploaded Successfully').waitFor();

    // The organization's trail, as the admin: the upload is the clinician's, at this hospital.
    await admin.goto(`${url}/hospital-dashboard?tab=audit`);
    await admin.getByRole('heading', { name: 'Transaction History' }).waitFor();
    const uploadEntry = uploadEntries(admin);
    await uploadEntry.first().waitFor();
    expect(await uploadEntry.count()).toBe(1);
    expect(await uploadEntry.textContent()).toContain(
      `User: ${fullName(clinician)}, ${HOSPITAL} · ${clinicianId}`,
    );
  });

  it('shows the front desk that the record exists but not what is in it, and the server refuses it', async () => {
    const url = journey.app.url;
    const page = deskPage;
    await nav(page, 'Patients').waitFor();
    expect(await nav(page, 'Staff').count()).toBe(0);
    expect(await nav(page, 'Upload Records').count()).toBe(0);
    expect(await nav(page, 'Audit Trail').count()).toBe(0);
    // No Staff tab by its address either: the dashboard opens on Patients.
    await page.goto(`${url}/hospital-dashboard?tab=staff`);
    await page.getByRole('heading', { name: 'Patient Management' }).waitFor();
    expect(await page.getByRole('heading', { name: 'Staff', exact: true }).count()).toBe(0);

    await expectOrganizationPatient(page, 'its front desk');
    await page.getByRole('button', { name: 'Open patient file of Ada Lovelace' }).click();
    const details = page.getByRole('dialog', { name: 'Ada Lovelace' });
    const row = details.getByTestId('patient-record-row').filter({ hasText: 'Chest X-ray' });
    await row.waitFor();
    await details
      .getByRole('note')
      .filter({ hasText: 'Front-desk staff see which records exist, not what is in them' })
      .waitFor();
    expect(await row.getByRole('button').count()).toBe(0);
    expect(await details.getByRole('button', { name: 'View Chest X-ray' }).count()).toBe(0);
    expect(await details.getByRole('button', { name: 'Download Chest X-ray' }).count()).toBe(0);
    expect(await row.textContent()).not.toMatch(/\d+ files?/);
    expect(await details.getByRole('button', { name: 'Upload Record' }).count()).toBe(0);

    // The list the front desk gets leaves out what is in the record.
    const patientRowId = await patientIdOf(adminContext, url, mrn);
    const list = await page.request.get(`${url}/api/medical-records/${patientRowId}`);
    expect(list.status()).toBe(200);
    const listText = await list.text();
    expect(listText).toContain(record.id);
    expect(listText).not.toContain('Clear lung fields');
    expect(listText).not.toContain('chest-xray.pdf');
    // Asking for the record itself, or its file, is refused.
    const direct = await page.evaluate(
      async (path) => (await fetch(path, { credentials: 'same-origin' })).status,
      `/api/medical-records/record/${record.id}`,
    );
    expect(direct).toBe(403);
    const file = await page.request.get(new URL(record.attachments[0].url, url).toString());
    expect(file.status()).toBe(403);
    // The same record opens for the clinician.
    const asClinician = await clinicianPage.request.get(`${url}/api/medical-records/record/${record.id}`);
    expect(asClinician.status()).toBe(200);
  });

  it('signs a deactivated clinician out at once and refuses their next sign-in', async () => {
    const url = journey.app.url;
    await admin.goto(`${url}/hospital-dashboard?tab=staff`);
    await admin.getByRole('button', { name: `Deactivate ${fullName(clinician)}` }).click();
    const confirm = admin.getByRole('dialog', { name: 'Deactivate this staff member?' });
    await confirm
      .getByText(`${fullName(clinician)} (${clinician.email}) will be signed out everywhere`)
      .waitFor();
    await confirm.getByRole('button', { name: 'Deactivate' }).click();
    await toast(admin, 'Staff Member Deactivated').waitFor();
    await rowOf(admin, 'Staff members', clinician.email).waitFor({ state: 'detached' });
    await admin.getByRole('combobox', { name: 'Show' }).click();
    await admin.getByRole('option', { name: 'Deactivated' }).click();
    await rowOf(admin, 'Staff members', clinician.email).filter({ hasText: 'Deactivated' }).waitFor();

    // The clinician's session is over: the next request answers 401, the next screen is signed out.
    expect((await clinicianPage.request.get(`${url}/api/hospital/practitioners`)).status()).toBe(401);
    const me = await clinicianPage.request.get(`${url}/api/auth/me`);
    expect(await me.json()).toEqual({ user: null });
    await nav(clinicianPage, 'Appointments').click();
    await clinicianPage.waitForURL(`${url}/`);
    await clinicianPage.getByRole('link', { name: /Healthcare Provider Login/ }).click();
    await clinicianPage.waitForURL(`${url}/hospital-login`);
    await logIn(clinicianPage, clinician.email, PASSWORD);
    await toast(clinicianPage, 'Login Failed')
      .filter({ hasText: 'Your account has been deactivated by your hospital' })
      .waitFor();
    expect(clinicianPage.url()).toBe(`${url}/hospital-login`);
    // Only the clinician's sessions ended.
    const deskMe = await deskPage.request.get(`${url}/api/auth/me`);
    expect(((await deskMe.json()) as { user: { email: string } | null }).user?.email).toBe(frontDesk.email);
    // What the clinician recorded stays under their name.
    await admin.goto(`${url}/hospital-dashboard?tab=audit`);
    await uploadEntries(admin)
      .filter({ hasText: `User: ${fullName(clinician)}, ${HOSPITAL} · ${clinicianId}` })
      .waitFor();
    await clinicianPage.context().close();
    await deskPage.context().close();
  });

  it('keeps the Staff tab and its Invite dialog usable on a 390 px wide phone', async () => {
    const url = journey.app.url;
    const context = await journey.browser.newContext({ viewport: PHONE });
    const login = await context.request.post(`${url}/api/auth/login`, {
      data: { email: adminEmail, password: PASSWORD },
    });
    expect(login.status()).toBe(200);
    const page = await context.newPage();
    await page.goto(`${url}/hospital-dashboard`);
    await page.getByRole('button', { name: 'Open navigation menu' }).click();
    await nav(page, 'Staff').click();
    await page.getByRole('heading', { name: 'Staff', exact: true }).waitFor();
    // On a phone the e-mail and status are under the name.
    const deskRow = rowOf(page, 'Staff members', frontDesk.email);
    await deskRow.filter({ hasText: `${frontDesk.email} · Active` }).waitFor();
    await rowOf(page, 'Staff members', 'Grace Hopper (you)').waitFor();
    expect(await pageOverflows(page)).toBe(false);
    for (const name of [`Change role of ${fullName(frontDesk)}`, `Deactivate ${fullName(frontDesk)}`]) {
      const box = await page.getByRole('button', { name }).boundingBox();
      expect(box, name).not.toBeNull();
      expect(box!.x).toBeGreaterThanOrEqual(0);
      expect(box!.x + box!.width).toBeLessThanOrEqual(PHONE.width);
    }

    const nurse: Person = {
      email: uniqueEmail('nurse-with-a-rather-long-address'),
      firstName: 'Nia',
      lastName: 'Nightingale',
      roleLabel: 'Clinician',
    };
    await page.getByRole('button', { name: 'Invite Staff' }).click();
    const dialog = page.getByRole('dialog', { name: 'Invite Staff' });
    await dialog.getByLabel('Email').waitFor();
    expect(await pageOverflows(page)).toBe(false);
    const dialogBox = await dialog.boundingBox();
    expect(dialogBox).not.toBeNull();
    expect(dialogBox!.x).toBeGreaterThanOrEqual(0);
    expect(dialogBox!.x + dialogBox!.width).toBeLessThanOrEqual(PHONE.width);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await invite(page, nurse);
    await rowOf(page, 'Invitations waiting', nurse.email).filter({ hasText: 'Clinician' }).waitFor();
    expect(await pageOverflows(page)).toBe(false);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await context.close();
    await adminContext.close();
  });
});
