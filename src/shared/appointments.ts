// Appointments (docs/spec.md#screens-and-routes, #entities, #validation and #calls;
// docs/decisions.md#appointments): the form's and the API's schemas, the bookable slots and the one
// conflict rule used by both the slot grid and the server. Slot times are wall-clock times in the
// hospital's time zone (docs/decisions.md#time); the API carries ISO instants.
import { z } from 'zod';
import {
  isUuid,
  isoInstant,
  nullableStrings,
  optionalLabelledText,
  optionalText,
  picked,
  strings,
} from './fields.js';
import { pagingQuerySchema } from './paging.js';
import { text } from './text.js';
import {
  APPOINTMENT_LENGTH_MINUTES,
  APPOINTMENT_STATUSES,
  APPOINTMENT_TYPES,
  DEPARTMENTS,
  SLOT_END,
  SLOT_START,
  SLOT_STEP_MINUTES,
} from './constants.js';
import { instantIn } from './time.js';

export const APPOINTMENT_MESSAGES = {
  required: 'Please fill in all required fields',
  date: 'The appointment date and time must be a valid date and time',
  past: 'The appointment date cannot be in the past',
  status: 'Status must be one of scheduled, confirmed, checked_in, completed, no_show',
  notYet: 'Checked in, Completed and No-show can be set only from the appointment time on',
  practitioner: "Please choose a practitioner or enter the doctor's name",
} as const;

export type AppointmentType = (typeof APPOINTMENT_TYPES)[number];
export type AppointmentStatus = (typeof APPOINTMENT_STATUSES)[number];
/** The statuses the card's dropdown (and PATCH …/status) offers; cancelling is its own call. */
export const SETTABLE_STATUSES = ['scheduled', 'confirmed', 'checked_in', 'completed', 'no_show'] as const;
export type SettableStatus = (typeof SETTABLE_STATUSES)[number];
/** What happened at the visit: only from its start time on (a future visit cannot be completed). */
export const VISIT_OUTCOME_STATUSES: readonly SettableStatus[] = ['checked_in', 'completed', 'no_show'];
export const APPOINTMENT_STATUS_LABELS: Record<AppointmentStatus, string> = {
  scheduled: 'Scheduled',
  confirmed: 'Confirmed',
  checked_in: 'Checked in',
  completed: 'Completed',
  no_show: 'No-show',
  pending: 'Pending',
  cancelled: 'Cancelled',
};
/** Whether a status may be set now on an appointment starting at `start`. */
export const statusAllowedAt = (status: SettableStatus, start: Date, now: Date) =>
  !VISIT_OUTCOME_STATUSES.includes(status) || start.getTime() <= now.getTime();

export const APPOINTMENT_TYPE_LABELS: Record<AppointmentType, string> = {
  consultation: 'Consultation',
  'follow-up': 'Follow-up',
  emergency: 'Emergency',
  surgery: 'Surgery',
  screening: 'Screening',
  vaccination: 'Vaccination',
};

const required = text({ error: APPOINTMENT_MESSAGES.required }).trim().min(1, APPOINTMENT_MESSAGES.required);

const doctorNameSchema = required.max(200, 'Doctor name must be at most 200 characters');

export const appointmentInputSchema = z.object({
  /** patients.id of one of the hospital's patients. */
  patientId: required.max(100, APPOINTMENT_MESSAGES.required),
  appointmentType: z.enum(APPOINTMENT_TYPES, { error: APPOINTMENT_MESSAGES.required }),
  /** Free text; left out with a practitionerId (the practitioner's name is shown). */
  doctorName: doctorNameSchema.optional(),
  /** The practitioner (GET /api/hospital/practitioners) the appointment is with. */
  practitionerId: optionalText(100),
  department: z.enum(DEPARTMENTS, { error: APPOINTMENT_MESSAGES.required }),
  /** The slot's start as an ISO instant. */
  appointmentDate: text({ error: APPOINTMENT_MESSAGES.required })
    .trim()
    .min(1, APPOINTMENT_MESSAGES.required)
    .pipe(isoInstant('Appointment date', APPOINTMENT_MESSAGES.date)),
  location: optionalLabelledText('Location', 300),
  notes: optionalLabelledText('Notes', 2000),
  /** Sent by the spec's client; ignored (the hospital is the signed-in one, status starts scheduled). */
  hospitalId: z.unknown().optional(),
  status: z.unknown().optional(),
});
export type AppointmentInput = z.infer<typeof appointmentInputSchema>;

/**
 * The New/Edit Appointment dialog: the call's fields, with the wall-clock day and slot in place of
 * the instant (the dialog turns them into one in the hospital's zone) and the picked patient's label.
 */
export const appointmentFormSchema = appointmentInputSchema
  .pick({ location: true, notes: true })
  .extend({
    /** Required when no practitioner is chosen (then it is the free-text doctor, as before). */
    doctorName: text().trim().max(200, 'Doctor name must be at most 200 characters'),
    practitionerId: z.string().nullable().default(null),
    patientId: picked(appointmentInputSchema.shape.patientId),
    appointmentType: picked(appointmentInputSchema.shape.appointmentType),
    department: picked(appointmentInputSchema.shape.department),
    date: picked(required),
    slot: picked(required),
    patientLabel: z.string().nullable(),
  })
  .refine((values) => !!values.practitionerId || !!values.doctorName?.trim(), {
    path: ['doctorName'],
    message: APPOINTMENT_MESSAGES.required,
    // Checked with the other fields' errors, so every missing field is marked at once.
    when: () => true,
  });

export const appointmentStatusInputSchema = z.object({
  status: z.enum(SETTABLE_STATUSES, { error: APPOINTMENT_MESSAGES.status }),
});

/**
 * `patientName`: the patient's name for calendar markers ("Patient" when none was given);
 * `timeZone`: the hospital's IANA time zone (its staff see the time in it, a patient elsewhere is told).
 */
export const appointmentSchema = z.object({
  ...strings('id', 'patientId', 'hospitalId', 'patientName', 'patientMrn', 'doctorName', 'department'),
  ...strings('appointmentType', 'appointmentDate'),
  ...nullableStrings('location', 'notes'),
  /** The practitioner it is with (null on free-text bookings). */
  practitionerId: z.string().nullable(),
  status: z.enum(APPOINTMENT_STATUSES),
  blockchainHash: z.string().nullable(),
  ...strings('createdAt', 'updatedAt', 'timeZone'),
});
export type Appointment = z.infer<typeof appointmentSchema>;

export const appointmentRangeQuerySchema = pagingQuerySchema.extend({
  from: isoInstant('from', 'from must be an ISO date and time').optional(),
  to: isoInstant('to', 'to must be an ISO date and time').optional(),
  /** One practitioner's calendar. */
  practitionerId: text().trim().refine(isUuid, 'practitionerId must be a practitioner id').optional(),
});
export type AppointmentRangeQuery = z.infer<typeof appointmentRangeQuerySchema>;

const toMinutes = (hhmm: string) => {
  const [h, m] = hhmm.split(':').map(Number);
  return (h ?? 0) * 60 + (m ?? 0);
};
const pad = (n: number) => String(n).padStart(2, '0');

/** "09:00", "09:30", … "17:30". */
export const TIME_SLOTS: readonly string[] = (() => {
  const slots: string[] = [];
  for (let m = toMinutes(SLOT_START); m <= toMinutes(SLOT_END); m += SLOT_STEP_MINUTES) {
    slots.push(`${pad(Math.floor(m / 60))}:${pad(m % 60)}`);
  }
  return slots;
})();

/** The instant of a slot ("14:30") on a day ("YYYY-MM-DD") in the hospital's time zone. */
export const slotInstant = (day: string, slot: string, zone: string): Date => instantIn(day, slot, zone);

export interface ScheduledAppointment {
  id: string;
  patientId: string;
  doctorName: string;
  practitionerId?: string | null;
  appointmentDate: string | Date;
  status: string;
}

export interface SlotRequest {
  start: Date;
  doctorName: string;
  /** The practitioner booked: then only their own bookings (and free-text ones of the same name) conflict. */
  practitionerId?: string | null;
  /** patients.id; null when no patient is chosen yet. */
  patientId: string | null;
  /** The appointment being edited, which never conflicts with itself. */
  excludeId?: string | null;
}

export const sameDoctor = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();
const LENGTH_MS = APPOINTMENT_LENGTH_MINUTES * 60_000;

/**
 * The appointments of one hospital that make `request` unavailable: each occupies one hour from
 * its start, and a non-cancelled one of the same doctor or of the same patient that overlaps
 * [start, start + 1h) conflicts. An empty list means the slot is free.
 */
export function findConflicts<T extends ScheduledAppointment>(
  request: SlotRequest,
  existing: readonly T[],
): T[] {
  const start = request.start.getTime();
  const doctor = request.doctorName.trim();
  return existing.filter((a) => {
    if (a.status === 'cancelled') return false;
    if (request.excludeId && a.id === request.excludeId) return false;
    const other = new Date(a.appointmentDate).getTime();
    if (Math.abs(other - start) >= LENGTH_MS) return false;
    return (
      sameProvider(request, a, doctor) || (request.patientId !== null && a.patientId === request.patientId)
    );
  });
}

/**
 * Whether a booking is with the same provider as the request: the same practitioner by id (two
 * practitioners of one name are two people); a free-text booking by its name, as before.
 */
function sameProvider(request: SlotRequest, a: ScheduledAppointment, doctor: string) {
  if (request.practitionerId && a.practitionerId) return a.practitionerId === request.practitionerId;
  return doctor !== '' && sameDoctor(a.doctorName, doctor);
}

/** The tooltip of a booked slot. */
export const conflictLabel = (conflicts: readonly ScheduledAppointment[]) =>
  `Conflict with: ${[...new Set(conflicts.map((c) => c.doctorName.trim()))].join(', ')}`;

/** The patient dashboard's upcoming list: not cancelled, from the start of today (local), soonest first. */
export function upcomingAppointments<T extends Pick<Appointment, 'appointmentDate' | 'status'>>(
  list: readonly T[],
  now: Date,
): T[] {
  const startOfToday = new Date(now.getFullYear(), now.getMonth(), now.getDate()).getTime();
  return list
    .filter((a) => a.status !== 'cancelled' && new Date(a.appointmentDate).getTime() >= startOfToday)
    .sort((a, b) => new Date(a.appointmentDate).getTime() - new Date(b.appointmentDate).getTime());
}
