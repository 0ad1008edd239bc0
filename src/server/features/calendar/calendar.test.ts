// Calendar files read back with ical.js: one VEVENT per appointment with a stable UID, UTC start,
// one-hour DURATION, LOCATION, STATUS and a SEQUENCE that grows with each change; METHOD:CANCEL
// once cancelled; only the booking hospital and the patient get them.
import ICAL from 'ical.js';
import { calendarFeeds } from '../../db/schema.js';
import { describe, expect, it } from 'vitest';
import { addPatient, callerOf, signedInPatient, useCast } from '../../test/helpers.js';

const t = useCast({
  hospitalName: 'Saint Mary',
  patient: { firstName: 'Ada', lastName: 'Lovelace' },
  others: true,
});

const call = callerOf(t);
const body = (hhmm: string, over: Record<string, unknown> = {}) => ({
  patientId: t.patientRow.id,
  appointmentType: 'consultation',
  doctorName: 'Dr. Smith',
  department: 'cardiology',
  appointmentDate: `2031-05-06T${hhmm}:00.000Z`,
  location: 'Room 4',
  ...over,
});
async function schedule(hhmm: string) {
  const res = await call('POST', '/api/appointments', t.hospital.cookie, body(hhmm));
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ id: string }>().id;
}

/** Parses with ical.js (throws on malformed text) and returns the calendar and its events. */
function parse(text: string) {
  const cal = new ICAL.Component(ICAL.parse(text) as unknown[]);
  const events = cal.getAllSubcomponents('vevent').map((v) => ({ v, e: new ICAL.Event(v) }));
  return { method: cal.getFirstPropertyValue('method'), events };
}

describe('GET /api/appointments/{id}/ics', () => {
  it('gives the hospital and the patient the same event; SEQUENCE grows; METHOD:CANCEL at the end', async () => {
    const id = await schedule('10:00');
    const read = async (cookie: string) => {
      const res = await call('GET', `/api/appointments/${id}/ics`, cookie);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/calendar/);
      return parse(res.body);
    };
    const first = await read(t.patient.cookie);
    expect(first.method).toBe('PUBLISH');
    expect(first.events).toHaveLength(1);
    const { e, v } = first.events[0];
    expect(e.uid).toBe(`${id}@medledger`);
    expect(e.startDate.toJSDate().toISOString()).toBe('2031-05-06T10:00:00.000Z');
    expect(e.startDate.zone.tzid).toBe('UTC');
    expect((v.getFirstPropertyValue('duration') as ICAL.Duration).toSeconds()).toBe(3600);
    expect(e.endDate.toJSDate().toISOString()).toBe('2031-05-06T11:00:00.000Z');
    expect(e.location).toBe('Room 4, Saint Mary');
    expect(v.getFirstPropertyValue('status')).toBe('CONFIRMED');
    expect(e.sequence).toBe(0);
    expect(e.summary).not.toMatch(/cardiology/i);
    expect((await read(t.hospital.cookie)).events[0].e.uid).toBe(e.uid);

    const moved = await call('PUT', `/api/appointments/${id}`, t.hospital.cookie, body('14:00'));
    expect(moved.statusCode, moved.body).toBe(200);
    const after = (await read(t.patient.cookie)).events[0].e;
    expect(after.uid).toBe(e.uid);
    expect(after.sequence).toBe(1);
    expect(after.startDate.toJSDate().toISOString()).toBe('2031-05-06T14:00:00.000Z');

    expect((await call('DELETE', `/api/appointments/${id}`, t.hospital.cookie)).statusCode).toBe(200);
    const cancelled = await read(t.patient.cookie);
    expect(cancelled.method).toBe('CANCEL');
    expect(cancelled.events[0].v.getFirstPropertyValue('status')).toBe('CANCELLED');
    expect(cancelled.events[0].e.sequence).toBe(2);
  });

  it('answers 404 to another hospital, another patient and a malformed id; 401 signed out', async () => {
    const id = await schedule('15:00');
    const stranger = await signedInPatient(t.app, (await addPatient(t.app, t.hospital.cookie)).patientId);
    for (const cookie of [t.otherHospital.cookie, stranger.cookie]) {
      expect((await call('GET', `/api/appointments/${id}/ics`, cookie)).statusCode).toBe(404);
    }
    expect((await call('GET', '/api/appointments/nope/ics', t.hospital.cookie)).statusCode).toBe(404);
    expect((await call('GET', `/api/appointments/${id}/ics`)).statusCode).toBe(401);
  });
});

describe('GET /api/appointments/patient/{userId}/ics', () => {
  it("lists all of the patient's appointments, each with its own UID", async () => {
    const res = await call('GET', `/api/appointments/patient/${t.patient.userId}/ics`, t.patient.cookie);
    expect(res.statusCode, res.body).toBe(200);
    const { method, events } = parse(res.body);
    expect(method).toBe('PUBLISH');
    expect(events.length).toBeGreaterThanOrEqual(2);
    expect(new Set(events.map((x) => x.e.uid)).size).toBe(events.length);
  });

  it('refuses another id (404) and a hospital (403)', async () => {
    expect(
      (await call('GET', `/api/appointments/patient/${t.hospital.userId}/ics`, t.patient.cookie)).statusCode,
    ).toBe(404);
    expect(
      (await call('GET', `/api/appointments/patient/${t.patient.userId}/ics`, t.hospital.cookie)).statusCode,
    ).toBe(403);
  });
});

describe('private subscription feed', () => {
  it('is off until created; the URL works without a session; renewing and revoking end old URLs', async () => {
    expect((await call('GET', '/api/calendar/feed', t.patient.cookie)).json()).toEqual({
      active: false,
      createdAt: null,
    });
    const created = await call('POST', '/api/calendar/feed', t.patient.cookie);
    expect(created.statusCode, created.body).toBe(200);
    const { url } = created.json<{ url: string }>();
    expect(url).toMatch(/\/api\/calendar\/[A-Za-z0-9_-]{43}\.ics$/);
    const path = new URL(url).pathname;
    const feed = await call('GET', path);
    expect(feed.statusCode, feed.body).toBe(200);
    expect(feed.headers['content-type']).toMatch(/^text\/calendar/);
    expect(parse(feed.body).events.length).toBeGreaterThanOrEqual(2);
    expect((await call('GET', '/api/calendar/feed', t.patient.cookie)).json()).toMatchObject({
      active: true,
    });
    // The token itself is never stored.
    const stored = await t.ctx.db.select().from(calendarFeeds);
    expect(JSON.stringify(stored)).not.toContain(path.slice('/api/calendar/'.length, -4));

    const renewed = (await call('POST', '/api/calendar/feed', t.patient.cookie)).json<{ url: string }>().url;
    expect(renewed).not.toBe(url);
    expect((await call('GET', path)).statusCode).toBe(404);
    expect((await call('GET', new URL(renewed).pathname)).statusCode).toBe(200);

    expect((await call('DELETE', '/api/calendar/feed', t.patient.cookie)).statusCode).toBe(200);
    expect((await call('GET', new URL(renewed).pathname)).statusCode).toBe(404);
  });

  it('answers 404 to made-up and malformed tokens, and is for patients only', async () => {
    expect((await call('GET', `/api/calendar/${'A'.repeat(43)}.ics`)).statusCode).toBe(404);
    expect((await call('GET', '/api/calendar/short.ics')).statusCode).toBe(404);
    expect((await call('GET', `/api/calendar/${'A'.repeat(43)}`)).statusCode).toBe(404);
    expect((await call('POST', '/api/calendar/feed', t.hospital.cookie)).statusCode).toBe(403);
  });
});
