// GET/PUT /api/hospital/settings (Settings tab: hospital name and administrator e-mail).
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { hospitalSettingsResponseSchema, hospitalSettingsSchema } from '../../../shared/hospital.js';
import type { AppContext } from '../../context.js';
import { actorOf } from '../../access.js';
import { getSettings, saveSettings } from './service.js';
import { ALL_STAFF, HOSPITAL_ADMINS } from '../../plugins/policy.js';

const tags = ['hospital'];

export async function hospitalRoutes(app: FastifyInstance, ctx: AppContext) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/hospital/settings',
    {
      config: {
        policy: { roles: ['hospital'], writeAccess: false, healthData: false, staffRoles: ALL_STAFF },
      },
      schema: { tags, summary: "The hospital's settings", response: { 200: hospitalSettingsResponseSchema } },
    },
    async (request) => getSettings(ctx.db, actorOf(request)),
  );

  r.put(
    '/api/hospital/settings',
    {
      config: {
        policy: { roles: ['hospital'], writeAccess: true, healthData: false, staffRoles: HOSPITAL_ADMINS },
      },
      schema: {
        tags,
        summary: 'Save the hospital name and administrator e-mail (audited)',
        body: hospitalSettingsSchema,
        response: { 200: hospitalSettingsResponseSchema },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      return saveSettings(ctx.db, actor, request.body);
    },
  );
}
