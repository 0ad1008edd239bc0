// Correcting a record without erasing it, as a hospital would: a lab result with a wrong value is
// amended from the record view (a new version with the corrected PDF), the old version stays
// readable as superseded, the new one is then marked as entered in error with a reason, and the
// public /verify page says that the original file's record was later amended.
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { samplePdf } from '../src/server/features/records/testing';
import { toast } from './auth-helpers';
import { fixtureFiles, hospitalWithPatient, openRecordDialog, uploadRecord } from './record-helpers';
import { startJourney } from './journey';

const journey = startJourney();
const files = fixtureFiles('amend', {
  'potassium.pdf': samplePdf('Potassium: 9.1'),
  'potassium-corrected.pdf': samplePdf('Potassium: 4.1'),
});
const wrongFile = files['potassium.pdf'];
const correctedFile = files['potassium-corrected.pdf'];

describe('amendments and retractions', () => {
  it('amends a record with a corrected file, keeps the old version, then marks it entered in error', async () => {
    const { context, url, patientId } = await hospitalWithPatient(
      journey,
      { firstName: 'Lab', lastName: 'Patient' },
      { viewport: { width: 1280, height: 900 } },
    );
    await uploadRecord(context, url, {
      patientId,
      recordType: 'lab-results',
      title: 'Potassium panel',
      files: { name: 'potassium.pdf', mimeType: 'application/pdf', buffer: fs.readFileSync(wrongFile) },
    });

    const page = await context.newPage();
    const record = await openRecordDialog(page, url, 'Lab Patient', 'Potassium panel');
    await record.getByRole('button', { name: 'Amend Record' }).click();

    const amend = page.getByRole('dialog', { name: 'Amend "Potassium panel"' });
    await amend.getByLabel('Title').fill('Potassium panel (corrected)');
    await amend.locator('input[type="file"]').setInputFiles(correctedFile);
    await amend.getByRole('button', { name: 'Save Amendment' }).click();
    await toast(page, 'Record Amended').waitFor();

    // The dialog now shows the new version, marked Amended, with both versions in its history.
    const current = page.getByRole('dialog', { name: 'Potassium panel (corrected)' });
    await current.getByText('Amended', { exact: true }).waitFor();
    const history = current.getByText(/^Version \d: /);
    await expect.poll(() => history.count()).toBe(2);
    await current.getByRole('button', { name: 'Open version 1' }).click();
    const old = page.getByRole('dialog', { name: 'Potassium panel', exact: true });
    await old.getByText('A corrected version exists').waitFor();
    // The header's badge (the history lists the same status once it has loaded).
    await old.getByText('Superseded', { exact: true }).first().waitFor();
    expect(await old.getByRole('button', { name: 'Amend Record' }).count()).toBe(0);
    await old.getByRole('button', { name: 'Open current version' }).click();

    await current.getByRole('button', { name: 'Mark as Entered in Error' }).click();
    const confirm = page.getByRole('dialog', { name: 'Mark as entered in error?' });
    await confirm.getByRole('button', { name: 'Mark as Entered in Error' }).click();
    await confirm.getByText('Please give a reason').waitFor(); // nothing sent without a reason
    await confirm.getByLabel('Reason').fill('Sample belonged to another patient');
    await confirm.getByRole('button', { name: 'Mark as Entered in Error' }).click();
    await toast(page, 'Marked as Entered in Error').waitFor();
    await current.getByText('Sample belonged to another patient').waitFor();

    // Anyone can learn from /verify that the original file's record was later amended.
    const verify = await journey.newPage();
    await verify.goto(`${url}/verify`);
    await verify.getByLabel('File to verify', { exact: true }).setInputFiles(wrongFile);
    const result = verify.getByRole('status').filter({ hasText: 'Found in the ledger' });
    await result.waitFor();
    expect(await result.textContent()).toContain('This record was later amended');
    await verify.context().close();
    await context.close();
  });
});
