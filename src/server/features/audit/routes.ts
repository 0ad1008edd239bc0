// GET /api/audit-logs (a hospital's trail), /api/audit-logs/users (its user filter's options) and
// /api/audit-logs/patient (a signed-in patient's own trail). Paged; filters by action, user, period.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { auditPageSchema, auditQuerySchema, auditUserSchema } from '../../../shared/hospital.js';
import { actorOf, findOwnPatient, orgOf } from '../../access.js';
import type { AppContext } from '../../context.js';
import { currentUser } from '../../plugins/session.js';
import { listTrail, trailUsers } from './list.js';
import { HOSPITAL_ADMINS } from '../../plugins/policy.js';

const tags = ['audit'];

export async function auditRoutes(app: FastifyInstance, ctx: AppContext) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/audit-logs',
    {
      config: {
        policy: { roles: ['hospital'], writeAccess: false, healthData: true, staffRoles: HOSPITAL_ADMINS },
      },
      schema: {
        tags,
        summary: "The hospital's audit trail: its users' actions and every read of its patients' records",
        description:
          'Paged (our decision; the spec says "list"). action: one action or all; userId: one user or all; ' +
          'from (inclusive) and to (exclusive): instants, e.g. the bounds of a local day.',
        querystring: auditQuerySchema,
        response: { 200: auditPageSchema },
      },
    },
    async (request) => listTrail(ctx.db, { hospitalId: orgOf(actorOf(request)) }, request.query),
  );

  r.get(
    '/api/audit-logs/users',
    {
      config: {
        policy: { roles: ['hospital'], writeAccess: false, healthData: true, staffRoles: HOSPITAL_ADMINS },
      },
      schema: {
        tags,
        summary: "The users who appear in the hospital's audit trail (options of the user filter)",
        response: { 200: z.array(auditUserSchema) },
      },
    },
    async (request) => trailUsers(ctx.db, orgOf(actorOf(request))),
  );

  r.get(
    '/api/audit-logs/patient',
    {
      config: { policy: { roles: ['patient'], writeAccess: false, healthData: true } },
      schema: {
        tags,
        summary: "The signed-in patient's activity trail (reads of and changes to their records)",
        querystring: auditQuerySchema,
        response: { 200: auditPageSchema },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const patient = await findOwnPatient(ctx.db, user).catch(() => null);
      const { page, pageSize } = request.query;
      if (!patient) return { items: [], total: 0, page, pageSize };
      return listTrail(ctx.db, { patientId: patient.id, patientUserId: user.id }, request.query);
    },
  );
}
