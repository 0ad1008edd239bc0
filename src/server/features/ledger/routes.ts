// The ledger API: public tree head, entry proofs, consistency proofs and file checks (no sign-in,
// no private content), and the record verification for those allowed to see the record.
import crypto from 'node:crypto';
import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { text } from '../../../shared/text.js';
import {
  consistencyQuerySchema,
  consistencySchema,
  entryProofSchema,
  fileVerificationSchema,
  hashParamSchema,
  recordVerificationSchema,
  treeHeadSchema,
  treeSizeQuerySchema,
} from '../../../shared/ledger/api.js';
import { findRecordForUser } from '../../access.js';
import type { AppContext } from '../../app.js';
import { badRequest, HttpError, notFound, tooLarge, unsupportedType } from '../../errors.js';
import { currentUser, requireRole } from '../../plugins/session.js';
import { consistency, entryProofByHash, fileVerification, treeHead } from './lookup.js';
import { verifyRecord } from './verify.js';

const tags = ['ledger'];
const MAX_FILE_BYTES = 25 * 1024 * 1024;
const publicReads = { rateLimit: { max: 300, timeWindow: '1 minute' } };

export async function ledgerRoutes(app: FastifyInstance, ctx: AppContext) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/ledger/head',
    {
      config: publicReads,
      schema: {
        tags,
        summary: 'The tree head: size and Merkle root (at the current size, or at treeSize)',
        querystring: treeSizeQuerySchema,
        response: { 200: treeHeadSchema },
      },
    },
    async (request) => treeHead(ctx.db, request.query.treeSize),
  );

  r.get(
    '/api/ledger/entries/:hash',
    {
      config: publicReads,
      schema: {
        tags,
        summary: "An entry's position, time, kind and inclusion proof (RFC 9162), found by the entry's hash",
        description: 'The leaf is SHA-256(0x00 || entry hash bytes). No content of the entry is returned.',
        params: z.object({ hash: hashParamSchema }),
        querystring: treeSizeQuerySchema,
        response: { 200: entryProofSchema },
      },
    },
    async (request) => {
      const proof = await entryProofByHash(ctx.db, request.params.hash, request.query.treeSize);
      if (!proof) throw notFound('No ledger entry has this hash.');
      return proof;
    },
  );

  r.get(
    '/api/ledger/files/:sha256',
    {
      config: publicReads,
      schema: {
        tags,
        summary: "Whether a file with this SHA-256 was entered in the ledger, with the entry's proof",
        params: z.object({ sha256: hashParamSchema }),
        response: { 200: fileVerificationSchema },
      },
    },
    async (request) => {
      return fileVerification(ctx.db, request.params.sha256);
    },
  );

  r.get(
    '/api/ledger/consistency',
    {
      config: publicReads,
      schema: {
        tags,
        summary: 'Consistency proof (RFC 9162) between the trees of `from` and `to` entries',
        querystring: consistencyQuerySchema,
        response: { 200: consistencySchema },
      },
    },
    async (request) => consistency(ctx.db, request.query.from, request.query.to),
  );

  // The file check reads one multipart file, hashes it while streaming and keeps nothing.
  await app.register(async (scope) => {
    await scope.register(multipart, {
      limits: { fileSize: MAX_FILE_BYTES, files: 1, fields: 5, fieldSize: 1024, parts: 6 },
      throwFileSizeLimit: true,
    });
    scope.withTypeProvider<ZodTypeProvider>().post(
      '/api/ledger/verify-file',
      {
        config: { rateLimit: { max: 30, timeWindow: '1 minute' } },
        schema: {
          tags,
          summary: 'Whether a file was entered in the ledger (multipart field `file`); the file is not kept',
          consumes: ['multipart/form-data'],
          response: { 200: fileVerificationSchema },
        },
      },
      async (request) => {
        if (!request.isMultipart())
          throw unsupportedType('Send the file as multipart/form-data in the field "file".');
        const sha256 = await hashUpload(request);
        return fileVerification(ctx.db, sha256);
      },
    );
  });

  r.get(
    '/api/medical-records/:id/verification',
    {
      onRequest: requireRole('hospital', 'patient'),
      schema: {
        tags,
        summary: 'Checks a record against the ledger: content and attachment bytes, chain, inclusion proof',
        params: z.object({ id: text().max(100) }),
        response: { 200: recordVerificationSchema },
      },
    },
    async (request) => {
      const { record } = await findRecordForUser(ctx.db, currentUser(request), request.params.id);
      return verifyRecord(ctx.db, ctx.files, record, ctx.now());
    },
  );
}

async function hashUpload(request: import('fastify').FastifyRequest): Promise<string> {
  try {
    const part = await request.file();
    if (!part || part.fieldname !== 'file') throw badRequest('Choose a file to verify (field "file").');
    const hash = crypto.createHash('sha256');
    for await (const chunk of part.file) hash.update(chunk as Buffer);
    return hash.digest('hex');
  } catch (err) {
    if (err instanceof HttpError) throw err;
    const code = (err as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge('File is too large. The limit is 25 MB.');
    if (code?.startsWith('FST_'))
      throw badRequest('The upload could not be read. Send one file in the field "file".');
    throw err;
  }
}
