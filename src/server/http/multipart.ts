// The HTTP edge of a multipart form: what @fastify/multipart gives is turned into plain parts (a
// field's text, a file's name, type and byte stream), so that services read a form without
// knowing Fastify. The edge also owns what is about the request itself: a declared length over
// the form's cap is refused before any part is read, the plugin's errors become clear 4xx
// answers, and after a failure the rest of the body is read and dropped so the answer arrives.
import type { Readable } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import type { Multipart } from '@fastify/multipart';
import { badRequest, HttpError, tooLarge, unsupportedType } from '../errors.js';

export type FormPart =
  | { kind: 'field'; name: string; value: string }
  /** `fileName` as the client sent it (unchecked); `stream` must be read or resumed. */
  | { kind: 'file'; field: string; fileName: string; mimeType: string; stream: Readable };

export interface MultipartLimits {
  fileSize: number;
  files: number;
  fields: number;
  fieldSize: number;
  fieldNameSize: number;
  parts: number;
  headerPairs: number;
}

export interface MultipartRules {
  limits: MultipartLimits;
  /** The most bytes the whole body may declare (413 at once beyond it). */
  maxBytes: number;
  /** The 413 message for a body declared too large. */
  tooLargeMessage: string;
  /** The 413 message for a file past `limits.fileSize`. */
  fileTooLargeMessage: string;
  /** The 413 message for more than `limits.files` files. */
  tooManyFilesMessage: string;
}

/** The parts of the request's form, as plain values, in the order they arrive. */
async function* plainParts(request: FastifyRequest, limits: MultipartLimits): AsyncIterable<FormPart> {
  for await (const part of request.parts({ limits }) as AsyncIterable<Multipart>) {
    if (part.type === 'field') {
      if (part.valueTruncated || part.fieldnameTruncated) throw tooLarge('A form field is too long.');
      yield {
        kind: 'field',
        name: part.fieldname,
        value: typeof part.value === 'string' ? part.value : String(part.value),
      };
    } else {
      yield {
        kind: 'file',
        field: part.fieldname,
        fileName: part.filename ?? '',
        mimeType: part.mimetype,
        stream: part.file,
      };
    }
  }
}

/**
 * Hands `read` the request's form as an async iterable of plain parts and answers what it
 * returns. Whatever `read` or the parser throws is turned into a clear answer, after the rest of
 * the body was drained.
 */
export async function readMultipart<T>(
  request: FastifyRequest,
  rules: MultipartRules,
  read: (parts: AsyncIterable<FormPart>) => Promise<T>,
): Promise<T> {
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > rules.maxBytes) throw tooLarge(rules.tooLargeMessage);
  try {
    return await read(plainParts(request, rules.limits));
  } catch (err) {
    // Read and drop the rest of the body so that the answer reaches the client.
    request.raw.unpipe();
    request.raw.resume();
    throw describeMultipartError(err, rules);
  }
}

/** Turns the multipart plugin's own errors into clear answers; any other error is kept. */
export function describeMultipartError(
  err: unknown,
  messages: Pick<MultipartRules, 'fileTooLargeMessage' | 'tooManyFilesMessage'>,
): unknown {
  if (err instanceof HttpError) return err;
  const e = err as { code?: string; message?: string; cause?: unknown };
  switch (e?.code) {
    case 'FST_REQ_FILE_TOO_LARGE':
      return tooLarge(messages.fileTooLargeMessage);
    case 'FST_FILES_LIMIT':
      return tooLarge(messages.tooManyFilesMessage);
    case 'FST_FIELDS_LIMIT':
    case 'FST_PARTS_LIMIT':
      return tooLarge('The form has too many fields.');
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
      return unsupportedType('Send the form as multipart/form-data.');
    case 'FST_PROTO_VIOLATION':
    case 'FST_INVALID_JSON_FIELD_ERROR':
      return badRequest('The upload form is not valid.');
    case 'FST_REQ_PREMATURE_CLOSE':
      return badRequest('The upload was interrupted.');
  }
  // The form parser's own errors carry no code and wrap nothing; a coded one (a full disk) or a
  // wrapped one (Drizzle wraps the driver's error, and its message holds the query, whose
  // columns may read "format") is not the form's fault, and the error handler answers it.
  if (
    typeof e?.code !== 'string' &&
    e?.cause === undefined &&
    /multipart|part|boundary|form/i.test(e?.message ?? '')
  ) {
    return badRequest('The upload was malformed or interrupted. Please try again.');
  }
  return err;
}
