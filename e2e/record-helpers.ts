// Journey helpers for records: files on disk to upload, a hospital with a patient, an upload and a
// booking through the API, and the way from the hospital dashboard to a record's dialog.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll } from 'vitest';
import { addPatient, signedInHospital } from './auth-helpers';
import type { Journey } from './journey';

/** The patient row id (patients.id) of the signed-in hospital's patient with this MRN. */
export async function patientIdOf(context: BrowserContext, url: string, mrn: string): Promise<string> {
  const list = await context.request.get(`${url}/api/patients?search=${encodeURIComponent(mrn)}`);
  const found = ((await list.json()) as { items: { id: string; patientId: string }[] }).items.find(
    (p) => p.patientId === mrn,
  );
  if (!found) throw new Error(`no patient ${mrn}`);
  return found.id;
}

type UploadedRecord = { id: string; blockchainHash: string; attachments: { url: string }[] };

/** Uploads a record through the API as the signed-in hospital (201 or it throws); the new record. */
export async function uploadRecord(
  context: BrowserContext,
  url: string,
  multipart: Record<string, string | { name: string; mimeType: string; buffer: Buffer }>,
): Promise<UploadedRecord> {
  const upload = await context.request.post(`${url}/api/medical-records`, { multipart });
  if (upload.status() !== 201) throw new Error(`upload answered ${upload.status()}: ${await upload.text()}`);
  return (await upload.json()) as UploadedRecord;
}

/**
 * Books a consultation through the API as the signed-in hospital, 3 days from now at 10:00 UTC
 * (201 or it throws); its start.
 */
export async function bookAppointment(
  context: BrowserContext,
  url: string,
  appointment: { patientId: string; doctorName: string; department: string },
  /** When: by default in three days, at 10:00 UTC. */
  appointmentDate = new Date(new Date(Date.now() + 3 * 86_400_000).setUTCHours(10, 0, 0, 0)),
): Promise<Date> {
  const booked = await context.request.post(`${url}/api/appointments`, {
    data: { ...appointment, appointmentType: 'consultation', appointmentDate },
  });
  if (booked.status() !== 201) throw new Error(`booking answered ${booked.status()}: ${await booked.text()}`);
  return appointmentDate;
}

/**
 * From the hospital dashboard: the Patients tab, the patient's file, then the dialog of one of their
 * records (by title).
 */
export async function openRecordDialog(page: Page, url: string, patientName: string, recordTitle: string) {
  await page.goto(`${url}/hospital-dashboard`);
  await page
    .getByRole('navigation', { name: 'Hospital dashboard' })
    .getByRole('button', { name: 'Patients' })
    .click();
  await page.getByRole('button', { name: `Open patient file of ${patientName}` }).click();
  await page
    .getByRole('dialog', { name: patientName })
    .locator('.mantine-Paper-root')
    .filter({ hasText: recordTitle })
    .getByRole('button', { name: 'View' })
    .click();
  return page.getByRole('dialog', { name: recordTitle });
}

/** Files written to a fresh temporary folder, removed after the journey file: name -> path. */
export function fixtureFiles(prefix: string, files: Record<string, Buffer>): Record<string, string> {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), `medledger-${prefix}-e2e-`));
  afterAll(() => fs.rmSync(folder, { recursive: true, force: true }));
  return Object.fromEntries(
    Object.entries(files).map(([name, bytes]) => {
      fs.writeFileSync(path.join(folder, name), bytes);
      return [name, path.join(folder, name)];
    }),
  );
}

/** A new context signed in as a new hospital that has added one patient (its MRN and row id). */
export async function hospitalWithPatient(
  journey: Journey,
  patient: { firstName: string; lastName: string },
  options?: BrowserContextOptions,
) {
  const context = await journey.browser.newContext(options);
  const url = journey.app.url;
  await signedInHospital(context, url);
  const mrn = await addPatient(context, url, patient);
  return { context, url, mrn, patientId: await patientIdOf(context, url, mrn) };
}
