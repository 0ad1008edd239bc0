// Salted commitments (format 2 entries): old entries still verify, erasure leaves the chain and the
// tree whole and is reported as such, a changed content row is caught, and nothing public (nor
// the ledger table itself) holds the content.
import crypto from 'node:crypto';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { ledgerContents, ledgerEntries } from '../../db/schema.js';
import { useCast } from '../../test/helpers.js';
import { samplePdf } from '../records/testing.js';
import { eraseEntryContent } from './erasure.js';
import { parseLedgerArgs, runLedgerErase, runLedgerVerify } from './command.js';
import { appendLedgerEntry } from './service.js';
import { createLedgeredRecord, ENTRY_LOOKUP_FIELDS, ledgerContentOf, TEST_ERASURE } from './testing.js';

const t = useCast({ patient: false });

const get = (url: string, cookie?: string) =>
  t.app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });
const sha = (data: Buffer | string) => crypto.createHash('sha256').update(data).digest('hex');

async function verifyAll() {
  const out: string[] = [];
  const parsed = parseLedgerArgs(['verify']);
  if (!('options' in parsed)) throw new Error('not verify');
  const code = await runLedgerVerify(parsed.options, t.ctx.db, t.ctx.files, {
    out: (l) => out.push(l),
    err: () => undefined,
    progressEveryMs: 60_000,
  });
  return { code, out: out.join('\n') };
}

async function erase(entryId: string, request = TEST_ERASURE, earlier = false) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runLedgerErase({ entryId, request, earlier }, t.ctx.db, {
    out: (l) => out.push(l),
    err: (l) => err.push(l),
  });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

const verification = async (recordId: string) =>
  (await get(`/api/medical-records/${recordId}/verification`, t.hospital.cookie)).json();

const listed = async (recordId: string) => {
  const res = await get(`/api/medical-records/record/${recordId}`, t.hospital.cookie);
  expect(res.statusCode).toBe(200);
  return res.json();
};

describe('format 1 entries (content inline, written before salted commitments)', () => {
  it('still verify: record view, record list flag and the full check', async () => {
    const old = await createLedgeredRecord(t.ctx, t.hospital.userId, { title: 'Old style', format: 1 });
    const [entry] = await t.ctx.db.select().from(ledgerEntries).where(eq(ledgerEntries.seq, old.seq));
    expect(JSON.parse(entry.canonical)).toMatchObject({ v: 1, content: { title: 'Old style' } });
    expect(await t.ctx.db.select().from(ledgerContents).where(eq(ledgerContents.seq, old.seq))).toEqual([]);
    expect(await verification(old.recordId)).toMatchObject({ verified: true, contentErased: false });
    expect((await listed(old.recordId)).isBlockchainVerified).toBe(true);
    const fresh = await createLedgeredRecord(t.ctx, t.hospital.userId, { title: 'New style' });
    expect(await verification(fresh.recordId)).toMatchObject({ verified: true });
    expect((await listed(fresh.recordId)).isBlockchainVerified).toBe(true);
    const all = await verifyAll();
    expect(all.out).toContain('Result: OK');
    expect(all.code).toBe(0);
  });

  it('cannot be erased (their content is inside the append-only ledger); erase says so', async () => {
    const old = await createLedgeredRecord(t.ctx, t.hospital.userId, { format: 1 });
    const res = await erase(String(old.seq));
    expect(res.code).toBe(1);
    expect(res.out).toMatch(/format-1 entry: .*cannot be erased\. Nothing was changed\./);
    expect(await verification(old.recordId)).toMatchObject({ verified: true });
  });
});

describe('erasure: npm run ledger -- erase <entry>', () => {
  it('deletes the salt and content; the chain and tree still verify, the entry is reported as content erased', async () => {
    const made = await createLedgeredRecord(t.ctx, t.hospital.userId, { title: 'Erase me' });
    await t.ctx.db.transaction((tx) =>
      appendLedgerEntry(tx, { kind: 'consent_change', content: { after: 1 } }),
    );
    expect(await ledgerContentOf(t.ctx.db, made.seq)).toMatchObject({ title: 'Erase me' });

    const res = await erase(made.hash.toUpperCase());
    expect(res.code).toBe(0);
    expect(res.out).toContain(
      `Entry ${made.seq} (record_upload, hash ${made.hash}): its salt and content were deleted, recorded as erasure entry ${made.seq + 2} (by Privacy officer).`,
    );
    expect(await t.ctx.db.select().from(ledgerContents).where(eq(ledgerContents.seq, made.seq))).toEqual([]);
    expect(await ledgerContentOf(t.ctx.db, made.seq)).toBeNull();
    // The entry itself is untouched.
    const [entry] = await t.ctx.db.select().from(ledgerEntries).where(eq(ledgerEntries.seq, made.seq));
    expect(entry.hash).toBe(made.hash);
    expect(sha(entry.canonical)).toBe(made.hash);

    const all = await verifyAll();
    expect(all.out).toContain('Result: OK');
    expect(all.out).toMatch(new RegExp(`Content erased: 1 entry \\(${made.seq}\\)`));
    expect(all.code).toBe(0);

    // The record's own view: not "tampered", but "content erased", with chain and proof still holding.
    const body = await verification(made.recordId);
    expect(body).toMatchObject({ verified: false, failedCheck: 'content', contentErased: true });
    expect(body.reason).toMatch(/content was erased from the ledger/);
    const checks = Object.fromEntries(body.checks.map((c: { name: string; ok: boolean }) => [c.name, c.ok]));
    expect(checks).toEqual({ entry: true, content: false, attachments: true, chain: true, inclusion: true });
    expect((await listed(made.recordId)).isBlockchainVerified).toBe(false);

    // Erasing again changes nothing and says so; the public file lookup no longer links the file.
    const again = await erase(String(made.seq));
    expect(again).toMatchObject({ code: 0 });
    expect(again.out).toMatch(/already erased \(erasure entry \d+\)\. Nothing was changed\./);
  });

  it('records with --earlier an opening deleted before erasures were ledgered; verify fails until then', async () => {
    const made = await createLedgeredRecord(t.ctx, t.hospital.userId, { title: 'Erased long ago' });
    const early = await erase(String(made.seq), TEST_ERASURE, true);
    expect(early).toMatchObject({ code: 1, err: expect.stringMatching(/still there; --earlier is for one/) });
    // As an erasure before this change did it: the opening deleted, nothing ledgered.
    await t.ctx.db.delete(ledgerContents).where(eq(ledgerContents.seq, made.seq));
    const before = await verifyAll();
    expect(before.code).toBe(1);
    expect(before.out).toContain(`Entry ${made.seq} (record_upload): its content is missing`);
    const plain = await erase(String(made.seq));
    expect(plain).toMatchObject({ code: 1, err: expect.stringMatching(/record that with --earlier/) });

    const recorded = await erase(String(made.seq), TEST_ERASURE, true);
    expect(recorded.code, recorded.err).toBe(0);
    expect(recorded.out).toMatch(
      /the earlier deletion of its salt and content is recorded as erasure entry \d+/,
    );
    const after = await verifyAll();
    expect(after.code, after.out).toBe(0);
    expect(after.out).toMatch(new RegExp(`entry ${made.seq}: erased \\S+ by Privacy officer`));
  });

  it('answers unknown entries and malformed ids with a message', async () => {
    const unknown = await erase(String(10_000_000));
    expect(unknown.code).toBe(1);
    expect(unknown.err).toMatch(/No ledger entry 10000000/);
    const bad = await erase('not-an-entry');
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/number \(seq\) or its 64-character hash/);
    expect(parseLedgerArgs(['erase'])).toHaveProperty('error');
    expect(parseLedgerArgs(['erase', '1', '2'])).toHaveProperty('error');
    expect(parseLedgerArgs(['erase', '12'])).toMatchObject({
      error: expect.stringMatching(/--by <who> and --reason <why>/),
    });
    expect(parseLedgerArgs(['erase', '12', '--by', 'DPO'])).toHaveProperty('error');
    expect(parseLedgerArgs(['erase', '12', '--reason', 'asked', '--by', 'DPO'])).toEqual({
      command: 'erase',
      entryId: '12',
      request: { by: 'DPO', reason: 'asked' },
      earlier: false,
    });
    const blank = await erase('1', { by: ' ', reason: 'asked' });
    expect(blank).toMatchObject({ code: 2, err: 'erase: Say who erases the entry (--by).' });
  });
});

describe('a changed content row (salt kept, content altered)', () => {
  it('is reported as tampered by the full check and the record view', async () => {
    const made = await createLedgeredRecord(t.ctx, t.hospital.userId, { title: 'Original title' });
    const [row] = await t.ctx.db.select().from(ledgerContents).where(eq(ledgerContents.seq, made.seq));
    try {
      // The record and the content row changed together: only the commitments can tell.
      await t.ctx.db
        .update(ledgerContents)
        .set({ content: row.content.replace('Original title', 'Forged title') })
        .where(eq(ledgerContents.seq, made.seq));
      const all = await verifyAll();
      expect(all.code).toBe(1);
      expect(all.out).toContain(
        `Entry ${made.seq}: its stored content was changed (it no longer matches the entry's commitments).`,
      );
      expect(all.out).not.toMatch(/Content erased: .*\b${made.seq}\b/);
      const body = await verification(made.recordId);
      expect(body).toMatchObject({ verified: false, failedCheck: 'content', contentErased: false });
      expect(body.reason).toMatch(/stored content of this entry was changed/);

      // A forged salt is caught the same way.
      await t.ctx.db
        .update(ledgerContents)
        .set({ content: row.content, salt: 'ab'.repeat(32) })
        .where(eq(ledgerContents.seq, made.seq));
      expect((await verification(made.recordId)).verified).toBe(false);
    } finally {
      await t.ctx.db
        .update(ledgerContents)
        .set({ content: row.content, salt: row.salt })
        .where(eq(ledgerContents.seq, made.seq));
    }
    expect((await verification(made.recordId)).verified).toBe(true);
  });
});

describe('no health data in the ledger or in its public answers', () => {
  it('keeps titles, descriptions, file names and phone numbers out of ledger_entries and every public route', async () => {
    const pdf = samplePdf('commitments public test');
    const made = await createLedgeredRecord(t.ctx, t.hospital.userId, {
      title: 'Hepatitis-Zeta screening',
      files: [{ name: 'zeta-result.pdf', bytes: pdf }],
    });
    const phone = '+1-555-0142-777';
    const profile = await t.ctx.db.transaction((tx) =>
      appendLedgerEntry(tx, {
        kind: 'profile_change',
        patientId: made.patientId,
        content: { patientId: made.patientId, changes: { phone, insurancePolicy: 'POLICY-99812' } },
      }),
    );
    const secrets = ['Hepatitis-Zeta', 'Routine check', 'zeta-result.pdf', 'Dr. Grey', phone, 'POLICY-99812'];
    const noSecrets = (label: string, text: string) => {
      for (const secret of secrets) expect(text, `${label} holds ${secret}`).not.toContain(secret);
    };

    // Every format-2 entry (this file also writes format-1 ones, which hold content inline).
    const v2 = (await t.ctx.db.select().from(ledgerEntries)).filter((e) => JSON.parse(e.canonical).v === 2);
    expect(v2.map((e) => e.seq)).toEqual(expect.arrayContaining([made.seq, profile.seq]));
    noSecrets('ledger_entries', JSON.stringify(v2));

    const head = (await get('/api/ledger/head')).json();
    const boundary = `----c${crypto.randomBytes(6).toString('hex')}`;
    const upload = await t.app.inject({
      method: 'POST',
      url: '/api/ledger/verify-file',
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: Buffer.concat([
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="x.pdf"\r\n` +
            'Content-Type: application/pdf\r\n\r\n',
        ),
        pdf,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]),
    });
    expect(upload.statusCode).toBe(200);
    expect(upload.json()).toMatchObject({ found: true, entry: { hash: made.hash } });
    noSecrets('POST /api/ledger/verify-file', upload.body);

    const routes = [
      '/api/ledger/head',
      `/api/ledger/head?treeSize=${head.treeSize}`,
      `/api/ledger/entries/${made.hash}`,
      `/api/ledger/entries/${profile.hash}`,
      `/api/ledger/files/${sha(pdf)}`,
      `/api/ledger/consistency?from=1&to=${head.treeSize}`,
      '/api/ledger/checkpoint',
      '/api/ledger/checkpoints',
      '/api/ledger/public-key',
    ];
    for (const url of routes) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(200);
      noSecrets(url, res.body);
    }
    // The entry answer is hashes, sizes, times, the kind, and whether the provider is verified
    // (a boolean, or null for an entry with no provider; never the provider).
    const entry = (await get(`/api/ledger/entries/${profile.hash}`)).json();
    expect(Object.keys(entry).sort()).toEqual(ENTRY_LOOKUP_FIELDS);
    expect([null, true, false]).toContain(entry.providerVerified);
    // Once erased, the file no longer leads to the entry.
    await eraseEntryContent(t.ctx.db, made.hash, TEST_ERASURE);
    expect((await get(`/api/ledger/files/${sha(pdf)}`)).json()).toMatchObject({ found: false, entry: null });
  });
});
