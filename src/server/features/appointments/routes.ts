// Appointments (docs/spec.md#calls): the hospital's list, create, edit, status and cancel; the signed-in
// patient's own list (read-only). Every hospital write passes the trial/subscription check.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { text } from '../../../shared/text.js';
import { pagedSchema } from '../../../shared/paging.js';
import {
  appointmentInputSchema,
  appointmentRangeQuerySchema,
  appointmentSchema,
  appointmentStatusInputSchema,
} from '../../../shared/appointments.js';
import type { AppContext } from '../../context.js';
import { actorOf } from '../../access.js';
import * as appointments from './service.js';
import { ALL_STAFF } from '../../plugins/policy.js';

const tags = ['appointments'];
const idParams = z.object({ id: text().max(100) });
const list = pagedSchema(appointmentSchema);
const pagingDescription =
  'One page, by start time: ?page= (from 1), ?pageSize= (default 50, at most 100); total counts the whole list.';

export async function appointmentRoutes(app: FastifyInstance, ctx: AppContext) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/appointments/hospital/:hospitalUserId',
    {
      config: {
        policy: { roles: ['hospital'], writeAccess: false, healthData: true, staffRoles: ALL_STAFF },
      },
      schema: {
        tags,
        summary: "The signed-in hospital's appointments (its own id only), optionally from/to ISO instants",
        description: pagingDescription,
        params: z.object({ hospitalUserId: text().max(100) }),
        querystring: appointmentRangeQuerySchema,
        response: { 200: list },
      },
    },
    async (request) =>
      appointments.listHospitalAppointments(
        ctx.db,
        actorOf(request),
        request.params.hospitalUserId,
        request.query,
      ),
  );

  r.get(
    '/api/appointments/patient',
    {
      config: { policy: { roles: ['patient'], writeAccess: false, healthData: true } },
      schema: {
        tags,
        summary: "The signed-in patient's own appointments (read-only), optionally from/to ISO instants",
        description: pagingDescription,
        querystring: appointmentRangeQuerySchema,
        response: { 200: list },
      },
    },
    async (request) => appointments.listPatientAppointments(ctx.db, actorOf(request), request.query),
  );

  r.get(
    '/api/appointments/patient/:userId',
    {
      config: { policy: { roles: ['patient'], writeAccess: false, healthData: true } },
      schema: {
        tags,
        summary: "The signed-in patient's own appointments by their user id (another id is 404)",
        description: pagingDescription,
        params: z.object({ userId: text().max(100) }),
        querystring: appointmentRangeQuerySchema,
        response: { 200: list },
      },
    },
    async (request) =>
      appointments.listPatientAppointments(ctx.db, actorOf(request), request.query, request.params.userId),
  );

  r.post(
    '/api/appointments',
    {
      config: { policy: { roles: ['hospital'], writeAccess: true, healthData: true, staffRoles: ALL_STAFF } },
      schema: {
        tags,
        summary:
          'Schedule an appointment for one of the hospital’s patients (status scheduled; 409 on a conflict)',
        description:
          'patientId is patients.id. A slot conflicts when it overlaps (one hour from each start) a ' +
          'non-cancelled appointment of the same doctor (case-insensitive) or the same patient at this hospital. ' +
          'hospitalId and status in the body are ignored.',
        body: appointmentInputSchema,
        response: { 201: appointmentSchema },
      },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      return reply
        .status(201)
        .send(await appointments.createAppointment(ctx.db, actor, request.body, ctx.now()));
    },
  );

  r.put(
    '/api/appointments/:id',
    {
      config: { policy: { roles: ['hospital'], writeAccess: true, healthData: true, staffRoles: ALL_STAFF } },
      schema: {
        tags,
        summary: 'Change an appointment (same checks as scheduling, the appointment itself excluded)',
        params: idParams,
        body: appointmentInputSchema,
        response: { 200: appointmentSchema },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      return appointments.updateAppointment(ctx.db, actor, request.params.id, request.body, ctx.now());
    },
  );

  r.patch(
    '/api/appointments/:id/status',
    {
      config: { policy: { roles: ['hospital'], writeAccess: true, healthData: true, staffRoles: ALL_STAFF } },
      schema: {
        tags,
        summary: 'Set the status: scheduled, confirmed or completed',
        params: idParams,
        body: appointmentStatusInputSchema,
        response: { 200: appointmentSchema },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      return appointments.setAppointmentStatus(
        ctx.db,
        actor,
        request.params.id,
        request.body.status,
        ctx.now(),
      );
    },
  );

  r.delete(
    '/api/appointments/:id',
    {
      config: { policy: { roles: ['hospital'], writeAccess: true, healthData: true, staffRoles: ALL_STAFF } },
      schema: {
        tags,
        summary:
          'Cancel an appointment: kept with status cancelled, entered in the ledger (appointment_cancel)',
        params: idParams,
        response: { 200: appointmentSchema },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      return appointments.cancelAppointment(ctx.db, actor, request.params.id, ctx.now());
    },
  );
}
