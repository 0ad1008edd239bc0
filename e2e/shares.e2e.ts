// Specialist share links (issue 12; docs/decisions.md#specialist-share-links): a patient shares a
// record from its view; the specialist opens the e-mailed link from the outbox without signing in,
// sees the record verified and downloads the attachment (the same bytes); the patient's trail shows
// the opening; the hospital amends the record and the link opens the corrected version, saying so,
// with the version history; the Manage Consent dialog lists the link; revoked there, it is refused.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { samplePdf } from '../src/server/features/records/testing';
import { linksIn, outboxMessages } from '../src/server/mail/read-message';
import { signedInPatient, toast, uniqueEmail } from './auth-helpers';
import { hospitalWithPatient, openRecordDialog, uploadRecord } from './record-helpers';
import { startJourney } from './journey';

const journey = startJourney();
const pdfBytes = samplePdf('Echocardiogram: normal');
const SPECIALIST = 'dr.heart@cardio.example';

/** The share link in the last mail to the specialist. */
function sharedLink(): string {
  const mail = outboxMessages(path.join(journey.app.dataDir, 'outbox'))
    .filter((m) => m.includes(`To: ${SPECIALIST}`))
    .pop();
  const link = mail && linksIn(mail).find((l) => new URL(l).pathname.startsWith('/shared/'));
  if (!link) throw new Error('no share link in the outbox');
  return link;
}

describe('specialist share links', () => {
  it('a patient shares a record, the specialist opens and downloads it without an account, then not after revocation', async () => {
    const {
      context: hospital,
      url,
      mrn,
      patientId,
    } = await hospitalWithPatient(journey, {
      firstName: 'Ada',
      lastName: 'Lovelace',
    });
    await uploadRecord(hospital, url, {
      patientId,
      recordType: 'imaging',
      title: 'Echocardiogram',
      shareWithSpecialists: 'true',
      files: { name: 'echo.pdf', mimeType: 'application/pdf', buffer: pdfBytes },
    });

    // The patient shares it from the record's view.
    const patient = await journey.browser.newContext();
    await signedInPatient(patient, url, mrn, uniqueEmail('share-patient'));
    const page = await patient.newPage();
    await page.goto(`${url}/patient-dashboard`);
    const records = page.getByRole('region', { name: 'Recent Medical Records' });
    await records.getByRole('button', { name: 'Open Echocardiogram' }).click();
    const record = page.getByRole('dialog', { name: 'Echocardiogram' });
    await record.getByRole('button', { name: 'Share with a Specialist' }).click();
    const form = page.getByRole('dialog', { name: 'Share with a Specialist' });
    await form.getByLabel("Specialist's email").fill('not an address');
    await form.getByRole('button', { name: 'Send Link' }).click();
    await form.getByText('Please enter a valid email address').waitFor();
    await form.getByLabel("Specialist's email").fill(SPECIALIST);
    await form.getByLabel('Link valid for (hours)').fill('24');
    await form.getByLabel('Note to the specialist').fill('Please review before Monday.');
    await form.getByRole('button', { name: 'Send Link' }).click();
    await toast(page, 'Link Sent').waitFor();
    await form.waitFor({ state: 'detached' });
    await record.getByText(SPECIALIST).waitFor();
    await record.getByText('Active').waitFor();

    // The specialist opens the mailed link in a browser that has never signed in.
    const link = sharedLink();
    const specialist = await journey.browser.newContext();
    const shared = await specialist.newPage();
    await shared.goto(link);
    await shared.getByRole('heading', { name: 'Echocardiogram' }).waitFor();
    await shared.getByText('Blockchain Verified', { exact: true }).waitFor();
    await shared.getByText('Please review before Monday.').waitFor();
    const [download] = await Promise.all([
      shared.waitForEvent('download'),
      shared.getByRole('button', { name: 'Download echo.pdf' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('echo.pdf');
    expect(fs.readFileSync(await download.path()).equals(pdfBytes)).toBe(true);
    // Nothing else of the patient is there: not their name (matched case-sensitively: the page's
    // hashes are lower-case hex, which can hold "ada", and a text string matches any case), nor
    // their MRN.
    expect(await shared.getByText(/Ada|Lovelace/).count()).toBe(0);
    expect(await shared.getByText(mrn).count()).toBe(0);

    // The patient's trail shows the opening.
    const trail = await patient.request.get(`${url}/api/audit-logs/patient?action=record_view`);
    const details = ((await trail.json()) as { items: { details: string }[] }).items.map((i) => i.details);
    expect(details).toContain(`"Echocardiogram" opened by specialist link to ${SPECIALIST}`);

    await shared.screenshot({ path: '/tmp/medledger-shared-record.png', fullPage: true });
    await page.screenshot({ path: '/tmp/medledger-record-links.png', fullPage: true });

    // The hospital amends the record from its view, leaving the sharing switches alone: the link
    // follows the record, and the specialist sees the corrected version, told that it was amended,
    // with the version history.
    const hospitalPage = await hospital.newPage();
    const hospitalRecord = await openRecordDialog(hospitalPage, url, 'Ada Lovelace', 'Echocardiogram');
    await hospitalRecord.getByRole('button', { name: 'Amend Record' }).click();
    const amend = hospitalPage.getByRole('dialog', { name: 'Amend "Echocardiogram"' });
    await amend.getByLabel('Title').fill('Echocardiogram (corrected)');
    await amend.getByRole('button', { name: 'Save Amendment' }).click();
    await toast(hospitalPage, 'Record Amended').waitFor();
    await hospital.close();
    await shared.reload();
    await shared.getByRole('heading', { name: 'Echocardiogram (corrected)' }).waitFor();
    await shared.getByText('This record was amended', { exact: true }).waitFor();
    await shared.getByText(/corrected after this link was sent/).waitFor();
    await shared.getByText('Version 1: Echocardiogram', { exact: true }).waitFor();
    await shared.getByText('Version 2: Echocardiogram (corrected) (shown)').waitFor();
    await shared.getByText('Superseded', { exact: true }).waitFor();
    await shared.getByText('Blockchain Verified', { exact: true }).waitFor();
    await shared.getByRole('button', { name: 'Download echo.pdf' }).waitFor();
    await shared.screenshot({ path: '/tmp/medledger-shared-amended.png', fullPage: true });
    await shared.setViewportSize({ width: 390, height: 844 });
    await shared.screenshot({ path: '/tmp/medledger-shared-amended-390.png', fullPage: true });
    expect(await shared.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

    // The Manage Consent dialog lists the link holding access; revoked there, the link is refused.
    await page.keyboard.press('Escape');
    await record.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Manage Consent' }).click();
    const consent = page.getByRole('dialog', { name: 'Manage Consent' });
    await consent.getByText(SPECIALIST).waitFor();
    await consent.getByText('Echocardiogram (corrected)').waitFor();
    await consent.getByRole('button', { name: `Revoke the link to ${SPECIALIST}` }).click();
    await toast(page, 'Link Revoked').waitFor();
    await consent.getByText('No specialist link opens any of your records.').waitFor();
    await shared.reload();
    await shared.getByText('Link not available').waitFor();
    await shared.getByText(/This link is not available/).waitFor();
    expect(await shared.getByRole('heading', { name: 'Echocardiogram' }).count()).toBe(0);
    await specialist.close();
    await patient.close();
  });
});
