// Over HTTPS (TLS_CERT_FILE, TLS_KEY_FILE) Chromium talks HTTP/2 to the server: a hospital's
// session cookie is Secure, the dashboard and every one of its files arrive over HTTP/2, an
// attachment of several stored chunks downloads with the same bytes, and once one of its later
// chunks is altered on disk the download fails instead of saving the part before it. The
// certificate is a throw-away one, which the browser contexts accept (ignoreHTTPSErrors).
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeTestCertificate } from '../scripts/test-certificate';
import { CHUNK_SIZE, sealedChunk } from '../src/server/files/testing';
import { samplePdf } from '../src/server/features/records/testing';
import { toast } from './auth-helpers';
import { startJourney } from './journey';
import { hospitalWithPatient, openRecordDialog, uploadRecord } from './record-helpers';

const certificate = makeTestCertificate(fs.mkdtempSync(path.join(os.tmpdir(), 'medledger-e2e-cert-')));
const journey = startJourney(
  { TLS_CERT_FILE: certificate.certFile, TLS_KEY_FILE: certificate.keyFile },
  { expectedServerErrors: [/attachment failed its integrity check/] },
);

describe('the app over HTTPS and HTTP/2', () => {
  it('signs in with a Secure cookie, loads over HTTP/2, and downloads whole files or none', async () => {
    const { context, url, patientId } = await hospitalWithPatient(
      journey,
      { firstName: 'Tim', lastName: 'Berners' },
      { ignoreHTTPSErrors: true, viewport: { width: 1280, height: 900 } },
    );
    expect(url).toMatch(/^https:/);
    const session = (await context.cookies()).find((c) => c.httpOnly);
    expect(session?.secure).toBe(true);

    const head = samplePdf('Over HTTP/2');
    const pdf = Buffer.concat([head, crypto.randomBytes(3 * CHUNK_SIZE - head.length)]);
    const record = await uploadRecord(context, url, {
      patientId,
      recordType: 'lab-results',
      title: 'Blood panel',
      files: { name: 'panel.pdf', mimeType: 'application/pdf', buffer: pdf },
    });

    const page = await context.newPage();
    const dialog = await openRecordDialog(page, url, 'Tim Berners', 'Blood panel');
    const protocols = await page.evaluate(() =>
      [...performance.getEntriesByType('navigation'), ...performance.getEntriesByType('resource')].map(
        (entry) => `${(entry as PerformanceResourceTiming).nextHopProtocol} ${entry.name}`,
      ),
    );
    expect(protocols.length).toBeGreaterThan(10);
    expect(protocols.filter((p) => !p.startsWith('h2 '))).toEqual([]);

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      dialog.getByRole('button', { name: 'Download panel.pdf' }).click(),
    ]);
    expect(fs.readFileSync(await download.path()).equals(pdf)).toBe(true);

    // A byte of the second stored chunk altered: the first chunk could be sent, then the stream
    // is reset, and the browser saves nothing.
    const stored = path.join(journey.app.dataDir, 'attachments', record.attachments[0].url.split('/').pop()!);
    const bytes = fs.readFileSync(stored);
    bytes[sealedChunk(1, bytes.length).start + 1000] ^= 0x01;
    fs.writeFileSync(stored, bytes);
    let saved = false;
    page.on('download', () => (saved = true));
    await dialog.getByRole('button', { name: 'Download panel.pdf' }).click();
    await toast(page, 'Download Failed').waitFor();
    expect(saved).toBe(false);
    await context.close();
  });
});
