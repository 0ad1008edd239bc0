// A hospital's staff (issue 55, docs/decisions.md#staff-accounts): hospital admins list, invite,
// re-role, deactivate and reactivate their members; every member lists the practitioners.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { pagingQuerySchema } from '../../../shared/paging.js';
import {
  practitionerSchema,
  staffInvitationPageSchema,
  staffInvitationSchema,
  staffInviteSchema,
  staffListQuerySchema,
  staffMemberSchema,
  staffPageSchema,
  staffRoleChangeSchema,
} from '../../../shared/staff.js';
import { text } from '../../../shared/text.js';
import { actorOf } from '../../access.js';
import type { AppContext } from '../../context.js';
import { ALL_STAFF, HOSPITAL_ADMINS, type SignedInPolicy } from '../../plugins/policy.js';
import * as staff from './service.js';

const tags = ['staff'];
const memberParams = z.object({ userId: text().max(100) });
const invitationParams = z.object({ id: text().max(100) });
const adminRead: SignedInPolicy = {
  roles: ['hospital'],
  writeAccess: false,
  healthData: false,
  staffRoles: HOSPITAL_ADMINS,
};
const adminWrite: SignedInPolicy = { ...adminRead, writeAccess: true };

export async function staffRoutes(app: FastifyInstance, ctx: AppContext) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const deps = { db: ctx.db, mail: ctx.mail, publicUrl: ctx.config.publicUrl };

  r.get(
    '/api/hospital/staff',
    {
      config: { policy: adminRead },
      schema: {
        tags,
        summary: "The hospital's staff members, by name, one page (?status=active|deactivated|all)",
        querystring: staffListQuerySchema,
        response: { 200: staffPageSchema },
      },
    },
    async (request) => staff.listStaff(ctx.db, actorOf(request), request.query),
  );

  r.post(
    '/api/hospital/staff',
    {
      config: { policy: adminWrite, rateLimit: { max: 30, timeWindow: '15 minutes' } },
      schema: {
        tags,
        summary: 'Invite a staff member by e-mail: a one-time registration link valid 72 hours (audited)',
        body: staffInviteSchema,
        response: { 201: staffInvitationSchema },
      },
    },
    async (request, reply) => {
      const invitation = await staff.inviteStaff(deps, actorOf(request), request.body, ctx.now());
      return reply.code(201).send(invitation);
    },
  );

  r.get(
    '/api/hospital/staff/invitations',
    {
      config: { policy: adminRead },
      schema: {
        tags,
        summary: 'Invitations not accepted or cancelled yet (expired ones marked so), oldest first',
        querystring: pagingQuerySchema,
        response: { 200: staffInvitationPageSchema },
      },
    },
    async (request) => staff.listInvitations(ctx.db, actorOf(request), request.query, ctx.now()),
  );

  r.post(
    '/api/hospital/staff/invitations/:id/resend',
    {
      config: { policy: adminWrite, rateLimit: { max: 30, timeWindow: '15 minutes' } },
      schema: {
        tags,
        summary: 'Send an invitation again with a new link (the old one stops working)',
        params: invitationParams,
        response: { 200: staffInvitationSchema },
      },
    },
    async (request) => staff.resendInvitation(deps, actorOf(request), request.params.id, ctx.now()),
  );

  r.delete(
    '/api/hospital/staff/invitations/:id',
    {
      config: { policy: adminWrite },
      schema: {
        tags,
        summary: 'Cancel an invitation: its link stops working at once',
        params: invitationParams,
        response: { 200: z.object({ message: z.string() }) },
      },
    },
    async (request) => {
      await staff.cancelInvitation(ctx.db, actorOf(request), request.params.id, ctx.now());
      return { message: 'Invitation cancelled.' };
    },
  );

  r.patch(
    '/api/hospital/staff/:userId',
    {
      config: { policy: adminWrite },
      schema: {
        tags,
        summary: "Change a member's staff role (the last active hospital admin cannot be demoted: 409)",
        params: memberParams,
        body: staffRoleChangeSchema,
        response: { 200: staffMemberSchema },
      },
    },
    async (request) => staff.changeStaffRole(ctx.db, actorOf(request), request.params.userId, request.body),
  );

  r.post(
    '/api/hospital/staff/:userId/deactivate',
    {
      config: { policy: adminWrite },
      schema: {
        tags,
        summary:
          'Deactivate a member: every session ends at once, sign-in refused; past entries keep their name',
        params: memberParams,
        response: { 200: staffMemberSchema },
      },
    },
    async (request) => staff.deactivateStaff(ctx.db, actorOf(request), request.params.userId, ctx.now()),
  );

  r.post(
    '/api/hospital/staff/:userId/reactivate',
    {
      config: { policy: adminWrite },
      schema: {
        tags,
        summary: 'Reactivate a member: they can sign in again',
        params: memberParams,
        response: { 200: staffMemberSchema },
      },
    },
    async (request) => staff.reactivateStaff(ctx.db, actorOf(request), request.params.userId),
  );

  r.get(
    '/api/hospital/practitioners',
    {
      config: {
        policy: { roles: ['hospital'], writeAccess: false, healthData: false, staffRoles: ALL_STAFF },
      },
      schema: {
        tags,
        summary:
          "The hospital's active practitioners (clinicians and admins): whom uploads and appointments name",
        response: { 200: z.array(practitionerSchema) },
      },
    },
    async (request) => staff.listPractitioners(ctx.db, actorOf(request)),
  );
}
