// iCalendar downloads of appointments (issue 13): one appointment, or all of a patient's.
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../app.js';
import { requireRole } from '../../plugins/session.js';
import { actorOf } from '../patients/actor.js';
import { appointmentIcs, patientIcs } from './service.js';

const tags = ['calendar'];

export const sendIcs = (reply: FastifyReply, text: string, fileName: string) =>
  reply
    .header('content-type', 'text/calendar; charset=utf-8')
    .header('content-disposition', `attachment; filename="${fileName}"`)
    .header('cache-control', 'private, no-store')
    .send(text);

export async function calendarRoutes(app: FastifyInstance, ctx: AppContext) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const deps = () => ({ db: ctx.db, publicUrl: ctx.config.publicUrl, now: ctx.now() });

  r.get(
    '/api/appointments/:id/ics',
    {
      onRequest: requireRole('hospital', 'patient'),
      schema: {
        tags,
        summary:
          'One appointment as iCalendar (METHOD:CANCEL once cancelled): the booking hospital or the patient',
        params: z.object({ id: z.string().max(100) }),
      },
    },
    async (request, reply) =>
      sendIcs(reply, await appointmentIcs(deps(), actorOf(request), request.params.id), 'appointment.ics'),
  );

  r.get(
    '/api/appointments/patient/:userId/ics',
    {
      onRequest: requireRole('patient'),
      schema: {
        tags,
        summary: "All of the signed-in patient's appointments as iCalendar (another id is 404)",
        params: z.object({ userId: z.string().max(100) }),
      },
    },
    async (request, reply) =>
      sendIcs(reply, await patientIcs(deps(), actorOf(request), request.params.userId), 'appointments.ics'),
  );
}
