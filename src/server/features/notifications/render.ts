// Turns a due job into its mail from the rows as they are now. A reminder whose appointment was
// cancelled or moved since (its time differs from the one the job was made for) is not sent.
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/connect.js';
import {
  appointments,
  medicalRecords,
  patients,
  providerApplications,
  subscriptions,
  users,
  type notificationJobs,
} from '../../db/schema.js';
import { applicationReceived, newSignInMail, notificationMail } from '../../mail/templates.js';
import { deviceLabel } from '../../../shared/account.js';
import { formatInstantWithZone } from '../../../shared/time.js';
import { displayName, joinNames } from '../../../shared/users.js';
import type { OutgoingMail } from '../../mail/mailer.js';
import { calendarItems } from '../calendar/service.js';
import { appointmentsCalendar, ICalCalendarMethod } from '../calendar/ics.js';

type JobRow = typeof notificationJobs.$inferSelect;

const SUBJECTS: Record<string, string> = {
  appointment_booked: 'an appointment was booked for you',
  appointment_changed: 'your appointment was changed',
  appointment_cancelled: 'your appointment was cancelled',
  appointment_reminder: 'reminder of your appointment tomorrow',
};
const OPENINGS: Record<string, string> = {
  appointment_booked: 'An appointment has been booked for you.',
  appointment_changed: 'Your appointment has been changed. The details are now:',
  appointment_cancelled: 'Your appointment has been cancelled:',
  appointment_reminder: 'A reminder of your appointment in 24 hours:',
};

export function createRenderer(publicUrl: string) {
  const link = { href: `${publicUrl}/patient-dashboard`, label: 'Open MedLedger' };

  async function recipient(db: Db, userId: string) {
    const [u] = await db.select().from(users).where(eq(users.id, userId));
    return u ?? null;
  }

  async function appointmentMail(
    db: Db,
    job: JobRow,
    to: typeof users.$inferSelect,
  ): Promise<OutgoingMail | null> {
    const { appointmentId, at } = job.payload as { appointmentId: string; at: string };
    const [a] = await db.select().from(appointments).where(eq(appointments.id, appointmentId));
    if (!a) return null;
    if (
      job.kind === 'appointment_reminder' &&
      (a.status === 'cancelled' || a.appointmentDate.toISOString() !== at)
    )
      return null;
    const [item] = await calendarItems(db, [a]);
    if (!item) return null;
    const [hospital] = await db.select().from(users).where(eq(users.id, a.hospitalId));
    const name = displayName(to);
    const lines = [
      `Dear ${name},`,
      OPENINGS[job.kind] ?? '',
      `${formatInstantWithZone(a.appointmentDate, hospital?.timeZone ?? 'UTC')} with ${a.doctorName}${item.hospitalName ? ` at ${item.hospitalName}` : ''}${a.location ? `, ${a.location}` : ''}.`,
    ];
    const cancel = job.kind === 'appointment_cancelled';
    const attachments =
      job.kind === 'appointment_reminder'
        ? undefined
        : [
            {
              filename: cancel ? 'cancel.ics' : 'invite.ics',
              contentType: `text/calendar; charset=utf-8; method=${cancel ? 'CANCEL' : 'REQUEST'}`,
              content: appointmentsCalendar([item], {
                name: 'Appointment',
                method: cancel ? ICalCalendarMethod.CANCEL : ICalCalendarMethod.REQUEST,
                publicUrl,
                now: new Date(),
                invitation: {
                  organizer: {
                    name: item.hospitalName ?? 'Hospital',
                    email: hospital?.hospitalAdminEmail ?? hospital?.email ?? 'no-reply@medledger.example',
                  },
                  attendee: { name, email: to.email },
                },
              }),
            },
          ];
    return notificationMail(to.email, job.kind, SUBJECTS[job.kind] ?? 'an update', lines, link, attachments);
  }

  async function application(db: Db, job: JobRow) {
    const { applicationId } = job.payload as { applicationId: string };
    const [row] = await db
      .select()
      .from(providerApplications)
      .where(eq(providerApplications.id, applicationId));
    return row ?? null;
  }

  return async function render(db: Db, job: JobRow): Promise<OutgoingMail | null> {
    if (job.kind === 'application_received') {
      const row = await application(db, job);
      if (!row || !job.recipientEmail) return null;
      return applicationReceived(job.recipientEmail, row.contactName, row.hospitalName, publicUrl);
    }
    const to = job.userId ? await recipient(db, job.userId) : null;
    if (!to) return null;
    if (job.kind === 'application_submitted') {
      const row = await application(db, job);
      // Reviewed before the mail went out: nothing left to ask of the administrator.
      if (row?.status !== 'pending') return null;
      return notificationMail(
        to.email,
        job.kind,
        'a new provider application to review',
        [
          `${row.hospitalName} (contact: ${row.contactName}) has applied to join MedLedger.`,
          'Review it in the administrator dashboard.',
        ],
        { href: `${publicUrl}/medledger/applications`, label: 'Review applications' },
      );
    }
    if (job.kind.startsWith('appointment_')) return appointmentMail(db, job, to);
    if (job.kind === 'record_available') {
      const { recordId } = job.payload as { recordId: string };
      const [r] = await db
        .select({ id: medicalRecords.id })
        .from(medicalRecords)
        .where(eq(medicalRecords.id, recordId));
      if (!r) return null;
      return notificationMail(
        to.email,
        job.kind,
        'a new record is available',
        [
          `Dear ${to.firstName ?? to.email},`,
          'Your healthcare provider has added a new record to your account. Sign in to see it.',
        ],
        link,
      );
    }
    if (job.kind === 'patient_claimed') {
      const { patientId } = job.payload as { patientId: string };
      const [p] = await db.select().from(patients).where(eq(patients.id, patientId));
      if (!p) return null;
      const name = joinNames(p.firstName, p.lastName) || 'A patient';
      return notificationMail(
        to.hospitalAdminEmail ?? to.email,
        job.kind,
        'a patient activated their account',
        [`${name} (MRN ${p.patientId}) has created their patient account and can now see their records.`],
        { href: `${publicUrl}/hospital-dashboard`, label: 'Open MedLedger' },
      );
    }
    if (job.kind === 'new_sign_in') {
      const { userAgent, ip, at } = job.payload as {
        userAgent: string | null;
        ip: string | null;
        at: string;
      };
      const name = displayName(to);
      return newSignInMail(
        to.email,
        name,
        { device: deviceLabel(userAgent), ip, at: formatInstantWithZone(at, to.timeZone) },
        `${publicUrl}/profile/edit#sessions`,
      );
    }
    if (job.kind === 'trial_ending') {
      const [sub] = await db.select().from(subscriptions).where(eq(subscriptions.userId, to.id));
      if (sub?.status !== 'trialing' || !sub.trialEndsAt) return null;
      return notificationMail(
        to.hospitalAdminEmail ?? to.email,
        job.kind,
        'your free trial ends in 2 days',
        [
          `The free trial of ${to.hospitalName ?? 'your hospital'} ends on ${formatInstantWithZone(sub.trialEndsAt, to.timeZone)}.`,
          'Add a payment method to keep adding and changing records; reading stays possible after the trial.',
        ],
        { href: `${publicUrl}/hospital-dashboard`, label: 'Open MedLedger' },
      );
    }
    return null;
  };
}
