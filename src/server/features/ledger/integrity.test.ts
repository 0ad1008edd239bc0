import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import type { AppContext } from '../../app.js';
import { connect } from '../../db/connect.js';
import { ledgerEntries, ledgerNodes, medicalRecords, users } from '../../db/schema.js';
import { newHospitalAccount } from '../../users.js';
import { DirectoryStore } from '../../files/backends/directory.js';
import { onDisk } from '../../files/testing.js';
import { createTestApp, signedInHospital, type TestApp } from '../../test/helpers.js';
import { parseLedgerArgs, runLedgerVerify } from './command.js';
import { HashPool } from './hash-pool.js';
import { auditLedger } from './integrity.js';
import { appendLedgerEntry } from './service.js';
import { createLedgeredRecord, tamperWithLedger, type LedgeredRecord } from './testing.js';

const run = promisify(execFile);
let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

/** A fresh app with a hospital, `n` ledgered records and a few other entries between them. */
async function ledgerWithRecords(n: number): Promise<{ t: TestApp; records: LedgeredRecord[] }> {
  t = await createTestApp();
  const { userId } = await signedInHospital(t.app);
  const records: LedgeredRecord[] = [];
  for (let i = 0; i < n; i++) {
    records.push(await createLedgeredRecord(t.ctx, userId, { title: `Record ${i}` }));
    await t.ctx.db.transaction((tx) =>
      appendLedgerEntry(tx, { kind: 'consent_change', userId, content: { i } }),
    );
  }
  return { t, records };
}

async function verify(app: TestApp, args = ['verify'], progressEveryMs = 60_000) {
  const out: string[] = [];
  const err: string[] = [];
  const parsed = parseLedgerArgs(args);
  if ('error' in parsed) throw new Error(parsed.error);
  if (!('options' in parsed)) throw new Error('not a verify command');
  const code = await runLedgerVerify(parsed.options, app.ctx.db, app.ctx.files, {
    out: (l) => out.push(l),
    err: (l) => err.push(l),
    progressEveryMs,
  });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('npm run ledger -- verify (the integrity check)', () => {
  it('passes an untouched ledger and reports what it checked', async () => {
    const { t } = await ledgerWithRecords(7);
    const result = await verify(t);
    expect(result.code).toBe(0);
    expect(result.out).toContain('Ledger: 14 entries, tree size 14');
    expect(result.out).toContain('Records: 7 checked');
    expect(result.out).toContain('Result: OK');
  });

  it('prints progress on long runs', async () => {
    const { t } = await ledgerWithRecords(3);
    const result = await verify(t, ['verify', '--batch', '2'], 0);
    expect(result.code).toBe(0);
    expect(result.err).toMatch(/checked 2 of 6 entries \(33%\), 1 records/);
  });

  it('fails on a record title changed in the database', async () => {
    const { t, records } = await ledgerWithRecords(3);
    await t.ctx.db
      .update(medicalRecords)
      .set({ title: 'Changed' })
      .where(eq(medicalRecords.id, records[1].recordId));
    const result = await verify(t);
    expect(result.code).toBe(1);
    expect(result.out).toContain(
      `Record ${records[1].recordId} (entry ${records[1].seq}): The record's title differs`,
    );
    expect(result.out).toContain('1 problem(s)');
  });

  it("fails on an entry whose row no longer says what its text says (the record's content unchanged)", async () => {
    const { t, records } = await ledgerWithRecords(3);
    await tamperWithLedger(t.ctx.db, (tx) =>
      tx
        .update(ledgerEntries)
        .set({ createdAt: new Date('2001-01-01T00:00:00.000Z') })
        .where(eq(ledgerEntries.seq, records[1].seq)),
    );
    const result = await verify(t);
    expect(result.code).toBe(1);
    expect(result.out).toContain(`Record ${records[1].recordId} (entry ${records[1].seq}):`);
    expect(result.out).toContain('1 problem(s)');
  });

  it("fails on an attachment's bytes replaced on disk", async () => {
    const { t, records } = await ledgerWithRecords(3);
    fs.writeFileSync(
      onDisk(t.ctx.files).pathFor(records[2].storageKeys[0]),
      Buffer.from('not the original file at all'),
    );
    const result = await verify(t);
    expect(result.code).toBe(1);
    expect(result.out).toContain('Attachment "scan.pdf" was altered on disk.');
  });

  it('hashes attachments on worker threads with the same findings: intact, altered, missing', async () => {
    const { t, records } = await ledgerWithRecords(4);
    const { dataDir, fileEncryptionKey } = t.ctx.config;
    const pool = new HashPool({ dataDir, keys: fileEncryptionKey }, 2);
    try {
      const intact = await auditLedger(t.ctx.db, t.ctx.files, { hasher: pool });
      expect(intact).toMatchObject({ problemCount: 0, records: 4 });
      fs.writeFileSync(onDisk(t.ctx.files).pathFor(records[1].storageKeys[0]), Buffer.from('changed'));
      fs.rmSync(onDisk(t.ctx.files).pathFor(records[3].storageKeys[0]));
      const pooled = await auditLedger(t.ctx.db, t.ctx.files, { hasher: pool });
      const oneThread = await auditLedger(t.ctx.db, t.ctx.files);
      expect(pooled.problems).toEqual(oneThread.problems);
      expect(pooled.problems.join('\n')).toContain('Attachment "scan.pdf" was altered on disk.');
      expect(pooled.problems.join('\n')).toContain('Attachment "scan.pdf" is missing from storage.');
      expect(pooled.attachmentBytes).toBe(intact.attachmentBytes);
    } finally {
      await pool.close();
    }
  });

  it('reads a ledger in batches with the next batch hashing ahead: every record checked, problems in ledger order', async () => {
    // 12 entries in batches of 5: records in all three batches, each batch's attachments queued
    // on the pool before the previous batch's record checks end.
    const { t, records } = await ledgerWithRecords(6);
    fs.writeFileSync(onDisk(t.ctx.files).pathFor(records[0].storageKeys[0]), Buffer.from('changed'));
    fs.rmSync(onDisk(t.ctx.files).pathFor(records[3].storageKeys[0]));
    await t.ctx.db
      .update(medicalRecords)
      .set({ title: 'Changed' })
      .where(eq(medicalRecords.id, records[5].recordId));
    // A record made final without an entry: found by the check that runs after the last batch.
    const [first] = await t.ctx.db
      .select()
      .from(medicalRecords)
      .where(eq(medicalRecords.id, records[0].recordId));
    const [unledgered] = await t.ctx.db
      .insert(medicalRecords)
      .values({
        patientId: first.patientId,
        hospitalId: first.hospitalId,
        title: 'No entry',
        recordType: 'lab',
        status: 'final',
      })
      .returning();
    const { dataDir, fileEncryptionKey } = t.ctx.config;
    const pool = new HashPool({ dataDir, keys: fileEncryptionKey }, 2);
    try {
      const pooled = await auditLedger(t.ctx.db, t.ctx.files, { hasher: pool, batchSize: 5 });
      const oneThread = await auditLedger(t.ctx.db, t.ctx.files, { batchSize: 5 });
      const whole = await auditLedger(t.ctx.db, t.ctx.files, { hasher: pool });
      for (const report of [pooled, oneThread, whole]) {
        expect(report).toMatchObject({ entries: 12, treeSize: 12, records: 6, problemCount: 4 });
        expect(report.problems).toEqual([
          `Record ${records[0].recordId} (entry ${records[0].seq}): Attachment "scan.pdf" was altered on disk.`,
          `Record ${records[3].recordId} (entry ${records[3].seq}): Attachment "scan.pdf" is missing from storage.`,
          expect.stringMatching(
            new RegExp(
              `^Record ${records[5].recordId} \\(entry ${records[5].seq}\\): The record's title differs`,
            ),
          ),
          `Record ${unledgered.id} has no ledger entry.`,
        ]);
        expect(report.rootHash).toBe(whole.rootHash);
      }
    } finally {
      await pool.close();
    }
  });

  it('fails on a deleted ledger row, in the middle or at the end', async () => {
    const { t, records } = await ledgerWithRecords(3);
    await tamperWithLedger(t.ctx.db, (tx) =>
      tx.delete(ledgerEntries).where(eq(ledgerEntries.seq, records[1].seq)),
    );
    const middle = await verify(t);
    expect(middle.code).toBe(1);
    expect(middle.out).toContain(`Entries ${records[1].seq}..${records[1].seq} are missing from the ledger.`);
    expect(middle.out).toContain(`Record ${records[1].recordId} has no ledger entry.`);

    await t.close();
    const second = await ledgerWithRecords(2);
    await tamperWithLedger(second.t.ctx.db, (tx) => tx.delete(ledgerEntries).where(eq(ledgerEntries.seq, 3)));
    const end = await verify(second.t);
    expect(end.code).toBe(1);
    expect(end.out).toContain('beyond the last entry');
  });

  it('fails on a changed Merkle node, also when only the ledger is checked', async () => {
    const { t } = await ledgerWithRecords(4);
    await tamperWithLedger(t.ctx.db, (tx) =>
      tx
        .update(ledgerNodes)
        .set({ hash: 'ab'.repeat(32) })
        .where(eq(ledgerNodes.level, 1)),
    );
    const result = await verify(t, ['verify', '--skip-records']);
    expect(result.code).toBe(1);
    expect(result.out).toMatch(/Merkle node 1\/0 does not match the entries/);
    expect(result.out).not.toContain('Records:');
  });

  it('refuses unknown commands and options with the usage', () => {
    expect(parseLedgerArgs([])).toHaveProperty('error');
    expect(parseLedgerArgs(['verify', '--batch', '0'])).toHaveProperty('error');
    expect(parseLedgerArgs(['verify', '--fast'])).toHaveProperty('error');
    expect(parseLedgerArgs(['verify', '--batch', '50', '--skip-records'])).toEqual({
      options: { batchSize: 50, skipRecords: true },
    });
  });
});

describe('the ledger command as a process (embedded database)', () => {
  it('exits 0 on an intact data folder, 1 after tampering, and 1 with a clear message while the folder is in use', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'medledger-ledger-cli-'));
    try {
      const database = await connect({ pgliteDir: path.join(dataDir, 'pglite') });
      const files = new DirectoryStore(dataDir);
      const ctx = { db: database.db, files } as unknown as AppContext;
      const [hospital] = await database.db
        .insert(users)
        .values({
          email: 'h@example.test',
          password: 'x',
          role: 'hospital',
          hospitalName: 'H',
          ...newHospitalAccount(),
        })
        .returning();
      const made = await createLedgeredRecord(ctx, hospital.id);

      const cli = () =>
        run('npx', ['tsx', 'src/server/cli/ledger.ts', 'verify'], {
          env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' },
        }).then(
          (r) => ({ code: 0, out: r.stdout + r.stderr }),
          (e: { code: number; stdout: string; stderr: string }) => ({
            code: e.code,
            out: e.stdout + e.stderr,
          }),
        );

      const busy = await cli();
      expect(busy.code).toBe(1);
      expect(busy.out).toMatch(/in use by another process/);

      await database.close();
      const ok = await cli();
      expect(ok).toMatchObject({ code: 0 });
      expect(ok.out).toContain('Result: OK');

      fs.writeFileSync(files.pathFor(made.storageKeys[0]), Buffer.from('replaced'));
      const bad = await cli();
      expect(bad.code).toBe(1);
      expect(bad.out).toContain('was altered on disk');
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
