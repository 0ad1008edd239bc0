// The ledger API: public tree head, entry proofs, consistency proofs and file checks (no sign-in,
// no private content), and the record verification for those allowed to see the record.
import crypto from 'node:crypto';
import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { text } from '../../../shared/text.js';
import { decimalOnly } from '../../../shared/query-numbers.js';
import {
  consistencyQuerySchema,
  consistencySchema,
  entryLookupSchema,
  fileVerificationSchema,
  hashParamSchema,
  recordVerificationSchema,
  treeHeadSchema,
  treeSizeQuerySchema,
} from '../../../shared/ledger/api.js';
import type { AppContext } from '../../context.js';
import { badRequest, notFound, tooLarge, unsupportedType } from '../../errors.js';
import { describeMultipartError } from '../../http/multipart.js';
import { RECORD_FORM_RULES } from '../records/upload.js';
import { TOO_LARGE_MESSAGE } from '../../../shared/records.js';
import {
  consistency,
  entryProofByHash,
  entryProviderVerified,
  fileVerification,
  treeHead,
} from './lookup.js';
import { receiptSchema } from '../../../shared/ledger/receipt.js';
import { actorOf } from '../../access.js';
import { CHECKPOINT_PAGE, checkpointsAfter, currentCheckpoint } from './checkpoints.js';
import { recordReceipt } from './receipt.js';
import { createLedgerSigner } from './signing.js';
import { verifyRecordFor } from './verify.js';
import { CLINICAL_STAFF } from '../../plugins/policy.js';

const tags = ['ledger'];
const MAX_FILE_BYTES = 25 * 1024 * 1024;
const publicReads = { rateLimit: { max: 300, timeWindow: '1 minute' } };

const checkpointsQuerySchema = z.object({
  after: decimalOnly(
    z.coerce
      .number({ message: 'after must be a whole number' })
      .int('after must be a whole number')
      .min(-1, 'after must be -1 or more')
      .max(Number.MAX_SAFE_INTEGER)
      .default(-1),
  ),
  limit: decimalOnly(
    z.coerce
      .number({ message: 'limit must be a whole number' })
      .int('limit must be a whole number')
      .min(1, 'limit must be at least 1')
      .max(CHECKPOINT_PAGE, `limit must be at most ${CHECKPOINT_PAGE}`)
      .default(CHECKPOINT_PAGE),
  ),
});

const checkpointListSchema = z.object({
  checkpoints: z.array(
    z.object({ treeSize: z.number().int(), rootHash: z.string(), note: z.string(), createdAt: z.string() }),
  ),
  /** Ask again with after=<next> for the following page; null on the last page. */
  next: z.number().int().nullable(),
});

const TEXT = 'text/plain; charset=utf-8';

export async function ledgerRoutes(app: FastifyInstance, ctx: AppContext) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  // Made (or read from DATA_DIR/secrets/ledger.key) once, when the server starts.
  const signer = createLedgerSigner({
    dataDir: ctx.config.dataDir,
    publicUrl: ctx.config.publicUrl,
    keyHex: ctx.config.ledgerSigningKey,
  });
  const checkpointOptions = () => ({
    signer,
    now: ctx.now(),
    intervalSeconds: ctx.config.ledgerCheckpointSeconds,
  });

  r.get(
    '/api/ledger/public-key',
    {
      config: {
        policy: { public: true, healthData: false },
        ...publicReads,
        cacheControl: 'public, max-age=300',
      },
      schema: {
        tags,
        summary: "The log's Ed25519 verifier key (c2sp.org/signed-note): <name>+<key id>+<base64 key>",
        produces: [TEXT],
      },
    },
    async (_request, reply) => reply.type(TEXT).send(`${signer.verifierKey}\n`),
  );

  r.get(
    '/api/ledger/checkpoint',
    {
      // Public, and must be fetched again each time (a new one is signed every few seconds).
      config: { policy: { public: true, healthData: false }, ...publicReads, cacheControl: 'no-cache' },
      schema: {
        tags,
        summary:
          'The latest signed checkpoint (c2sp.org/tlog-checkpoint): origin, tree size, root hash, signature',
        description:
          'Signed at most every LEDGER_CHECKPOINT_SECONDS; in between, the latest stored checkpoint is served.',
        produces: [TEXT],
      },
    },
    async (_request, reply) => {
      const checkpoint = await currentCheckpoint(ctx.db, checkpointOptions());
      return reply.type(TEXT).send(checkpoint.note);
    },
  );

  r.get(
    '/api/ledger/checkpoints',
    {
      config: { ...publicReads, policy: { public: true, healthData: false } },
      schema: {
        tags,
        summary: 'Every checkpoint the log signed with a tree size above `after`, oldest first (paged)',
        querystring: checkpointsQuerySchema,
        response: { 200: checkpointListSchema },
      },
    },
    async (request) => {
      const page = await checkpointsAfter(ctx.db, request.query.after, request.query.limit);
      return {
        checkpoints: page.checkpoints.map((c) => ({ ...c, createdAt: c.createdAt.toISOString() })),
        next: page.next,
      };
    },
  );

  r.get(
    '/api/medical-records/:id/receipt',
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
        summary:
          "A record's ledger receipt: the entry's fields as hashed, its inclusion proof and the signed checkpoint (audited as record_view)",
        params: z.object({ id: text().max(100) }),
        response: { 200: receiptSchema },
      },
    },
    async (request, reply) => {
      const receipt = await recordReceipt(ctx.db, actorOf(request), request.params.id, checkpointOptions());
      void reply.header(
        'content-disposition',
        `attachment; filename="medledger-receipt-${receipt.recordId}.json"`,
      );
      return receipt;
    },
  );

  r.get(
    '/api/ledger/head',
    {
      config: { ...publicReads, policy: { public: true, healthData: false } },
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
      config: { ...publicReads, policy: { public: true, healthData: false } },
      schema: {
        tags,
        summary: "An entry's position, time, kind and inclusion proof (RFC 9162), found by the entry's hash",
        description: 'The leaf is SHA-256(0x00 || entry hash bytes). No content of the entry is returned.',
        params: z.object({ hash: hashParamSchema }),
        querystring: treeSizeQuerySchema,
        response: { 200: entryLookupSchema },
      },
    },
    async (request) => {
      const proof = await entryProofByHash(ctx.db, request.params.hash, request.query.treeSize);
      if (!proof) throw notFound('No ledger entry has this hash.');
      return { ...proof, providerVerified: await entryProviderVerified(ctx.db, proof.hash) };
    },
  );

  r.get(
    '/api/ledger/files/:sha256',
    {
      config: { ...publicReads, policy: { public: true, healthData: false } },
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
      config: { ...publicReads, policy: { public: true, healthData: false } },
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
        config: {
          policy: { public: true, healthData: false },
          rateLimit: { max: 30, timeWindow: '1 minute' },
        },
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
        summary: 'Checks a record against the ledger: content and attachment bytes, chain, inclusion proof',
        params: z.object({ id: text().max(100) }),
        response: { 200: recordVerificationSchema },
      },
    },
    async (request) => {
      return verifyRecordFor(ctx.db, ctx.files, actorOf(request), request.params.id, ctx.now());
    },
  );
}

async function hashUpload(request: import('fastify').FastifyRequest): Promise<string> {
  try {
    const part = await request.file();
    if (!part || part.fieldname !== 'file') throw badRequest('Choose a file to verify (field "file").');
    const hash = crypto.createHash('sha256');
    for await (const chunk of part.file) hash.update(chunk as Buffer);
    // Past the size limit the stream just ends early: its hash would be of a file nobody sent.
    if (part.file.truncated) throw tooLarge(TOO_LARGE_MESSAGE);
    return hash.digest('hex');
  } catch (err) {
    // A body cut short, a missing boundary: busboy's errors carry no code, and are the sender's.
    throw describeMultipartError(err, RECORD_FORM_RULES);
  }
}
