// The administrator's account control (issue 9): GET /api/admin/users (the Users table) and
// POST /api/admin/users/{id}/suspend, /reactivate and /verify. Every route here needs an
// administrator signed in with two-factor (the role guard of plugins/policy.ts refuses one without).
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  adminReactivateSchema,
  adminUserActionAnswerSchema,
  adminUserListQuerySchema,
  adminUserPageSchema,
} from '../../../shared/admin-users.js';
import { text } from '../../../shared/text.js';
import type { AppContext } from '../../context.js';
import { currentUser } from '../../plugins/session.js';
import { listUsers, plural, reactivateUser, sharingText, suspendUser, verifyProvider } from './service.js';

const idParams = z.object({ id: text().max(100) });
const tags = ['admin'];

export async function adminRoutes(app: FastifyInstance, ctx: AppContext) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const actorOf = (request: import('fastify').FastifyRequest) => ({
    id: currentUser(request).id,
    ip: request.ip,
  });

  r.get(
    '/api/admin/users',
    {
      config: { policy: { roles: ['medledger_admin'], writeAccess: false, healthData: false } },
      schema: {
        tags,
        summary:
          'Every account of every role, newest first; search by name or e-mail, filter by role and status',
        querystring: adminUserListQuerySchema,
        response: { 200: adminUserPageSchema },
      },
    },
    async (request) => listUsers(ctx.db, request.query),
  );

  r.post(
    '/api/admin/users/:id/suspend',
    {
      config: { policy: { roles: ['medledger_admin'], writeAccess: false, healthData: false } },
      schema: {
        tags,
        summary:
          'Suspend an account: every session ends, sign-in answers 403, its share links and family grants stop (not your own)',
        params: idParams,
        response: { 200: adminUserActionAnswerSchema },
      },
    },
    async (request) => {
      const { user, sessionsEnded, sharingStopped } = await suspendUser(
        ctx.db,
        actorOf(request),
        request.params.id,
        ctx.now(),
      );
      return {
        user,
        message: `The account has been suspended; ${plural(sessionsEnded, 'session')} ended, ${sharingText(sharingStopped)} stopped.`,
      };
    },
  );

  r.post(
    '/api/admin/users/:id/reactivate',
    {
      config: { policy: { roles: ['medledger_admin'], writeAccess: false, healthData: false } },
      schema: {
        tags,
        summary: 'Lift a suspension: the account can sign in again',
        description:
          'The share links and family grants the suspension stopped come back with `restoreSharing: true`; otherwise (the default) they end for good.',
        params: idParams,
        body: adminReactivateSchema,
        response: { 200: adminUserActionAnswerSchema },
      },
    },
    async (request) => {
      const { restoreSharing } = request.body;
      const { user, sharing } = await reactivateUser(
        ctx.db,
        actorOf(request),
        request.params.id,
        restoreSharing,
        ctx.now(),
      );
      const outcome = restoreSharing ? 'restored' : 'ended for good';
      return { user, message: `The account has been reactivated; ${sharingText(sharing)} ${outcome}.` };
    },
  );

  r.post(
    '/api/admin/users/:id/verify',
    {
      config: { policy: { roles: ['medledger_admin'], writeAccess: false, healthData: false } },
      schema: {
        tags,
        summary: 'Mark a hospital as a verified provider (its records and /verify then say so)',
        params: idParams,
        response: { 200: adminUserActionAnswerSchema },
      },
    },
    async (request) => {
      const user = await verifyProvider(ctx.db, actorOf(request), request.params.id, ctx.now());
      return { user, message: 'The hospital is now a verified provider.' };
    },
  );
}
