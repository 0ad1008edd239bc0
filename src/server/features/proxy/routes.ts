// Family proxy access (docs/decisions.md#family-proxy-access): POST /api/family-contacts/{id}/invite,
// POST /api/proxy/accept, GET /api/proxy/patients, GET /api/proxy/patients/{patientId}/records and
// /appointments, GET and DELETE /api/proxy/holders. Record view, download and verification stay on
// their own routes, which admit a family member with a live grant.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { appointmentSchema } from '../../../shared/appointments.js';
import { messageSchema } from '../../../shared/auth.js';
import { pagedSchema, pagingQuerySchema } from '../../../shared/paging.js';
import { acceptInvitationSchema, accessHolderSchema, proxyPatientSchema } from '../../../shared/proxy.js';
import { recordListQuerySchema, recordSchema } from '../../../shared/records.js';
import { text } from '../../../shared/text.js';
import type { AppContext } from '../../context.js';
import { actorOf } from '../../access.js';
import { acceptAsFamily, inviteContact, inviteDeps } from './invitations.js';
import * as proxy from './service.js';

const tags = ['family access'];
const patientParams = z.object({ patientId: text().max(100) });

export async function proxyRoutes(app: FastifyInstance, ctx: AppContext) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post(
    '/api/family-contacts/:id/invite',
    {
      // Each call sends an e-mail: limited like the other mail sends.
      config: {
        policy: { roles: ['patient'], writeAccess: false, healthData: true },
        rateLimit: { max: 10, timeWindow: '1 hour' },
      },
      schema: {
        tags,
        summary:
          'E-mail a family contact a one-time invitation (72 h) to read the patient’s records (patient only)',
        description:
          '409 with a message when the contact has no e-mail, its "Can Access Medical Records" is off, or ' +
          'the patient’s "Share with family" consent is off. Earlier unused links of the contact stop working.',
        params: z.object({ id: text().max(100) }),
        response: { 200: messageSchema },
      },
    },
    async (request) =>
      inviteContact(inviteDeps(ctx, request.log), actorOf(request), request.params.id, ctx.now()),
  );

  r.post(
    '/api/proxy/accept',
    {
      config: {
        policy: { roles: ['family'], writeAccess: false, healthData: true },
        rateLimit: { max: 20, timeWindow: '15 minutes' },
      },
      schema: {
        tags,
        summary: 'A signed-in family member accepts a further invitation (sent to their own e-mail)',
        body: acceptInvitationSchema,
        response: { 200: messageSchema },
      },
    },
    async (request) => {
      await acceptAsFamily(ctx.db, actorOf(request), request.body.inviteToken, ctx.now());
      return { message: 'Invitation accepted.' };
    },
  );

  r.get(
    '/api/proxy/patients',
    {
      config: { policy: { roles: ['family'], writeAccess: false, healthData: true } },
      schema: {
        tags,
        summary: 'The patients whose records the signed-in family member may read now',
        response: { 200: z.object({ patients: z.array(proxyPatientSchema) }) },
      },
    },
    async (request) => ({ patients: await proxy.listProxyPatients(ctx.db, actorOf(request)) }),
  );

  r.get(
    '/api/proxy/patients/:patientId/records',
    {
      config: { policy: { roles: ['family'], writeAccess: false, healthData: true } },
      schema: {
        tags,
        summary: "A granting patient's current records shared with family, newest first, one page (audited)",
        params: patientParams,
        querystring: recordListQuerySchema,
        response: { 200: pagedSchema(recordSchema) },
      },
    },
    async (request) =>
      proxy.listProxyRecords(ctx.db, actorOf(request), request.params.patientId, request.query),
  );

  r.get(
    '/api/proxy/patients/:patientId/appointments',
    {
      config: { policy: { roles: ['family'], writeAccess: false, healthData: true } },
      schema: {
        tags,
        summary: "A granting patient's upcoming appointments, soonest first, one page",
        params: patientParams,
        querystring: pagingQuerySchema,
        response: { 200: pagedSchema(appointmentSchema) },
      },
    },
    async (request) =>
      proxy.listProxyAppointments(
        ctx.db,
        actorOf(request),
        request.params.patientId,
        request.query,
        ctx.now(),
      ),
  );

  r.get(
    '/api/proxy/holders',
    {
      config: { policy: { roles: ['patient'], writeAccess: false, healthData: true } },
      schema: {
        tags,
        summary: 'The family members who can read the signed-in patient’s records now',
        response: { 200: z.object({ holders: z.array(accessHolderSchema) }) },
      },
    },
    async (request) => ({ holders: await proxy.listAccessHolders(ctx.db, actorOf(request)) }),
  );

  r.delete(
    '/api/proxy/holders/:contactId',
    {
      config: { policy: { roles: ['patient'], writeAccess: false, healthData: true } },
      schema: {
        tags,
        summary:
          'Revoke: clears the contact’s "Can Access Medical Records" flag (audited); access ends at once',
        params: z.object({ contactId: text().max(100) }),
        response: { 200: messageSchema },
      },
    },
    async (request) => {
      await proxy.revokeHolder(ctx.db, actorOf(request), request.params.contactId, ctx.now());
      return { message: 'Access revoked.' };
    },
  );
}
