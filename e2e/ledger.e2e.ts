// Browser journey of the public /verify page: a signed-out visitor drops the file of an uploaded
// record (fingerprinted in the browser, never uploaded), pastes the record's blockchain hash,
// and tries a file and a hash the ledger has never seen.
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
const fixtures = fs.mkdtempSync(path.join(os.tmpdir(), 'medledger-ledger-e2e-'));
const recordFile = path.join(fixtures, 'discharge-summary.pdf');
const strangerFile = path.join(fixtures, 'never-uploaded.pdf');
fs.writeFileSync(recordFile, samplePdf('Discharge summary for the ledger journey'));
fs.writeFileSync(strangerFile, samplePdf('A file nobody uploaded'));
let blockchainHash = '';
let hospital: BrowserContext;

beforeAll(async () => {
  // A hospital uploads one record through the API.
  hospital = await journey.browser.newContext();
  const context = hospital;
  await signedInHospital(context, journey.app.url);
  const added = await context.request.post(`${journey.app.url}/api/patients`, {
    data: { firstName: 'Ada', lastName: 'Lovelace' },
  });
  const patientId = (await added.json()).id as string;
  const upload = await uploadRecord(context, journey.app.url, {
    patientId,
    recordType: 'lab-results',
    title: 'Discharge summary',
    files: {
      name: 'discharge-summary.pdf',
      mimeType: 'application/pdf',
      buffer: fs.readFileSync(recordFile),
    },
  });
  blockchainHash = upload.blockchainHash;
});

afterAll(async () => {
  fs.rmSync(fixtures, { recursive: true, force: true });
});

async function verifyPage(): Promise<Page> {
  const context = await journey.browser.newContext();
  const page = await context.newPage();
  const uploads: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST') uploads.push(request.url());
  });
  await page.goto(`${journey.app.url}/verify`);
  await page.getByRole('heading', { name: 'Verify a Record' }).waitFor();
  (page as Page & { posts?: string[] }).posts = uploads;
  return page;
}

// The dropzone's own input (the page also has the receipt check's file inputs).
const dropFile = (page: Page, file: string) =>
  page.getByLabel('File to verify', { exact: true }).setInputFiles(file);

describe('public ledger verification (/verify)', () => {
  it('finds a dropped record file without signing in or uploading it, and checks its proof in the browser', async () => {
    const page = await verifyPage();
    await dropFile(page, recordFile);
    const result = page.getByRole('status').filter({ hasText: 'Found in the ledger' });
    await result.waitFor();
    const text = (await result.textContent()) ?? '';
    expect(text).toContain('medical record upload entered as entry #0');
    expect(text).toContain('Checked in your browser: The inclusion proof');
    expect(text).toContain(blockchainHash);
    expect((page as Page & { posts?: string[] }).posts).toEqual([]);
    await page.context().close();
  });

  it('is reached with the keyboard, opens the chooser on a click anywhere, shows a file dragged over it, turns away one over 25 MB', async () => {
    const page = await verifyPage();
    const input = page.getByLabel('File to verify', { exact: true });
    const area = input.locator('..');

    // The area is the browser's own file input, so it takes keyboard focus (shown around the area)
    // and, as a native control, opens the file chooser with Enter or Space.
    await page.getByRole('link', { name: 'MedLedger home' }).first().focus();
    for (let i = 0; i < 10 && !(await input.evaluate((el) => el === document.activeElement)); i++) {
      await page.keyboard.press('Tab');
    }
    expect(await input.evaluate((el) => el.matches(':focus-visible'))).toBe(true);
    expect(await area.evaluate((el) => getComputedStyle(el).outlineStyle)).toBe('solid');
    // A click anywhere on the area lands on the input, which lies over the words.
    const [chooser] = await Promise.all([page.waitForEvent('filechooser'), area.click()]);
    expect(chooser.isMultiple()).toBe(false);
    await chooser.setFiles(recordFile);
    await page.getByRole('status').filter({ hasText: 'Found in the ledger' }).waitFor();
    // Emptied once read, so that the same file chosen again is a change, and is checked again.
    expect(await input.inputValue()).toBe('');

    // A file dragged over the area lights it up until it leaves.
    await input.dispatchEvent('dragenter');
    expect(await area.getAttribute('data-over')).toBe('true');
    await input.dispatchEvent('dragleave');
    expect(await area.getAttribute('data-over')).toBeNull();

    // Over the upload limit: said at once, nothing fingerprinted or looked up.
    const tooLarge = path.join(fixtures, 'too-large.pdf');
    fs.writeFileSync(tooLarge, '');
    fs.truncateSync(tooLarge, 25 * 1024 * 1024 + 1); // sparse: no 25 MB written
    await input.setInputFiles(tooLarge);
    await page.getByRole('alert').filter({ hasText: 'Choose one file of at most 25 MB.' }).waitFor();

    expect((page as Page & { posts?: string[] }).posts).toEqual([]);
    await page.context().close();
  });

  it('finds the record by its pasted blockchain hash, in any case', async () => {
    const page = await verifyPage();
    await page.getByLabel('Blockchain hash or file SHA-256').fill(` ${blockchainHash.toUpperCase()} `);
    await page.getByRole('button', { name: 'Check' }).click();
    const result = page.getByRole('status').filter({ hasText: 'Found in the ledger' });
    await result.waitFor();
    expect(await result.textContent()).toContain('This hash is a medical record upload entered as entry #0');
    await page.context().close();
  });

  it('says so when a file or hash is not in the ledger, and explains a malformed hash', async () => {
    const page = await verifyPage();
    await dropFile(page, strangerFile);
    await page.getByRole('status').filter({ hasText: 'Not found in the ledger' }).waitFor();

    await page.getByLabel('Blockchain hash or file SHA-256').fill('1234');
    await page.getByRole('button', { name: 'Check' }).click();
    await page.getByText('A hash is 64 hexadecimal characters.').waitFor();

    await page.getByLabel('Blockchain hash or file SHA-256').fill('ab'.repeat(32));
    await page.getByRole('button', { name: 'Check' }).click();
    await page.getByRole('status').filter({ hasText: 'Not found in the ledger' }).waitFor();
    await page.context().close();
  });
});

describe("the record dialog's verification banner", () => {
  it('shows the record verified with its entry and proof, then failed once its file is replaced on disk', async () => {
    const page = await hospital.newPage();
    const dialog = await openRecordDialog(page, journey.app.url, 'Ada Lovelace', 'Discharge summary');
    const banner = dialog.getByRole('status').filter({ hasText: 'Blockchain Verified' });
    await banner.waitFor();
    const text = (await banner.textContent()) ?? '';
    expect(text).toContain('Ledger entry #0');
    expect(text).toMatch(
      /checked against root [0-9a-f]{16}… of 1 entry · proof of 0 hashes · proof re-checked in your browser/,
    );
    expect(text).toContain(blockchainHash);

    // Replace the stored (encrypted) attachment behind the application's back.
    const dir = path.join(journey.app.dataDir, 'attachments');
    const [stored] = fs.readdirSync(dir).filter((name) => name !== '.tmp');
    fs.writeFileSync(path.join(dir, stored), Buffer.from('replaced on disk'));
    await dialog.getByRole('button', { name: 'Check again' }).click();
    const failed = dialog.getByRole('status').filter({ hasText: 'Verification failed' });
    await failed.waitFor();
    expect(await failed.textContent()).toContain(
      'Attachments: Attachment "discharge-summary.pdf" was altered on disk.',
    );
    await page.close();
  });
});
