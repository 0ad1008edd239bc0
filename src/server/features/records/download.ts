// GET /api/download/{fileName}: which bytes to send (the Range header), and what happens when an
// attachment fails its integrity check while it is being sent (audited as integrity_failure; the
// HTTP edge, http/download.ts, breaks the response off and logs it).
import type { Readable } from 'node:stream';
import type { AppContext } from '../../context.js';
import type { Db } from '../../db/connect.js';
import { notFound } from '../../errors.js';
import { IntegrityError, isIntegrityFailure } from '../../files/store.js';
import { recordAudit } from '../audit/service.js';
import type { Actor } from '../../access.js';
import type { DownloadTarget } from './read.js';

/** Who downloads: a signed-in actor, or a share link's recipient (no user; docs/decisions.md#specialist-share-links). */
export type Reader = Pick<Actor, 'ip'> & { id: string | null };

/** What to send for a download; the HTTP edge (http/download.ts) turns it into the answer. */
export type AttachmentAnswer =
  | { kind: 'unsatisfiable'; size: number; message: string }
  | {
      kind: 'file';
      file: { id: string; fileName: string; mimeType: string; size: number };
      stream: Readable;
      /** The one range sent (206), or null for the whole file. */
      range: { start: number; end: number } | null;
      /** Whether the file can be read by ranges at all (Accept-Ranges). */
      rangesAccepted: boolean;
      /** What to log when the stream fails on the way. */
      describeFailure: (err: unknown) => { context: Record<string, unknown>; message: string };
      /** Called when the stream fails on the way: audits an integrity failure. */
      failed: (err: unknown) => Promise<void>;
    };

/**
 * Opens an attachment the reader may have (found and audited by findDownload): whole, or the one
 * range asked for (`rangeHeader`, the Range header's value). A stored file that fails its
 * integrity check ends the stream; `failed` then audits it as integrity_failure.
 */
export async function openAttachment(
  ctx: Pick<AppContext, 'db' | 'files'>,
  actor: Reader,
  target: DownloadTarget,
  rangeHeader: string | undefined,
): Promise<AttachmentAnswer> {
  const { file } = target;
  // Ranges are read from chunked files only. A "gcm" file (written before the chunked format,
  // until `npm run ledger -- migrate-files` rewrites it) has one tag over the whole file, so no
  // part of it can be checked alone: it ignores Range and answers 200 with the whole file.
  const rangesAccepted = file.format === 'stream1';
  const range = rangesAccepted ? parseRange(rangeHeader, file.size) : null;
  if (range === 'unsatisfiable') {
    return {
      kind: 'unsatisfiable',
      size: file.size,
      message: `The requested range is outside the file (${file.size} bytes).`,
    };
  }
  const stream = range ? await ctx.files.openRange(file, range.start, range.end) : await ctx.files.open(file);
  if (!stream) throw notFound('File not available.');
  return {
    kind: 'file',
    file,
    stream,
    range,
    rangesAccepted,
    describeFailure: (err) =>
      isIntegrityFailure(err)
        ? {
            context: { err, attachment: file.id, storageKey: file.storageKey },
            message: 'attachment failed its integrity check: download stopped',
          }
        : { context: { err, attachment: file.id }, message: 'attachment could not be read' },
    failed: async (err) => {
      if (isIntegrityFailure(err)) await auditIntegrityFailure(ctx.db, actor, target, err);
    },
  };
}

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
  actor: Reader,
  target: DownloadTarget,
  err: unknown,
): Promise<void> {
  const where = err instanceof IntegrityError ? { chunk: err.chunk, reason: err.message } : {};
  await recordAudit(db, actor, {
    event: {
      kind: 'integrity_failure',
      data: { title: target.recordTitle, fileName: target.file.fileName, ...where },
    },
    subject: {
      type: 'attachment',
      id: target.file.id,
      patientId: target.patientId,
      hospitalId: target.hospitalId,
    },
  });
}
