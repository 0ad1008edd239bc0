// Browser journeys of the hospital dashboard (docs/spec.md#hospital-dashboard): add a patient,
// upload a record with two files, find it in the patient's details and download the same bytes;
// search, filter and page the patient list; watch the audit trail grow; the mobile slide-in menu.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { BrowserContext, Page, Route } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { samplePdf, samplePng } from '../src/server/features/records/testing';
import { startJourney } from './journey';
import {
  addPatient,
  hospitalAccount,
  logIn,
  signedInHospital,
  signedInPatient,
  toast,
  uniqueEmail,
} from './auth-helpers';
import { uploadRecord } from './record-helpers';

const journey = startJourney();
const fixtures = fs.mkdtempSync(path.join(os.tmpdir(), 'medledger-hospital-e2e-'));
const pdfBytes = samplePdf('Knee MRI report');
const pngBytes = samplePng();
const pdfPath = path.join(fixtures, 'knee-report.pdf');
const pngPath = path.join(fixtures, 'knee-scan.png');
const emptyPath = path.join(fixtures, 'empty.pdf');
fs.writeFileSync(pdfPath, pdfBytes);
fs.writeFileSync(pngPath, pngBytes);
fs.writeFileSync(emptyPath, '');

afterAll(async () => {
  fs.rmSync(fixtures, { recursive: true, force: true });
});

async function hospitalPage(
  viewport = { width: 1280, height: 900 },
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await journey.browser.newContext({ viewport, acceptDownloads: true });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: journey.app.url });
  await signedInHospital(context, journey.app.url);
  const page = await context.newPage();
  await page.goto(`${journey.app.url}/hospital-dashboard`);
  await page.getByRole('heading', { name: 'Patient Management' }).waitFor();
  return { context, page };
}

/**
 * From the context's next page on, counts how many preload links each task adds to the document
 * (a MutationObserver's callback runs once after each task that changed it).
 */
async function countPreloadLinksPerTask(context: BrowserContext) {
  await context.addInitScript(() => {
    const added: number[] = [];
    Object.assign(window, { preloadLinksAdded: added });
    new MutationObserver((records) => {
      const links = records
        .flatMap((record) => [...record.addedNodes])
        .filter((node) => node instanceof HTMLLinkElement && node.rel === 'modulepreload');
      if (links.length > 0) added.push(links.length);
    }).observe(document, { childList: true, subtree: true });
  });
}

/** The links added per task since the page opened or this was last asked. */
const preloadLinksAddedSince = (page: Page) =>
  page.evaluate(() => (window as unknown as { preloadLinksAdded: number[] }).preloadLinksAdded.splice(0));

const nav = (page: Page, tab: string) =>
  page.getByRole('navigation', { name: 'Hospital dashboard' }).getByRole('button', { name: tab });

async function transactionsTotal(page: Page): Promise<number> {
  await page.getByText('Loading audit logs...').waitFor({ state: 'detached' });
  const footer = page.getByText(/^Showing \d+–\d+ of \d+ transactions?$/);
  await footer.waitFor();
  const text = (await footer.textContent()) ?? '';
  return Number(/of (\d+) transactions?$/.exec(text)?.[1]);
}

describe('hospital dashboard', () => {
  it('adds a patient, uploads a PDF with two files, finds it in the patient file and downloads the same bytes', async () => {
    const { context, page } = await hospitalPage();

    // Add a patient: the success toast carries the generated MRN.
    await page.getByRole('button', { name: 'Add Patient' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Patient' });
    await dialog.getByLabel('First Name').fill('Ada');
    await dialog.getByLabel('Last Name').fill('Lovelace');
    await dialog.getByLabel('Email').fill('ada@example.com');
    await dialog.getByRole('button', { name: 'Add Patient' }).click();
    const added = toast(page, 'Patient Added Successfully');
    await added.waitFor();
    const mrn = /MRN\d{10}/.exec((await added.textContent()) ?? '')?.[0];
    expect(mrn).toBeTruthy();
    // The dialog shows the patient's one-time activation code until it is closed.
    const codeDialog = page.getByRole('dialog', { name: 'Patient Added Successfully' });
    await codeDialog.getByTestId('activation-code').waitFor();
    await codeDialog.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('cell', { name: mrn }).waitFor();

    // Upload Records: required fields first, then two files, one removed and put back.
    await nav(page, 'Upload Records').click();
    await page.getByRole('heading', { name: 'Upload Medical Records' }).waitFor();
    await page.getByRole('button', { name: 'Upload Record', exact: true }).click();
    await toast(page, 'Missing Information').waitFor();
    await page.getByRole('combobox', { name: 'Patient' }).fill('Lovelace');
    await page.getByRole('option', { name: `Ada Lovelace (${mrn})` }).click();
    await page.getByRole('combobox', { name: 'Record Type' }).click();
    await page.getByRole('option', { name: 'Imaging' }).click();
    await page.getByLabel('Title').fill('Knee MRI');
    await page.getByLabel('Doctor Name').fill('Dr. Grey');
    await page.getByRole('combobox', { name: 'Department' }).click();
    await page.getByRole('option', { name: 'Orthopedics' }).click();
    await page.getByLabel('Description').fill('Left knee, two views');
    const fileInput = page.locator('input[type="file"]');
    await fileInput.setInputFiles([pdfPath, pngPath]);
    await page.getByRole('button', { name: 'Remove knee-scan.png' }).click();
    expect(await page.getByRole('button', { name: 'Remove knee-scan.png' }).count()).toBe(0);
    await fileInput.setInputFiles([pngPath]);
    await page.getByRole('button', { name: 'Remove knee-scan.png' }).waitFor();
    // While the upload is on its way, closing the tab asks first; staying lets it finish.
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/medical-records', async (route) => {
      await held;
      await route.continue();
    });
    await page.getByRole('button', { name: 'Upload Record', exact: true }).click();
    await page.getByRole('progressbar', { name: 'Upload progress' }).waitFor({ state: 'attached' });
    const asked = page.waitForEvent('dialog');
    await page.close({ runBeforeUnload: true });
    const leave = await asked;
    expect(leave.type()).toBe('beforeunload');
    await leave.dismiss();
    release();
    await toast(page, 'Record Uploaded Successfully').waitFor();
    await page.unroute('**/api/medical-records');

    // The patient's file lists the record; its dialog shows it verified, with both attachments.
    await nav(page, 'Patients').click();
    await page.getByRole('button', { name: 'Open patient file of Ada Lovelace' }).click();
    const details = page.getByRole('dialog', { name: 'Ada Lovelace' });
    await details.getByText('Knee MRI').waitFor();
    await details.getByRole('button', { name: 'View' }).click();
    const recordDialog = page.getByRole('dialog', { name: 'Knee MRI' });
    await recordDialog.getByText('Blockchain Verified').waitFor();
    await recordDialog.getByText('knee-scan.png').waitFor();

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      recordDialog.getByRole('button', { name: 'Download knee-report.pdf' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('knee-report.pdf');
    const saved = await download.path();
    expect(fs.readFileSync(saved).equals(pdfBytes)).toBe(true);
    await toast(page, 'Download Started').waitFor();

    // Share with a Specialist opens its form (e2e/shares.e2e.ts follows a link to the end).
    await recordDialog.getByRole('button', { name: 'Share with a Specialist' }).click();
    const shareForm = page.getByRole('dialog', { name: 'Share with a Specialist' });
    await shareForm.getByLabel("Specialist's email").waitFor();
    await shareForm.getByRole('button', { name: 'Cancel' }).click();
    await shareForm.waitFor({ state: 'detached' });
    await page.screenshot({ path: '/tmp/medledger-record-dialog.png', fullPage: true });
    await context.close();
  });

  it('refuses an empty file as soon as it is chosen, and lists the others', async () => {
    const { context, page } = await hospitalPage();
    await nav(page, 'Upload Records').click();
    await page.getByRole('heading', { name: 'Upload Medical Records' }).waitFor();
    await page.locator('input[type="file"]').setInputFiles([emptyPath, pdfPath]);
    await toast(page, 'File Not Accepted').filter({ hasText: 'empty.pdf: the file is empty.' }).waitFor();
    const chosen = page.getByRole('region', { name: 'Chosen files' });
    await chosen.getByRole('button', { name: 'Remove knee-report.pdf' }).waitFor();
    expect(await chosen.getByText('empty.pdf').count()).toBe(0);
    await context.close();
  });

  it('warns before adding a possible duplicate, and the picker tells same-named patients apart', async () => {
    const { context, page } = await hospitalPage();
    const addPatient = async (firstName: string, lastName: string, email: string) => {
      await page.getByRole('button', { name: 'Add Patient' }).click();
      const dialog = page.getByRole('dialog', { name: 'Add Patient' });
      await dialog.getByLabel('First Name').fill(firstName);
      await dialog.getByLabel('Last Name').fill(lastName);
      await dialog.getByLabel('Email').fill(email);
      await dialog.getByRole('button', { name: 'Add Patient' }).click();
      return dialog;
    };
    await addPatient('Mary', 'Shelley', 'mary@example.com');
    await toast(page, 'Patient Added Successfully').waitFor();
    await page.getByRole('dialog', { name: 'Add Patient' }).waitFor({ state: 'detached' });
    await page
      .getByRole('dialog', { name: 'Patient Added Successfully' })
      .getByRole('button', { name: 'Done' })
      .click();

    // Same e-mail: nothing is added until the hospital confirms it is another person.
    const dialog = await addPatient('Mary', 'Godwin', 'mary@example.com');
    const warning = dialog.getByRole('alert').filter({ hasText: 'Possible duplicate' });
    await warning.waitFor();
    expect(await warning.textContent()).toContain('Mary Shelley · MRN');
    await dialog.getByRole('button', { name: 'Add Anyway' }).click();
    await toast(page, 'Patient Added Successfully').last().waitFor();
    await page
      .getByRole('dialog', { name: 'Patient Added Successfully' })
      .getByRole('button', { name: 'Done' })
      .click();

    await nav(page, 'Upload Records').click();
    await page.getByRole('combobox', { name: 'Patient' }).fill('mary@example.com');
    const options = page.getByRole('option').filter({ hasText: 'mary@example.com' });
    await expect.poll(() => options.count()).toBe(2);
    expect(await options.filter({ hasText: 'Date of birth not recorded' }).count()).toBe(2);
    await context.close();
  });

  it('searches and filters the patient list on the server and pages with Previous and Next', async () => {
    const { context, page } = await hospitalPage();
    const post = async (p: string, data: unknown) =>
      (await context.request.post(`${journey.app.url}${p}`, { data })).json();
    const heart = await post('/api/patients', {
      firstName: 'Hearty',
      lastName: 'Cardio',
      email: 'heart@example.com',
    });
    await post('/api/patients', { firstName: 'Nora', lastName: 'Neuro' });
    for (let i = 0; i < 50; i++)
      await post('/api/patients', { firstName: `Filler${i}`, lastName: 'Patient' });
    // A cardiology record puts Hearty in the cardiology department.
    const res = await context.request.post(`${journey.app.url}/api/medical-records`, {
      multipart: { patientId: heart.id, recordType: 'lab-results', title: 'ECG', department: 'cardiology' },
    });
    expect(res.status()).toBe(201);

    // While the page is on its way, the list says it is loading and its footer says nothing (not
    // "No patients"); then the count arrives.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const patientList = /\/api\/patients(\?|$)/;
    await page.route(patientList, async (route) => {
      await held;
      await route.continue();
    });
    await page.reload();
    await page.getByText('Loading patients...').waitFor();
    expect(await page.getByText('No patients', { exact: true }).count()).toBe(0);
    release();
    await page.getByText('Showing 1–50 of 52 patients').waitFor();
    await page.unroute(patientList); // only once the held request went on: unroute would answer it
    expect(await page.getByRole('button', { name: 'Previous' }).isDisabled()).toBe(true);
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByText('Showing 51–52 of 52 patients').waitFor();
    expect(await page.getByRole('button', { name: 'Next' }).isDisabled()).toBe(true);
    await page.getByRole('button', { name: 'Previous' }).click();
    await page.getByText('Showing 1–50 of 52 patients').waitFor();

    await page.getByLabel('Search patients').fill('neuro');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.getByText('Showing 1–1 of 1 patient').waitFor();
    await page.getByRole('cell', { name: 'Nora Neuro', exact: true }).waitFor();

    await page.getByLabel('Search patients').fill(heart.patientId.toLowerCase());
    await page.getByLabel('Search patients').press('Enter');
    await page.getByRole('cell', { name: /^Hearty Cardio/ }).waitFor();

    await page.getByLabel('Search patients').fill('');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.getByRole('combobox', { name: 'Department' }).click();
    await page.getByRole('option', { name: 'Cardiology' }).click();
    await page.getByText('Showing 1–1 of 1 patient').waitFor();
    await page.getByRole('cell', { name: /^Hearty Cardio/ }).waitFor();
    await page.getByRole('combobox', { name: 'Department' }).click();
    await page.getByRole('option', { name: 'Neurology' }).click();
    await page.getByText('No patients match your search.').waitFor();

    // Edit a patient, then delete it through both confirmations.
    await page.getByRole('combobox', { name: 'Department' }).click();
    await page.getByRole('option', { name: 'All', exact: true }).click();
    await page.getByLabel('Search patients').fill('Nora');
    await page.getByRole('button', { name: 'Filter' }).click();
    // A row's icon buttons show their tips on hover and on keyboard focus (rendered on first use).
    const editButton = page.getByRole('button', { name: 'Edit Nora Neuro' });
    const editTip = page.getByRole('tooltip', { name: 'Edit', exact: true });
    expect(await page.getByRole('tooltip').count()).toBe(0);
    await editButton.hover();
    await editTip.waitFor();
    await page.getByRole('heading', { name: 'Patient Management' }).hover();
    await editTip.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Open patient file of Nora Neuro' }).focus();
    await page.keyboard.press('Tab');
    await editTip.waitFor();
    await page.keyboard.press('Escape');
    await editTip.waitFor({ state: 'detached' });
    await editButton.click();
    const edit = page.getByRole('dialog', { name: 'Edit Patient' });
    await edit.getByLabel('Last Name').fill('Neurology');
    await edit.getByRole('button', { name: 'Save Changes' }).click();
    await toast(page, 'Patient Updated').waitFor();
    await page.getByRole('cell', { name: 'Nora Neurology', exact: true }).waitFor();
    await page.getByRole('button', { name: 'Delete Nora Neurology' }).click();
    await page
      .getByRole('dialog', { name: 'Delete patient?' })
      .getByRole('button', { name: 'Delete' })
      .click();
    await page
      .getByRole('dialog', { name: 'Are you sure?' })
      .getByRole('button', { name: 'Yes, delete patient' })
      .click();
    await toast(page, 'Patient Deleted').waitFor();
    await page.getByText('No patients match your search.').waitFor();
    await context.close();
  });

  it('says so when a tab or a dialog cannot be loaded, and the rest of the dashboard keeps working', async () => {
    const { context, page } = await hospitalPage();
    await page.route(/\/assets\/(AuditTrailTab|PatientDetailsDialog)-[^/]*\.js$/, (route) => route.abort());
    await nav(page, 'Audit Trail').click();
    const tabAlert = page
      .getByRole('alert')
      .filter({ hasText: 'This part of MedLedger could not be loaded' });
    await tabAlert.getByRole('button', { name: 'Reload' }).waitFor();

    await nav(page, 'Patients').click();
    await page.getByRole('heading', { name: 'Patient Management' }).waitFor();
    await page.getByRole('button', { name: 'Add Patient' }).click();
    const add = page.getByRole('dialog', { name: 'Add Patient' });
    await add.getByLabel('First Name').fill('Lost');
    await add.getByLabel('Last Name').fill('Chunk');
    await add.getByLabel('Email').fill(`lost-chunk-${Date.now()}@example.com`);
    await add.getByRole('button', { name: 'Add Patient' }).click();
    await page
      .getByRole('dialog', { name: 'Patient Added Successfully' })
      .getByRole('button', { name: 'Done' })
      .click();
    await page.getByRole('button', { name: 'Open patient file of Lost Chunk' }).click();
    const failed = page.getByRole('dialog', { name: 'This part of MedLedger could not be loaded' });
    await failed.getByRole('alert').waitFor();
    await failed.getByRole('button', { name: 'Close', exact: true }).click();
    await failed.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Edit Lost Chunk' }).click();
    await page.getByRole('dialog', { name: 'Edit Patient' }).waitFor();
    await context.close();
  });

  it('says so when its patients, audit trail or drafts cannot be loaded (not "none yet"), and Try again loads them', async () => {
    const { context, page } = await hospitalPage();
    const unavailable = (route: Route) =>
      route.fulfill({
        status: 503,
        contentType: 'application/json',
        body: '{"message":"Service unavailable"}',
      });
    const trail = /\/api\/audit-logs(\?|$)/;
    const drafts = /\/api\/medical-records\/drafts(\?|$)/;
    const patients = /\/api\/patients(\?|$)/;
    await page.route(patients, unavailable);
    await page.reload();
    const patientsFailed = page.getByRole('alert').filter({ hasText: 'The patients could not be loaded' });
    await patientsFailed.waitFor();
    expect(await page.getByText('No patients found', { exact: false }).count()).toBe(0);
    await page.unroute(patients);
    await patientsFailed.getByRole('button', { name: 'Try again' }).click();
    await page.getByText('No patients found. Add patients to get started.').waitFor();

    await page.route(trail, unavailable);
    await page.route(drafts, unavailable);

    await nav(page, 'Audit Trail').click();
    const trailFailed = page.getByRole('alert').filter({ hasText: 'The audit trail could not be loaded' });
    await trailFailed.waitFor();
    expect(await page.getByText('No audit logs available yet').count()).toBe(0);
    await page.unroute(trail);
    await trailFailed.getByRole('button', { name: 'Try again' }).click();
    expect(await transactionsTotal(page)).toBeGreaterThanOrEqual(1); // the sign-in
    expect(await trailFailed.count()).toBe(0);

    await nav(page, 'Upload Records').click();
    const draftsFailed = page.getByRole('alert').filter({ hasText: 'Your drafts could not be loaded' });
    await draftsFailed.waitFor();
    expect(await page.getByText('No drafts.', { exact: false }).count()).toBe(0);
    await page.unroute(drafts);
    await draftsFailed.getByRole('button', { name: 'Try again' }).click();
    await page.getByText('No drafts. Use "Save as Draft"', { exact: false }).waitFor();
    expect(await draftsFailed.count()).toBe(0);
    await context.close();
  });

  it('asks for its first reads while its code is still loading, and reads each once', async () => {
    const context = await journey.browser.newContext({ viewport: { width: 1280, height: 900 } });
    await signedInHospital(context, journey.app.url);
    const page = await context.newPage();
    const reads: string[] = [];
    let bothAsked!: () => void;
    const bothRequested = new Promise<void>((resolve) => (bothAsked = resolve));
    page.on('request', (request) => {
      const { pathname } = new URL(request.url());
      if (pathname !== '/api/patients' && pathname !== '/api/billing/status') return;
      reads.push(pathname);
      if (new Set(reads).size === 2) bothAsked();
    });
    // The dashboard's code is held until both reads have been asked for: started only once the
    // page has loaded (or one after the other), the dashboard would wait here for ever and the
    // heading below would not appear.
    await page.route('**/assets/HospitalDashboardPage-*.js', async (route) => {
      await bothRequested;
      await route.continue();
    });
    await page.goto(`${journey.app.url}/hospital-dashboard`);
    await page.getByRole('heading', { name: 'Patient Management' }).waitFor({ timeout: 10_000 });
    await page.getByText('No patients').first().waitFor();
    expect(reads.sort()).toEqual(['/api/billing/status', '/api/patients']);

    // Opened on another tab, the dashboard reads no patient list it does not show.
    reads.length = 0;
    await page.goto(`${journey.app.url}/hospital-dashboard?tab=settings`);
    await page.getByRole('heading', { name: 'Settings', exact: true }).waitFor();
    expect(reads).toEqual(['/api/billing/status']);

    // Anyone else's session does not ask for the hospital's reads: a patient is sent to their own page.
    const mrn = await addPatient(context, journey.app.url, { firstName: 'Ada', lastName: 'Lovelace' });
    const patientContext = await journey.browser.newContext();
    await signedInPatient(patientContext, journey.app.url, mrn, uniqueEmail('first-reads'));
    const patientPage = await patientContext.newPage();
    const patientReads: string[] = [];
    patientPage.on('request', (request) => patientReads.push(new URL(request.url()).pathname));
    await patientPage.goto(`${journey.app.url}/hospital-dashboard`);
    await patientPage.waitForURL((url) => url.pathname !== '/hospital-dashboard');
    await patientPage.waitForLoadState('networkidle');
    expect(patientReads).toContain('/api/auth/me');
    expect(patientReads.filter((path) => path === '/api/billing/status' || path === '/api/patients')).toEqual(
      [],
    );
    await patientContext.close();
    await context.close();
  });

  it('signed in on the page, reads the patient list while the billing status is on its way, once', async () => {
    // Signing in moves to the dashboard without loading a page, so main.tsx's first reads do not
    // run: the dashboard asks for the list itself, alongside the status.
    const account = await hospitalAccount(journey.browser, journey.app.url);
    const context = await journey.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const listReads: string[] = [];
    let listAsked!: () => void;
    const listRequested = new Promise<void>((resolve) => (listAsked = resolve));
    page.on('request', (request) => {
      if (new URL(request.url()).pathname !== '/api/patients') return;
      listReads.push(request.url());
      listAsked();
    });
    // The status is held until the list has been asked for: read one after the other, the
    // dashboard would wait here for ever and the heading below would not appear.
    await page.route('**/api/billing/status', async (route) => {
      await listRequested;
      await route.continue();
    });
    await page.goto(`${journey.app.url}/hospital-login`);
    await logIn(page, account.email, account.password);
    await page.getByRole('heading', { name: 'Patient Management' }).waitFor({ timeout: 10_000 });
    await page.getByText('No patients').first().waitFor();
    expect(listReads).toHaveLength(1);
    await context.close();
  });

  it("adds its code's preload links from the page's HTML a few per task, and Vite's helper none", async () => {
    const context = await journey.browser.newContext({ viewport: { width: 1280, height: 900 } });
    await signedInHospital(context, journey.app.url);
    // The page's HTML names the dashboard's chunks inside an inert <template>, not as links.
    const html = await (await context.request.get(`${journey.app.url}/hospital-dashboard`)).text();
    const template = /<template id="page-chunks">([\s\S]*?)<\/template>/.exec(html)?.[1] ?? '';
    const named = [...template.matchAll(/<link rel="modulepreload" crossorigin href="([^"]+)">/g)].map(
      (match) => match[1],
    );
    expect(named.some((href) => /\/assets\/HospitalDashboardPage-/.test(href))).toBe(true);
    expect(named.some((href) => /\/assets\/WorkspaceProviders-/.test(href))).toBe(true);
    expect(html.replace(template, '')).not.toContain('modulepreload');
    await countPreloadLinksPerTask(context);
    const page = await context.newPage();
    await page.goto(`${journey.app.url}/hospital-dashboard`);
    await page.getByText('No patients').first().waitFor();
    const added = await preloadLinksAddedSince(page);
    // All of them, six at a time at most, and none added again by Vite's helper.
    expect(Math.max(...added)).toBeLessThanOrEqual(6);
    expect(added.reduce((sum, n) => sum + n, 0)).toBe(named.length);
    const inDocument = await page.evaluate(() =>
      [...document.querySelectorAll<HTMLLinkElement>('link[rel="modulepreload"]')].map((link) =>
        link.getAttribute('href'),
      ),
    );
    expect(inDocument.sort()).toEqual([...named].sort());
    await context.close();
  });

  it("adds the dashboard's preload links a few per task when signing in, not in one task on arrival", async () => {
    const account = await hospitalAccount(journey.browser, journey.app.url);
    // Each workspace's chunks, as the build lists them for the sign-in pages.
    const lists = (await (await fetch(`${journey.app.url}/workspace-chunks.json`)).json()) as Record<
      string,
      string[]
    >;
    const dashboardChunks = lists['/hospital-dashboard'];
    expect(dashboardChunks.some((href) => /\/assets\/HospitalDashboardPage-/.test(href))).toBe(true);
    const context = await journey.browser.newContext({ viewport: { width: 1280, height: 900 } });
    await countPreloadLinksPerTask(context);
    const page = await context.newPage();
    // The usual way in: the landing page, then its link to the sign-in page (no page load).
    await page.goto(journey.app.url);
    await page.getByRole('link', { name: /Healthcare Provider Login/ }).click();
    await page.getByRole('button', { name: 'Sign In' }).waitFor();
    await preloadLinksAddedSince(page); // the sign-in page's own, which Vite's helper added
    await logIn(page, account.email, account.password);
    await page.getByText('No patients').first().waitFor();
    const added = await preloadLinksAddedSince(page);
    expect(added.length).toBeGreaterThan(1);
    expect(Math.max(...added)).toBeLessThanOrEqual(6);
    // Every chunk of the dashboard is in the document, once.
    const inDocument = await page.evaluate(() =>
      [...document.querySelectorAll<HTMLLinkElement>('link[rel="modulepreload"]')].map((link) => link.href),
    );
    for (const href of dashboardChunks) {
      expect(inDocument.filter((inHead) => inHead === new URL(href, journey.app.url).href)).toHaveLength(1);
    }
    await context.close();
  });

  it('signs in to the dashboard when the list of its chunks never comes', async () => {
    const account = await hospitalAccount(journey.browser, journey.app.url);
    const context = await journey.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const asked: string[] = [];
    // The request is held, never answered.
    await context.route('**/workspace-chunks.json', (route) => void asked.push(route.request().url()));
    const page = await context.newPage();
    await page.goto(`${journey.app.url}/hospital-login`);
    await logIn(page, account.email, account.password);
    await page.getByText('No patients').first().waitFor({ timeout: 15_000 });
    expect(asked).toHaveLength(1);
    await context.close();
  });

  it('opens without the schemas library (Zod), which comes with the first form', async () => {
    const context = await journey.browser.newContext({ viewport: { width: 1280, height: 900 } });
    await signedInHospital(context, journey.app.url);
    const page = await context.newPage();
    const scripts: Promise<string>[] = [];
    page.on('response', (response) => {
      if (response.request().resourceType() === 'script') scripts.push(response.text());
    });
    const withZod = async () =>
      (await Promise.all(scripts)).filter((code) => code.includes('ZodError')).length;
    await page.goto(`${journey.app.url}/hospital-dashboard`);
    await page.getByText('No patients').first().waitFor();
    expect(scripts.length).toBeGreaterThan(5);
    expect(await withZod()).toBe(0);
    // The check sees Zod where a page does load it: the patient form validates with it.
    await page.getByRole('button', { name: 'Add Patient' }).click();
    await page.getByRole('dialog', { name: 'Add Patient' }).waitFor();
    expect(await withZod()).toBeGreaterThan(0);
    await context.close();
  });

  it('shows its audit trail and sees it grow with every read', async () => {
    const { context, page } = await hospitalPage();
    const patient = await (
      await context.request.post(`${journey.app.url}/api/patients`, {
        data: { firstName: 'Trail', lastName: 'Walker' },
      })
    ).json();
    await uploadRecord(context, journey.app.url, {
      patientId: patient.id,
      recordType: 'lab-results',
      title: 'Lipids',
      files: { name: 'lipids.pdf', mimeType: 'application/pdf', buffer: pdfBytes },
    });

    await page.reload();
    await nav(page, 'Audit Trail').click();
    await page.getByRole('heading', { name: 'Transaction History' }).waitFor();
    const before = await transactionsTotal(page);
    expect(before).toBeGreaterThanOrEqual(3); // login, patient added, record uploaded
    const list = page.getByLabel('Transaction history');
    await list.getByText('record upload', { exact: true }).waitFor();
    await list.getByText('Blockchain Verified').first().waitFor();
    await list.getByText('Logged Only').first().waitFor();

    // Reading the patient's records is audited.
    await nav(page, 'Patients').click();
    await page.getByRole('button', { name: 'Open patient file of Trail Walker' }).click();
    await page.getByRole('dialog', { name: 'Trail Walker' }).getByText('Lipids').waitFor();
    await page.keyboard.press('Escape');
    await nav(page, 'Audit Trail').click();
    await page.getByRole('button', { name: 'Search' }).click();
    await expect.poll(() => transactionsTotal(page), { timeout: 10_000 }).toBe(before + 1);

    // The action filter narrows the list to record uploads.
    await page.getByRole('combobox', { name: 'Action' }).click();
    await page.getByRole('option', { name: 'Record Upload' }).click();
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByText('Showing 1–1 of 1 transaction').waitFor();
    await context.close();
  });

  it('saves the settings and shows the new hospital name in the header', async () => {
    const { context, page } = await hospitalPage();
    await nav(page, 'Settings').click();
    await page.getByLabel('Hospital Name').fill('Lakeside General');
    await page.getByLabel('Administrator Email').fill('admin@lakeside.example');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await toast(page, 'Settings Saved').waitFor();
    // The header names the member's role and the organization ("Hospital admin · Lakeside General").
    await expect
      .poll(() => page.getByTestId('header-hospital-name').textContent())
      .toBe('Hospital admin · Lakeside General');
    // Two-factor sign-in shows its real state (off until set up on the profile page).
    expect(await page.getByRole('switch', { name: 'Two-Factor Authentication' }).isChecked()).toBe(false);
    await context.close();
  });

  it('lists a patient in two cells on a phone and in six on a wide screen, as the window crosses the breakpoints', async () => {
    const { context, page } = await hospitalPage({ width: 390, height: 844 });
    const mrn = await addPatient(context, journey.app.url, { firstName: 'Wanda', lastName: 'Wide' });
    await page.reload();
    const table = page.getByRole('table', { name: 'Patients' });
    const row = table.getByRole('row').filter({ hasText: 'Wanda Wide' });
    const headers = async () => table.getByRole('columnheader').allTextContents();
    const cells = async () => row.getByRole('cell').allTextContents();
    await row.waitFor();
    // On a phone the columns a wide screen adds are not rendered at all (not rendered and hidden):
    // the MRN goes under the name.
    expect(await headers()).toEqual(['Patient', 'Actions']);
    expect(await table.locator('th, td').count()).toBe(4);
    expect((await cells())[0]).toContain(mrn);
    // Wider than Mantine's md breakpoint (62em), all six; the MRN has its own column.
    await page.setViewportSize({ width: 1280, height: 900 });
    await expect.poll(headers).toEqual(['Patient', 'ID', 'Primary Care', 'Last Visit', 'Status', 'Actions']);
    const wide = await cells();
    expect(wide).toHaveLength(6);
    expect(wide[0]).not.toContain(mrn);
    expect(wide[1]).toBe(mrn);
    expect(wide[4]).toBe('Active');
    // Between sm (48em) and md, the MRN column without the other three.
    await page.setViewportSize({ width: 800, height: 900 });
    await expect.poll(headers).toEqual(['Patient', 'ID', 'Actions']);
    expect(await cells()).toHaveLength(3);
    await context.close();
  });

  it('on a phone, renders its frame once and shows a screenful of patients before the rest', async () => {
    const context = await journey.browser.newContext({ viewport: { width: 390, height: 844 } });
    await signedInHospital(context, journey.app.url);
    for (let i = 1; i <= 12; i++) {
      await addPatient(context, journey.app.url, { firstName: `Screen${i}`, lastName: 'Ful' });
    }
    await context.addInitScript(() => {
      const seen = { idChanges: [] as string[], navbarInertChanges: 0, firstRows: 0 };
      Object.assign(window, { seen });
      new MutationObserver((records) => {
        for (const record of records) {
          // An id given to an input, a link or a popover stays what it was first (labels and ARIA
          // references point at it); Mantine's own useId swapped each one once after mounting.
          if (record.attributeName === 'id' && record.oldValue?.startsWith('mantine-')) {
            seen.idChanges.push(`${record.oldValue} -> ${(record.target as Element).id}`);
          }
          if (record.attributeName === 'inert' && (record.target as Element).id === 'app-navbar') {
            seen.navbarInertChanges++;
          }
        }
        const rows = document.querySelectorAll('table[aria-label="Patients"] tbody tr').length;
        if (rows > 0 && seen.firstRows === 0) seen.firstRows = rows;
      }).observe(document, {
        subtree: true,
        childList: true,
        attributes: true,
        attributeFilter: ['id', 'inert'],
        attributeOldValue: true,
      });
    });
    const page = await context.newPage();
    await page.goto(`${journey.app.url}/hospital-dashboard`);
    const rows = page.getByRole('table', { name: 'Patients' }).locator('tbody tr');
    await expect.poll(() => rows.count()).toBe(12);
    const seen = await page.evaluate(
      () =>
        (
          window as unknown as {
            seen: { idChanges: string[]; navbarInertChanges: number; firstRows: number };
          }
        ).seen,
    );
    expect(seen.idChanges).toEqual([]);
    // The slide-in menu is out of the tab order from its first render, not made so by a second one.
    expect(seen.navbarInertChanges).toBe(0);
    expect(await page.locator('#app-navbar').evaluate((navbar) => (navbar as HTMLElement).inert)).toBe(true);
    // A screenful of rows in the first pass, the other two right after.
    expect(seen.firstRows).toBe(10);
    await context.close();
  });

  it('opens the sidebar as a slide-in menu on a phone and closes it after a choice', async () => {
    const { context, page } = await hospitalPage({ width: 390, height: 844 });
    const menu = nav(page, 'Audit Trail');
    // Collapsed, the slide-in sits outside the screen.
    const onScreen = async () => ((await menu.boundingBox())?.x ?? -1) >= 0;
    expect(await onScreen()).toBe(false);
    await page.getByRole('button', { name: 'Open navigation menu' }).click();
    await expect.poll(onScreen).toBe(true);
    await menu.click();
    await page.getByRole('heading', { name: 'Transaction History' }).waitFor();
    await expect.poll(onScreen).toBe(false);
    await context.close();
  });
});
