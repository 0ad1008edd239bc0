// Test helper: a hospital's patient with a record and attachments, written the way the upload
// does it (files first, then record + attachments + ledger entry in one transaction). Lets the
// ledger tests tamper with real rows and files without depending on the records feature.
import { Readable } from 'node:stream';
import { eq, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import type { Db } from '../../db/connect.js';
import type { PendingFile } from '../../files/store.js';
import { attachments, ledgerEntries, medicalRecords, patients } from '../../db/schema.js';
import { entryContent } from './commitments.js';
import { recordLedgerContent } from './content.js';
import { appendLedgerEntry } from './service.js';

let counter = 0;

/**
 * Every field of GET /api/ledger/entries/{hash}, sorted: hashes, sizes, times, the kind, and
 * whether the record's hospital is a verified provider (issue 9), never which hospital.
 */
export const ENTRY_LOOKUP_FIELDS = [
  ...['auditPath', 'createdAt', 'hash', 'kind', 'leafIndex'],
  ...['providerVerified', 'rootHash', 'treeSize'],
];

export interface LedgeredRecord {
  recordId: string;
  patientId: string;
  hash: string;
  seq: number;
  storageKeys: string[];
}

export async function createLedgeredRecord(
  ctx: AppContext,
  hospitalId: string,
  options: {
    title?: string;
    files?: Array<{ name: string; bytes: Buffer }>;
    patientId?: string;
    patientUserId?: string;
    /** 1: write the entry in the old format (content inline), as before salted commitments. */
    format?: 1 | 2;
  } = {},
): Promise<LedgeredRecord> {
  const files = options.files ?? [
    { name: 'scan.pdf', bytes: Buffer.from(`%PDF-1.4 test file ${++counter} ${Date.now()}`) },
  ];
  const pending: PendingFile[] = [];
  for (const file of files)
    pending.push(await ctx.files.write(Readable.from([file.bytes]), 25 * 1024 * 1024));
  for (const file of pending) await file.commit();

  return ctx.db.transaction(async (tx) => {
    let patientId = options.patientId;
    if (!patientId) {
      const [patient] = await tx
        .insert(patients)
        .values({
          patientId: `MRN2025${String(Date.now() % 1_000_000).padStart(6, '0')}${++counter}`,
          createdByHospitalId: hospitalId,
          firstName: 'Pat',
          lastName: 'Ient',
          userId: options.patientUserId ?? null,
        })
        .returning();
      patientId = patient.id;
    }
    const [record] = await tx
      .insert(medicalRecords)
      .values({
        patientId,
        hospitalId,
        title: options.title ?? 'Blood panel',
        description: 'Routine check',
        recordType: 'lab_result',
        doctorName: 'Dr. Grey',
        department: 'general',
        fileName: files[0]?.name ?? null,
      })
      .returning();
    const rows =
      pending.length === 0
        ? []
        : await tx
            .insert(attachments)
            .values(
              pending.map((p, position) => ({
                recordId: record.id,
                storageKey: p.storageKey,
                fileName: files[position].name,
                mimeType: 'application/pdf',
                size: p.size,
                sha256: p.sha256,
                format: p.format,
                iv: p.iv,
                authTag: p.authTag,
                keyId: p.keyId,
                position,
              })),
            )
            .returning();
    const entry = await appendLedgerEntry(
      tx,
      {
        kind: 'record_upload',
        recordId: record.id,
        patientId,
        userId: hospitalId,
        content: recordLedgerContent(record, rows),
      },
      { format: options.format },
    );
    await tx
      .update(medicalRecords)
      .set({ blockchainHash: entry.hash, isBlockchainVerified: true })
      .where(eq(medicalRecords.id, record.id));
    return {
      recordId: record.id,
      patientId,
      hash: entry.hash,
      seq: entry.seq,
      storageKeys: pending.map((p) => p.storageKey),
    };
  });
}

/**
 * Runs `fn` as someone with full control of the database would tamper: with the append-only
 * triggers off (session_replication_role = replica needs a superuser, as tests connect).
 */
export async function tamperWithLedger(db: Db, fn: (tx: Db) => Promise<unknown>): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.execute(sql`set local session_replication_role = replica`);
    await fn(tx);
  });
}

/**
 * Appends `count` profile_change entries, one transaction each. With the same `tag`, `start` and
 * `now`, two databases get identical entries (a common prefix); a different tag makes them differ.
 */
export async function appendTestEntries(
  db: Db,
  count: number,
  options: { tag?: string; now?: Date } = {},
): Promise<void> {
  for (let i = 0; i < count; i++) {
    await db.transaction(async (tx) => {
      await appendLedgerEntry(
        tx,
        { kind: 'profile_change', content: { test: options.tag ?? 'entry', n: i } },
        { now: options.now ?? new Date('2026-01-01T00:00:00.000Z') },
      );
    });
  }
}

/** Who erases and why, for tests that erase an entry (`erase --by --reason`). */
export const TEST_ERASURE = { by: 'Privacy officer', reason: 'Erasure request ER-12' };

/** The content a ledger entry covers: inline (format 1) or from its opening (format 2); null once erased. */
export async function ledgerContentOf(db: Db, seq: number): Promise<Record<string, unknown> | null> {
  const [entry] = await db.select().from(ledgerEntries).where(eq(ledgerEntries.seq, seq));
  if (!entry) throw new Error(`no ledger entry ${seq}`);
  return entryContent(db, entry);
}
