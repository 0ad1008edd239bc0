// Browser journey of a receipt: the hospital downloads a record's ledger receipt from the record
// dialog; a visitor on /verify, with the network cut off, checks the receipt and the record's file
// in the browser (Web Crypto SHA-256 and Ed25519, the shared Merkle code), and sees a file the
// record does not have refused.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { samplePdf } from '../src/server/features/records/testing';
import { signedInHospital } from './auth-helpers';
import { openRecordDialog, uploadRecord } from './record-helpers';
import { startJourney } from './journey';

const journey = startJourney();
const fixtures = fs.mkdtempSync(path.join(os.tmpdir(), 'medledger-receipt-e2e-'));
const recordFile = path.join(fixtures, 'mri-report.pdf');
const strangerFile = path.join(fixtures, 'other.pdf');
fs.writeFileSync(recordFile, samplePdf('MRI report for the receipt journey'));
fs.writeFileSync(strangerFile, samplePdf('Not part of the record'));
const receiptFile = path.join(fixtures, 'receipt.json');
let hospital: BrowserContext;

beforeAll(async () => {
  hospital = await journey.browser.newContext({ acceptDownloads: true });
  await signedInHospital(hospital, journey.app.url);
  const added = await hospital.request.post(`${journey.app.url}/api/patients`, {
    data: { firstName: 'Grace', lastName: 'Hopper' },
  });
  const patientId = (await added.json()).id as string;
  await uploadRecord(hospital, journey.app.url, {
    patientId,
    recordType: 'imaging',
    title: 'MRI report',
    files: { name: 'mri-report.pdf', mimeType: 'application/pdf', buffer: fs.readFileSync(recordFile) },
  });
});

afterAll(async () => {
  fs.rmSync(fixtures, { recursive: true, force: true });
});

async function choose(page: Page, label: string, files: string[]) {
  const [chooser] = await Promise.all([
    page.waitForEvent('filechooser'),
    page.getByLabel(label, { exact: true }).click(),
  ]);
  await chooser.setFiles(files);
}

describe('a ledger receipt', () => {
  it('is downloaded from the record dialog', async () => {
    const page = await hospital.newPage();
    const dialog = await openRecordDialog(page, journey.app.url, 'Grace Hopper', 'MRI report');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      dialog.getByRole('button', { name: 'Download Receipt' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('medledger-receipt-mri-report.json');
    await download.saveAs(receiptFile);
    const receipt = JSON.parse(fs.readFileSync(receiptFile, 'utf8'));
    expect(receipt.format).toBe('medledger-receipt/v1');
    expect(receipt.attachments.map((a: { fileName: string }) => a.fileName)).toEqual(['mri-report.pdf']);
    await page.close();
  });

  it('is checked with its file on /verify while the browser is offline', async () => {
    const context = await journey.browser.newContext();
    const page = await context.newPage();
    const requests: string[] = [];
    await page.goto(`${journey.app.url}/verify`);
    await page.getByRole('heading', { name: 'Check a receipt' }).waitFor();
    await context.setOffline(true);
    page.on('request', (request) => requests.push(request.url()));

    await choose(page, 'Receipt', [receiptFile]);
    await choose(page, 'Record files (optional)', [recordFile]);
    await page.getByRole('button', { name: 'Verify receipt' }).click();
    const result = page.getByRole('status', { name: 'Receipt result' });
    await result.getByText('Receipt verified').waitFor();
    const text = (await result.textContent()) ?? '';
    expect(text).toMatch(/The checkpoint of \d+ entries is signed by localhost:\d+\/medledger\+[0-9a-f]{8}/);
    expect(text).toContain('mri-report.pdf is the file "mri-report.pdf" of the entry');
    expect(text).toContain('The signing key was taken from the receipt itself');

    // A file the record does not have.
    await choose(page, 'Record files (optional)', [strangerFile]);
    await page.getByRole('button', { name: 'Verify receipt' }).click();
    await result.getByText('Receipt NOT verified').waitFor();
    expect(await result.textContent()).toContain('other.pdf (SHA-256');

    // A file that is not a receipt is explained in words (the browser parses it with Zod's mini
    // build, which carries no messages of its own: receipt.ts sets the English ones).
    const notAReceipt = path.join(fixtures, 'not-a-receipt.json');
    fs.writeFileSync(notAReceipt, JSON.stringify({ format: 'medledger-receipt/v0' }));
    await choose(page, 'Receipt', [notAReceipt]);
    await page.getByRole('button', { name: 'Verify receipt' }).click();
    await result.getByText('Receipt NOT verified').waitFor();
    expect(await result.textContent()).toContain(
      'This is not a MedLedger receipt (format: Invalid input: expected "medledger-receipt/v1")',
    );

    // Nothing left the browser.
    expect(requests.filter((u) => u.startsWith('http'))).toEqual([]);
    await context.close();
  });
});
