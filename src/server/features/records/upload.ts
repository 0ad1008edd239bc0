// Reading the multipart upload form: fields first, then files, each file streamed through the
// store (hashed, encrypted, 25 MB cap) with its type checked by extension and content signature.
// Nothing is buffered whole; on any failure every file already written is discarded.
import path from 'node:path';
import type { FastifyRequest } from 'fastify';
import type { Multipart } from '@fastify/multipart';
import { MAX_UPLOAD_BYTES } from '../../../shared/constants.js';
import { stripBidiControls } from '../../../shared/text.js';
import {
  acceptedExtension,
  matchesSignature,
  MAX_FILES_PER_RECORD,
  MIME_TYPES,
  RECORD_FIELD_NAMES,
  TOO_LARGE_MESSAGE,
} from '../../../shared/records.js';
import { badRequest, HttpError, tooLarge, unsupportedType } from '../../errors.js';
import type { FileStore, PendingFile } from '../../files/store.js';

export interface UploadedFile {
  pending: PendingFile;
  fileName: string;
  mimeType: string;
}

export const MULTIPART_LIMITS = {
  // One byte over the cap, so the store (which counts bytes) is what answers 413.
  fileSize: MAX_UPLOAD_BYTES + 1,
  files: MAX_FILES_PER_RECORD,
  fields: 30,
  fieldSize: 16 * 1024,
  fieldNameSize: 100,
  parts: 60,
  headerPairs: 50,
};

/** Every byte the form may carry: the files at their cap plus room for the fields. */
export const MAX_FORM_BYTES = MAX_FILES_PER_RECORD * MAX_UPLOAD_BYTES + 1024 * 1024;

export const ACCEPTED_TYPES_MESSAGE = 'Unsupported file type. Accepted types: PDF, DOCX, JPG, JPEG and PNG.';

/**
 * The last path segment of a client-sent name, without control characters or bidirectional
 * controls (`invoice\u202Efdp.exe.pdf` would read as "invoicefdp.exe.pdf" reversed), at most 200 chars.
 */
export function cleanFileName(raw: string): string {
  const base = stripBidiControls(
    // eslint-disable-next-line no-control-regex
    path.win32.basename(path.posix.basename(raw)).replace(/[\u0000-\u001f\u007f]/g, ''),
  );
  if (base.length <= 200) return base.trim();
  const ext = path.extname(base);
  return base.slice(0, 200 - ext.length) + ext;
}

/** Turns the multipart plugin's own errors into clear answers. */
export function describeMultipartError(err: unknown): unknown {
  if (err instanceof HttpError) return err;
  const e = err as { code?: string; message?: string };
  switch (e?.code) {
    case 'FST_REQ_FILE_TOO_LARGE':
      return tooLarge(TOO_LARGE_MESSAGE);
    case 'FST_FILES_LIMIT':
      return tooLarge(`Too many files. Attach up to ${MAX_FILES_PER_RECORD} files to a record.`);
    case 'FST_FIELDS_LIMIT':
    case 'FST_PARTS_LIMIT':
      return tooLarge('The form has too many fields.');
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
      return unsupportedType('Send the record as multipart/form-data.');
    case 'FST_PROTO_VIOLATION':
    case 'FST_INVALID_JSON_FIELD_ERROR':
      return badRequest('The upload form is not valid.');
    case 'FST_REQ_PREMATURE_CLOSE':
      return badRequest('The upload was interrupted.');
  }
  // The form parser's own errors carry no code; a coded one (a full disk, a database error) is
  // not the form's fault whatever its message says, and the error handler answers it.
  if (typeof e?.code !== 'string' && /multipart|part|boundary|form/i.test(e?.message ?? '')) {
    return badRequest('The upload was malformed or interrupted. Please try again.');
  }
  return err;
}

export interface ParsedForm<T> {
  fields: T;
  files: UploadedFile[];
}

/**
 * Reads the form. `prepare` validates the fields (and checks access) when the first file
 * arrives or at the end, so nothing is written for a form that would be refused anyway;
 * a file sent before the fields it needs is refused by that same check. `maxFiles` counts
 * files the record already has (a draft).
 */
export async function readUploadForm<T>(
  request: FastifyRequest,
  store: FileStore,
  prepare: (fields: Record<string, string>) => Promise<{ value: T; existingFiles: number }>,
): Promise<ParsedForm<T>> {
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > MAX_FORM_BYTES) {
    throw tooLarge(`The upload is too large. ${TOO_LARGE_MESSAGE}`);
  }
  const raw: Record<string, string> = {};
  const files: UploadedFile[] = [];
  let prepared: { value: T; existingFiles: number } | null = null;
  try {
    for await (const part of request.parts({ limits: MULTIPART_LIMITS }) as AsyncIterable<Multipart>) {
      if (part.type === 'field') {
        if (part.valueTruncated || part.fieldnameTruncated) throw tooLarge('A form field is too long.');
        if (!RECORD_FIELD_NAMES.includes(part.fieldname)) continue; // hospitalId, blockchainHash, ...: ignored
        if (prepared) throw badRequest("Send the record's fields before its files.");
        raw[part.fieldname] = typeof part.value === 'string' ? part.value : String(part.value);
        continue;
      }
      const fileName = cleanFileName(part.filename ?? '');
      if (!fileName) {
        part.file.resume(); // an empty file input
        continue;
      }
      try {
        prepared ??= await prepare(raw);
      } catch (err) {
        part.file.resume();
        throw err;
      }
      if (prepared.existingFiles + files.length >= MAX_FILES_PER_RECORD) {
        part.file.resume();
        throw tooLarge(`Too many files. Attach up to ${MAX_FILES_PER_RECORD} files to a record.`);
      }
      const ext = acceptedExtension(fileName);
      if (!ext) {
        part.file.resume();
        throw unsupportedType(ACCEPTED_TYPES_MESSAGE);
      }
      const pending = await store.write(part.file, MAX_UPLOAD_BYTES, (head) => {
        // The name's type is accepted; what is wrong is the file, and the answer says so.
        if (head.length === 0) throw badRequest(`"${fileName}" is empty.`);
        if (!matchesSignature(ext, head)) {
          const type = ext.toUpperCase();
          throw unsupportedType(
            `"${fileName}" is named as a ${type} file, but its contents are not ${type}.`,
          );
        }
      });
      files.push({ pending, fileName, mimeType: MIME_TYPES[ext] });
    }
    prepared ??= await prepare(raw);
    return { fields: prepared.value, files };
  } catch (err) {
    await Promise.all(files.map((f) => f.pending.discard().catch(() => {})));
    // Read and drop the rest of the body so that the answer reaches the client.
    request.raw.unpipe();
    request.raw.resume();
    throw describeMultipartError(err);
  }
}
