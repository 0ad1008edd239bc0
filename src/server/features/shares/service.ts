// Specialist share links (docs/decisions.md#specialist-share-links): the patient or the owning
// hospital sends one record to a clinician by e-mail, as a time-limited link that opens without an
// account. Only SHA-256 of the link's token is stored. Whether a link opens is decided in
// src/server/access.ts (mayOpenShareLink / openShareLinkFilter). Creating and revoking a link are
// consent changes: ledgered (consent_change, scope "share") and audited like the consent switches.
import crypto from 'node:crypto';
import { addHours } from 'date-fns';
import { and, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { patientDisplayName } from '../../../shared/patients.js';
import { SHARE_UNAVAILABLE, type Share, type SharedRecord, type ShareInput } from '../../../shared/shares.js';
import { formatInstantWithZone } from '../../../shared/time.js';
import {
  type Actor,
  findRecordForUser,
  isUuid,
  linkedRecordVersion,
  lockActiveAccount,
  lockPatientGrants,
  mayOpenShareLink,
  openShareLinkFilter,
  type PatientRow,
  type RecordRow,
  type ShareLinkRow,
  specialistsConsentOn,
  orgOf,
} from '../../access.js';
import type { Db } from '../../db/connect.js';
import { attachments, medicalRecords, patients, shareLinks, users } from '../../db/schema.js';
import { conflict, notFound } from '../../errors.js';
import type { FileStore } from '../../files/store.js';
import type { Mailer } from '../../mail/mailer.js';
import { shareLinkMail } from '../../mail/templates.js';
import { recordAudit, type AuditData } from '../audit/service.js';
import { appendLedgered } from '../ledger/ledgered.js';
import { verifyRecord } from '../ledger/verify.js';
import { recordVersions, versionIds } from '../records/amend.js';
import { documentStatusOf, loadRecord } from '../records/load.js';
import type { DownloadTarget } from '../records/read.js';
import { sha256Hex } from '../../digest.js';

/** 32 random bytes, base64url: 43 characters. */
const TOKEN = /^[A-Za-z0-9_-]{43}$/;
const hashToken = (token: string) => sha256Hex(token);
export const shareLink = (publicUrl: string, token: string) => `${publicUrl}/shared/${token}`;
export const attachmentUrl = (token: string, attachmentId: string) =>
  `/api/shares/${token}/attachments/${attachmentId}`;

export const NOT_CURRENT = 'Only the current version of an uploaded record can be shared.';
export const CONSENT_OFF =
  'Sharing with specialists is turned off in the patient’s consent settings. Turn it on to share this record.';
export const SWITCH_OFF = 'This record’s Specialists sharing switch is off. Turn it on to share this record.';

/** Whether the patient's "Share with specialists" consent is on now. */
async function specialistsConsent(db: Db, patientId: string): Promise<boolean> {
  const [row] = await db
    .select({ on: specialistsConsentOn(sql`${patientId}::uuid`) })
    .from(patients)
    .where(eq(patients.id, patientId));
  return row?.on ?? false;
}

/** A ledgered, audited change to a link (created or revoked), in the caller's transaction. */
async function recordShareChange(
  tx: Db,
  actor: Actor,
  change: {
    action: 'create' | 'revoke';
    link: ShareLinkRow;
    record: RecordRow;
    audit: AuditData<'consent_change'>;
  },
  now: Date,
) {
  const { link, record } = change;
  await appendLedgered(
    tx,
    actor,
    {
      entry: {
        kind: 'consent_change',
        recordId: record.id,
        patientId: link.patientId,
        content: {
          scope: 'share',
          action: change.action,
          shareId: link.id,
          recordId: record.id,
          recipientEmail: link.recipientEmail,
          expiresAt: link.expiresAt.toISOString(),
        },
      },
      audit: {
        event: { kind: 'consent_change', data: change.audit },
        subject: {
          type: 'share_link',
          id: link.id,
          patientId: link.patientId,
          hospitalId: record.hospitalId,
        },
      },
    },
    now,
  );
}

/**
 * POST /api/medical-records/{id}/shares: the patient or the owning hospital shares the current
 * version of an uploaded record while the patient's consent and the record's switch allow it. The
 * link is mailed after the commit; the token exists only in the link.
 */
export async function createShare(
  db: Db,
  deps: { mail: Mailer; publicUrl: string },
  actor: Actor,
  recordId: string,
  input: ShareInput,
  now: Date,
): Promise<Share> {
  const { record: found, patient } = await findRecordForUser(db, actor, recordId);
  const token = crypto.randomBytes(32).toString('base64url');
  const expiresAt = addHours(now, input.expiresInHours);
  const { link, record } = await db.transaction(async (tx) => {
    // The consent and the record's switch are read under the patient's grant lock and the
    // record's row lock: a consent save or a switch change racing this one is decided before or
    // after it, never in between (a link made meanwhile would escape the consent-off revocation).
    await lockPatientGrants(tx, patient.id);
    await lockActiveAccount(tx, actor.id);
    const [record] = await tx
      .select()
      .from(medicalRecords)
      .where(eq(medicalRecords.id, found.id))
      .for('share');
    if (record.status !== 'final' || documentStatusOf(record) !== 'current') throw conflict(NOT_CURRENT);
    if (!(await specialistsConsent(tx, patient.id))) throw conflict(CONSENT_OFF);
    if (!record.shareWithSpecialists) throw conflict(SWITCH_OFF);
    const [row] = await tx
      .insert(shareLinks)
      .values({
        recordId: record.id,
        patientId: patient.id,
        createdBy: actor.id,
        recipientEmail: input.recipientEmail,
        note: input.note ?? null,
        tokenHash: hashToken(token),
        expiresAt,
        createdAt: now,
      })
      .returning();
    await recordShareChange(
      tx,
      actor,
      {
        action: 'create',
        link: row,
        record,
        audit: {
          change: 'link_shared',
          title: record.title,
          recipient: row.recipientEmail,
          hours: input.expiresInHours,
        },
      },
      now,
    );
    return { link: row, record };
  });
  const mail = shareLinkMail(
    link.recipientEmail,
    {
      senderName: await senderName(db, actor, patient),
      expires: formatInstantWithZone(expiresAt, await hospitalZone(db, record.hospitalId)),
      note: link.note,
    },
    shareLink(deps.publicUrl, token),
  );
  await deps.mail.send(mail);
  return shapeShare(link, record, true, now);
}

async function senderName(db: Db, actor: Actor, patient: PatientRow): Promise<string> {
  if (actor.role === 'patient') return patientDisplayName(patient);
  const [hospital] = await db
    .select({ name: users.hospitalName })
    .from(users)
    .where(eq(users.id, orgOf(actor)));
  return hospital?.name ?? 'Your patient’s hospital';
}

async function hospitalZone(db: Db, hospitalId: string): Promise<string> {
  const [row] = await db.select({ zone: users.timeZone }).from(users).where(eq(users.id, hospitalId));
  return row?.zone ?? 'UTC';
}

function shapeShare(link: ShareLinkRow, record: RecordRow, consent: boolean, now: Date): Share {
  return {
    id: link.id,
    recordId: link.recordId,
    recordTitle: record.title,
    recipientEmail: link.recipientEmail,
    note: link.note,
    createdAt: link.createdAt.toISOString(),
    expiresAt: link.expiresAt.toISOString(),
    timesOpened: link.timesOpened,
    lastOpenedAt: link.lastOpenedAt?.toISOString() ?? null,
    revokedAt: link.revokedAt?.toISOString() ?? null,
    active: mayOpenShareLink(link, record, consent, now),
  };
}

/**
 * Every version of the record (its links were made for one of them) and the latest one, which
 * its links open now (docs/decisions.md#specialist-share-links).
 */
async function linkedVersions(db: Db, record: RecordRow): Promise<{ ids: string[]; latest: RecordRow }> {
  const ids = await versionIds(db, record);
  const latestId = ids[ids.length - 1];
  if (latestId === record.id) return { ids, latest: record };
  const [latest] = await db.select().from(medicalRecords).where(eq(medicalRecords.id, latestId));
  return { ids, latest };
}

/**
 * GET /api/medical-records/{id}/shares: every link of the record, made for any of its versions,
 * newest first; whether each opens is decided on the latest version.
 */
export async function listShares(db: Db, actor: Actor, recordId: string, now: Date): Promise<Share[]> {
  const { record, patient } = await findRecordForUser(db, actor, recordId);
  const { ids, latest } = await linkedVersions(db, record);
  const links = await db
    .select()
    .from(shareLinks)
    .where(inArray(shareLinks.recordId, ids))
    .orderBy(desc(shareLinks.createdAt), desc(shareLinks.id));
  const consent = await specialistsConsent(db, patient.id);
  return links.map((link) => shapeShare(link, latest, consent, now));
}

/**
 * GET /api/shares: the signed-in patient's links that open now, over all their records (the
 * Manage Consent dialog's list of who holds access).
 */
export async function listOpenShares(db: Db, patient: PatientRow, now: Date): Promise<Share[]> {
  const rows = await db
    .select({ link: shareLinks, record: medicalRecords })
    .from(shareLinks)
    .innerJoin(medicalRecords, eq(medicalRecords.id, linkedRecordVersion))
    .where(and(eq(shareLinks.patientId, patient.id), openShareLinkFilter(now)))
    .orderBy(desc(shareLinks.createdAt), desc(shareLinks.id));
  return rows.map(({ link, record }) => shapeShare(link, record, true, now));
}

/** DELETE /api/medical-records/{id}/shares/{shareId}: the link stops working at once. */
export async function revokeShare(
  db: Db,
  actor: Actor,
  recordId: string,
  shareId: string,
  now: Date,
): Promise<Share> {
  const { record: found, patient } = await findRecordForUser(db, actor, recordId);
  if (!isUuid(shareId)) throw notFound('Share link not found.');
  // A link of any version of the record; the change names the version it opens now.
  const { ids, latest: record } = await linkedVersions(db, found);
  const ofRecord = and(eq(shareLinks.id, shareId), inArray(shareLinks.recordId, ids));
  const link = await db.transaction(async (tx) => {
    const [row] = await tx
      .update(shareLinks)
      .set({ revokedAt: now })
      .where(and(ofRecord, isNull(shareLinks.revokedAt)))
      .returning();
    if (!row) {
      const [existing] = await tx.select().from(shareLinks).where(ofRecord);
      if (!existing) throw notFound('Share link not found.');
      return existing; // already revoked: nothing changes
    }
    await recordShareChange(
      tx,
      actor,
      {
        action: 'revoke',
        link: row,
        record,
        audit: { change: 'link_revoked', title: record.title, recipient: row.recipientEmail },
      },
      now,
    );
    return row;
  });
  return shapeShare(link, record, await specialistsConsent(db, patient.id), now);
}

/**
 * Turning "Share with specialists" off revokes every link of the patient, in the consent save's
 * transaction (whose ledger entry and audit entry record the change). Answers how many.
 */
export async function revokePatientShares(tx: Db, patientId: string, now: Date): Promise<number> {
  const rows = await tx
    .update(shareLinks)
    .set({ revokedAt: now })
    .where(and(eq(shareLinks.patientId, patientId), isNull(shareLinks.revokedAt)))
    .returning({ id: shareLinks.id });
  return rows.length;
}

/** The link behind a token with its record, when it opens now; 404 (one message) otherwise. */
async function findOpenShare(db: Db, token: string, now: Date) {
  if (!TOKEN.test(token)) throw notFound(SHARE_UNAVAILABLE);
  const [row] = await db
    .select({ link: shareLinks, record: medicalRecords })
    .from(shareLinks)
    .innerJoin(medicalRecords, eq(medicalRecords.id, linkedRecordVersion))
    .where(and(eq(shareLinks.tokenHash, hashToken(token)), openShareLinkFilter(now)));
  if (!row) throw notFound(SHARE_UNAVAILABLE);
  return row;
}

/**
 * GET /api/shares/{token}: the latest version of the record (a link follows its amendments), its
 * attachments (downloads under the token), its full verification and its versions. Each opening counts on the link and is audited with the IP (record_view, no user),
 * in the patient's and the hospital's trails.
 */
export async function openShare(
  db: Db,
  files: FileStore,
  token: string,
  ip: string,
  now: Date,
): Promise<SharedRecord> {
  const { link, record } = await findOpenShare(db, token, now);
  await db.transaction(async (tx) => {
    await tx
      .update(shareLinks)
      .set({ timesOpened: sql`${shareLinks.timesOpened} + 1`, lastOpenedAt: now })
      .where(eq(shareLinks.id, link.id));
    await recordAudit(
      tx,
      { id: null, ip },
      {
        event: { kind: 'record_view', data: { title: record.title, link: link.recipientEmail } },
        subject: {
          type: 'medical_record',
          id: record.id,
          patientId: link.patientId,
          hospitalId: record.hospitalId,
        },
      },
    );
  });
  const [loaded, verification, versions] = await Promise.all([
    loadRecord(db, record.id),
    verifyRecord(db, files, record, now),
    versionIds(db, record).then((ids) => recordVersions(db, ids)),
  ]);
  return {
    record: {
      title: loaded.title,
      recordType: loaded.recordType,
      description: loaded.description,
      doctorName: loaded.doctorName,
      department: loaded.department,
      serviceDate: loaded.serviceDate,
      createdAt: loaded.createdAt,
      providerName: loaded.providerName,
      providerVerified: loaded.providerVerified,
      documentStatus: loaded.documentStatus,
    },
    attachments: loaded.attachments.map((a) => ({
      id: a.id,
      fileName: a.fileName,
      mimeType: a.mimeType,
      size: a.size,
      sha256: a.sha256,
      url: attachmentUrl(token, a.id),
    })),
    verification,
    versions: versions.map((v) => ({
      title: v.title,
      createdAt: v.createdAt,
      providerName: v.providerName,
      documentStatus: v.documentStatus,
      blockchainHash: v.blockchainHash,
    })),
    amendedSinceShared: link.recordId !== record.id,
    expiresAt: link.expiresAt.toISOString(),
    note: link.note,
  };
}

/**
 * GET /api/shares/{token}/attachments/{attachmentId}: one attachment of the shared record, for
 * the download route's streaming (integrity checks, ranges); audited as record_access.
 */
export async function findSharedDownload(
  db: Db,
  token: string,
  attachmentId: string,
  ip: string,
  now: Date,
): Promise<DownloadTarget> {
  const { link, record } = await findOpenShare(db, token, now);
  if (!isUuid(attachmentId)) throw notFound('File not available.');
  const [file] = await db
    .select()
    .from(attachments)
    .where(and(eq(attachments.id, attachmentId), eq(attachments.recordId, record.id)));
  if (!file) throw notFound('File not available.');
  await recordAudit(
    db,
    { id: null, ip },
    {
      event: {
        kind: 'record_download',
        data: { title: record.title, fileName: file.fileName, link: link.recipientEmail },
      },
      subject: { type: 'attachment', id: file.id, patientId: link.patientId, hospitalId: record.hospitalId },
    },
  );
  return { file, recordTitle: record.title, hospitalId: record.hospitalId, patientId: link.patientId };
}
