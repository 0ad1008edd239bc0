// GET /api/patients/profile/{userId} (docs/spec.md#calls): the patient object of an account. The
// patient's own changes go through PUT /api/patients/{id} (patients/routes.ts hands them to
// updateOwnProfile in service.ts).
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { text } from '../../../shared/text.js';
import { patientSchema } from '../../../shared/patients.js';
import type { AppContext } from '../../app.js';
import { requireRole } from '../../plugins/session.js';
import { actorOf } from '../patients/actor.js';
import { getProfile } from './service.js';

export async function patientProfileRoutes(app: FastifyInstance, ctx: AppContext) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/api/patients/profile/:userId',
    {
      onRequest: requireRole('patient', 'hospital'),
      schema: {
        tags: ['patient profile'],
        summary:
          "A patient's profile by their account's user id: a patient their own, a hospital a patient it created",
        params: z.object({ userId: text().max(100) }),
        response: { 200: patientSchema },
      },
    },
    async (request) => getProfile(ctx.db, actorOf(request), request.params.userId, ctx.now()),
  );
}
