// Maps one patient's rows to a FHIR R4 Bundle (type collection). Pure: the service loads the
// rows and the attachments' SHA-1. Every resource's fullUrl is <PUBLIC_URL>/api/fhir/<Type>/<id> and
// every reference is a relative <Type>/<id> of an entry, so each one resolves inside the bundle.
import crypto from 'node:crypto';
import type {
  Appointment,
  Attachment,
  Bundle,
  BundleEntry,
  Consent,
  ConsentProvision,
  DocumentReference,
  Organization,
  Patient,
  Practitioner,
  PractitionerRole,
  RelatedPerson,
  Resource,
} from '@medplum/fhirtypes';
import { APPOINTMENT_LENGTH_MINUTES } from '../../../shared/constants.js';
import { CONSENT_TYPES } from '../../../shared/consent.js';
import { documentStatusOf } from '../records/load.js';
import type {
  appointments,
  attachments,
  familyContacts,
  medicalRecords,
  patients,
  users,
} from '../../db/schema.js';

type PatientRow = typeof patients.$inferSelect;
type RecordRow = typeof medicalRecords.$inferSelect;
type AttachmentRow = typeof attachments.$inferSelect & { sha1Base64: string | null };
type AppointmentRow = typeof appointments.$inferSelect;
type ContactRow = typeof familyContacts.$inferSelect;
type HospitalRow = Pick<typeof users.$inferSelect, 'id' | 'hospitalName' | 'hospitalAdminEmail' | 'email'>;

/** A member of the hospital a record or appointment is by. */
type PractitionerRow = Pick<
  typeof users.$inferSelect,
  'id' | 'firstName' | 'lastName' | 'email' | 'department' | 'staffRole' | 'hospitalId'
>;

export interface PatientExport {
  patient: PatientRow;
  /** The practitioners the records and appointments name (by practitionerId). */
  practitioners: PractitionerRow[];
  hospital: HospitalRow;
  records: { record: RecordRow; files: AttachmentRow[] }[];
  appointments: AppointmentRow[];
  contacts: ContactRow[];
  /** The patient-wide choices as saved (defaults when never saved). */
  consent: { shareWithSpecialists: boolean; shareWithFamily: boolean; updatedAt: Date | null };
  /** PUBLIC_URL, for absolute attachment URLs and the MRN's identifier system. */
  publicUrl: string;
  now: Date;
}

type RefType = 'Patient' | 'Organization' | 'DocumentReference' | 'Practitioner';
const ref = (type: RefType, id: string, display?: string) => ({
  reference: `${type}/${id}`,
  ...(display ? { display } : {}),
});
export const fhirBase = (publicUrl: string) => `${publicUrl}/api/fhir`;

/** A stable UUID for resources that have no row of their own (the two Consents). */
function derivedUuid(...parts: string[]): string {
  const h = crypto.createHash('sha256').update(parts.join('|')).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

const FHIR_GENDERS = new Set(['male', 'female', 'other', 'unknown']);
function fhirGender(value: string | null): Patient['gender'] {
  if (!value) return undefined;
  const g = value.trim().toLowerCase();
  return (FHIR_GENDERS.has(g) ? g : 'other') as Patient['gender'];
}

/** The app's appointment statuses in FHIR's AppointmentStatus value set. */
export const FHIR_APPOINTMENT_STATUS: Record<AppointmentRow['status'], Appointment['status']> = {
  scheduled: 'booked',
  confirmed: 'booked',
  pending: 'pending',
  checked_in: 'checked-in',
  completed: 'fulfilled',
  no_show: 'noshow',
  cancelled: 'cancelled',
};

/**
 * A record's status in FHIR's DocumentReferenceStatus: amended-away versions are superseded, voided
 * ones entered-in-error (once records can be amended), everything else current.
 */
export const mrnSystem = (publicUrl: string, hospitalId: string) =>
  `${publicUrl}/fhir/hospital/${hospitalId}/mrn`;

function patientResource(e: PatientExport): Patient {
  const p = e.patient;
  const telecom: Patient['telecom'] = [];
  if (p.phone) telecom.push({ system: 'phone', value: p.phone });
  if (p.email) telecom.push({ system: 'email', value: p.email });
  const name =
    p.firstName || p.lastName
      ? [
          {
            use: 'official' as const,
            ...(p.lastName ? { family: p.lastName } : {}),
            ...(p.firstName ? { given: [p.firstName] } : {}),
          },
        ]
      : undefined;
  return {
    resourceType: 'Patient',
    id: p.id,
    identifier: [
      {
        use: 'usual',
        type: {
          coding: [{ system: 'http://terminology.hl7.org/CodeSystem/v2-0203', code: 'MR' }],
          text: 'MRN',
        },
        system: mrnSystem(e.publicUrl, e.hospital.id),
        value: p.patientId,
        assigner: ref('Organization', e.hospital.id, e.hospital.hospitalName ?? undefined),
      },
    ],
    active: p.archivedAt === null,
    ...(name ? { name } : {}),
    ...(telecom.length ? { telecom } : {}),
    ...(fhirGender(p.gender) ? { gender: fhirGender(p.gender) } : {}),
    ...(p.dateOfBirth ? { birthDate: p.dateOfBirth } : {}),
    managingOrganization: ref('Organization', e.hospital.id, e.hospital.hospitalName ?? undefined),
  };
}

function organizationResource(h: HospitalRow): Organization {
  const email = h.hospitalAdminEmail ?? h.email;
  return {
    resourceType: 'Organization',
    id: h.id,
    active: true,
    name: h.hospitalName ?? 'Hospital',
    ...(email ? { telecom: [{ system: 'email', value: email }] } : {}),
  };
}

const practitionerOf = (e: PatientExport, id: string | null) =>
  id ? e.practitioners.find((p) => p.id === id) : undefined;
const practitionerName = (p: PractitionerRow) =>
  [p.firstName, p.lastName].filter((n) => n && n.trim()).join(' ') || p.email;

/**
 * DocumentReference.author: the practitioner it is by and their organization, or the free-text
 * doctor of an older record.
 */
function authorOf(e: PatientExport, record: RecordRow): Pick<DocumentReference, 'author'> {
  const practitioner = practitionerOf(e, record.practitionerId);
  if (practitioner) {
    return {
      author: [
        ref('Practitioner', practitioner.id, practitionerName(practitioner)),
        ref('Organization', e.hospital.id, e.hospital.hospitalName ?? undefined),
      ],
    };
  }
  return record.doctorName ? { author: [{ display: record.doctorName }] } : {};
}

function practitionerResource(p: PractitionerRow): Practitioner {
  return {
    resourceType: 'Practitioner',
    id: p.id,
    active: true,
    name: [
      {
        text: practitionerName(p),
        ...(p.lastName ? { family: p.lastName } : {}),
        ...(p.firstName ? { given: [p.firstName] } : {}),
      },
    ],
  };
}

/** What the practitioner does for the organization: their staff role and department. */
function practitionerRoleResource(e: PatientExport, p: PractitionerRow): PractitionerRole {
  return {
    resourceType: 'PractitionerRole',
    id: derivedUuid('PractitionerRole', p.id, e.hospital.id),
    active: true,
    practitioner: ref('Practitioner', p.id, practitionerName(p)),
    organization: ref('Organization', e.hospital.id, e.hospital.hospitalName ?? undefined),
    ...(p.staffRole ? { code: [{ text: p.staffRole.replace(/_/g, ' ') }] } : {}),
    ...(p.department ? { specialty: [{ text: p.department }] } : {}),
  };
}

function documentReference(e: PatientExport, record: RecordRow, files: AttachmentRow[]): DocumentReference {
  const attachmentsOut: Attachment[] = files.map((f) => ({
    contentType: f.mimeType,
    title: f.fileName,
    size: f.size,
    ...(f.sha1Base64 ? { hash: f.sha1Base64 } : {}),
    url: `${e.publicUrl}/api/download/${f.storageKey}`,
    creation: f.createdAt.toISOString(),
  }));
  return {
    resourceType: 'DocumentReference',
    id: record.id,
    status: documentStatusOf(record),
    // An amendment replaces the version it corrects (which is in the bundle too, as superseded).
    ...(record.supersedesId
      ? { relatesTo: [{ code: 'replaces' as const, target: ref('DocumentReference', record.supersedesId) }] }
      : {}),
    type: { text: record.recordType },
    subject: ref('Patient', e.patient.id),
    date: record.createdAt.toISOString(),
    ...authorOf(e, record),
    custodian: ref('Organization', e.hospital.id, e.hospital.hospitalName ?? undefined),
    description: record.title,
    // The date of service: the clinical period the document covers (a whole day, FHIR date precision).
    ...(record.serviceDate
      ? { context: { period: { start: record.serviceDate, end: record.serviceDate } } }
      : {}),
    content: attachmentsOut.length
      ? attachmentsOut.map((attachment) => ({ attachment }))
      : [{ attachment: { title: record.title } }],
  };
}

function appointmentResource(e: PatientExport, a: AppointmentRow): Appointment {
  const end = new Date(a.appointmentDate.getTime() + APPOINTMENT_LENGTH_MINUTES * 60_000);
  return {
    resourceType: 'Appointment',
    id: a.id,
    status: FHIR_APPOINTMENT_STATUS[a.status],
    serviceType: [{ text: a.department }],
    appointmentType: { text: a.appointmentType },
    start: a.appointmentDate.toISOString(),
    end: end.toISOString(),
    minutesDuration: APPOINTMENT_LENGTH_MINUTES,
    created: a.createdAt.toISOString(),
    ...(a.notes ? { comment: a.notes } : {}),
    participant: [
      { actor: ref('Patient', e.patient.id), status: 'accepted', required: 'required' },
      {
        actor: practitionerOf(e, a.practitionerId)
          ? ref('Practitioner', a.practitionerId!, a.doctorName)
          : { display: a.doctorName },
        status: 'accepted',
        required: 'required',
      },
      ...(a.location ? [{ actor: { display: a.location }, status: 'accepted' as const }] : []),
    ],
  };
}

function relatedPerson(e: PatientExport, c: ContactRow): RelatedPerson {
  const telecom: RelatedPerson['telecom'] = [];
  if (c.phone) telecom.push({ system: 'phone', value: c.phone });
  if (c.email) telecom.push({ system: 'email', value: c.email });
  return {
    resourceType: 'RelatedPerson',
    id: c.id,
    active: true,
    patient: ref('Patient', e.patient.id),
    relationship: [
      { text: c.relationship },
      ...(c.emergencyContact
        ? [
            {
              coding: [
                {
                  system: 'http://terminology.hl7.org/CodeSystem/v2-0131',
                  code: 'C',
                  display: 'Emergency Contact',
                },
              ],
            },
          ]
        : []),
    ],
    name: [{ family: c.lastName, given: [c.firstName] }],
    ...(telecom.length ? { telecom } : {}),
    ...(c.address ? { address: [{ text: c.address }] } : {}),
  };
}

const CONSENT_LABELS = {
  shareWithSpecialists: 'Share with specialists',
  shareWithFamily: 'Family access',
} as const;
const RECORD_FLAG = {
  shareWithSpecialists: 'shareWithSpecialists',
  shareWithFamily: 'shareWithFamily',
} as const;

/** One Consent per patient-wide choice; each record's own switch is a nested provision. */
function consentResource(e: PatientExport, key: keyof typeof CONSENT_TYPES): Consent {
  const granted = e.consent[key];
  const perRecord: ConsentProvision[] = e.records.map(({ record }) => ({
    type: record[RECORD_FLAG[key]] ? 'permit' : 'deny',
    data: [{ meaning: 'instance', reference: ref('DocumentReference', record.id) }],
  }));
  return {
    resourceType: 'Consent',
    id: derivedUuid(e.patient.id, CONSENT_TYPES[key]),
    status: 'active',
    scope: {
      coding: [
        {
          system: 'http://terminology.hl7.org/CodeSystem/consentscope',
          code: 'patient-privacy',
          display: 'Privacy Consent',
        },
      ],
    },
    category: [
      {
        coding: [{ system: 'http://loinc.org', code: '59284-0', display: 'Patient Consent' }],
        text: CONSENT_LABELS[key],
      },
    ],
    patient: ref('Patient', e.patient.id),
    ...(e.consent.updatedAt ? { dateTime: e.consent.updatedAt.toISOString() } : {}),
    organization: [ref('Organization', e.hospital.id)],
    policyRule: {
      coding: [
        { system: 'http://terminology.hl7.org/CodeSystem/v3-ActCode', code: granted ? 'OPTIN' : 'OPTOUT' },
      ],
      text: `${CONSENT_LABELS[key]}: ${granted ? 'on' : 'off'}`,
    },
    provision: { type: granted ? 'permit' : 'deny', ...(perRecord.length ? { provision: perRecord } : {}) },
  };
}

const entry = (base: string, resource: Resource): BundleEntry => ({
  fullUrl: `${base}/${resource.resourceType}/${resource.id}`,
  resource,
});

export function buildPatientBundle(e: PatientExport): Bundle {
  const resources: Resource[] = [
    patientResource(e),
    organizationResource(e.hospital),
    ...e.practitioners.flatMap((p) => [practitionerResource(p), practitionerRoleResource(e, p)]),
    ...e.records.map(({ record, files }) => documentReference(e, record, files)),
    ...e.appointments.map((a) => appointmentResource(e, a)),
    ...(Object.keys(CONSENT_TYPES) as (keyof typeof CONSENT_TYPES)[]).map((k) => consentResource(e, k)),
    ...e.contacts.map((c) => relatedPerson(e, c)),
  ];
  return {
    resourceType: 'Bundle',
    id: crypto.randomUUID(),
    meta: { lastUpdated: e.now.toISOString() },
    type: 'collection',
    timestamp: e.now.toISOString(),
    entry: resources.map((r) => entry(fhirBase(e.publicUrl), r)),
  };
}
