// The HTTP edge of a download: the service (records/download.ts) says what to send (a byte stream
// with its name, type, size and range, or that the range is outside the file); this decides the
// status and headers, sends the stream, and handles a stream that fails on the way.
import http2 from 'node:http2';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { stripBidiControls } from '../../shared/text.js';
import type { AttachmentAnswer } from '../features/records/download.js';

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

/** What a file answer sets, taken back if its answer becomes an error. */
const FILE_HEADERS = [
  'content-type',
  'content-disposition',
  'content-length',
  'content-range',
  'accept-ranges',
];

/**
 * Sends what `answer` describes. A stream that fails (an attachment failing its integrity check)
 * ends the answer: Fastify then destroys the socket (headers sent) or answers with the error
 * (nothing sent yet, and the file's headers taken back); the failure is logged and handed to the
 * answer's `failed` (which audits it).
 */
export function sendFile(request: FastifyRequest, reply: FastifyReply, answer: AttachmentAnswer) {
  if (answer.kind === 'unsatisfiable') {
    return reply
      .status(416)
      .header('content-range', `bytes */${answer.size}`)
      .header('accept-ranges', 'bytes')
      .send({ message: answer.message });
  }
  const { stream, range, file } = answer;
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
    const log = answer.describeFailure(err);
    request.log.error(log.context, log.message);
    answer
      .failed(err)
      .catch((auditErr: unknown) =>
        request.log.error({ err: auditErr, attachment: file.id }, 'integrity failure could not be audited'),
      );
  });
  reply
    .header('content-type', file.mimeType)
    .header('content-disposition', contentDisposition(file.fileName))
    .header('cache-control', 'private, no-store')
    .header('accept-ranges', answer.rangesAccepted ? 'bytes' : 'none');
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
