// A record's receipt (src/shared/ledger/receipt.ts): its ledger entry's fields exactly as hashed,
// the inclusion proof and the signed checkpoint the proof leads to. Given to whoever may view the
// record, and audited like a view: it carries the record's content. For a format-2 entry the
// receipt carries its opening (salt and content) so that it verifies offline; once the entry's
// content is erased no receipt can be made.
import { canonicalJson } from '../../../shared/ledger/canonical.js';
import { RECEIPT_FORMAT, type Receipt } from '../../../shared/ledger/receipt.js';
import { type Actor, findRecordForUser } from '../../access.js';
import type { Db } from '../../db/connect.js';
import { users } from '../../db/schema.js';
import { joinNames } from '../../../shared/users.js';
import { eq } from 'drizzle-orm';
import { conflict, notFound } from '../../errors.js';
import { recordAudit } from '../audit/service.js';
import { currentCheckpoint } from './checkpoints.js';
import { openEntry, openingOf } from './commitments.js';
import { hexOf } from './hashing.js';
import type { LedgerSigner } from './signing.js';
import { inclusionProof, LedgerDamagedError } from './tree.js';
import { findRecordEntry } from './verify.js';

interface EntryAttachment {
  fileName: string;
  sha256: string;
  size: number;
}

export async function recordReceipt(
  db: Db,
  actor: Actor,
  recordId: string,
  options: { signer: LedgerSigner; now: Date; intervalSeconds: number },
): Promise<Receipt> {
  const { record, patient } = await findRecordForUser(db, actor, recordId);
  const entry = await findRecordEntry(db, record.id);
  if (!entry) throw notFound('This record has no ledger entry yet (drafts are not ledgered).');
  const envelope = JSON.parse(entry.canonical) as Record<string, unknown>;
  // The receipt's fields must hash to the entry's hash, so the stored text must be canonical.
  if (canonicalJson(envelope) !== entry.canonical)
    throw new LedgerDamagedError(`Ledger entry ${entry.seq} is not in canonical form.`);
  const seq = Number(entry.seq);
  const opening = await openingOf(db, seq);
  const opened = openEntry(entry, opening);
  if (opened.state === 'erased')
    throw conflict("This record's ledger content was erased; a receipt can no longer be made for it.");
  if (opened.state !== 'open')
    throw new LedgerDamagedError(`Ledger entry ${seq}'s stored content does not match the entry.`);
  const checkpoint = await currentCheckpoint(db, { ...options, minSize: seq + 1 });
  const { auditPath, rootHash } = await inclusionProof(db, seq, checkpoint.treeSize);
  if (hexOf(rootHash) !== checkpoint.rootHash)
    throw new LedgerDamagedError(`The tree of ${checkpoint.treeSize} entries no longer has its signed root.`);
  const content = opened.content as { attachments?: EntryAttachment[] };

  await recordAudit(db, actor, {
    event: { kind: 'receipt_download', data: { title: record.title } },
    subject: { type: 'medical_record', id: record.id, patientId: patient.id, hospitalId: record.hospitalId },
  });
  return {
    format: RECEIPT_FORMAT,
    origin: options.signer.name,
    verifierKey: options.signer.verifierKey,
    recordId: record.id,
    entry: envelope,
    entryHash: entry.hash,
    leafIndex: seq,
    treeSize: checkpoint.treeSize,
    inclusionProof: auditPath.map(hexOf),
    checkpoint: checkpoint.note,
    ...(opened.version === 2 && opening ? { opening: { salt: opening.salt, content: opened.content } } : {}),
    attachments: (content.attachments ?? []).map((a) => ({
      fileName: a.fileName,
      sha256: a.sha256,
      size: a.size,
    })),
    issuedAt: options.now.toISOString(),
    summary: await receiptSummary(db, record),
  };
}

/** The human-readable part: the record, its organization and who it is by (never in the entry). */
async function receiptSummary(
  db: Db,
  record: {
    title: string;
    hospitalId: string;
    doctorName: string | null;
    practitionerId: string | null;
    serviceDate: string | null;
  },
): Promise<NonNullable<Receipt['summary']>> {
  const [org] = await db
    .select({ name: users.hospitalName })
    .from(users)
    .where(eq(users.id, record.hospitalId));
  const hospital = org?.name ?? null;
  let practitioner = record.doctorName?.trim() || null;
  if (record.practitionerId) {
    const [person] = await db
      .select({ firstName: users.firstName, lastName: users.lastName })
      .from(users)
      .where(eq(users.id, record.practitionerId));
    practitioner = (person && joinNames(person.firstName, person.lastName)) || practitioner;
  }
  return {
    title: record.title,
    hospital,
    practitioner: practitioner && hospital ? `${practitioner}, ${hospital}` : practitioner,
    ...(record.serviceDate ? { serviceDate: record.serviceDate } : {}),
  };
}
