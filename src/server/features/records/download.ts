// GET /api/download/{fileName}: the Range header, and what happens when an attachment fails its
// integrity check while it is being sent (the response is broken off, the event logged and
// audited as integrity_failure).
import type { Db } from '../../db/connect.js';
import { IntegrityError } from '../../files/store.js';
import { writeAudit } from '../audit/service.js';
import type { Actor } from '../patients/actor.js';
import type { DownloadTarget } from './read.js';

/**
 * One byte range of a file of `size` bytes (RFC 9110 14.1.2): `bytes=a-b`, `bytes=a-` or
 * `bytes=-n`. null when there is no Range header or it is not one we serve (malformed, another
 * unit, several ranges): the whole file is sent, as RFC 9110 allows. 'unsatisfiable' answers 416.
 */
export function parseRange(
  header: string | undefined,
  size: number,
): { start: number; end: number } | 'unsatisfiable' | null {
  if (header === undefined) return null;
  const match = /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header);
  if (!match) return null;
  const [, first, last] = match;
  if (first === '' && last === '') return null;
  if (first === '') {
    // The last n bytes.
    const n = Number(last);
    if (n === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - n), end: size - 1 };
  }
  const start = Number(first);
  if (last !== '' && Number(last) < start) return null;
  if (start >= size) return 'unsatisfiable';
  return { start, end: last === '' ? size - 1 : Math.min(Number(last), size - 1) };
}

/** Audits a download broken off because the stored file failed its integrity check. */
export async function auditIntegrityFailure(
  db: Db,
  actor: Actor,
  target: DownloadTarget,
  err: unknown,
): Promise<void> {
  const where = err instanceof IntegrityError ? ` at chunk ${err.chunk} (${err.message})` : '';
  await writeAudit(db, {
    userId: actor.id,
    action: 'integrity_failure',
    entityType: 'attachment',
    entityId: target.file.id,
    details: `Attachment "${target.file.fileName}" of "${target.recordTitle}" failed its integrity check${where}; the download was stopped before the damaged part.`,
    ipAddress: actor.ip,
    hospitalId: target.hospitalId,
    patientId: target.patientId,
  });
}

/** Whether a stream error means the stored bytes are not what was written (not a client abort). */
export function isIntegrityFailure(err: unknown): boolean {
  if (err instanceof IntegrityError) return true;
  // A "gcm" file: the decipher's final tag check.
  return err instanceof Error && /unable to authenticate data/i.test(err.message);
}
