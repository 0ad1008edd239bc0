// E-mail notification preferences of the signed-in user (issue 13).
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  notificationPreferencesInputSchema,
  notificationPreferencesSchema,
} from '../../../shared/notifications.js';
import type { AppContext } from '../../context.js';
import { actorOf } from '../../access.js';
import { getPreferences, savePreferences } from './preferences.js';
import { ALL_STAFF } from '../../plugins/policy.js';

const tags = ['notifications'];

export async function notificationRoutes(app: FastifyInstance, ctx: AppContext) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/api/notifications/preferences',
    {
      config: {
        policy: {
          roles: ['patient', 'hospital', 'medledger_admin'],
          writeAccess: false,
          healthData: false,
          staffRoles: ALL_STAFF,
        },
      },
      schema: {
        tags,
        summary: 'Whether e-mail notifications are on (default on)',
        response: { 200: notificationPreferencesSchema },
      },
    },
    async (request) => getPreferences(ctx.db, actorOf(request).id),
  );
  r.put(
    '/api/notifications/preferences',
    {
      config: {
        policy: {
          roles: ['patient', 'hospital', 'medledger_admin'],
          writeAccess: false,
          healthData: false,
          staffRoles: ALL_STAFF,
        },
      },
      schema: {
        tags,
        summary: 'Turn e-mail notifications (and the new sign-in notice) on or off',
        body: notificationPreferencesInputSchema,
        response: { 200: notificationPreferencesSchema },
      },
    },
    async (request) => savePreferences(ctx.db, actorOf(request).id, request.body, ctx.now()),
  );
}
