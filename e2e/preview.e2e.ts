// Previews (issue 15): a hospital opens a record and previews its image (zoomable) and its PDF in
// the app, through the download route; once the image's stored file is altered on disk, the
// preview refuses to show it instead of showing damaged content.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { samplePdf, samplePng } from '../src/server/features/records/testing';
import { hospitalWithPatient, openRecordDialog, uploadRecord } from './record-helpers';
import { startJourney } from './journey';

// The altered image is logged as an error (and audited): that one is expected.
const journey = startJourney({}, { expectedServerErrors: [/attachment failed its integrity check/] });

describe('attachment previews', () => {
  it('shows an image with zoom and a PDF in the record view, and refuses an altered file', async () => {
    const { context, url, patientId } = await hospitalWithPatient(
      journey,
      { firstName: 'Xray', lastName: 'Patient' },
      { viewport: { width: 1280, height: 900 } },
    );
    const uploaded = await uploadRecord(context, url, {
      patientId,
      recordType: 'imaging',
      title: 'Chest X-ray',
      files: { name: 'chest.png', mimeType: 'image/png', buffer: samplePng() },
    });
    await uploadRecord(context, url, {
      patientId,
      recordType: 'lab-results',
      title: 'Blood panel',
      files: { name: 'blood.pdf', mimeType: 'application/pdf', buffer: samplePdf('Haemoglobin 14.1') },
    });

    const page = await context.newPage();
    const openRecord = (title: string) => openRecordDialog(page, url, 'Xray Patient', title);
    await openRecord('Chest X-ray');

    const record = page.getByRole('dialog', { name: 'Chest X-ray' });
    await record.getByRole('button', { name: 'Preview chest.png' }).click();
    const preview = page.getByRole('dialog', { name: 'chest.png' });
    const image = preview.getByTestId('preview-image');
    await image.waitFor();
    // Decoded by the browser, not a broken image.
    await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1);
    const width = () => image.evaluate((img: HTMLImageElement) => img.style.width);
    expect(await width()).toBe('100%');
    const slider = preview.getByRole('slider', { name: 'Zoom' });
    await slider.focus();
    await page.keyboard.press('ArrowRight');
    expect(await width()).toBe('125%');

    // The PDF opens in the browser's viewer inside the app, from the bytes the route gave.
    const pdfRecord = await openRecord('Blood panel');
    await pdfRecord.getByRole('button', { name: 'Preview blood.pdf' }).click();
    const frame = page
      .getByRole('dialog', { name: 'blood.pdf' })
      .locator('iframe[title="Preview of blood.pdf"]');
    await frame.waitFor();
    expect(await frame.getAttribute('src')).toMatch(/^blob:/);

    // Alter the stored image: the preview says so and shows nothing of it.
    const dir = path.join(journey.app.dataDir, 'attachments');
    const record0 = uploaded;
    const key = record0.attachments[0].url.split('/').pop()!;
    const stored = path.join(dir, key);
    const bytes = fs.readFileSync(stored);
    bytes[bytes.length - 20] ^= 0x01;
    fs.writeFileSync(stored, bytes);
    await openRecord('Chest X-ray');
    await record.getByRole('button', { name: 'Preview chest.png' }).click();
    await preview.getByRole('alert').getByText('Preview unavailable').waitFor();
    expect(await preview.getByTestId('preview-image').count()).toBe(0);
    await context.close();
  });
});
