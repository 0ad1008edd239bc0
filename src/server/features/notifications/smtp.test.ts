// End to end over real SMTP: a loopback smtp-server receives the appointment invitation the job
// worker sends, and its attached .ics parses with ical.js.
import ICAL from 'ical.js';
import { describe, expect, it } from 'vitest';
import { headerOf, partText } from '../../mail/read-message.js';
import { addPatient, call, signedInHospital, signedInPatient } from '../../test/helpers.js';
import { useAppWithSmtp } from '../../test/smtp.js';
import { runNotificationsOnce } from './worker.js';

const t = useAppWithSmtp();

describe('appointment invitation over SMTP', () => {
  it('delivers the booked mail to the patient with a REQUEST .ics ical.js reads', async () => {
    const hospital = await signedInHospital(t.app, 'Harbour Hospital');
    const row = await addPatient(t.app, hospital.cookie, { firstName: 'Ada', lastName: 'Lovelace' });
    const patient = await signedInPatient(t.app, row.patientId);
    // The two sign-ups' welcome mails go out at once, as the signup answer says; set them aside.
    const welcomes = t.received.splice(0);
    expect(welcomes.map((m) => [m.to, headerOf(m.raw, 'Subject')])).toEqual([
      [[hospital.email], 'Welcome to MedLedger'],
      [[patient.email], 'Welcome to MedLedger'],
    ]);
    const start = new Date(Date.now() + 3 * 24 * 3600_000);
    start.setUTCHours(10, 0, 0, 0);
    const res = await call(t.app, 'POST', '/api/appointments', hospital.cookie, {
      patientId: row.id,
      appointmentType: 'consultation',
      doctorName: 'Dr. Smith',
      department: 'cardiology',
      appointmentDate: start.toISOString(),
      location: 'Room 4',
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(t.received).toHaveLength(0); // nothing is sent outside the job worker
    // The patient's invitation, and the hospital's "a patient activated their account".
    expect(await runNotificationsOnce(t.ctx)).toMatchObject({ sent: 2, failed: 0 });
    expect(t.received.map((m) => m.to)).toEqual(expect.arrayContaining([[patient.email], [hospital.email]]));
    const mail = t.received.find((m) => m.to[0] === patient.email);
    if (!mail) throw new Error('no mail to the patient');
    expect(headerOf(mail.raw, 'Subject')).toBe('MedLedger: an appointment was booked for you');
    const ics = partText(mail.raw, 'text/calendar');
    expect(ics).toBeDefined();
    const cal = new ICAL.Component(ICAL.parse(ics!) as unknown[]);
    expect(cal.getFirstPropertyValue('method')).toBe('REQUEST');
    const event = new ICAL.Event(cal.getFirstSubcomponent('vevent')!);
    expect(event.uid).toBe(`${res.json<{ id: string }>().id}@medledger`);
    expect(event.startDate.toJSDate().toISOString()).toBe(start.toISOString());
    expect(event.organizer).toMatch(/^mailto:/i);
    expect(event.attendees.map((a) => String(a.getFirstValue()).toLowerCase())).toEqual([
      `mailto:${patient.email}`,
    ]);
  });
});
