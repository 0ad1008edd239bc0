import crypto from 'node:crypto';
import fs from 'node:fs';
import { eq, gte } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { fromHex } from '../../../shared/ledger/sha256.js';
import { MAX_UPLOAD_BYTES } from '../../../shared/constants.js';
import { TOO_LARGE_MESSAGE } from '../../../shared/records.js';
import { leafHash, verifyConsistency, verifyInclusion } from '../../../shared/ledger/merkle.js';
import { ledgerEntries, medicalRecords, patients, users } from '../../db/schema.js';
import { login, signedInHospital, STRONG_PASSWORD, uniqueEmail, useCast } from '../../test/helpers.js';
import { hashPassword } from '../auth/passwords.js';
import { createAdmin } from '../auth/service.js';
import { onDisk } from '../../files/testing.js';
import { samplePdf, uploadRecord } from '../records/testing.js';
import { entryProofByHash, treeHead } from './lookup.js';
import { appendLedgerEntry } from './service.js';
import { ledgerSize } from './tree.js';
import { createLedgeredRecord, ENTRY_LOOKUP_FIELDS, tamperWithLedger } from './testing.js';

const t = useCast({ patient: false });

const get = (url: string, cookie?: string) =>
  t.app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });
const sha = (data: Buffer | string) => crypto.createHash('sha256').update(data).digest('hex');

function multipartFile(field: string, name: string, bytes: Buffer) {
  const boundary = `----ledger${crypto.randomBytes(8).toString('hex')}`;
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${name}"\r\n` +
        'Content-Type: application/octet-stream\r\n\r\n',
    ),
    bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** A signed-in patient whose account is linked to a new patient row of `hospitalId`, with one record. */
async function patientWithRecord(hospitalId: string) {
  const email = uniqueEmail('patient');
  const [user] = await t.ctx.db
    .insert(users)
    .values({ email, password: await hashPassword(STRONG_PASSWORD), role: 'patient' })
    .returning();
  const record = await createLedgeredRecord(t.ctx, hospitalId, { patientUserId: user.id });
  return { cookie: await login(t.app, email), record };
}

describe('API documentation', () => {
  it('lists every ledger route under the ledger tag', async () => {
    const doc = (await get('/api/docs/json')).json();
    for (const route of [
      '/api/ledger/head',
      '/api/ledger/entries/{hash}',
      '/api/ledger/files/{sha256}',
      '/api/ledger/consistency',
      '/api/ledger/verify-file',
      '/api/medical-records/{id}/verification',
    ]) {
      const operations = Object.values<{ tags?: string[] }>(doc.paths[route] ?? {});
      expect(operations.length, route).toBeGreaterThan(0);
      expect(operations[0].tags).toEqual(['ledger']);
    }
  });
});

describe('GET /api/ledger/head and /api/ledger/entries/{hash}', () => {
  it('gives, without sign-in, an inclusion proof that verifies against the tree head, and no content', async () => {
    const made = await createLedgeredRecord(t.ctx, t.hospital.userId, { title: 'Private diagnosis' });
    const res = await get(`/api/ledger/entries/${made.hash.toUpperCase()}`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(ENTRY_LOOKUP_FIELDS);
    expect(typeof body.providerVerified).toBe('boolean');
    expect(res.body).not.toContain('Private diagnosis');
    expect(res.body).not.toContain(made.recordId);
    expect(body).toMatchObject({ hash: made.hash, leafIndex: made.seq, kind: 'record_upload' });
    const head = (await get('/api/ledger/head')).json();
    expect(head).toEqual({ treeSize: body.treeSize, rootHash: body.rootHash });
    expect(
      verifyInclusion(
        body.leafIndex,
        body.treeSize,
        leafHash(fromHex(body.hash)),
        body.auditPath.map(fromHex),
        fromHex(head.rootHash),
      ),
    ).toBe(true);
  });

  it('answers 404 for an unknown hash and 400 for something that is not a hash', async () => {
    expect((await get(`/api/ledger/entries/${'ab'.repeat(32)}`)).statusCode).toBe(404);
    const bad = await get('/api/ledger/entries/not-a-hash');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/64 hexadecimal/);
  });

  it('gives the head and proofs at an earlier size, and refuses sizes beyond the ledger', async () => {
    const first = await createLedgeredRecord(t.ctx, t.hospital.userId);
    const size = first.seq + 1;
    const then = (await get(`/api/ledger/head?treeSize=${size}`)).json();
    await createLedgeredRecord(t.ctx, t.hospital.userId);
    const proof = (await get(`/api/ledger/entries/${first.hash}?treeSize=${size}`)).json();
    expect(proof).toMatchObject({ treeSize: size, rootHash: then.rootHash });
    expect((await get('/api/ledger/head?treeSize=999999')).statusCode).toBe(400);
    expect((await get('/api/ledger/head?treeSize=-1')).statusCode).toBe(400);
    expect((await get('/api/ledger/head?treeSize=abc')).statusCode).toBe(400);
  });
});

describe('entryProofByHash (the lookup and its proof in one statement)', () => {
  it('proves each of 40 entries in the tree of every size from its own up to the whole ledger', async () => {
    // 820 proofs: each leaf at each place in a tree, and trees of 40 sizes, each with its own right edge.
    await t.ctx.db.transaction(async (tx) => {
      for (let i = 0; i < 40; i++) await appendLedgerEntry(tx, { kind: 'profile_change', content: { i } });
    });
    const size = await ledgerSize(t.ctx.db);
    const entries = await t.ctx.db
      .select({ seq: ledgerEntries.seq, hash: ledgerEntries.hash })
      .from(ledgerEntries)
      .where(gte(ledgerEntries.seq, size - 40));
    expect(entries).toHaveLength(40);
    const roots = new Map<number, Uint8Array>();
    for (let s = size - 40; s <= size; s++) roots.set(s, fromHex((await treeHead(t.ctx.db, s)).rootHash));
    let proofs = 0;
    for (const entry of entries) {
      for (let s = entry.seq + 1; s <= size; s++) {
        const proof = await entryProofByHash(t.ctx.db, entry.hash, s);
        expect(proof).toMatchObject({ leafIndex: entry.seq, treeSize: s });
        const path = proof!.auditPath.map(fromHex);
        const ok = verifyInclusion(entry.seq, s, leafHash(fromHex(entry.hash)), path, roots.get(s)!);
        expect(ok, `entry ${entry.seq} at size ${s}`).toBe(true);
        proofs++;
      }
    }
    expect(proofs).toBe((40 * 41) / 2);
    // Without a size, the proof is at the whole ledger.
    expect(await entryProofByHash(t.ctx.db, entries[0].hash)).toMatchObject({ treeSize: size });
  });
});

describe('GET /api/ledger/consistency', () => {
  it('proves that the current tree extends every earlier one', async () => {
    for (let i = 0; i < 5; i++) await createLedgeredRecord(t.ctx, t.hospital.userId, { files: [] });
    const head = (await get('/api/ledger/head')).json();
    for (let from = 1; from <= head.treeSize; from++) {
      const old = (await get(`/api/ledger/head?treeSize=${from}`)).json();
      const res = await get(`/api/ledger/consistency?from=${from}&to=${head.treeSize}`);
      expect(res.statusCode).toBe(200);
      const { proof } = res.json();
      expect(
        verifyConsistency(
          from,
          head.treeSize,
          fromHex(old.rootHash),
          fromHex(head.rootHash),
          proof.map(fromHex),
        ),
      ).toBe(true);
    }
  });

  it('refuses from > to, sizes beyond the ledger and missing numbers with 400', async () => {
    expect((await get('/api/ledger/consistency?from=3&to=2')).statusCode).toBe(400);
    expect((await get('/api/ledger/consistency?from=1&to=99999999')).statusCode).toBe(400);
    expect((await get('/api/ledger/consistency?from=1')).statusCode).toBe(400);
  });
});

describe('POST /api/ledger/verify-file and GET /api/ledger/files/{sha256}', () => {
  it('finds a ledgered attachment by its bytes, reveals only the entry proof, and keeps nothing', async () => {
    const bytes = Buffer.from(`%PDF-1.4 lab values ${crypto.randomUUID()}`);
    const made = await createLedgeredRecord(t.ctx, t.hospital.userId, {
      files: [{ name: 'labs.pdf', bytes }],
    });
    const filesBefore = fs.readdirSync(onDisk(t.ctx.files).dir).length;
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/ledger/verify-file',
      ...multipartFile('file', 'x.pdf', bytes),
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      found: true,
      sha256: sha(bytes),
      entry: { hash: made.hash, leafIndex: made.seq },
    });
    expect(res.body).not.toContain('labs.pdf');
    expect(res.body).not.toContain(made.recordId);
    expect(fs.readdirSync(onDisk(t.ctx.files).dir).length).toBe(filesBefore);
    expect((await get(`/api/ledger/files/${sha(bytes)}`)).json()).toEqual(body);
  });

  it('says found: false for a file that was never entered', async () => {
    const bytes = Buffer.from('never uploaded');
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/ledger/verify-file',
      ...multipartFile('file', 'n.txt', bytes),
    });
    expect(res.json()).toEqual({
      found: false,
      sha256: sha(bytes),
      entry: null,
      fate: null,
      providerVerified: null,
    });
  });

  it('refuses a request without a file field (400) or not in multipart (415)', async () => {
    const wrong = await t.app.inject({
      method: 'POST',
      url: '/api/ledger/verify-file',
      ...multipartFile('other', 'a.pdf', Buffer.from('x')),
    });
    expect(wrong.statusCode).toBe(400);
    const json = await t.app.inject({
      method: 'POST',
      url: '/api/ledger/verify-file',
      payload: { file: 'x' },
    });
    expect(json.statusCode).toBe(415);
    expect(json.json().message).toMatch(/multipart/);
  });

  it('refuses a body cut short or without a boundary (400), and a file over the limit (413)', async () => {
    const whole = multipartFile('file', 'a.pdf', samplePdf());
    const cutShort = await t.app.inject({
      method: 'POST',
      url: '/api/ledger/verify-file',
      headers: whole.headers,
      payload: whole.payload.subarray(0, whole.payload.length - 40),
    });
    expect(cutShort.statusCode).toBe(400);
    expect(cutShort.json().message).toMatch(/malformed or interrupted/);
    const noBoundary = await t.app.inject({
      method: 'POST',
      url: '/api/ledger/verify-file',
      headers: { 'content-type': 'multipart/form-data' },
      payload: 'x',
    });
    expect(noBoundary.statusCode).toBe(400);
    // One byte over: hashing what arrived would answer for a file nobody sent.
    const tooBig = await t.app.inject({
      method: 'POST',
      url: '/api/ledger/verify-file',
      ...multipartFile('file', 'big.bin', Buffer.alloc(MAX_UPLOAD_BYTES + 1)),
    });
    expect(tooBig.statusCode).toBe(413);
    expect(tooBig.json().message).toBe(TOO_LARGE_MESSAGE);
  });
});

describe('GET /api/medical-records/{id}/verification', () => {
  it('verifies an untouched record, naming the entry, the root and the proof', async () => {
    const made = await createLedgeredRecord(t.ctx, t.hospital.userId);
    const res = await get(`/api/medical-records/${made.recordId}/verification`, t.hospital.cookie);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      verified: true,
      reason: null,
      failedCheck: null,
      hash: made.hash,
      leafIndex: made.seq,
    });
    expect(body.checks.map((c: { ok: boolean }) => c.ok)).toEqual([true, true, true, true, true]);
    const head = (await get('/api/ledger/head')).json();
    expect(body.rootHash).toBe(head.rootHash);
    expect(body.auditPath.length).toBeLessThanOrEqual(Math.ceil(Math.log2(head.treeSize)));
  });

  it('verifies a record uploaded through POST /api/medical-records, and finds its file', async () => {
    const [patient] = await t.ctx.db
      .insert(patients)
      .values({ patientId: `MRN2025${Date.now() % 1_000_000}`, createdByHospitalId: t.hospital.userId })
      .returning();
    const bytes = samplePdf();
    const upload = await uploadRecord(t.app, t.hospital.cookie, patient.id, {
      files: [{ fileName: 'a.pdf', bytes }],
    });
    expect(upload.statusCode).toBe(201);
    const { id, blockchainHash } = upload.json();
    const body = (await get(`/api/medical-records/${id}/verification`, t.hospital.cookie)).json();
    expect(body).toMatchObject({ verified: true, hash: blockchainHash });
    const file = await t.app.inject({
      method: 'POST',
      url: '/api/ledger/verify-file',
      ...multipartFile('file', 'a.pdf', bytes),
    });
    expect(file.json()).toMatchObject({ found: true, entry: { hash: blockchainHash } });
  });

  it('lets the patient of the record verify it, and answers 401, 403 and 404 to others', async () => {
    const { cookie, record } = await patientWithRecord(t.hospital.userId);
    expect((await get(`/api/medical-records/${record.recordId}/verification`, cookie)).json().verified).toBe(
      true,
    );
    expect((await get(`/api/medical-records/${record.recordId}/verification`)).statusCode).toBe(401);
    const other = await signedInHospital(t.app, 'Other Hospital');
    expect((await get(`/api/medical-records/${record.recordId}/verification`, other.cookie)).statusCode).toBe(
      404,
    );
    const otherPatient = await patientWithRecord(other.userId);
    expect(
      (await get(`/api/medical-records/${record.recordId}/verification`, otherPatient.cookie)).statusCode,
    ).toBe(404);
    expect((await get('/api/medical-records/not-a-uuid/verification', t.hospital.cookie)).statusCode).toBe(
      404,
    );
    const email = uniqueEmail('admin');
    await createAdmin(t.ctx.db, email, STRONG_PASSWORD);
    expect(
      (await get(`/api/medical-records/${record.recordId}/verification`, await login(t.app, email)))
        .statusCode,
    ).toBe(403);
  });

  it('detects a title changed directly in the database', async () => {
    const made = await createLedgeredRecord(t.ctx, t.hospital.userId);
    await t.ctx.db
      .update(medicalRecords)
      .set({ title: 'Something else' })
      .where(eq(medicalRecords.id, made.recordId));
    const body = (await get(`/api/medical-records/${made.recordId}/verification`, t.hospital.cookie)).json();
    expect(body).toMatchObject({ verified: false, failedCheck: 'content' });
    expect(body.reason).toBe("The record's title differs from what was entered in the ledger.");
  });

  it("detects an attachment's bytes replaced on disk", async () => {
    const made = await createLedgeredRecord(t.ctx, t.hospital.userId);
    const file = onDisk(t.ctx.files).pathFor(made.storageKeys[0]);
    const bytes = fs.readFileSync(file);
    bytes[bytes.length - 1] ^= 0xff;
    fs.writeFileSync(file, bytes);
    const body = (await get(`/api/medical-records/${made.recordId}/verification`, t.hospital.cookie)).json();
    expect(body).toMatchObject({ verified: false, failedCheck: 'attachments' });
    expect(body.reason).toBe('Attachment "scan.pdf" was altered on disk.');
  });

  it('detects a deleted ledger row: its own, or the one before it', async () => {
    const own = await createLedgeredRecord(t.ctx, t.hospital.userId);
    const next = await createLedgeredRecord(t.ctx, t.hospital.userId);
    await tamperWithLedger(t.ctx.db, (tx) => tx.delete(ledgerEntries).where(eq(ledgerEntries.seq, own.seq)));
    const ownBody = (
      await get(`/api/medical-records/${own.recordId}/verification`, t.hospital.cookie)
    ).json();
    expect(ownBody).toMatchObject({
      verified: false,
      failedCheck: 'entry',
      reason: 'No ledger entry exists for this record.',
    });
    const nextBody = (
      await get(`/api/medical-records/${next.recordId}/verification`, t.hospital.cookie)
    ).json();
    expect(nextBody).toMatchObject({ verified: false, failedCheck: 'chain' });
    expect(nextBody.reason).toMatch(/missing: the chain is broken/);
  });

  it('detects an entry whose canonical text and hash were both rewritten (format 1, content inline)', async () => {
    const made = await createLedgeredRecord(t.ctx, t.hospital.userId, { format: 1 });
    await t.ctx.db.transaction(async (tx) =>
      appendLedgerEntry(tx, { kind: 'profile_change', content: { after: true } }),
    );
    const [entry] = await t.ctx.db.select().from(ledgerEntries).where(eq(ledgerEntries.seq, made.seq));
    const canonical = entry.canonical.replace('Blood panel', 'Blood panel (edited)');
    await tamperWithLedger(t.ctx.db, (tx) =>
      tx
        .update(ledgerEntries)
        .set({ canonical, hash: sha(canonical) })
        .where(eq(ledgerEntries.seq, made.seq)),
    );
    await t.ctx.db
      .update(medicalRecords)
      .set({ title: 'Blood panel (edited)', blockchainHash: sha(canonical) })
      .where(eq(medicalRecords.id, made.recordId));
    const body = (await get(`/api/medical-records/${made.recordId}/verification`, t.hospital.cookie)).json();
    expect(body).toMatchObject({ verified: false, failedCheck: 'chain' });
    const checks = Object.fromEntries(body.checks.map((c: { name: string; ok: boolean }) => [c.name, c.ok]));
    expect(checks).toMatchObject({ entry: true, content: true, chain: false, inclusion: false });
  });
});
