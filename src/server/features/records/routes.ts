// Medical records (docs/spec.md#calls): upload (multipart), drafts, lists for a hospital's patient and
// for a signed-in patient, one record, sharing switches, and GET /api/download/{fileName}.
import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { text } from '../../../shared/text.js';
import { messageSchema } from '../../../shared/auth.js';
import { recordSchema, sharingSchema } from '../../../shared/records.js';
import type { AppContext } from '../../app.js';
import { notFound } from '../../errors.js';
import { requireRole } from '../../plugins/session.js';
import { requireWriteAccess } from '../billing/service.js';
import { actorOf } from '../patients/actor.js';
import {
  findDownload,
  listDrafts,
  listOwnRecords,
  listPatientRecords,
  updateSharing,
  viewRecord,
} from './read.js';
import { auditIntegrityFailure, isIntegrityFailure, parseRange } from './download.js';
import { discardDraft, finaliseDraft, uploadRecord } from './service.js';
import { MULTIPART_LIMITS } from './upload.js';

const tags = ['medical records'];
const idParams = z.object({ id: text().max(100) });
const recordList = z.array(recordSchema);

/** RFC 6266 / 5987: an ASCII fallback plus the exact UTF-8 name. */
export function contentDisposition(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]|["\\]/g, '_');
  const encoded = encodeURIComponent(fileName).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

export async function recordRoutes(app: FastifyInstance, ctx: AppContext) {
  const hospitalOnly = requireRole('hospital');
  const readers = requireRole('hospital', 'patient');
  const writeGuard = requireWriteAccess(ctx);

  // Multipart parsing only for the routes of this scope.
  await app.register(async (scope) => {
    await scope.register(multipart, { limits: MULTIPART_LIMITS, throwFileSizeLimit: true });
    const r = scope.withTypeProvider<ZodTypeProvider>();
    r.post(
      '/api/medical-records',
      {
        onRequest: [hospitalOnly, writeGuard],
        schema: {
          tags,
          summary: 'Upload a record (multipart/form-data), or save it as a draft',
          description:
            'Fields first: patientId (patients.id), recordType, title (required), description, doctorName, ' +
            'department, consentProvided, shareWithSpecialists, shareWithFamily, draft ("true" saves a draft), ' +
            'draftId (continue a draft); then up to 10 files named "files" (pdf, docx, jpg, jpeg, png; ' +
            '25 MB each; 413 when larger, 415 for other types). hospitalId, isBlockchainVerified and ' +
            'blockchainHash are ignored: the hospital is the signed-in one and the hash is the ledger entry’s.',
          consumes: ['multipart/form-data'],
          response: { 201: recordSchema },
        },
      },
      async (request, reply) => {
        const actor = actorOf(request);
        const record = await uploadRecord(ctx.db, ctx.files, actor, request, ctx.now());
        return reply.status(201).send(record);
      },
    );
  });

  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/medical-records',
    {
      onRequest: requireRole('patient'),
      schema: {
        tags,
        summary: "The signed-in patient's own uploaded records (audited)",
        response: { 200: recordList },
      },
    },
    async (request) => listOwnRecords(ctx.db, actorOf(request)),
  );

  r.get(
    '/api/medical-records/drafts',
    {
      onRequest: hospitalOnly,
      schema: {
        tags,
        summary: "The hospital's saved drafts (not ledgered yet)",
        response: { 200: recordList },
      },
    },
    async (request) => listDrafts(ctx.db, actorOf(request)),
  );

  r.get(
    '/api/medical-records/record/:id',
    {
      onRequest: readers,
      schema: {
        tags,
        summary: 'One record with its attachments (audited as record_view)',
        params: idParams,
        response: { 200: recordSchema },
      },
    },
    async (request) => viewRecord(ctx.db, ctx.files, actorOf(request), request.params.id, ctx.now()),
  );

  r.get(
    '/api/medical-records/:id',
    {
      onRequest: readers,
      schema: {
        tags,
        summary:
          "A patient's records: a hospital names its patient (patients.id), a patient their own patient id or user id",
        params: idParams,
        response: { 200: recordList },
      },
    },
    async (request) => listPatientRecords(ctx.db, actorOf(request), request.params.id),
  );

  r.post(
    '/api/medical-records/:id/finalize',
    {
      onRequest: [hospitalOnly, writeGuard],
      schema: {
        tags,
        summary: 'Upload a saved draft: it enters the ledger now',
        params: idParams,
        response: { 200: recordSchema },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      return finaliseDraft(ctx.db, actor, request.params.id, ctx.now());
    },
  );

  r.delete(
    '/api/medical-records/:id',
    {
      onRequest: [hospitalOnly, writeGuard],
      schema: {
        tags,
        summary: 'Discard a draft (uploaded records are never deleted: 409)',
        params: idParams,
        response: { 200: messageSchema },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      await discardDraft(ctx.db, ctx.files, actor, request.params.id);
      return { message: 'Draft discarded.' };
    },
  );

  r.put(
    '/api/medical-records/:id/sharing',
    {
      onRequest: [readers, writeGuard],
      schema: {
        tags,
        summary: 'Sharing switches of a record (Specialists, Family): a consent change, ledgered and audited',
        params: idParams,
        body: sharingSchema,
        response: { 200: recordSchema },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      return updateSharing(ctx.db, actor, request.params.id, request.body, ctx.now());
    },
  );

  r.get(
    '/api/download/:fileName',
    {
      onRequest: readers,
      schema: {
        tags,
        summary: 'An attachment, decrypted, with its original name and type (audited as record_access)',
        description:
          '{fileName} is the opaque id at the end of the attachment url; it is never a path. ' +
          'A single `Range: bytes=a-b` answers 206 with only those bytes (416 outside the file). ' +
          'A file that fails its integrity check is broken off before its first damaged chunk ' +
          '(the connection is closed, never a complete answer) and audited as integrity_failure.',
        params: z.object({ fileName: text().max(200) }),
      },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      const target = await findDownload(ctx.db, actor, request.params.fileName);
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
      const stream = range
        ? await ctx.files.openRange(file, range.start, range.end)
        : await ctx.files.open(file);
      if (!stream) throw notFound('File not available.');
      stream.on('error', (err) => {
        if (!reply.raw.headersSent) {
          // Nothing sent yet: the error handler answers, and its message must not be saved as the file.
          reply.removeHeader('content-disposition');
          reply.raw.removeHeader('content-disposition');
        }
        if (!isIntegrityFailure(err)) {
          request.log.error({ err, attachment: file.id }, 'attachment could not be read');
          return;
        }
        // Fastify destroys the socket (headers sent) or answers 500 (nothing sent yet).
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
    },
  );
}
