// Reading a record's form from its parts (plain values from the HTTP edge, http/multipart.ts):
// fields first, then files, each file streamed through the store (hashed, encrypted, 25 MB cap)
// with its type checked by extension and content signature. Nothing is buffered whole; on any
// failure every file already written is discarded.
import path from 'node:path';
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
import { badRequest, tooLarge, unsupportedType } from '../../errors.js';
import type { FileStore, PendingFile } from '../../files/store.js';
import type { FormPart, MultipartRules } from '../../http/multipart.js';

export interface UploadedFile {
  pending: PendingFile;
  fileName: string;
  mimeType: string;
}

const TOO_MANY_FILES = `Too many files. Attach up to ${MAX_FILES_PER_RECORD} files to a record.`;

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

/** What the HTTP edge enforces for a record's form (http/multipart.ts). */
export const RECORD_FORM_RULES: MultipartRules = {
  limits: MULTIPART_LIMITS,
  maxBytes: MAX_FORM_BYTES,
  tooLargeMessage: `The upload is too large. ${TOO_LARGE_MESSAGE}`,
  fileTooLargeMessage: TOO_LARGE_MESSAGE,
  tooManyFilesMessage: TOO_MANY_FILES,
};

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

export interface ParsedForm<T> {
  fields: T;
  files: UploadedFile[];
}

/**
 * Reads the form's parts (from the HTTP edge, http/multipart.ts). `prepare` validates the fields
 * (and checks access) when the first file arrives or at the end, so nothing is written for a form
 * that would be refused anyway; a file sent before the fields it needs is refused by that same
 * check. `existingFiles` counts files the record already has (a draft). On any failure every file
 * already written is discarded.
 */
export async function readUploadForm<T>(
  parts: AsyncIterable<FormPart>,
  store: FileStore,
  prepare: (fields: Record<string, string>) => Promise<{ value: T; existingFiles: number }>,
): Promise<ParsedForm<T>> {
  const raw: Record<string, string> = {};
  const files: UploadedFile[] = [];
  let prepared: { value: T; existingFiles: number } | null = null;
  try {
    for await (const part of parts) {
      if (part.kind === 'field') {
        if (!RECORD_FIELD_NAMES.includes(part.name)) continue; // hospitalId, blockchainHash, ...: ignored
        if (prepared) throw badRequest("Send the record's fields before its files.");
        raw[part.name] = part.value;
        continue;
      }
      const fileName = cleanFileName(part.fileName);
      if (!fileName) {
        part.stream.resume(); // an empty file input
        continue;
      }
      try {
        prepared ??= await prepare(raw);
      } catch (err) {
        part.stream.resume();
        throw err;
      }
      if (prepared.existingFiles + files.length >= MAX_FILES_PER_RECORD) {
        part.stream.resume();
        throw tooLarge(TOO_MANY_FILES);
      }
      const ext = acceptedExtension(fileName);
      if (!ext) {
        part.stream.resume();
        throw unsupportedType(ACCEPTED_TYPES_MESSAGE);
      }
      const pending = await store.write(part.stream, MAX_UPLOAD_BYTES, (head) => {
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
    throw err;
  }
}
