// Receipts: who may fetch one, what it holds, and that it still verifies offline with
// `npm run ledger -- verify-receipt` after many later appends; tampered receipts and other files fail.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canonicalJson } from '../../../shared/ledger/canonical.js';
import { verifyReceipt, type Receipt } from '../../../shared/ledger/receipt.js';
import { ledgerEntries } from '../../db/schema.js';
import {
  addPatient,
  createTestApp,
  expectStatus,
  signedInHospital,
  signedInPatient,
  signedInStaff,
  type TestApp,
} from '../../test/helpers.js';
import { samplePdf, samplePng, uploadRecord } from '../records/testing.js';
import { parseVerifyReceiptArgs, runVerifyReceipt } from './receipt-command.js';
import { noteSigner } from './signing.js';
import { eraseEntryContent } from './erasure.js';
import { appendTestEntries, createLedgeredRecord, TEST_ERASURE } from './testing.js';

/** Later appends before the receipt is checked (about 15 s on PGlite). */
const LATER_APPENDS = 1000;

let t: TestApp;
let hospital: Awaited<ReturnType<typeof signedInHospital>>;
let patient: Awaited<ReturnType<typeof signedInPatient>>;
let recordId: string;
let patientRow: { id: string };
let dir: string;
const pdf = samplePdf('Receipt test');
const png = samplePng();

beforeAll(async () => {
  t = await createTestApp({ ledgerCheckpointSeconds: 3600 });
  hospital = await signedInHospital(t.app);
  const p = await addPatient(t.app, hospital.cookie);
  patient = await signedInPatient(t.app, p.patientId);
  patientRow = p;
  await appendTestEntries(t.ctx.db, 5, { tag: 'before' });
  const res = await uploadRecord(t.app, hospital.cookie, p.id, {
    fields: { title: 'Thyroid panel', description: 'TSH within range' },
    files: [
      { fileName: 'panel.pdf', bytes: pdf },
      { fileName: 'chart.png', bytes: png },
    ],
  });
  expect(res.statusCode).toBe(201);
  recordId = res.json().id;
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'medledger-receipt-'));
});
afterAll(async () => {
  await t?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

const get = (url: string, cookie?: string) =>
  t.app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });

async function cli(args: string[]) {
  const parsed = parseVerifyReceiptArgs(args);
  if ('error' in parsed) throw new Error(parsed.error);
  const out: string[] = [];
  const err: string[] = [];
  const code = await runVerifyReceipt(parsed.options, { out: (l) => out.push(l), err: (l) => err.push(l) });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('GET /api/medical-records/:id/receipt', () => {
  it('is given to the patient and the hospital of the record, and to nobody else', async () => {
    expect((await get(`/api/medical-records/${recordId}/receipt`)).statusCode).toBe(401);
    const stranger = await signedInHospital(t.app, 'Other Hospital');
    const refused = await get(`/api/medical-records/${recordId}/receipt`, stranger.cookie);
    expect(refused.statusCode).toBe(404);
    expect(refused.json().message).toBe('Record not found.');
    expect((await get(`/api/medical-records/${recordId}/receipt`, hospital.cookie)).statusCode).toBe(200);
    const res = await get(`/api/medical-records/${recordId}/receipt`, patient.cookie);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="medledger-receipt-${recordId}.json"`,
    );
    expect(res.headers['cache-control']).toBe('private, no-store');
  });

  it('holds the entry exactly as hashed, the files, the proof and a signed checkpoint that covers it', async () => {
    const receipt = (await get(`/api/medical-records/${recordId}/receipt`, patient.cookie)).json();
    const [entry] = await t.ctx.db.select().from(ledgerEntries).where(eq(ledgerEntries.recordId, recordId));
    expect(canonicalJson(receipt.entry)).toBe(entry.canonical);
    expect(receipt.entryHash).toBe(entry.hash);
    expect(receipt.leafIndex).toBe(Number(entry.seq));
    // Format 2: the entry holds salted commitments only; the receipt carries the salt and content.
    expect(receipt.entry.v).toBe(2);
    expect(receipt.entry.content).toBeUndefined();
    expect(entry.canonical).not.toContain('Thyroid panel');
    expect(entry.canonical).not.toContain('panel.pdf');
    expect(receipt.opening.salt).toMatch(/^[0-9a-f]{64}$/);
    expect(receipt.opening.content).toMatchObject({
      title: 'Thyroid panel',
      description: 'TSH within range',
    });
    expect(receipt.attachments.map((a: { fileName: string }) => a.fileName)).toEqual([
      'panel.pdf',
      'chart.png',
    ]);
    expect(receipt.treeSize).toBeGreaterThan(receipt.leafIndex);
    expect(receipt.checkpoint.split('\n')[1]).toBe(String(receipt.treeSize));
    expect(receipt.verifierKey).toBe((await get('/api/ledger/public-key')).body.trim());
    expect((await verifyReceipt(receipt, { verifierKey: receipt.verifierKey })).ok).toBe(true);
  });

  it('names the practitioner and their organization in its readable part, never in the entry', async () => {
    const clinician = await signedInStaff(t, hospital.cookie, 'clinician', {
      firstName: 'Ada',
      lastName: 'Okafor',
    });
    const res = await uploadRecord(t.app, clinician.cookie, patientRow.id, {
      fields: { title: 'Echo report', practitionerId: clinician.userId },
    });
    expect(res.statusCode).toBe(201);
    const receipt = expectStatus<Receipt>(
      await get(`/api/medical-records/${res.json().id}/receipt`, patient.cookie),
      200,
    );
    expect(receipt.summary).toEqual({
      title: 'Echo report',
      hospital: 'General Hospital',
      practitioner: 'Ada Okafor, General Hospital',
    });
    expect(JSON.stringify(receipt.entry)).not.toContain('Okafor');
    // The summary is not what verifies: a receipt with it changed still verifies; the entry decides.
    const altered = { ...receipt, summary: { ...receipt.summary!, practitioner: 'Someone Else' } };
    expect((await verifyReceipt(altered, { verifierKey: receipt.verifierKey })).ok).toBe(true);
  });

  it('holds an old (format 1) entry with its content inline and no opening, and verifies it', async () => {
    const old = await createLedgeredRecord(t.ctx, hospital.userId, { title: 'Old format', format: 1 });
    const receipt = (await get(`/api/medical-records/${old.recordId}/receipt`, hospital.cookie)).json();
    expect(receipt.entry.v).toBe(1);
    expect(receipt.entry.content).toMatchObject({ title: 'Old format' });
    expect(receipt.opening).toBeUndefined();
    const result = await verifyReceipt(receipt, { verifierKey: receipt.verifierKey });
    expect(result.checks.filter((c) => !c.ok)).toEqual([]);
    const changed = structuredClone(receipt);
    changed.entry.content.title = 'Edited';
    expect((await verifyReceipt(changed, { verifierKey: receipt.verifierKey })).ok).toBe(false);
  });

  it("is refused with a 409 once the entry's content was erased", async () => {
    const made = await createLedgeredRecord(t.ctx, hospital.userId, { title: 'To be erased' });
    expect((await get(`/api/medical-records/${made.recordId}/receipt`, hospital.cookie)).statusCode).toBe(
      200,
    );
    expect((await eraseEntryContent(t.ctx.db, String(made.seq), TEST_ERASURE)).erased).toBe(true);
    const res = await get(`/api/medical-records/${made.recordId}/receipt`, hospital.cookie);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toMatch(/erased/);
  });

  it('signs a new checkpoint for a record newer than the latest one, however young that is', async () => {
    // The checkpoint interval here is an hour: the receipt above made one; a new record is not in it.
    const p = await addPatient(t.app, hospital.cookie);
    const res = await uploadRecord(t.app, hospital.cookie, p.id, {
      files: [{ fileName: 'a.pdf', bytes: pdf }],
    });
    const receipt = (await get(`/api/medical-records/${res.json().id}/receipt`, hospital.cookie)).json();
    expect(receipt.treeSize).toBe(receipt.leafIndex + 1);
    expect((await verifyReceipt(receipt)).ok).toBe(true);
  });

  it('is refused for a draft (not ledgered) with a 404 and a message', async () => {
    const p = await addPatient(t.app, hospital.cookie);
    const draft = await uploadRecord(t.app, hospital.cookie, p.id, { fields: { draft: 'true' } });
    const res = await get(`/api/medical-records/${draft.json().id}/receipt`, hospital.cookie);
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toMatch(/no ledger entry/);
  });
});

describe(`npm run ledger -- verify-receipt, after ${LATER_APPENDS} later entries`, () => {
  let receiptPath: string;
  let key: string;

  beforeAll(async () => {
    const receipt = (await get(`/api/medical-records/${recordId}/receipt`, patient.cookie)).body;
    key = (await get('/api/ledger/public-key')).body.trim();
    receiptPath = path.join(dir, 'receipt.json');
    fs.writeFileSync(receiptPath, receipt);
    fs.writeFileSync(path.join(dir, 'panel.pdf'), pdf);
    fs.writeFileSync(path.join(dir, 'chart.png'), png);
    fs.writeFileSync(path.join(dir, 'other.pdf'), samplePdf('Another file'));
    await appendTestEntries(t.ctx.db, LATER_APPENDS, { tag: 'later' });
    const head = (await get('/api/ledger/head')).json();
    expect(head.treeSize).toBeGreaterThan(LATER_APPENDS);
  }, 600_000);

  it('verifies the receipt and both files with the pinned key', async () => {
    const res = await cli([
      receiptPath,
      path.join(dir, 'panel.pdf'),
      path.join(dir, 'chart.png'),
      '--key',
      key,
    ]);
    expect(res.err).toBe('');
    expect(res.code).toBe(0);
    expect(res.out).toMatch(/^ok {4} signature: /m);
    expect(res.out).toMatch(/^ok {4} inclusion: /m);
    expect(res.out).toMatch(/panel\.pdf is the file "panel\.pdf"/);
    expect(res.out).toMatch(/Result: OK/);
  });

  it('warns when the key is taken from the receipt itself', async () => {
    const res = await cli([receiptPath]);
    expect(res.code).toBe(0);
    expect(res.err).toMatch(/^warning: The signing key was taken from the receipt itself/);
  });

  it('fails a file the entry does not cover', async () => {
    const res = await cli([receiptPath, path.join(dir, 'other.pdf'), '--key', key]);
    expect(res.code).toBe(1);
    expect(res.out).toMatch(
      /FAILED files: other\.pdf \(SHA-256 [0-9a-f]{64}\) is not one of the entry's files/,
    );
  });

  it('fails a receipt whose fields, proof, checkpoint or key were changed', async () => {
    const original = JSON.parse(fs.readFileSync(receiptPath, 'utf8'));
    const variants: Array<[string, (r: typeof original) => void, RegExp]> = [
      [
        'title',
        (r) => (r.opening.content.title = 'Something else'),
        /FAILED entry: .*the content was changed/,
      ],
      [
        'commitment',
        (r) => (r.entry.commitments.title = 'c'.repeat(64)),
        /FAILED entry: .*the fields were changed/,
      ],
      ['salt', (r) => (r.opening.salt = 'd'.repeat(64)), /FAILED entry: .*the content was changed/],
      ['no opening', (r) => delete r.opening, /FAILED entry: .*does not carry the salt and content/],
      [
        'file hash',
        (r) => {
          r.opening.content.attachments[0].sha256 = 'a'.repeat(64);
          r.attachments[0].sha256 = 'a'.repeat(64);
        },
        /FAILED entry/,
      ],
      [
        'proof',
        (r) => (r.inclusionProof[0] = 'b'.repeat(64)),
        /FAILED inclusion: The inclusion proof does not lead/,
      ],
      [
        'record id',
        (r) => (r.recordId = '00000000-0000-4000-8000-000000000000'),
        /FAILED entry: The entry is not the upload of record/,
      ],
      [
        'checkpoint',
        (r) => (r.checkpoint = r.checkpoint.replace(`\n${r.treeSize}\n`, `\n${r.treeSize + 1}\n`)),
        /FAILED signature: The signature by .* does not verify/,
      ],
      [
        'key in the receipt',
        (r) => (r.verifierKey = noteSigner(r.origin, Buffer.alloc(32, 7)).verifierKey),
        /FAILED signature: The note is not signed by the key/,
      ],
    ];
    for (const [name, change, expected] of variants) {
      const copy = structuredClone(original);
      change(copy);
      const file = path.join(dir, `tampered-${name.replace(/ /g, '-')}.json`);
      fs.writeFileSync(file, JSON.stringify(copy));
      const res = await cli(name === 'key in the receipt' ? [file] : [file, '--key', key]);
      expect(res.code, name).toBe(1);
      expect(res.out, name).toMatch(expected);
    }
    // A key pinned with --key wins over the one in the receipt.
    const wrong = noteSigner(original.origin, Buffer.alloc(32, 9)).verifierKey;
    const res = await cli([receiptPath, '--key', wrong]);
    expect(res.code).toBe(1);
  });

  it('says what is wrong with a file that is not a receipt, and with bad arguments', async () => {
    fs.writeFileSync(path.join(dir, 'not.json'), '{"format":"something"}');
    const res = await cli([path.join(dir, 'not.json')]);
    expect(res.code).toBe(1);
    expect(res.out).toMatch(/FAILED format: This is not a MedLedger receipt/);
    expect((await cli([path.join(dir, 'missing.json')])).code).toBe(2);
    expect(parseVerifyReceiptArgs([])).toHaveProperty('error');
    expect(parseVerifyReceiptArgs(['r.json', '--fast'])).toHaveProperty('error');
  });
});
