// iCalendar downloads of appointments (issue 13): one appointment, or all of a patient's.
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { actorOf } from '../../access.js';
import { calendarFeedCreatedSchema, calendarFeedSchema } from '../../../shared/calendar.js';
import { feedCalendar, getFeed, renewFeed, revokeFeed } from './feed.js';
import { appointmentIcs, patientIcs } from './service.js';
import { ALL_STAFF } from '../../plugins/policy.js';

const tags = ['calendar'];

export const sendIcs = (reply: FastifyReply, text: string, fileName: string) =>
  reply
    .header('content-type', 'text/calendar; charset=utf-8')
    .header('content-disposition', `attachment; filename="${fileName}"`)
    .send(text);

export async function calendarRoutes(app: FastifyInstance, ctx: AppContext) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const deps = () => ({ db: ctx.db, publicUrl: ctx.config.publicUrl, now: ctx.now() });

  r.get(
    '/api/appointments/:id/ics',
    {
      config: {
        policy: {
          roles: ['hospital', 'patient'],
          writeAccess: false,
          healthData: true,
          staffRoles: ALL_STAFF,
        },
      },
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
      config: { policy: { roles: ['patient'], writeAccess: false, healthData: true } },
      schema: {
        tags,
        summary: "All of the signed-in patient's appointments as iCalendar (another id is 404)",
        params: z.object({ userId: z.string().max(100) }),
      },
    },
    async (request, reply) =>
      sendIcs(reply, await patientIcs(deps(), actorOf(request), request.params.userId), 'appointments.ics'),
  );
  r.get(
    '/api/calendar/feed',
    {
      config: { policy: { roles: ['patient'], writeAccess: false, healthData: true } },
      schema: {
        tags,
        summary: 'Whether the signed-in patient has a calendar subscription',
        response: { 200: calendarFeedSchema },
      },
    },
    async (request) => getFeed(ctx.db, actorOf(request)),
  );

  r.post(
    '/api/calendar/feed',
    {
      config: { policy: { roles: ['patient'], writeAccess: false, healthData: true } },
      schema: {
        tags,
        summary: 'Create or renew the subscription: a new secret URL (shown once); the old one stops working',
        response: { 200: calendarFeedCreatedSchema },
      },
    },
    async (request) => renewFeed(ctx.db, actorOf(request), ctx.config.publicUrl, ctx.now()),
  );

  r.delete(
    '/api/calendar/feed',
    {
      config: { policy: { roles: ['patient'], writeAccess: false, healthData: true } },
      schema: {
        tags,
        summary: 'Revoke the subscription: its URL stops working',
        response: { 200: calendarFeedSchema },
      },
    },
    async (request) => revokeFeed(ctx.db, actorOf(request)),
  );

  r.get(
    '/api/calendar/:feed',
    {
      config: { policy: { public: true, healthData: true } },
      schema: {
        tags,
        summary:
          "A patient's appointments for calendar apps: /api/calendar/{token}.ics, no session (404 unless the token is live)",
        params: z.object({ feed: z.string().max(100) }),
      },
    },
    async (request, reply) =>
      sendIcs(reply, await feedCalendar(deps(), request.params.feed), 'medledger.ics'),
  );
}
