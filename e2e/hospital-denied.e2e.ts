// Browser journeys of being kept out of the hospital workspace: signed-out visitors and patients
// never see the dashboard, and another hospital cannot reach a hospital's patients or files.
import { describe, expect, it } from 'vitest';
import { samplePdf } from '../src/server/features/records/testing';
import { startJourney } from './journey';
import { addPatient, signedInHospital, signedInPatient, uniqueEmail } from './auth-helpers';

const journey = startJourney();

describe('kept out of the hospital workspace', () => {
  it('sends a signed-out visitor from /hospital-dashboard to the login options', async () => {
    const context = await journey.browser.newContext();
    const page = await context.newPage();
    await page.goto(`${journey.app.url}/hospital-dashboard`);
    await page.getByText('Healthcare Provider Login').waitFor();
    expect(new URL(page.url()).pathname).toBe('/');
    expect(await page.getByText('Patient Management').count()).toBe(0);
    await context.close();
  });

  it('sends a patient away from /hospital-dashboard and answers 403 to its hospital calls', async () => {
    const hospital = await journey.browser.newContext();
    await signedInHospital(hospital, journey.app.url);
    const mrn = await addPatient(hospital, journey.app.url, { firstName: 'Pat', lastName: 'Ient' });
    const context = await journey.browser.newContext();
    await signedInPatient(context, journey.app.url, mrn, uniqueEmail('denied-patient'));
    const page = await context.newPage();
    await page.goto(`${journey.app.url}/hospital-dashboard`);
    await page.waitForURL((url) => url.pathname === '/');
    expect(await page.getByText('Patient Management').count()).toBe(0);
    for (const path of [
      '/api/patients',
      '/api/audit-logs',
      '/api/hospital/settings',
      '/api/medical-records/drafts',
    ]) {
      expect((await context.request.get(`${journey.app.url}${path}`)).status(), path).toBe(403);
    }
    await hospital.close();
    await context.close();
  });

  it("answers 404 to another hospital for a hospital's patient, record and file", async () => {
    const owner = await journey.browser.newContext();
    await signedInHospital(owner, journey.app.url, 'Owner Clinic');
    const patient = await (
      await owner.request.post(`${journey.app.url}/api/patients`, {
        data: { firstName: 'Private', lastName: 'Person' },
      })
    ).json();
    const record = await (
      await owner.request.post(`${journey.app.url}/api/medical-records`, {
        multipart: {
          patientId: patient.id,
          recordType: 'lab-results',
          title: 'Private',
          files: { name: 'private.pdf', mimeType: 'application/pdf', buffer: samplePdf() },
        },
      })
    ).json();
    const intruder = await journey.browser.newContext();
    await signedInHospital(intruder, journey.app.url, 'Intruder Clinic');
    for (const path of [
      `/api/patients/${patient.id}`,
      `/api/medical-records/${patient.id}`,
      `/api/medical-records/record/${record.id}`,
      record.attachments[0].url,
      '/api/download/..%2F..%2Fetc%2Fpasswd',
    ]) {
      expect((await intruder.request.get(`${journey.app.url}${path}`)).status(), path).toBe(404);
    }
    // Its own dashboard does not list the other hospital's patient.
    const page = await intruder.newPage();
    await page.goto(`${journey.app.url}/hospital-dashboard`);
    await page.getByText('No patients found. Add patients to get started.').waitFor();
    await owner.close();
    await intruder.close();
  });
});
