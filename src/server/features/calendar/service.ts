// Calendar files of appointments: one appointment (the booking hospital or the patient) and all of
// a patient's appointments. Access goes through access.ts; others get 404.
import { and, count, eq, inArray } from 'drizzle-orm';
import { type Actor, findAppointmentForUser, findOwnPatient } from '../../access.js';
import type { Db } from '../../db/connect.js';
import { appointments, auditLogs, users } from '../../db/schema.js';
import { notFound } from '../../errors.js';
import { appointmentsCalendar, ICalCalendarMethod, type CalendarAppointment } from './ics.js';

/** Every audited change after scheduling raises the event's SEQUENCE, so calendars take the update. */
const CHANGE_ACTIONS = ['appointment_update', 'appointment_status', 'appointment_cancel'];

export interface CalendarDeps {
  db: Db;
  publicUrl: string;
  now: Date;
}

export async function calendarItems(
  db: Db,
  rows: (typeof appointments.$inferSelect)[],
): Promise<CalendarAppointment[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const changes = await db
    .select({ id: auditLogs.entityId, n: count() })
    .from(auditLogs)
    .where(and(inArray(auditLogs.entityId, ids), inArray(auditLogs.action, CHANGE_ACTIONS)))
    .groupBy(auditLogs.entityId);
  const hospitals = await db
    .select({ id: users.id, name: users.hospitalName })
    .from(users)
    .where(inArray(users.id, [...new Set(rows.map((r) => r.hospitalId))]));
  return rows.map((appointment) => ({
    appointment,
    hospitalName: hospitals.find((h) => h.id === appointment.hospitalId)?.name ?? null,
    sequence: changes.find((c) => c.id === appointment.id)?.n ?? 0,
  }));
}

/** GET /api/appointments/{id}/ics: METHOD:CANCEL once cancelled, else PUBLISH. */
export async function appointmentIcs(
  deps: CalendarDeps,
  actor: Actor,
  appointmentId: string,
): Promise<string> {
  const { appointment } = await findAppointmentForUser(deps.db, actor, appointmentId);
  const [item] = await calendarItems(deps.db, [appointment]);
  return appointmentsCalendar(item ? [item] : [], {
    name: 'Appointment',
    method: appointment.status === 'cancelled' ? ICalCalendarMethod.CANCEL : ICalCalendarMethod.PUBLISH,
    publicUrl: deps.publicUrl,
    now: deps.now,
  });
}

/** All appointments of a patient's own row (cancelled ones as STATUS:CANCELLED). */
export async function patientCalendarForUser(deps: CalendarDeps, patientUserId: string): Promise<string> {
  const patient = await findOwnPatient(deps.db, { id: patientUserId, role: 'patient' });
  const rows = await deps.db.select().from(appointments).where(eq(appointments.patientId, patient.id));
  return appointmentsCalendar(await calendarItems(deps.db, rows), {
    name: 'MedLedger appointments',
    method: ICalCalendarMethod.PUBLISH,
    publicUrl: deps.publicUrl,
    now: deps.now,
  });
}

/** GET /api/appointments/patient/{userId}/ics: the signed-in patient's own id only. */
export async function patientIcs(deps: CalendarDeps, actor: Actor, userId: string): Promise<string> {
  if (userId !== actor.id) throw notFound('Patient not found.');
  return patientCalendarForUser(deps, actor.id);
}
