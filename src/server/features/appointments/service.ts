// Appointments of a hospital's patients (docs/spec.md#states, #validation and #calls;
// docs/decisions.md#appointments). Writes are the hospital's, for patients it created; each is
// audited in its own transaction and checked against the shared conflict rule under a per-hospital
// lock, so two requests cannot book the same doctor or patient into overlapping hours. Cancelling
// keeps the row (status cancelled) and enters the cancellation in the ledger.
import {
  and,
  asc,
  count,
  eq,
  getTableColumns,
  gt,
  gte,
  lt,
  lte,
  ne,
  sql,
  type Placeholder,
  type SQL,
} from 'drizzle-orm';
import {
  APPOINTMENT_MESSAGES,
  APPOINTMENT_TYPE_LABELS,
  conflictLabel,
  findConflicts,
  statusAllowedAt,
  type Appointment,
  type AppointmentInput,
  type AppointmentRangeQuery,
  type AppointmentType,
  type SettableStatus,
} from '../../../shared/appointments.js';
import { APPOINTMENT_LENGTH_MINUTES, DEPARTMENT_LABELS } from '../../../shared/constants.js';
import {
  findHospitalAppointment,
  findOwnPatient,
  findPatientForUser,
  hospitalAppointmentsFilter,
  isUuid,
  patientAppointmentsFilter,
  type Actor,
  type PatientRow,
  orgOf,
} from '../../access.js';
import type { Paged, PagingQuery } from '../../../shared/paging.js';
import type { Db } from '../../db/connect.js';
import { isoOf, isoTime } from '../../db/iso-time.js';
import { fetchPage, subqueryTotal } from '../../db/paging.js';
import { preparedPerDb } from '../../db/prepared.js';
import { appointments, patients, users } from '../../db/schema.js';
import { formatInstantWithZone } from '../../../shared/time.js';
import { joinNames } from '../../../shared/users.js';
import { badRequest, conflict, notFound } from '../../errors.js';
import { recordAudit, type AuditRecord } from '../audit/service.js';
import { appendLedgered } from '../ledger/ledgered.js';
import { notifyAppointment } from '../notifications/events.js';
import { findPractitioner } from '../staff/service.js';
import { STAFF_MESSAGES } from '../../../shared/staff.js';

const PRACTITIONER_NOT_FOUND = STAFF_MESSAGES.practitionerNotFound;

type AppointmentRow = typeof appointments.$inferSelect;
/** Its times: Dates from a write, ISO strings from a list (db/iso-time.ts). */
type AppointmentTimes = 'appointmentDate' | 'createdAt' | 'updatedAt';
type AppointmentSource = Omit<AppointmentRow, AppointmentTimes> & Record<AppointmentTimes, Date | string>;
/** Key of the advisory lock that serialises a hospital's bookings ("APPT"). */
const BOOKING_LOCK_KEY = 0x41505054;
const HOUR_MS = APPOINTMENT_LENGTH_MINUTES * 60_000;

const patientName = (p: Pick<PatientRow, 'firstName' | 'lastName'>) =>
  joinNames(p.firstName, p.lastName) || 'Patient';

/** What an appointment shows of its patient. */
type AppointmentPatient = Pick<PatientRow, 'firstName' | 'lastName' | 'patientId'>;

function toAppointment(row: AppointmentSource, patient: AppointmentPatient, timeZone: string): Appointment {
  return {
    id: row.id,
    patientId: row.patientId,
    hospitalId: row.hospitalId,
    patientName: patientName(patient),
    patientMrn: patient.patientId,
    doctorName: row.doctorName,
    practitionerId: row.practitionerId ?? null,
    department: row.department,
    appointmentType: row.appointmentType,
    appointmentDate: isoOf(row.appointmentDate),
    location: row.location,
    notes: row.notes,
    status: row.status,
    blockchainHash: row.blockchainHash,
    createdAt: isoOf(row.createdAt),
    updatedAt: isoOf(row.updatedAt),
    timeZone,
  };
}

/** The audit text of an appointment; its time in the hospital's zone, named (no raw ISO string). */
export function describeAppointment(
  a: { doctorName: string; appointmentType: string; department: string; appointmentDate: Date },
  timeZone: string,
): string {
  const type = APPOINTMENT_TYPE_LABELS[a.appointmentType as AppointmentType] ?? a.appointmentType;
  const department = DEPARTMENT_LABELS[a.department as keyof typeof DEPARTMENT_LABELS] ?? a.department;
  return `${type} with ${a.doctorName} (${department}) on ${formatInstantWithZone(a.appointmentDate, timeZone)}`;
}

/** The hospital's time zone, which its appointments are shown and described in. */
async function hospitalTimeZone(db: Db, hospitalId: string): Promise<string> {
  const [row] = await db.select({ timeZone: users.timeZone }).from(users).where(eq(users.id, hospitalId));
  return row?.timeZone ?? 'UTC';
}

/** The appointments matching `where`, counted (the whole list's total). */
const appointmentCount = (db: Db, where: SQL | undefined) =>
  db
    .select({ n: count() })
    .from(appointments)
    .innerJoin(patients, eq(patients.id, appointments.patientId))
    .where(where);

/** An appointment's columns, its times as ISO strings (db/iso-time.ts): three dates a row. */
const listedAppointmentColumns = {
  ...getTableColumns(appointments),
  appointmentDate: isoTime(appointments.appointmentDate),
  createdAt: isoTime(appointments.createdAt),
  updatedAt: isoTime(appointments.updatedAt),
};

/**
 * One page of the appointments matching `where`, by start time (id breaks ties), with the total as a
 * scalar subquery (db/paging.ts): count(*) over () carried every appointment of a month (1,500 in
 * bench/api-cpu) through the joins before the page was cut, 3.4 ms against 1.2.
 */
function appointmentPageQuery(
  db: Db,
  where: SQL | undefined,
  bounds: { limit: number | Placeholder; offset: number | Placeholder },
) {
  return db
    .select({
      appointment: listedAppointmentColumns,
      // Only what an appointment shows: the whole row was 14 more cells and 3 dates to decode per
      // row, 7-8% of the month read's app CPU (bench/api-cpu).
      patient: { firstName: patients.firstName, lastName: patients.lastName, patientId: patients.patientId },
      timeZone: users.timeZone,
      total: subqueryTotal(appointmentCount(db, where)),
    })
    .from(appointments)
    .innerJoin(patients, eq(patients.id, appointments.patientId))
    .innerJoin(users, eq(users.id, appointments.hospitalId))
    .where(where)
    .orderBy(asc(appointments.appointmentDate), asc(appointments.id))
    .limit(bounds.limit)
    .offset(bounds.offset);
}

type AppointmentPageRow = Awaited<ReturnType<typeof appointmentPageQuery>>[number];
const toItems = (rows: AppointmentPageRow[]) =>
  rows.map((r) => toAppointment(r.appointment, r.patient, r.timeZone));

/** One page of the appointments matching `where`, with the total. */
export async function listWhere(
  db: Db,
  where: SQL | undefined,
  paging: PagingQuery,
): Promise<Paged<Appointment>> {
  return fetchPage(
    paging,
    (bounds) => appointmentPageQuery(db, where, bounds),
    async () => (await appointmentCount(db, where))[0].n,
    toItems,
  );
}

/** Appointments starting from `from` to `to`, both included (each optional). */
const startingBetween = (from: Date | Placeholder | undefined, to: Date | Placeholder | undefined) =>
  and(
    from ? gte(appointments.appointmentDate, from) : undefined,
    to ? lte(appointments.appointmentDate, to) : undefined,
  );

/** Appointments starting within the query's from/to (each optional). */
const inRange = (query: AppointmentRangeQuery) =>
  startingBetween(query.from ? new Date(query.from) : undefined, query.to ? new Date(query.to) : undefined);

/**
 * A hospital's appointments from one instant to another: the calendar's read of its month on every
 * visit, prepared once (db/prepared.ts), so the query builder and drizzle's row mapping do not run
 * for each request.
 */
const hospitalRangePage = preparedPerDb((db) =>
  appointmentPageQuery(
    db,
    and(
      hospitalAppointmentsFilter(sql.placeholder('hospitalId')),
      startingBetween(sql.placeholder('from'), sql.placeholder('to')),
    ),
    { limit: sql.placeholder('limit'), offset: sql.placeholder('offset') },
  ).prepare('appointment_page_hospital_range'),
);

/** GET /api/appointments/hospital/{id}: only the signed-in hospital's own, patients not archived. */
export async function listHospitalAppointments(
  db: Db,
  actor: Actor,
  hospitalUserId: string,
  query: AppointmentRangeQuery,
): Promise<Paged<Appointment>> {
  if (!isUuid(hospitalUserId) || hospitalUserId !== orgOf(actor)) {
    throw notFound('Hospital not found.');
  }
  const where = and(
    hospitalAppointmentsFilter(orgOf(actor)),
    inRange(query),
    query.practitionerId ? eq(appointments.practitionerId, query.practitionerId) : undefined,
  );
  const { from, to } = query;
  // One practitioner's calendar is a short list: the plain query, not the prepared range page.
  if (!from || !to || query.practitionerId) return listWhere(db, where, query);
  const range = {
    hospitalId: orgOf(actor),
    from: new Date(from).toISOString(),
    to: new Date(to).toISOString(),
  };
  return fetchPage(
    query,
    (bounds) => hospitalRangePage(db).execute({ ...range, ...bounds }),
    async () => (await appointmentCount(db, where))[0].n,
    toItems,
  );
}

/** The signed-in patient's own appointments (any hospital), read-only. */
export async function listPatientAppointments(
  db: Db,
  actor: Actor,
  query: AppointmentRangeQuery,
  userId?: string,
): Promise<Paged<Appointment>> {
  if (userId !== undefined && userId !== actor.id) throw notFound('Patient not found.');
  const patient = await findOwnPatient(db, actor);
  return listWhere(db, and(patientAppointmentsFilter(patient.id), inRange(query)), query);
}

function startOf(input: AppointmentInput, now: Date): Date {
  const start = new Date(input.appointmentDate);
  if (Number.isNaN(start.getTime())) throw badRequest(APPOINTMENT_MESSAGES.date);
  // Strictly: a slot that has begun is in the past, whatever the browser's clock or zone says.
  if (start.getTime() < now.getTime()) throw badRequest(APPOINTMENT_MESSAGES.past);
  return start;
}

/** Takes the hospital's booking lock and refuses a slot the shared rule says is taken. */
async function assertSlotFree(
  tx: Db,
  hospitalId: string,
  request: {
    start: Date;
    doctorName: string;
    practitionerId: string | null;
    patientId: string;
    excludeId?: string;
  },
) {
  await tx.execute(sql`select pg_advisory_xact_lock(${BOOKING_LOCK_KEY}::int, hashtext(${hospitalId}))`);
  const nearby = await tx
    .select()
    .from(appointments)
    .where(
      and(
        eq(appointments.hospitalId, hospitalId),
        ne(appointments.status, 'cancelled'),
        gt(appointments.appointmentDate, new Date(request.start.getTime() - HOUR_MS)),
        lt(appointments.appointmentDate, new Date(request.start.getTime() + HOUR_MS)),
      ),
    );
  const conflicts = findConflicts(request, nearby);
  if (conflicts.length > 0) {
    const samePatient = conflicts.some((c) => c.patientId === request.patientId);
    throw conflict(
      `This time slot is already booked. ${conflictLabel(conflicts)}` +
        (samePatient ? ' (the patient already has an appointment within that hour).' : '.'),
    );
  }
}

/** Whom a booking is with: a practitioner of the hospital by id, or a doctor's name as free text. */
interface Provider {
  doctorName: string;
  practitionerId: string | null;
}

async function providerOf(db: Db, actor: Actor, input: AppointmentInput): Promise<Provider> {
  if (input.practitionerId) {
    const practitioner = await findPractitioner(db, actor, input.practitionerId);
    if (!practitioner) throw badRequest(PRACTITIONER_NOT_FOUND);
    return { doctorName: practitioner.name, practitionerId: practitioner.id };
  }
  if (!input.doctorName) throw badRequest(APPOINTMENT_MESSAGES.practitioner);
  return { doctorName: input.doctorName, practitionerId: null };
}

const fieldsOf = (input: AppointmentInput, start: Date, provider: Provider) => ({
  patientId: input.patientId,
  ...provider,
  department: input.department,
  appointmentType: input.appointmentType,
  appointmentDate: start,
  location: input.location ?? null,
  notes: input.notes ?? null,
});

export async function createAppointment(
  db: Db,
  actor: Actor,
  input: AppointmentInput,
  now: Date,
): Promise<Appointment> {
  const patient = await findPatientForUser(db, actor, input.patientId);
  const start = startOf(input, now);
  const zone = await hospitalTimeZone(db, orgOf(actor));
  const provider = await providerOf(db, actor, input);
  const row = await db.transaction(async (tx) => {
    await assertSlotFree(tx, orgOf(actor), { start, ...provider, patientId: patient.id });
    const [created] = await tx
      .insert(appointments)
      .values({
        ...fieldsOf(input, start, provider),
        hospitalId: orgOf(actor),
        status: 'scheduled',
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    if (!created) throw new Error('insert returned no row');
    await notifyAppointment(tx, created, 'booked', now);
    await recordAudit(tx, actor, {
      event: { kind: 'appointment_create', data: { appointment: describeAppointment(created, zone) } },
      subject: appointmentSubject(actor, created),
    });
    return created;
  });
  return toAppointment(row, patient, zone);
}

/** An appointment as an audit entry's subject (its hospital is the actor, who books it). */
const appointmentSubject = (
  actor: Actor,
  row: Pick<AppointmentRow, 'id' | 'patientId'>,
): AuditRecord['subject'] => ({
  type: 'appointment',
  id: row.id,
  patientId: row.patientId,
  hospitalId: orgOf(actor),
});

export async function updateAppointment(
  db: Db,
  actor: Actor,
  id: string,
  input: AppointmentInput,
  now: Date,
): Promise<Appointment> {
  const current = await findHospitalAppointment(db, actor, id);
  if (current.appointment.status === 'cancelled')
    throw conflict('A cancelled appointment cannot be changed.');
  const patient =
    input.patientId === current.patient.id
      ? current.patient
      : await findPatientForUser(db, actor, input.patientId);
  const unchangedDate =
    new Date(input.appointmentDate).getTime() === current.appointment.appointmentDate.getTime();
  const start = unchangedDate ? current.appointment.appointmentDate : startOf(input, now);
  const zone = await hospitalTimeZone(db, orgOf(actor));
  const provider = await providerOf(db, actor, input);
  const row = await db.transaction(async (tx) => {
    await assertSlotFree(tx, orgOf(actor), { start, ...provider, patientId: patient.id, excludeId: id });
    const [updated] = await tx
      .update(appointments)
      .set({ ...fieldsOf(input, start, provider), updatedAt: now })
      .where(and(eq(appointments.id, id), ne(appointments.status, 'cancelled')))
      .returning();
    if (!updated) throw conflict('A cancelled appointment cannot be changed.');
    await notifyAppointment(tx, updated, 'changed', now);
    await recordAudit(tx, actor, {
      event: { kind: 'appointment_update', data: { appointment: describeAppointment(updated, zone) } },
      subject: appointmentSubject(actor, updated),
    });
    return updated;
  });
  return toAppointment(row, patient, zone);
}

export async function setAppointmentStatus(
  db: Db,
  actor: Actor,
  id: string,
  status: SettableStatus,
  now: Date,
): Promise<Appointment> {
  const current = await findHospitalAppointment(db, actor, id);
  if (!statusAllowedAt(status, current.appointment.appointmentDate, now)) {
    throw badRequest(APPOINTMENT_MESSAGES.notYet);
  }
  const zone = await hospitalTimeZone(db, orgOf(actor));
  const row = await db.transaction(async (tx) => {
    const [updated] = await tx
      .update(appointments)
      .set({ status, updatedAt: now })
      .where(and(eq(appointments.id, id), ne(appointments.status, 'cancelled')))
      .returning();
    if (!updated) throw conflict('A cancelled appointment cannot change status.');
    await recordAudit(tx, actor, {
      event: {
        kind: 'appointment_status',
        data: {
          from: current.appointment.status,
          to: status,
          appointment: describeAppointment(updated, zone),
        },
      },
      subject: appointmentSubject(actor, updated),
    });
    return updated;
  });
  return toAppointment(row, current.patient, zone);
}

/** DELETE /api/appointments/{id}: status cancelled, ledgered (appointment_cancel) and audited. */
export async function cancelAppointment(db: Db, actor: Actor, id: string, now: Date): Promise<Appointment> {
  const current = await findHospitalAppointment(db, actor, id);
  const zone = await hospitalTimeZone(db, orgOf(actor));
  const row = await db.transaction(async (tx) => {
    const [cancelled] = await tx
      .update(appointments)
      .set({ status: 'cancelled', updatedAt: now })
      .where(and(eq(appointments.id, id), ne(appointments.status, 'cancelled')))
      .returning();
    if (!cancelled) throw conflict('The appointment is already cancelled.');
    await notifyAppointment(tx, cancelled, 'cancelled', now);
    const { stamped } = await appendLedgered(
      tx,
      actor,
      {
        entry: {
          kind: 'appointment_cancel',
          patientId: cancelled.patientId,
          content: {
            appointmentId: cancelled.id,
            hospitalId: cancelled.hospitalId,
            patientId: cancelled.patientId,
            doctorName: cancelled.doctorName,
            department: cancelled.department,
            appointmentType: cancelled.appointmentType,
            appointmentDate: cancelled.appointmentDate,
            previousStatus: current.appointment.status,
          },
        },
        stamp: async (hash) => {
          const [withHash] = await tx
            .update(appointments)
            .set({ blockchainHash: hash })
            .where(eq(appointments.id, id))
            .returning();
          return withHash ?? { ...cancelled, blockchainHash: hash };
        },
        audit: {
          event: { kind: 'appointment_cancel', data: { appointment: describeAppointment(cancelled, zone) } },
          subject: appointmentSubject(actor, { id, patientId: cancelled.patientId }),
        },
      },
      now,
    );
    return stamped ?? cancelled;
  });
  return toAppointment(row, current.patient, zone);
}
