// Appointments as iCalendar (RFC 5545) text with ical-generator: one VEVENT per appointment with a
// stable UID, DTSTART in UTC, DURATION of one appointment, LOCATION, STATUS and a SEQUENCE that
// grows with each change. Summaries name the doctor only: calendars sync to third-party servers,
// so the department and the kind of visit stay in the description.
import ical, { ICalCalendarMethod, ICalEventStatus } from 'ical-generator';
import { APPOINTMENT_LENGTH_MINUTES, BRAND } from '../../../shared/constants.js';
import type { appointments } from '../../db/schema.js';

type AppointmentRow = typeof appointments.$inferSelect;

export interface CalendarAppointment {
  appointment: AppointmentRow;
  hospitalName: string | null;
  /** Changes after scheduling (edits, status changes, cancellation): the event's SEQUENCE. */
  sequence: number;
}

export const eventUid = (appointmentId: string) => `${appointmentId}@medledger`;

const STATUS: Record<AppointmentRow['status'], ICalEventStatus> = {
  scheduled: ICalEventStatus.CONFIRMED,
  confirmed: ICalEventStatus.CONFIRMED,
  checked_in: ICalEventStatus.CONFIRMED,
  completed: ICalEventStatus.CONFIRMED,
  no_show: ICalEventStatus.CONFIRMED,
  pending: ICalEventStatus.TENTATIVE,
  cancelled: ICalEventStatus.CANCELLED,
};

export interface CalendarOptions {
  name: string;
  /** PUBLISH for downloads and feeds, REQUEST / CANCEL for invitations. */
  method: ICalCalendarMethod;
  publicUrl: string;
  now: Date;
  /** For METHOD:REQUEST / CANCEL invitations (RFC 5546 asks for an organizer and attendee). */
  invitation?: { organizer: { name: string; email: string }; attendee: { name: string; email: string } };
}

export function appointmentsCalendar(items: CalendarAppointment[], options: CalendarOptions): string {
  const cal = ical({
    prodId: { company: BRAND, product: `${BRAND} appointments`, language: 'EN' },
    name: options.name,
    method: options.method,
  });
  for (const { appointment: a, hospitalName, sequence } of items) {
    cal.createEvent({
      id: eventUid(a.id),
      sequence,
      stamp: options.now,
      created: a.createdAt,
      lastModified: a.updatedAt,
      start: a.appointmentDate,
      summary: `Appointment with ${a.doctorName}`,
      description:
        `${a.appointmentType} (${a.department})${hospitalName ? ` at ${hospitalName}` : ''}.\n` +
        `Details in ${BRAND}: ${options.publicUrl}/`,
      location: [a.location, hospitalName].filter(Boolean).join(', ') || null,
      status: STATUS[a.status],
      url: `${options.publicUrl}/`,
      ...(options.invitation
        ? { organizer: options.invitation.organizer, attendees: [options.invitation.attendee] }
        : {}),
    });
  }
  return withDuration(cal.toString());
}

/** ical-generator only writes DTEND; the length of an appointment is fixed, so say it as DURATION. */
function withDuration(text: string): string {
  return text.replace(/^(DTSTART[^\r\n]*\r\n)/gm, `$1DURATION:PT${APPOINTMENT_LENGTH_MINUTES}M\r\n`);
}

export { ICalCalendarMethod };
