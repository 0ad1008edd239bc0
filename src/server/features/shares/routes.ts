// Specialist share links (docs/decisions.md#specialist-share-links): create, list and revoke a
// record's links (the patient or the owning hospital), the patient's open links, and the public,
// rate-limited GET /api/shares/{token} with its attachment downloads.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { sharedRecordSchema, shareInputSchema, shareSchema } from '../../../shared/shares.js';
import { text } from '../../../shared/text.js';
import { findOwnPatient } from '../../access.js';
import type { AppContext } from '../../context.js';
import { actorOf } from '../../access.js';
import { sendFile } from '../../http/download.js';
import { openAttachment } from '../records/download.js';
import * as shares from './service.js';
import { CLINICAL_STAFF } from '../../plugins/policy.js';

const tags = ['share links'];
const recordParams = z.object({ id: text().max(100) });
const tokenParams = z.object({ token: text().max(100) });
/** Public reads by token: enough for a clinician paging through a record, not for guessing. */
const publicReads = { rateLimit: { max: 120, timeWindow: '1 minute' } };

export async function shareRoutes(app: FastifyInstance, ctx: AppContext) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post(
    '/api/medical-records/:id/shares',
    {
      config: {
        policy: {
          roles: ['patient', 'hospital'],
          writeAccess: true,
          healthData: true,
          staffRoles: CLINICAL_STAFF,
        },
      },
      schema: {
        tags,
        summary: 'Share a record with a specialist: a time-limited link e-mailed to the recipient',
        description:
          'The patient or the owning hospital; only while the patient’s "Share with specialists" consent ' +
          'and the record’s Specialists switch are on and the record is the current uploaded version ' +
          '(409 otherwise). Ledgered as consent_change and audited.',
        params: recordParams,
        body: shareInputSchema,
        response: { 201: shareSchema },
      },
    },
    async (request, reply) => {
      const deps = { mail: ctx.mail, publicUrl: ctx.config.publicUrl };
      const share = await shares.createShare(
        ctx.db,
        deps,
        actorOf(request),
        request.params.id,
        request.body,
        ctx.now(),
      );
      return reply.status(201).send(share);
    },
  );

  r.get(
    '/api/medical-records/:id/shares',
    {
      config: {
        policy: {
          roles: ['patient', 'hospital'],
          writeAccess: false,
          healthData: true,
          staffRoles: CLINICAL_STAFF,
        },
      },
      schema: {
        tags,
        summary: 'A record’s share links: recipient, created, expires, times opened, revoked, active',
        params: recordParams,
        response: { 200: z.object({ items: z.array(shareSchema) }) },
      },
    },
    async (request) => ({
      items: await shares.listShares(ctx.db, actorOf(request), request.params.id, ctx.now()),
    }),
  );

  r.delete(
    '/api/medical-records/:id/shares/:shareId',
    {
      config: {
        policy: {
          roles: ['patient', 'hospital'],
          writeAccess: true,
          healthData: true,
          staffRoles: CLINICAL_STAFF,
        },
      },
      schema: {
        tags,
        summary: 'Revoke a share link: it stops working at once (ledgered and audited)',
        params: recordParams.extend({ shareId: text().max(100) }),
        response: { 200: shareSchema },
      },
    },
    async (request) =>
      shares.revokeShare(ctx.db, actorOf(request), request.params.id, request.params.shareId, ctx.now()),
  );

  r.get(
    '/api/shares',
    {
      config: { policy: { roles: ['patient'], writeAccess: false, healthData: true } },
      schema: {
        tags,
        summary: 'The signed-in patient’s share links that open now, over all their records',
        response: { 200: z.object({ items: z.array(shareSchema) }) },
      },
    },
    async (request) => {
      const patient = await findOwnPatient(ctx.db, actorOf(request)).catch(() => null);
      return { items: patient ? await shares.listOpenShares(ctx.db, patient, ctx.now()) : [] };
    },
  );

  r.get(
    '/api/shares/:token',
    {
      config: { ...publicReads, policy: { public: true, healthData: true } },
      schema: {
        tags,
        summary: 'Public: the shared record, its attachments and its verification (audited with the IP)',
        description:
          'No sign-in: the token of the link is the credential. Expired, revoked or withdrawn links, and ' +
          'links whose consent or record no longer allow it, all answer the same 404.',
        params: tokenParams,
        response: { 200: sharedRecordSchema },
      },
    },
    async (request) => shares.openShare(ctx.db, ctx.files, request.params.token, request.ip, ctx.now()),
  );

  r.get(
    '/api/shares/:token/attachments/:attachmentId',
    {
      config: { ...publicReads, policy: { public: true, healthData: true } },
      schema: {
        tags,
        summary: 'Public: one attachment of a shared record, decrypted and integrity-checked as it streams',
        params: tokenParams.extend({ attachmentId: text().max(100) }),
      },
    },
    async (request, reply) => {
      const { token, attachmentId } = request.params;
      const target = await shares.findSharedDownload(ctx.db, token, attachmentId, request.ip, ctx.now());
      const answer = await openAttachment(ctx, { id: null, ip: request.ip }, target, request.headers.range);
      return sendFile(request, reply, answer);
    },
  );
}
