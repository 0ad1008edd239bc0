// GET /api/download/{fileName}: the Range header, and what happens when an attachment fails its
// integrity check while it is being sent (the response is broken off, the event logged and
// audited as integrity_failure).
import http2 from 'node:http2';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { stripBidiControls } from '../../../shared/text.js';
import type { AppContext } from '../../context.js';
import type { Db } from '../../db/connect.js';
import { notFound } from '../../errors.js';
import { IntegrityError, isIntegrityFailure } from '../../files/store.js';
import { recordAudit } from '../audit/service.js';
import type { Actor } from '../../access.js';
import type { DownloadTarget } from './read.js';

/** Who downloads: a signed-in actor, or a share link's recipient (no user; docs/decisions.md#specialist-share-links). */
export type Reader = Pick<Actor, 'ip'> & { id: string | null };

/**
 * RFC 6266 / 5987: an ASCII fallback plus the UTF-8 name, without bidirectional controls (a name
 * stored before uploads stripped them must not reach the browser's save dialog reversed).
 */
export function contentDisposition(stored: string): string {
  const fileName = stripBidiControls(stored);
  const ascii = fileName.replace(/[^\x20-\x7e]|["\\]/g, '_');
  const encoded = encodeURIComponent(fileName).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/** What sendAttachment says about the file, taken back if its answer becomes an error. */
const FILE_HEADERS = [
  'content-type',
  'content-disposition',
  'content-length',
  'content-range',
  'accept-ranges',
];

/**
 * Sends an attachment the reader may have (found and audited by findDownload): whole, or the one
 * range asked for. A stored file that fails its integrity check ends the stream: Fastify then
 * destroys the socket (headers sent) or answers 500 (nothing sent yet); it is logged and audited.
 */
export async function sendAttachment(
  ctx: AppContext,
  actor: Reader,
  target: DownloadTarget,
  request: FastifyRequest,
  reply: FastifyReply,
) {
  const { file } = target;
  // Ranges are read from chunked files only. A "gcm" file (written before the chunked format,
  // until `npm run ledger -- migrate-files` rewrites it) has one tag over the whole file, so no
  // part of it can be checked alone: it ignores Range and answers 200 with the whole file.
  const ranged = file.format === 'stream1';
  const range = ranged ? parseRange(request.headers.range, file.size) : null;
  if (range === 'unsatisfiable') {
    return reply
      .status(416)
      .header('content-range', `bytes */${file.size}`)
      .header('accept-ranges', 'bytes')
      .send({ message: `The requested range is outside the file (${file.size} bytes).` });
  }
  const stream = range ? await ctx.files.openRange(file, range.start, range.end) : await ctx.files.open(file);
  if (!stream) throw notFound('File not available.');
  stream.on('error', (err) => {
    if (!reply.raw.headersSent) {
      // Nothing sent yet: the error handler answers in JSON, whose message must not be saved as
      // the file nor be taken for its type, length or range.
      for (const name of FILE_HEADERS) {
        reply.removeHeader(name);
        reply.raw.removeHeader(name);
      }
    } else {
      breakOff(reply);
    }
    if (!isIntegrityFailure(err)) {
      request.log.error({ err, attachment: file.id }, 'attachment could not be read');
      return;
    }
    request.log.error(
      { err, attachment: file.id, storageKey: file.storageKey },
      'attachment failed its integrity check: download stopped',
    );
    auditIntegrityFailure(ctx.db, actor, target, err).catch((auditErr: unknown) =>
      request.log.error({ err: auditErr, attachment: file.id }, 'integrity failure could not be audited'),
    );
  });
  reply
    .header('content-type', file.mimeType)
    .header('content-disposition', contentDisposition(file.fileName))
    .header('cache-control', 'private, no-store')
    .header('accept-ranges', ranged ? 'bytes' : 'none');
  if (range) {
    reply
      .status(206)
      .header('content-range', `bytes ${range.start}-${range.end}/${file.size}`)
      .header('content-length', String(range.end - range.start + 1));
  } else {
    reply.header('content-length', String(file.size));
  }
  return reply.send(stream);
}

/**
 * Tells the client that a file already under way will not be complete. Over HTTP/1.1 Fastify
 * closes the connection, which does that. Over HTTP/2 it would destroy the stream without an
 * error, which resets it with NO_ERROR: Node's client took that for the end of the file, and
 * Chromium saved the part before the damage as the whole file. INTERNAL_ERROR says the answer broke.
 */
function breakOff(reply: FastifyReply) {
  const raw = reply.raw as unknown as Partial<http2.Http2ServerResponse>;
  raw.stream?.close(http2.constants.NGHTTP2_INTERNAL_ERROR);
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
