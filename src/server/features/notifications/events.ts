// What services call, inside the transaction of the event itself, so the mail exists exactly when
// the change does. Each call is one line at the hook; recipients without an account get nothing.
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/connect.js';
import { patients, subscriptions, users, type appointments } from '../../db/schema.js';
import type { DeviceInfo } from '../../plugins/session.js';
import { enqueueJob } from './jobs.js';

export const REMINDER_BEFORE_MS = 24 * 60 * 60 * 1000;
export const TRIAL_WARNING_MS = 2 * 24 * 60 * 60 * 1000;
export type AppointmentEvent = 'booked' | 'changed' | 'cancelled';

async function accountOfPatient(tx: Db, patientRowId: string): Promise<string | null> {
  const [row] = await tx
    .select({ userId: patients.userId })
    .from(patients)
    .where(eq(patients.id, patientRowId));
  return row?.userId ?? null;
}

/** Booked / changed / cancelled mail now; a reminder 24 hours before (re-checked when due). */
export async function notifyAppointment(
  tx: Db,
  appointment: typeof appointments.$inferSelect,
  event: AppointmentEvent,
  now: Date,
): Promise<void> {
  const userId = await accountOfPatient(tx, appointment.patientId);
  if (!userId) return;
  const payload = { appointmentId: appointment.id, at: appointment.appointmentDate.toISOString() };
  await enqueueJob(tx, { kind: `appointment_${event}`, userId, payload, dueAt: now });
  const remindAt = new Date(appointment.appointmentDate.getTime() - REMINDER_BEFORE_MS);
  if (event !== 'cancelled' && remindAt > now) {
    await enqueueJob(tx, { kind: 'appointment_reminder', userId, payload, dueAt: remindAt });
  }
}

/** A new (final) record is available to the patient. */
export async function notifyRecordAvailable(tx: Db, record: { id: string; patientId: string }, now: Date) {
  const userId = await accountOfPatient(tx, record.patientId);
  if (userId)
    await enqueueJob(tx, { kind: 'record_available', userId, payload: { recordId: record.id }, dueAt: now });
}

/** The hospital that created the patient: the patient has claimed their account. */
export async function notifyPatientClaimed(tx: Db, patientRowId: string, now: Date) {
  const [row] = await tx.select().from(patients).where(eq(patients.id, patientRowId));
  if (row) {
    const payload = { patientId: row.id };
    await enqueueJob(tx, { kind: 'patient_claimed', userId: row.createdByHospitalId, payload, dueAt: now });
  }
}

/** "Your trial ends in 2 days", due then; dropped when the hospital has subscribed by that time. */
export async function notifyTrialEnding(tx: Db, hospitalUserId: string, now: Date) {
  const [sub] = await tx.select().from(subscriptions).where(eq(subscriptions.userId, hospitalUserId));
  if (!sub?.trialEndsAt) return;
  const dueAt = new Date(Math.max(now.getTime(), sub.trialEndsAt.getTime() - TRIAL_WARNING_MS));
  await enqueueJob(tx, { kind: 'trial_ending', userId: hospitalUserId, payload: {}, dueAt });
}

/**
 * A provider application was saved: "we received your application" to the applicant (who has no
 * account yet, so by address) and "a new application to review" to every MedLedger administrator.
 */
export async function notifyApplicationSubmitted(
  tx: Db,
  application: { id: string; contactEmail: string },
  now: Date,
) {
  const payload = { applicationId: application.id };
  await enqueueJob(tx, {
    kind: 'application_received',
    recipientEmail: application.contactEmail,
    payload,
    dueAt: now,
  });
  const admins = await tx.select({ id: users.id }).from(users).where(eq(users.role, 'medledger_admin'));
  for (const admin of admins) {
    await enqueueJob(tx, { kind: 'application_submitted', userId: admin.id, payload, dueAt: now });
  }
}

/** A sign-in from a device the account has not used before (security notice, no health data). */
export async function notifyNewSignIn(tx: Db, userId: string, device: DeviceInfo, now: Date) {
  const payload = { userAgent: device.userAgent, ip: device.ip, at: now.toISOString() };
  await enqueueJob(tx, { kind: 'new_sign_in', userId, payload, dueAt: now });
}
