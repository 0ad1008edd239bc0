// Notification mails from the job table, read back from the outbox: appointment booked / changed /
// cancelled with an .ics (REQUEST / CANCEL) that ical.js parses, the 24-hour reminder sent when due
// and dropped once the appointment moved, a new record, the preference switch, retries with
// back-off on a real SMTP failure, and no double sending when two runs race.
import { eq } from 'drizzle-orm';
import ICAL from 'ical.js';
import { describe, expect, it } from 'vitest';
import { notificationJobs } from '../../db/schema.js';
import { headerOf, outboxMessages, partText } from '../../mail/read-message.js';
import { uploadRecord } from '../records/testing.js';
import {
  addPatient,
  callerOf,
  createTestApp,
  signedInAdmin,
  signedInHospital,
  signedInPatient,
  useCast,
} from '../../test/helpers.js';
import { retryDelayMs, runDueJobs } from './jobs.js';
import { createRenderer } from './render.js';
import { runNotificationsOnce } from './worker.js';

let clock = new Date('2031-05-01T08:00:00.000Z');
const t = useCast({
  config: { publicUrl: 'http://medledger.test' },
  options: { now: () => clock },
  hospitalName: 'Saint Mary',
  patient: { firstName: 'Ada', lastName: 'Lovelace' },
});

const call = callerOf(t);
const body = (date: string) => ({
  patientId: t.patientRow.id,
  appointmentType: 'consultation',
  doctorName: 'Dr. Smith',
  department: 'oncology',
  appointmentDate: date,
  location: 'Room 4',
});
let seen = 0;
/** Mails written to the outbox since the last call. */
function newMails() {
  const all = outboxMessages(t.ctx.mail.outboxDir);
  const fresh = all.slice(seen);
  seen = all.length;
  return fresh;
}
function calendarOf(raw: string) {
  const text = partText(raw, 'text/calendar');
  expect(text, 'an .ics part').toBeDefined();
  const cal = new ICAL.Component(ICAL.parse(text!) as unknown[]);
  return {
    method: cal.getFirstPropertyValue('method'),
    event: new ICAL.Event(cal.getFirstSubcomponent('vevent')!),
  };
}

describe('appointment notifications', () => {
  it('tells the hospital that a patient claimed their account (sent by the worker only)', async () => {
    // So far only the signup welcomes of the hospital and the patient: the claim waits for the worker.
    expect(
      newMails()
        .map((m) => `${headerOf(m, 'To')}: ${headerOf(m, 'Subject')}`)
        .sort(),
    ).toEqual(
      [`${t.hospital.email}: Welcome to MedLedger`, `${t.patient.email}: Welcome to MedLedger`].sort(),
    );
    expect(await runNotificationsOnce(t.ctx)).toMatchObject({ sent: 1 });
    const [mail] = newMails();
    expect(headerOf(mail, 'To')).toContain(t.hospital.email);
    expect(headerOf(mail, 'Subject')).toBe('MedLedger: a patient activated their account');
    expect(partText(mail, 'text/plain')).toContain(t.patientRow.patientId);
  });

  it('mails booked, changed and cancelled with an .ics; reminder only for the current time', async () => {
    const created = await call(
      'POST',
      '/api/appointments',
      t.hospital.cookie,
      body('2031-05-03T10:00:00.000Z'),
    );
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json<{ id: string }>().id;
    expect(await runNotificationsOnce(t.ctx)).toMatchObject({ sent: 1 });
    const [booked] = newMails();
    expect(booked).toBeDefined();
    expect(headerOf(booked, 'To')).toContain(t.patient.email);
    const subject = headerOf(booked, 'Subject') ?? '';
    expect(subject).toMatch(/^MedLedger: an appointment was booked/);
    expect(subject).not.toMatch(/oncology|Smith|consultation/i);
    expect(partText(booked, 'text/plain')).toContain('http://medledger.test/patient-dashboard');
    expect(partText(booked, 'text/html')).toContain('http://medledger.test/patient-dashboard');
    const invite = calendarOf(booked);
    expect(invite.method).toBe('REQUEST');
    expect(invite.event.uid).toBe(`${id}@medledger`);
    expect(invite.event.startDate.toJSDate().toISOString()).toBe('2031-05-03T10:00:00.000Z');

    const moved = await call(
      'PUT',
      `/api/appointments/${id}`,
      t.hospital.cookie,
      body('2031-05-03T14:00:00.000Z'),
    );
    expect(moved.statusCode, moved.body).toBe(200);
    await runNotificationsOnce(t.ctx);
    const [changed] = newMails();
    expect(headerOf(changed, 'Subject')).toMatch(/changed/);
    expect(calendarOf(changed).event.sequence).toBe(1);

    // 24 hours before the old time: that reminder is dropped; before the new time: sent.
    clock = new Date('2031-05-02T10:00:00.000Z');
    expect(await runNotificationsOnce(t.ctx)).toMatchObject({ sent: 0, skipped: 1 });
    clock = new Date('2031-05-02T14:00:00.000Z');
    expect(await runNotificationsOnce(t.ctx)).toMatchObject({ sent: 1 });
    const [reminder] = newMails();
    expect(headerOf(reminder, 'Subject')).toMatch(/reminder/);
    expect(partText(reminder, 'text/plain')).toContain('Dr. Smith');

    clock = new Date('2031-05-02T15:00:00.000Z');
    expect((await call('DELETE', `/api/appointments/${id}`, t.hospital.cookie)).statusCode).toBe(200);
    await runNotificationsOnce(t.ctx);
    const [cancelled] = newMails();
    const cancel = calendarOf(cancelled);
    expect(cancel.method).toBe('CANCEL');
    expect(cancel.event.uid).toBe(`${id}@medledger`);
    expect(cancel.event.sequence).toBe(2);
  });

  it('mails that a new record is available, without its title in the mail', async () => {
    const up = await uploadRecord(t.app, t.hospital.cookie, t.patientRow.id, {
      fields: { title: 'HIV test result' },
    });
    expect(up.statusCode, up.body).toBe(201);
    await runNotificationsOnce(t.ctx);
    const [mail] = newMails();
    expect(headerOf(mail, 'Subject')).toBe('MedLedger: a new record is available');
    expect(mail).not.toMatch(/HIV/);
  });

  it('sends nothing while the patient has turned e-mail off', async () => {
    expect((await call('GET', '/api/notifications/preferences', t.patient.cookie)).json()).toEqual({
      emailEnabled: true,
      newSignInEnabled: true,
    });
    const off = await call('PUT', '/api/notifications/preferences', t.patient.cookie, {
      emailEnabled: false,
    });
    expect(off.json()).toEqual({ emailEnabled: false, newSignInEnabled: true });
    expect(
      (await call('PUT', '/api/notifications/preferences', t.patient.cookie, { emailEnabled: 'no' }))
        .statusCode,
    ).toBe(400);
    await uploadRecord(t.app, t.hospital.cookie, t.patientRow.id);
    expect(await runNotificationsOnce(t.ctx)).toMatchObject({ sent: 0, skipped: 1 });
    expect(newMails()).toHaveLength(0);
    await call('PUT', '/api/notifications/preferences', t.patient.cookie, { emailEnabled: true });
  });

  it('sends each due job once when two runs race', async () => {
    for (const hh of ['09', '11', '13']) {
      const res = await call(
        'POST',
        '/api/appointments',
        t.hospital.cookie,
        body(`2031-05-04T${hh}:00:00.000Z`),
      );
      expect(res.statusCode, res.body).toBe(201);
    }
    const runs = await Promise.all([runNotificationsOnce(t.ctx), runNotificationsOnce(t.ctx)]);
    expect(runs[0].sent + runs[1].sent).toBe(3);
    expect(newMails()).toHaveLength(3);
  });
});

describe('trial ending', () => {
  it('tells the hospital two days before its trial ends, not earlier', async () => {
    clock = new Date('2031-05-05T12:00:00.000Z');
    await runNotificationsOnce(t.ctx); // the earlier tests' reminders
    expect(newMails().every((m) => /reminder/.test(headerOf(m, 'Subject') ?? ''))).toBe(true);
    clock = new Date('2031-05-06T07:59:00.000Z');
    expect(await runNotificationsOnce(t.ctx)).toMatchObject({ sent: 0 });
    clock = new Date('2031-05-06T08:00:00.000Z');
    expect(await runNotificationsOnce(t.ctx)).toMatchObject({ sent: 1 });
    const [mail] = newMails();
    expect(headerOf(mail, 'To')).toContain(t.hospital.email);
    expect(headerOf(mail, 'Subject')).toBe('MedLedger: your free trial ends in 2 days');
  });
});

describe('provider applications', () => {
  it('tells the applicant (by address) and every administrator; an application reviewed first is not announced', async () => {
    const own = await createTestApp({ publicUrl: 'http://medledger.test' });
    try {
      const admins = [await signedInAdmin(own), await signedInAdmin(own)];
      const apply = (contactEmail: string, remoteAddress: string) =>
        own.app.inject({
          method: 'POST',
          url: '/api/provider-applications',
          remoteAddress,
          payload: {
            hospitalName: 'Riverside Clinic',
            contactName: 'Rita Rivers',
            contactEmail,
            address: '1 River Road',
          },
        });
      const first = await apply('rita@riverside.test', '10.9.0.1');
      expect(first.statusCode).toBe(201);
      expect(outboxMessages(own.ctx.mail.outboxDir)).toHaveLength(0); // only the worker sends
      expect(await runNotificationsOnce(own.ctx)).toMatchObject({ sent: 3, failed: 0 });
      const mails = outboxMessages(own.ctx.mail.outboxDir);
      const toApplicant = mails.filter((m) => headerOf(m, 'To')?.includes('rita@riverside.test'));
      expect(toApplicant).toHaveLength(1);
      expect(headerOf(toApplicant[0], 'Subject')).toBe('We received your MedLedger application');
      expect(partText(toApplicant[0], 'text/plain')).toContain('Riverside Clinic');
      expect(partText(toApplicant[0], 'text/html')).toContain('Riverside Clinic');
      for (const admin of admins) {
        const mine = mails.filter((m) => headerOf(m, 'To')?.includes(admin.email));
        expect(mine).toHaveLength(1);
        expect(headerOf(mine[0], 'Subject')).toBe('MedLedger: a new provider application to review');
        expect(partText(mine[0], 'text/plain')).toContain('http://medledger.test/medledger/applications');
      }

      // Reviewed before the worker ran: the applicant still hears of receipt, the admins are spared.
      const second = await apply('sam@stone.test', '10.9.0.2');
      const reviewed = await callerOf(own)(
        'PATCH',
        `/api/provider-applications/${second.json().application.id}/review`,
        admins[0].cookie,
        { status: 'rejected', notes: 'Not a provider' },
      );
      expect(reviewed.statusCode).toBe(200);
      const before = outboxMessages(own.ctx.mail.outboxDir).length; // + the rejection, sent directly
      expect(await runNotificationsOnce(own.ctx)).toMatchObject({ sent: 1, skipped: 2 });
      const [receipt] = outboxMessages(own.ctx.mail.outboxDir).slice(before);
      expect(headerOf(receipt, 'To')).toContain('sam@stone.test');
      expect(headerOf(receipt, 'Subject')).toBe('We received your MedLedger application');
    } finally {
      await own.close();
    }
  });
});

describe('retry with back-off', () => {
  it('keeps the job with attempts, last error and a later due time when SMTP refuses', async () => {
    const down = await createTestApp({ smtpUrl: 'smtp://127.0.0.1:9', publicUrl: 'http://medledger.test' });
    try {
      const h = await signedInHospital(down.app);
      const p = await addPatient(down.app, h.cookie);
      await signedInPatient(down.app, p.patientId);
      await uploadRecord(down.app, h.cookie, p.id);
      const now = new Date();
      const result = await runDueJobs(
        down.ctx.db,
        down.ctx.mail,
        createRenderer('http://medledger.test'),
        now,
      );
      expect(result).toMatchObject({ sent: 0, failed: 2 }); // the claim and the record
      const [job] = await down.ctx.db
        .select()
        .from(notificationJobs)
        .where(eq(notificationJobs.kind, 'record_available'));
      expect(job).toMatchObject({ attempts: 1, sentAt: null, skippedAt: null });
      expect(job.lastError).toBeTruthy();
      expect(job.dueAt.getTime()).toBe(now.getTime() + retryDelayMs(1));
      // Not due again before the back-off is over.
      expect(await runDueJobs(down.ctx.db, down.ctx.mail, createRenderer('x'), now)).toMatchObject({
        failed: 0,
      });
    } finally {
      await down.close();
    }
  });
});
