// Medical records (docs/spec.md#calls): upload (multipart), drafts, lists for a hospital's patient and
// for a signed-in patient, one record, sharing switches, and GET /api/download/{fileName}.
import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { text } from '../../../shared/text.js';
import { pagedSchema } from '../../../shared/paging.js';
import { messageSchema } from '../../../shared/auth.js';
import {
  enteredInErrorSchema,
  recordListQuerySchema,
  recordSchema,
  recordVersionSchema,
  sharingSchema,
} from '../../../shared/records.js';
import type { AppContext } from '../../context.js';
import { actorOf } from '../../access.js';
import * as read from './read.js';
import { amendRecord, markEnteredInError, recordHistory } from './amend.js';
import { openAttachment } from './download.js';
import { discardDraft, finaliseDraft, uploadRecord } from './service.js';
import { sendFile } from '../../http/download.js';
import { readMultipart } from '../../http/multipart.js';
import { MULTIPART_LIMITS, RECORD_FORM_RULES } from './upload.js';
import { ALL_STAFF, CLINICAL_STAFF } from '../../plugins/policy.js';

const tags = ['medical records'];
const idParams = z.object({ id: text().max(100) });
const recordList = z.array(recordSchema);
const recordPage = pagedSchema(recordSchema);

export { contentDisposition } from '../../http/download.js';

export async function recordRoutes(app: FastifyInstance, ctx: AppContext) {
  // A family member with a live grant views and downloads too (access.ts decides; docs/decisions.md#family-proxy-access).

  // Multipart parsing only for the routes of this scope.
  await app.register(async (scope) => {
    await scope.register(multipart, { limits: MULTIPART_LIMITS, throwFileSizeLimit: true });
    const r = scope.withTypeProvider<ZodTypeProvider>();
    r.post(
      '/api/medical-records',
      {
        config: {
          policy: { roles: ['hospital'], writeAccess: true, healthData: true, staffRoles: CLINICAL_STAFF },
        },
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
        const record = await readMultipart(request, RECORD_FORM_RULES, (parts) =>
          uploadRecord(ctx.db, ctx.files, actor, parts, ctx.now()),
        );
        return reply.status(201).send(record);
      },
    );
    r.post(
      '/api/medical-records/:id/amend',
      {
        config: {
          policy: { roles: ['hospital'], writeAccess: true, healthData: true, staffRoles: CLINICAL_STAFF },
        },
        schema: {
          tags,
          summary: 'Correct an uploaded record: a new version that supersedes it (multipart, as the upload)',
          description:
            'The same fields as the upload (patientId must be the record’s own patient; no drafts). Without ' +
            'files the new version keeps the old one’s. The old version becomes `superseded`; the new one’s ' +
            'ledger entry names it and its entry hash. 409 when the record is not the current version.',
          consumes: ['multipart/form-data'],
          params: idParams,
          response: { 201: recordSchema },
        },
      },
      async (request, reply) => {
        const actor = actorOf(request);
        const record = await readMultipart(request, RECORD_FORM_RULES, (parts) =>
          amendRecord(ctx.db, ctx.files, actor, parts, request.params.id, ctx.now()),
        );
        return reply.status(201).send(record);
      },
    );
  });

  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post(
    '/api/medical-records/:id/entered-in-error',
    {
      config: {
        policy: { roles: ['hospital'], writeAccess: true, healthData: true, staffRoles: CLINICAL_STAFF },
      },
      schema: {
        tags,
        summary: 'Retract an uploaded record (entered in error): kept, ledgered, hidden from default lists',
        params: idParams,
        body: enteredInErrorSchema,
        response: { 200: recordSchema },
      },
    },
    async (request) =>
      markEnteredInError(ctx.db, actorOf(request), request.params.id, request.body.reason, ctx.now()),
  );

  r.get(
    '/api/medical-records/:id/history',
    {
      config: {
        policy: {
          roles: ['hospital', 'patient'],
          writeAccess: false,
          healthData: true,
          staffRoles: CLINICAL_STAFF,
        },
      },
      schema: {
        tags,
        summary: 'Every version of a record, oldest first, with amendments and retractions',
        params: idParams,
        response: { 200: z.object({ versions: z.array(recordVersionSchema) }) },
      },
    },
    async (request) => ({ versions: await recordHistory(ctx.db, actorOf(request), request.params.id) }),
  );

  r.get(
    '/api/medical-records',
    {
      config: { policy: { roles: ['patient'], writeAccess: false, healthData: true } },
      schema: {
        tags,
        summary:
          "The signed-in patient's own uploaded records, newest first, one page (audited); view=all adds earlier versions and retracted ones",
        querystring: recordListQuerySchema,
        response: { 200: recordPage },
      },
    },
    async (request) => read.listOwnRecords(ctx.db, actorOf(request), request.query),
  );

  r.get(
    '/api/medical-records/drafts',
    {
      config: {
        policy: { roles: ['hospital'], writeAccess: false, healthData: true, staffRoles: CLINICAL_STAFF },
      },
      schema: {
        tags,
        summary: "The hospital's saved drafts (not ledgered yet)",
        response: { 200: recordList },
      },
    },
    async (request) => read.listDrafts(ctx.db, actorOf(request)),
  );

  r.get(
    '/api/medical-records/record/:id',
    {
      config: {
        policy: {
          roles: ['hospital', 'patient', 'family'],
          writeAccess: false,
          healthData: true,
          staffRoles: CLINICAL_STAFF,
        },
      },
      schema: {
        tags,
        summary: 'One record with its attachments (audited as record_view)',
        params: idParams,
        response: { 200: recordSchema },
      },
    },
    async (request) => read.viewRecord(ctx.db, ctx.files, actorOf(request), request.params.id, ctx.now()),
  );

  r.get(
    '/api/medical-records/:id',
    {
      config: {
        policy: {
          roles: ['hospital', 'patient'],
          writeAccess: false,
          healthData: true,
          staffRoles: ALL_STAFF,
        },
      },
      schema: {
        tags,
        summary:
          "A patient's records: a hospital names its patient (patients.id), a patient their own patient id or user id",
        description:
          'Newest first, one page: ?page= (from 1), ?pageSize= (default 50, at most 100); total counts the ' +
          'whole list. view=all adds earlier versions and retracted ones.',
        params: idParams,
        querystring: recordListQuerySchema,
        response: { 200: recordPage },
      },
    },
    async (request) => read.listPatientRecords(ctx.db, actorOf(request), request.params.id, request.query),
  );

  r.post(
    '/api/medical-records/:id/finalize',
    {
      config: {
        policy: { roles: ['hospital'], writeAccess: true, healthData: true, staffRoles: CLINICAL_STAFF },
      },
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
      config: {
        policy: { roles: ['hospital'], writeAccess: true, healthData: true, staffRoles: CLINICAL_STAFF },
      },
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
      config: {
        policy: {
          roles: ['hospital', 'patient'],
          writeAccess: true,
          healthData: true,
          staffRoles: CLINICAL_STAFF,
        },
      },
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
      return read.updateSharing(ctx.db, actor, request.params.id, request.body, ctx.now());
    },
  );

  r.get(
    '/api/download/:fileName',
    {
      config: {
        policy: {
          roles: ['hospital', 'patient', 'family'],
          writeAccess: false,
          healthData: true,
          staffRoles: CLINICAL_STAFF,
        },
      },
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
      const target = await read.findDownload(ctx.db, actor, request.params.fileName);
      return sendFile(request, reply, await openAttachment(ctx, actor, target, request.headers.range));
    },
  );
}
