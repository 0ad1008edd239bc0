// A list's isBlockchainVerified (load.ts, matchesLedger) remembers its answer against the fields
// the check reads. These tests hold that list to what the content is really made of, and show
// that a change to any one of them, after an intact row was checked and remembered, is checked
// afresh: no remembered "verified" survives a changed field.
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { attachments, ledgerContents, ledgerEntries, medicalRecords } from '../../db/schema.js';
import { useCast } from '../../test/helpers.js';
import {
  ATTACHMENT_CONTENT_INPUTS,
  RECORD_CONTENT_INPUTS,
  recordLedgerContent,
  type AttachmentContentSource,
  type RecordContentSource,
} from '../ledger/content.js';
import { createLedgeredRecord } from '../ledger/testing.js';
import { matchesLedger } from './load.js';

const t = useCast({ patient: false });

/** The object with every property read recorded in `read`. */
function watched<T extends object>(target: T, read: Set<string>): T {
  return new Proxy(target, {
    get(object, key, receiver) {
      if (typeof key === 'string') read.add(key);
      return Reflect.get(object, key, receiver) as unknown;
    },
  });
}

describe('what a record’s ledger content is made of', () => {
  it('is read from exactly the listed record and attachment fields', () => {
    const record: RecordContentSource = {
      id: 'r',
      patientId: 'p',
      hospitalId: 'h',
      title: 'T',
      description: null,
      recordType: 'lab-results',
      doctorName: null,
      department: null,
      createdAt: new Date('2026-01-02T03:04:05.678Z'),
      // An amendment: its link (and the linked hash) enter the content too.
      supersedesId: 'earlier',
      supersedesHash: 'a'.repeat(64),
    };
    const file: AttachmentContentSource = {
      fileName: 'a.pdf',
      mimeType: 'application/pdf',
      size: 3,
      sha256: 'b'.repeat(64),
      position: 0,
    };
    const recordRead = new Set<string>();
    const fileRead = new Set<string>();
    recordLedgerContent(watched(record, recordRead), [watched(file, fileRead), watched(file, fileRead)]);
    expect([...recordRead].sort()).toEqual([...RECORD_CONTENT_INPUTS].sort());
    expect([...fileRead].sort()).toEqual([...ATTACHMENT_CONTENT_INPUTS].sort());
  });
});

/** A ledgered record's rows as a list reads them: the record, its attachments, its entry and opening's salt. */
async function rowsOf(recordId: string) {
  const [record] = await t.ctx.db.select().from(medicalRecords).where(eq(medicalRecords.id, recordId));
  const files = await t.ctx.db.select().from(attachments).where(eq(attachments.recordId, recordId));
  const [entry] = await t.ctx.db
    .select()
    .from(ledgerEntries)
    .where(eq(ledgerEntries.hash, record.blockchainHash!));
  const [opening] = await t.ctx.db
    .select({ salt: ledgerContents.salt })
    .from(ledgerContents)
    .where(eq(ledgerContents.seq, entry.seq));
  return { record, files, entry, salt: opening?.salt ?? null };
}

/** A different value of the same kind. */
function changed(value: unknown): unknown {
  if (value instanceof Date) return new Date(value.getTime() + 1);
  if (typeof value === 'number') return value + 1;
  if (typeof value === 'string') return `${value}x`;
  return 'set';
}

describe.each([1, 2] as const)('the list’s ledger check, entry format %i', (format) => {
  it('answers afresh when any input changes after an intact row was remembered', async () => {
    const made = await createLedgeredRecord(t.ctx, t.hospital.userId, {
      format,
      files: [
        { name: 'one.pdf', bytes: Buffer.from('%PDF-1.4 one') },
        { name: 'two.pdf', bytes: Buffer.from('%PDF-1.4 two') },
      ],
    });
    const { record, files, entry, salt } = await rowsOf(made.recordId);
    expect(salt === null, 'only format 2 has an opening').toBe(format === 1);
    expect(files).toHaveLength(2);
    expect(matchesLedger(record, files, entry, salt)).toBe(true);

    for (const key of RECORD_CONTENT_INPUTS) {
      // The linked hash enters the content only with the link.
      const change = (
        key === 'supersedesHash'
          ? { supersedesId: changed(record.supersedesId), supersedesHash: changed(record.supersedesHash) }
          : { [key]: changed(record[key]) }
      ) as Partial<typeof record>;
      expect(matchesLedger({ ...record, ...change }, files, entry, salt), key).toBe(false);
      expect(matchesLedger(record, files, entry, salt), `${key} back`).toBe(true);
    }
    for (const key of ATTACHMENT_CONTENT_INPUTS) {
      const second = { ...files[1], [key]: changed(files[1][key]) };
      expect(matchesLedger(record, [files[0], second], entry, salt), `attachment ${key}`).toBe(false);
      expect(matchesLedger(record, files, entry, salt), `attachment ${key} back`).toBe(true);
    }
    expect(matchesLedger(record, files.slice(0, 1), entry, salt), 'an attachment less').toBe(false);
    // Every field of the entry's row that its text is made of besides the content, and its opening:
    // another salt (format 2 commits to the content under it), none (erased), or one where format 1
    // has none (the check then makes the text as format 2, which the entry's hash is not of).
    const entryChanges = {
      seq: entry.seq + 1,
      createdAt: changed(entry.createdAt),
      kind: 'profile_change',
      recordId: changed(entry.recordId),
      patientId: changed(entry.patientId),
      userId: changed(entry.userId),
    };
    for (const [key, value] of Object.entries(entryChanges)) {
      expect(matchesLedger(record, files, { ...entry, [key]: value }, salt), `entry ${key}`).toBe(false);
      expect(matchesLedger(record, files, entry, salt), `entry ${key} back`).toBe(true);
    }
    const saltChanges = salt
      ? { 'another salt': salt.replace(/^./, (c) => (c === '0' ? '1' : '0')), erased: null }
      : { 'a salt where format 1 has none': 'c'.repeat(64) };
    for (const [key, value] of Object.entries(saltChanges)) {
      expect(matchesLedger(record, files, entry, value), key).toBe(false);
      expect(matchesLedger(record, files, entry, salt), `${key} back`).toBe(true);
    }
    // The stored text is not what the check vouches by, the hash is (the full verification reads
    // the text): a check afresh reads only the hash and the fields beside the text.
    const read = new Set<string>();
    expect(
      matchesLedger({ ...record, title: `${record.title} again` }, files, watched(entry, read), salt),
    ).toBe(false);
    expect([...read].sort()).toEqual(['createdAt', 'hash', 'kind', 'patientId', 'recordId', 'seq', 'userId']);
  });
});
