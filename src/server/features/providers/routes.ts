// POST/GET /api/provider-applications, PATCH /api/provider-applications/{id}/review,
// POST /api/provider-applications/{id}/resend-link and POST /api/provider-register (docs/spec.md#calls).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { pagedSchema, pagingQuerySchema } from '../../../shared/paging.js';
import { text } from '../../../shared/text.js';
import { messageSchema, userResponseSchema } from '../../../shared/auth.js';
import {
  applicationSchema,
  providerApplicationSchema,
  providerRegisterSchema,
  reviewSchema,
  VERIFICATION_MESSAGES,
  verificationRequestSchema,
  verificationStatusSchema,
} from '../../../shared/providers.js';
import { actorOf } from '../../access.js';
import { HOSPITAL_ADMINS } from '../../plugins/policy.js';
import { isUuid } from '../../access.js';
import type { AppContext } from '../../context.js';
import { notFound } from '../../errors.js';
import { currentUser } from '../../plugins/session.js';
import {
  listApplications,
  registerProvider,
  resendRegistrationLink,
  requestVerification,
  reviewApplication,
  submitApplication,
  verificationStatus,
  type MailDeps,
} from './service.js';

const idParams = z.object({ id: text().max(100) });
const applicationAnswer = z.object({ application: applicationSchema, message: z.string() });

export async function providerRoutes(app: FastifyInstance, ctx: AppContext) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  // Reviewing decides who gets an account: only with two-factor sign-in on (issue 9).
  const mailDeps = (request: FastifyRequest): MailDeps => ({
    mail: ctx.mail,
    publicUrl: ctx.config.publicUrl,
    supportEmail: ctx.config.supportEmail,
    logError: (err) => request.log.error({ err }, 'provider e-mail could not be sent'),
  });

  r.post(
    '/api/provider-applications',
    {
      config: { policy: { public: true, healthData: false }, rateLimit: { max: 10, timeWindow: '1 hour' } },
      schema: {
        tags: ['providers'],
        summary: 'Apply to join as a healthcare provider (public)',
        body: providerApplicationSchema,
        response: {
          201: z.object({
            application: applicationSchema.pick({
              id: true,
              hospitalName: true,
              contactEmail: true,
              status: true,
              createdAt: true,
            }),
            message: z.string(),
          }),
        },
      },
    },
    async (request, reply) => {
      const application = await submitApplication(ctx.db, request.body, ctx.now());
      return reply.status(201).send({
        application,
        message: 'Your application has been submitted. We will review it and send you an email.',
      });
    },
  );

  r.get(
    '/api/provider-applications',
    {
      config: { policy: { roles: ['medledger_admin'], writeAccess: false, healthData: false } },
      schema: {
        tags: ['providers'],
        summary: 'The provider applications, newest first, one page (administrator)',
        description: '?page= (from 1), ?pageSize= (default 50, at most 100); total counts every application.',
        querystring: pagingQuerySchema,
        response: { 200: pagedSchema(applicationSchema) },
      },
    },
    async (request) => listApplications(ctx.db, request.query),
  );

  r.patch(
    '/api/provider-applications/:id/review',
    {
      config: { policy: { roles: ['medledger_admin'], writeAccess: false, healthData: false } },
      schema: {
        tags: ['providers'],
        summary: 'Approve (e-mails a one-time registration link) or reject a pending application',
        params: idParams,
        body: reviewSchema,
        response: { 200: applicationAnswer },
      },
    },
    async (request) => {
      if (!isUuid(request.params.id)) throw notFound('Application not found.');
      const admin = currentUser(request);
      const application = await reviewApplication(
        ctx.db,
        mailDeps(request),
        { id: request.params.id, ...request.body, adminId: admin.id, ip: request.ip },
        ctx.now(),
      );
      return { application, message: `The provider application has been ${application.status}.` };
    },
  );

  r.post(
    '/api/provider-applications/:id/resend-link',
    {
      config: { policy: { roles: ['medledger_admin'], writeAccess: false, healthData: false } },
      schema: {
        tags: ['providers'],
        summary: 'E-mail a fresh registration link for an approved, unregistered application',
        params: idParams,
        response: { 200: applicationAnswer },
      },
    },
    async (request) => {
      if (!isUuid(request.params.id)) throw notFound('Application not found.');
      const admin = currentUser(request);
      const application = await resendRegistrationLink(
        ctx.db,
        mailDeps(request),
        { id: request.params.id, adminId: admin.id, ip: request.ip },
        ctx.now(),
      );
      return { application, message: 'A new registration link has been sent.' };
    },
  );

  r.post(
    '/api/provider-register',
    {
      config: {
        policy: { public: true, healthData: false },
        rateLimit: { max: 20, timeWindow: '15 minutes' },
      },
      schema: {
        tags: ['providers'],
        summary: 'Create the hospital account from an e-mailed registration link',
        body: providerRegisterSchema,
        response: { 201: userResponseSchema.extend({ message: messageSchema.shape.message }) },
      },
    },
    async (request, reply) => {
      const user = await registerProvider(ctx.db, request.body, request.ip, ctx.now());
      return reply.status(201).send({
        user,
        message: 'Account created. Your 7-day free trial has started; you can now log in.',
      });
    },
  );

  r.get(
    '/api/hospital/verification',
    {
      config: {
        policy: { roles: ['hospital'], writeAccess: false, healthData: false, staffRoles: HOSPITAL_ADMINS },
      },
      schema: {
        tags: ['providers'],
        summary: 'Whether the signed-in hospital is verified by MedLedger, and its latest request',
        response: { 200: verificationStatusSchema },
      },
    },
    async (request) => verificationStatus(ctx.db, actorOf(request)),
  );

  r.post(
    '/api/hospital/verification',
    {
      config: {
        policy: { roles: ['hospital'], writeAccess: false, healthData: false, staffRoles: HOSPITAL_ADMINS },
        rateLimit: { max: 10, timeWindow: '1 hour' },
      },
      schema: {
        tags: ['providers'],
        summary:
          'A self-signed-up hospital applies to be verified (reviewed with the provider applications); ' +
          '409 when verified already or a request is waiting',
        body: verificationRequestSchema,
        response: { 201: verificationStatusSchema.extend({ message: z.string() }) },
      },
    },
    async (request, reply) => {
      const status = await requestVerification(ctx.db, actorOf(request), request.body, ctx.now());
      return reply.status(201).send({ ...status, message: VERIFICATION_MESSAGES.submitted });
    },
  );
}
