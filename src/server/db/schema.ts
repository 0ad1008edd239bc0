// The database schema of docs/spec.md#entities plus what docs/decisions.md adds (attachments,
// ledger, tokens). Every timestamp is timestamptz (UTC). Change it only together with a generated
// migration (`npm run db:generate`), which must run unchanged on PGlite and on PostgreSQL 15.
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  type AnyPgColumn,
  check,
  customType,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
const createdAt = () => ts('created_at').notNull().defaultNow();
const updatedAt = () => ts('updated_at').notNull().defaultNow();

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Stored lower-cased and trimmed, so uniqueness is case-insensitive. */
    email: text('email').notNull().unique(),
    password: text('password').notNull(),
    role: text('role', { enum: ['patient', 'hospital', 'medledger_admin', 'family'] })
      .notNull()
      .default('patient'),
    firstName: text('first_name'),
    lastName: text('last_name'),
    hospitalName: text('hospital_name'),
    /** Hospital settings: the administrator e-mail shown and saved in the Settings tab. */
    hospitalAdminEmail: text('hospital_admin_email'),
    /** Two-factor sign-in (TOTP) is on; its secret and recovery codes are in `user_two_factor`. */
    twoFactorEnabled: boolean('two_factor_enabled').notNull().default(false),
    blockchainVerificationEnabled: boolean('blockchain_verification_enabled').notNull().default(true),
    /** A hospital's IANA time zone: its calendar, time slots and texts are in it (docs/decisions.md#time). */
    timeZone: text('time_zone').notNull().default('UTC'),
    lastLoginAt: ts('last_login_at'),
    /** Set while an administrator has suspended the account: no sign-in, no session works. */
    suspendedAt: ts('suspended_at'),
    /**
     * Hospitals: when the provider became "verified" (registered through an approved application,
     * or verified by an administrator); null for a self-signed-up hospital not verified yet.
     */
    verifiedAt: ts('verified_at'),
    /**
     * A hospital member's organization (docs/decisions.md#staff-accounts): the id of the account
     * that registered the hospital, which is its own organization's id and keeps the hospital's
     * name, settings, trial and subscription. Null for other roles.
     */
    hospitalId: uuid('hospital_id').references((): AnyPgColumn => users.id),
    /** A hospital member's role inside the organization (shared/constants.ts STAFF_ROLES). */
    staffRole: text('staff_role', { enum: ['hospital_admin', 'clinician', 'front_desk'] }),
    /** A practitioner's department, shown beside their name where they are picked. */
    department: text('department'),
    /** An organization's setting: every member must sign in with two-factor to reach its data. */
    staffTwoFactorRequired: boolean('staff_two_factor_required').notNull().default(false),
    /** Set while the organization has deactivated the member: no sign-in, no session works. */
    deactivatedAt: ts('deactivated_at'),
    createdAt: createdAt(),
  },
  (t) => [
    check('users_role_check', sql`${t.role} in ('patient', 'hospital', 'medledger_admin', 'family')`),
    check(
      'users_staff_check',
      sql`(${t.role} = 'hospital') = (${t.hospitalId} is not null and ${t.staffRole} in ('hospital_admin', 'clinician', 'front_desk'))`,
    ),
    index('users_hospital_idx').on(t.hospitalId),
  ],
);

/**
 * An invitation to join a hospital's staff: its one-time link's token is `<selector>.<verifier>`
 * (mail/link-tokens.ts), of which only the verifier's SHA-256 is kept; valid 72 hours.
 */
export const staffInvitations = pgTable(
  'staff_invitations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    hospitalId: uuid('hospital_id')
      .notNull()
      .references(() => users.id),
    /** The address it was sent to (lower-cased): the new account must be this one. */
    email: text('email').notNull(),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    staffRole: text('staff_role', { enum: ['hospital_admin', 'clinician', 'front_desk'] }).notNull(),
    department: text('department'),
    invitedBy: uuid('invited_by')
      .notNull()
      .references(() => users.id),
    tokenSelector: text('token_selector').notNull().unique(),
    tokenVerifierHash: text('token_verifier_hash').notNull(),
    expiresAt: ts('expires_at').notNull(),
    acceptedAt: ts('accepted_at'),
    /** The account the invitation became. */
    userId: uuid('user_id').references(() => users.id),
    cancelledAt: ts('cancelled_at'),
    createdAt: createdAt(),
  },
  (t) => [index('staff_invitations_hospital_idx').on(t.hospitalId, t.createdAt)],
);

export const patients = pgTable(
  'patients',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** The patient's own account, once they have signed up with their MRN. */
    userId: uuid('user_id')
      .unique()
      .references(() => users.id),
    /** The MRN / display id. */
    patientId: text('patient_id').notNull().unique(),
    createdByHospitalId: uuid('created_by_hospital_id')
      .notNull()
      .references(() => users.id),
    firstName: text('first_name'),
    lastName: text('last_name'),
    email: text('email'),
    dateOfBirth: date('date_of_birth', { mode: 'string' }),
    gender: text('gender'),
    phone: text('phone'),
    insuranceProvider: text('insurance_provider'),
    insurancePolicy: text('insurance_policy'),
    primaryCarePhysician: text('primary_care_physician'),
    address: text('address'),
    /** A BCP 47 language tag ("es", "pt-BR"); shown by its name. */
    preferredLanguage: text('preferred_language'),
    emergencyContactName: text('emergency_contact_name'),
    emergencyContactPhone: text('emergency_contact_phone'),
    /** Deleting a patient archives it: hidden from the hospital's lists, records kept. */
    archivedAt: ts('archived_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('patients_hospital_idx').on(t.createdByHospitalId, t.createdAt)],
);

export const medicalRecords = pgTable(
  'medical_records',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    patientId: uuid('patient_id')
      .notNull()
      .references(() => patients.id),
    hospitalId: uuid('hospital_id')
      .notNull()
      .references(() => users.id),
    title: text('title').notNull(),
    description: text('description'),
    recordType: text('record_type').notNull(),
    /** Name of the first attachment (spec field); all attachments live in `attachments`. */
    fileName: text('file_name'),
    /** `/api/download/<storageKey>` of the first attachment. */
    fileUrl: text('file_url'),
    doctorName: text('doctor_name'),
    /** The practitioner (a member of the hospital) it is by; null on free-text records. */
    practitionerId: uuid('practitioner_id').references(() => users.id),
    department: text('department'),
    /** The date of service (when the visit, test or scan took place), apart from the upload time. */
    serviceDate: date('service_date', { mode: 'string' }),
    /** draft: kept for the hospital only, not ledgered; final: uploaded and ledgered. */
    status: text('status', { enum: ['draft', 'final'] })
      .notNull()
      .default('final'),
    consentProvided: boolean('consent_provided').notNull().default(true),
    shareWithSpecialists: boolean('share_with_specialists').notNull().default(true),
    shareWithFamily: boolean('share_with_family').notNull().default(false),
    isBlockchainVerified: boolean('is_blockchain_verified').notNull().default(false),
    blockchainHash: text('blockchain_hash'),
    viewedByPatient: boolean('viewed_by_patient').notNull().default(false),
    /**
     * Amendments (docs/decisions.md#records): a correction is a new record that supersedes the
     * old one; its ledger entry names the superseded record and that record's entry hash.
     */
    supersedesId: uuid('supersedes_id').references((): AnyPgColumn => medicalRecords.id),
    supersedesHash: text('supersedes_hash'),
    /** Set on the old version when an amendment replaces it (FHIR status `superseded`). */
    supersededById: uuid('superseded_by_id').references((): AnyPgColumn => medicalRecords.id),
    /** Retracted (FHIR status `entered-in-error`): kept, ledgered, hidden from default lists. */
    enteredInErrorAt: ts('entered_in_error_at'),
    enteredInErrorBy: uuid('entered_in_error_by').references(() => users.id),
    enteredInErrorReason: text('entered_in_error_reason'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // The record lists (docs/decisions.md#filters-and-paging), newest first with the id as tiebreaker:
    // a hospital's list of its patient (patient, hospital) and the patient's own (patient, status).
    index('medical_records_patient_idx').on(t.patientId, t.hospitalId, t.createdAt, t.id),
    index('medical_records_patient_status_idx').on(t.patientId, t.status, t.createdAt, t.id),
    // The same two lists in their default view, current versions only: partial, so that a page and
    // its count(*) over () read only index entries of current records (an index-only scan once the
    // table is vacuumed) instead of every version's row.
    index('medical_records_patient_current_idx')
      .on(t.patientId, t.hospitalId, t.createdAt, t.id)
      .where(sql`${t.supersededById} is null and ${t.enteredInErrorAt} is null`),
    index('medical_records_patient_final_current_idx')
      .on(t.patientId, t.createdAt, t.id)
      .where(sql`${t.status} = 'final' and ${t.supersededById} is null and ${t.enteredInErrorAt} is null`),
    // One amendment per version: a second one racing the first fails on this index.
    uniqueIndex('medical_records_supersedes_idx').on(t.supersedesId),
    index('medical_records_hospital_idx').on(t.hospitalId, t.createdAt),
  ],
);

export const attachments = pgTable(
  'attachments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    recordId: uuid('record_id')
      .notNull()
      .references(() => medicalRecords.id),
    /** Opaque random id: the file's name on disk and the last segment of its download URL. */
    storageKey: text('storage_key').notNull().unique(),
    fileName: text('file_name').notNull(),
    mimeType: text('mime_type').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    /** SHA-256 of the plaintext bytes, lowercase hex. */
    sha256: text('sha256').notNull(),
    /**
     * How the file is stored (files/store.ts): 'stream1', 64 KiB chunks each authenticated on its
     * own (every file written now), or 'gcm', one AES-256-GCM stream (files written before;
     * `npm run ledger -- migrate-files` rewrites them). No default, so every insert says which;
     * the migration that added the column made the rows before it 'gcm'.
     */
    format: text('format', { enum: ['gcm', 'stream1'] }).notNull(),
    /** 'gcm' only: the AES-256-GCM nonce and tag, hex ('' for 'stream1'). */
    iv: text('iv').notNull(),
    authTag: text('auth_tag').notNull(),
    /**
     * The id of the key the file is sealed with (files/keys.ts; its header names it too), so that
     * migrate-files and the start count what a rotation has left; null for files sealed before
     * key ids (resealed by migrate-files).
     */
    keyId: text('key_id'),
    position: integer('position').notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [
    index('attachments_record_idx').on(t.recordId, t.position),
    // The public "was this file entered?" lookup goes by content hash.
    index('attachments_sha256_idx').on(t.sha256),
  ],
);

export const appointments = pgTable(
  'appointments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    patientId: uuid('patient_id')
      .notNull()
      .references(() => patients.id),
    hospitalId: uuid('hospital_id')
      .notNull()
      .references(() => users.id),
    /** The name shown; for a booking with a practitioner, their name when it was booked. */
    doctorName: text('doctor_name').notNull(),
    /** The practitioner (a member of the hospital) it is with; null on free-text bookings. */
    practitionerId: uuid('practitioner_id').references(() => users.id),
    department: text('department').notNull(),
    appointmentType: text('appointment_type').notNull(),
    appointmentDate: ts('appointment_date').notNull(),
    location: text('location'),
    status: text('status', {
      enum: ['scheduled', 'confirmed', 'checked_in', 'completed', 'no_show', 'pending', 'cancelled'],
    })
      .notNull()
      .default('scheduled'),
    notes: text('notes'),
    blockchainHash: text('blockchain_hash'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // The appointment lists, by start time with the id as tiebreaker.
    index('appointments_hospital_idx').on(t.hospitalId, t.appointmentDate, t.id),
    index('appointments_patient_idx').on(t.patientId, t.appointmentDate, t.id),
    index('appointments_practitioner_idx').on(t.practitionerId, t.appointmentDate),
  ],
);

export const consentSettings = pgTable(
  'consent_settings',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    patientId: uuid('patient_id')
      .notNull()
      .references(() => patients.id),
    recordId: uuid('record_id').references(() => medicalRecords.id),
    /** share_with_specialists | share_with_family */
    consentType: text('consent_type').notNull(),
    isGranted: boolean('is_granted').notNull().default(false),
    blockchainHash: text('blockchain_hash'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [unique('consent_settings_unique').on(t.patientId, t.recordId, t.consentType).nullsNotDistinct()],
);

/**
 * A routine read: a list of a patient's records opened (one entry per list, not about one record),
 * which a trail may hide (routine=hide) and counts apart. Declared once for the trail's query
 * (features/audit/list.ts) and its partial index below, whose predicate has to be the query's for
 * PostgreSQL to use it. coalesce: never null, so `not` of it keeps every other entry. The audit
 * counts' triggers test the same in SQL (audit_routine_read, migration 0026); the audit-counts
 * tests hold the two to the same answers.
 */
export const isRoutineRead = (action: AnyPgColumn, entityType: AnyPgColumn) =>
  sql`(${action} = 'record_access' and coalesce(${entityType}, '') = 'patient')`;

export const auditLogs = pgTable(
  'audit_logs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Who acted (null for anonymous actions). */
    userId: uuid('user_id').references(() => users.id),
    action: text('action').notNull(),
    entityId: text('entity_id'),
    entityType: text('entity_type'),
    /** What the entry says, as text: written before typed events (new rows leave it null). */
    details: text('details'),
    /** The event's typed data (src/shared/audit-events.ts), rendered into the text every reader shows. */
    data: jsonb('data'),
    ipAddress: text('ip_address'),
    blockchainHash: text('blockchain_hash'),
    /** Scope columns: which hospital's and which patient's trail the entry belongs to. */
    hospitalId: uuid('hospital_id'),
    patientId: uuid('patient_id'),
    createdAt: createdAt(),
  },
  (t) => [
    index('audit_logs_hospital_idx').on(t.hospitalId, t.createdAt),
    index('audit_logs_patient_idx').on(t.patientId, t.createdAt),
    index('audit_logs_user_idx').on(t.userId, t.createdAt),
    // A hospital's routine reads, counted for the trail's routine=hide from this index alone (an
    // index-only scan once the table is vacuumed) instead of from every entry's row.
    index('audit_logs_routine_read_idx').on(t.hospitalId).where(isRoutineRead(t.action, t.entityType)),
  ],
);

export const familyContacts = pgTable(
  'family_contacts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    patientId: uuid('patient_id')
      .notNull()
      .references(() => patients.id),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    relationship: text('relationship').notNull(),
    phone: text('phone'),
    email: text('email'),
    address: text('address'),
    isPrimary: boolean('is_primary').notNull().default(false),
    canAccessRecords: boolean('can_access_records').notNull().default(false),
    emergencyContact: boolean('emergency_contact').notNull().default(false),
    /** With access: every current and future record, not only those whose own Family switch is on. */
    shareAllRecords: boolean('share_all_records').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('family_contacts_patient_idx').on(t.patientId),
    // One primary contact per patient, whatever the timing of the requests.
    uniqueIndex('family_contacts_one_primary_idx')
      .on(t.patientId)
      .where(sql`${t.isPrimary}`),
  ],
);

/**
 * Family proxy access (docs/decisions.md#family-proxy-access): an invitation mailed to a family
 * contact (one-time, hashed like the registration links), and the grant it becomes once accepted.
 * Both go with their contact. Whether a grant still counts is decided in access.ts on every request.
 */
export const familyInvitations = pgTable(
  'family_invitations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    contactId: uuid('contact_id')
      .notNull()
      .references(() => familyContacts.id, { onDelete: 'cascade' }),
    patientId: uuid('patient_id')
      .notNull()
      .references(() => patients.id),
    /** The address it was sent to: the account must be this one. */
    email: text('email').notNull(),
    tokenSelector: text('token_selector').notNull().unique(),
    tokenVerifierHash: text('token_verifier_hash').notNull(),
    expiresAt: ts('expires_at').notNull(),
    usedAt: ts('used_at'),
    createdAt: createdAt(),
  },
  (t) => [index('family_invitations_contact_idx').on(t.contactId)],
);

export const familyGrants = pgTable(
  'family_grants',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    familyUserId: uuid('family_user_id')
      .notNull()
      .references(() => users.id),
    patientId: uuid('patient_id')
      .notNull()
      .references(() => patients.id),
    contactId: uuid('contact_id')
      .notNull()
      .references(() => familyContacts.id, { onDelete: 'cascade' }),
    /**
     * Set while the patient who gave the grant is suspended (docs/decisions.md#account-control):
     * the grant does not count; a reactivation clears it (restored) or deletes the grant.
     */
    suspendedAt: ts('suspended_at'),
    createdAt: createdAt(),
  },
  (t) => [
    unique('family_grants_user_contact').on(t.familyUserId, t.contactId),
    index('family_grants_patient_idx').on(t.patientId),
  ],
);

export const providerApplications = pgTable(
  'provider_applications',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** The hospital account created from this application. */
    userId: uuid('user_id').references(() => users.id),
    hospitalName: text('hospital_name').notNull(),
    website: text('website'),
    contactName: text('contact_name').notNull(),
    contactEmail: text('contact_email').notNull(),
    contactPhone: text('contact_phone'),
    npiNumber: text('npi_number'),
    licenseNumber: text('license_number'),
    address: text('address'),
    status: text('status', { enum: ['pending', 'approved', 'rejected'] })
      .notNull()
      .default('pending'),
    notes: text('notes'),
    reviewedBy: uuid('reviewed_by').references(() => users.id),
    reviewedAt: ts('reviewed_at'),
    /** Registration token: public selector, SHA-256 of the secret verifier, expiry, used flag. */
    tokenSelector: text('token_selector').unique(),
    tokenVerifierHash: text('token_verifier_hash'),
    tokenExpiresAt: ts('token_expires_at'),
    tokenUsed: boolean('token_used').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    index('provider_applications_status_idx').on(t.status, t.createdAt),
    // The administrator's list: newest first, the id as tiebreaker.
    index('provider_applications_created_idx').on(t.createdAt, t.id),
    // One application waiting for review per contact e-mail (stored lower-cased).
    uniqueIndex('provider_applications_one_pending_idx')
      .on(t.contactEmail)
      .where(sql`${t.status} = 'pending'`),
  ],
);

export const passwordResetTokens = pgTable('password_reset_tokens', {
  id: uuid('id').primaryKey().defaultRandom(),
  userId: uuid('user_id')
    .notNull()
    .references(() => users.id),
  selector: text('selector').notNull().unique(),
  verifierHash: text('verifier_hash').notNull(),
  expiresAt: ts('expires_at').notNull(),
  used: boolean('used').notNull().default(false),
  createdAt: createdAt(),
});

export const subscriptions = pgTable('subscriptions', {
  id: uuid('id').primaryKey().defaultRandom(),
  userId: uuid('user_id')
    .notNull()
    .unique()
    .references(() => users.id),
  stripeCustomerId: text('stripe_customer_id'),
  stripeSubscriptionId: text('stripe_subscription_id'),
  /** inactive | trialing | active | past_due | canceled */
  status: text('status').notNull().default('inactive'),
  trialEndsAt: ts('trial_ends_at'),
  currentPeriodEnd: ts('current_period_end'),
  productId: text('product_id'),
  priceId: text('price_id'),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/**
 * A patient's private calendar subscription (GET /api/calendar/{token}.ics, polled without a
 * session). Only the SHA-256 of the token is kept; renewing replaces it, revoking deletes the row.
 */
export const calendarFeeds = pgTable('calendar_feeds', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id),
  tokenHash: text('token_hash').notNull().unique(),
  createdAt: createdAt(),
});

/** E-mail preferences (issue 13); no row means the defaults: every notification on. */
export const notificationPreferences = pgTable('notification_preferences', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id),
  emailEnabled: boolean('email_enabled').notNull().default(true),
  /** "New sign-in to your account" mails (issue 13), on unless turned off. */
  newSignInEnabled: boolean('new_sign_in_enabled').notNull().default(true),
  updatedAt: updatedAt(),
});

/**
 * Outgoing notification mails, sent by the worker (features/notifications/jobs.ts): due time,
 * attempts and last error; workers claim rows with FOR UPDATE SKIP LOCKED. The mail is rendered
 * when sent, from the rows the payload names, so no health detail is stored here.
 */
export const notificationJobs = pgTable(
  'notification_jobs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    kind: text('kind').notNull(),
    /** The recipient's account; null for a mail to someone without one (see recipientEmail). */
    userId: uuid('user_id').references(() => users.id),
    /** A plain address for recipients without an account (a provider applicant). */
    recipientEmail: text('recipient_email'),
    payload: jsonb('payload').notNull(),
    dueAt: ts('due_at').notNull(),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    sentAt: ts('sent_at'),
    /** Set when the job will not be sent (preference off, appointment moved, attempts used up). */
    skippedAt: ts('skipped_at'),
    createdAt: createdAt(),
  },
  (t) => [
    check('notification_jobs_one_recipient', sql`(${t.userId} is null) <> (${t.recipientEmail} is null)`),
    index('notification_jobs_due_idx')
      .on(t.dueAt)
      .where(sql`${t.sentAt} is null and ${t.skippedAt} is null`),
  ],
);

export const sessions = pgTable(
  'sessions',
  {
    /** SHA-256 of the cookie's session id, so a database leak does not leak live sessions. */
    sid: text('sid').primaryKey(),
    sess: jsonb('sess').notNull(),
    expire: ts('expire').notNull(),
    /** Copied out of `sess` so that a user's sessions can be found and ended together. */
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    /** The id the sessions list shows and DELETE takes: random, unrelated to the cookie. */
    publicId: uuid('public_id').notNull().unique().defaultRandom(),
    /** The browser's User-Agent header as sent at sign-in (cut to 500 characters). */
    userAgent: text('user_agent'),
    ip: text('ip'),
    createdAt: createdAt(),
    /** Updated at most once a minute per session (plugins/session.ts). */
    lastSeenAt: ts('last_seen_at').notNull().defaultNow(),
  },
  (t) => [index('sessions_expire_idx').on(t.expire), index('sessions_user_idx').on(t.userId)],
);

/**
 * Devices a user has signed in from: the SHA-256 of a long-lived device cookie, and the user agent
 * and address seen. A sign-in from none of them mails "New sign-in" (issue 13).
 */
export const userDevices = pgTable(
  'user_devices',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    tokenHash: text('token_hash').notNull(),
    userAgent: text('user_agent'),
    ip: text('ip'),
    firstSeenAt: ts('first_seen_at').notNull().defaultNow(),
    lastSeenAt: ts('last_seen_at').notNull().defaultNow(),
  },
  (t) => [index('user_devices_user_idx').on(t.userId), index('user_devices_token_idx').on(t.tokenHash)],
);

/**
 * TOTP (RFC 6238) of a user: the secret encrypted (AES-256-GCM, a key derived from the file key),
 * the secret being set up until it is confirmed, and the last time step used (no replay).
 */
export const userTwoFactor = pgTable('user_two_factor', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id),
  secret: text('secret'),
  pendingSecret: text('pending_secret'),
  pendingCreatedAt: ts('pending_created_at'),
  lastUsedStep: bigint('last_used_step', { mode: 'number' }),
  enabledAt: ts('enabled_at'),
});

/** Single-use recovery codes (HMAC-SHA256 of each under a server key), made when two-factor sign-in is turned on. */
export const recoveryCodes = pgTable(
  'recovery_codes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    codeHash: text('code_hash').notNull(),
    usedAt: ts('used_at'),
    createdAt: createdAt(),
  },
  (t) => [index('recovery_codes_user_idx').on(t.userId)],
);

/**
 * A sign-in whose password was right, waiting for a second proof, keyed by the SHA-256 of its
 * token: a two-factor code from the browser holding the short-lived cookie (`code`), or the
 * e-mailed one-time link sent when the account was under attack (`mail`,
 * docs/decisions.md#sign-in-security).
 */
export const pendingLogins = pgTable('pending_logins', {
  tokenHash: text('token_hash').primaryKey(),
  userId: uuid('user_id')
    .notNull()
    .references(() => users.id),
  proof: text('proof', { enum: ['code', 'mail'] })
    .notNull()
    .default('code'),
  remember: boolean('remember').notNull().default(false),
  failures: integer('failures').notNull().default(0),
  expire: ts('expire').notNull(),
  createdAt: createdAt(),
});

/** Failed sign-in counters, kept in the database so that every server process shares them. */
export const loginFailures = pgTable('login_failures', {
  key: text('key').primaryKey(),
  failures: integer('failures').notNull().default(0),
  windowStart: ts('window_start').notNull().defaultNow(),
});

/**
 * A patient's one live activation code (docs/decisions.md#identity): only its HMAC-SHA256 under a
 * server key is kept. Issuing a new one replaces the row (the old code is void); claiming the
 * account deletes it (the code dies when used).
 */
export const activationCodes = pgTable('activation_codes', {
  patientId: uuid('patient_id')
    .primaryKey()
    .references(() => patients.id),
  codeHash: text('code_hash').notNull(),
  expiresAt: ts('expires_at').notNull(),
  createdAt: createdAt(),
});

/**
 * How many active (not archived) patients each hospital has: the total of its unfiltered patient
 * list, read in one row instead of counted over every patient (features/patients/service.ts).
 * Kept by a trigger on patients (migration 0021), in the transaction of every change.
 */
export const hospitalPatientCounts = pgTable('hospital_patient_counts', {
  hospitalId: uuid('hospital_id').primaryKey(),
  active: integer('active').notNull().default(0),
});

/**
 * How many entries each hospital's audit trail holds, and how many of them are routine reads: the
 * totals of the Audit page's opening view, read from a few rows instead of counted over the whole
 * trail on every page (features/audit/list.ts), which grows with every audited read. Kept by a
 * trigger on audit_logs (migration 0026) in the transaction of every change. Each database
 * connection adds to its own row (`slot`: its backend pid), so that writers never wait on one
 * another for a counter; slot 0 holds what foldAuditCounts gathered of the others.
 */
export const hospitalAuditCounts = pgTable(
  'hospital_audit_counts',
  {
    hospitalId: uuid('hospital_id').notNull(),
    slot: integer('slot').notNull(),
    entries: bigint('entries', { mode: 'number' }).notNull().default(0),
    routineReads: bigint('routine_reads', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.hospitalId, t.slot] })],
);

/**
 * Request counters of the rate limiter on public writes (plugins/rate-limit-store.ts), in the
 * database so that every server process shares them: one row per key and fixed window.
 */
export const rateLimitCounters = pgTable(
  'rate_limit_counters',
  {
    key: text('key').primaryKey(),
    hits: integer('hits').notNull().default(0),
    windowStart: ts('window_start').notNull().defaultNow(),
  },
  (t) => [index('rate_limit_counters_window_idx').on(t.windowStart)],
);

/**
 * The append-only ledger. `seq` is the leaf index (0-based, gap-free). `canonical` is the exact
 * byte string hashed (canonical JSON), so anyone can recompute `hash`.
 */
export const ledgerEntries = pgTable(
  'ledger_entries',
  {
    seq: bigint('seq', { mode: 'number' }).primaryKey(),
    kind: text('kind').notNull(),
    recordId: uuid('record_id'),
    patientId: uuid('patient_id'),
    userId: uuid('user_id'),
    canonical: text('canonical').notNull(),
    hash: text('hash').notNull().unique(),
    chainHash: text('chain_hash').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('ledger_entries_record_idx').on(t.recordId)],
);

/**
 * The opening of a v2 ledger entry (src/shared/ledger/entry.ts): its random salt (hex) and its
 * content (canonical JSON), kept apart from the append-only ledger and without its triggers, so
 * that erasure (`npm run ledger -- erase`) can delete the row and leave the entry unlinkable to
 * its content while the chain and the tree stay whole. v1 entries have no row here.
 */
export const ledgerContents = pgTable('ledger_contents', {
  // No foreign key: it would make TRUNCATE of ledger_entries fail before its append-only trigger.
  seq: bigint('seq', { mode: 'number' }).primaryKey(),
  salt: text('salt').notNull(),
  content: text('content').notNull(),
  createdAt: createdAt(),
});

/** Hashes of complete Merkle subtrees: level L, index i covers leaves [i*2^L, (i+1)*2^L). */
export const ledgerNodes = pgTable(
  'ledger_nodes',
  {
    level: integer('level').notNull(),
    idx: bigint('idx', { mode: 'number' }).notNull(),
    hash: text('hash').notNull(),
  },
  (t) => [primaryKey({ columns: [t.level, t.idx] })],
);

/**
 * Uploads in flight: a row is written before the first byte of the file and deleted in the
 * transaction that commits the file's attachment row, so the start-up sweep of any process can
 * tell another process's upload from a leftover (docs/architecture.md, "The life of an upload").
 */
export const pendingUploads = pgTable('pending_uploads', {
  storageKey: text('storage_key').primaryKey(),
  createdAt: createdAt(),
});

/** bytea as a Buffer (node-postgres gives a Buffer, PGlite a Uint8Array). */
const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) =>
    Buffer.isBuffer(value) ? value : Buffer.from(value.buffer, value.byteOffset, value.byteLength),
});

/**
 * Attachments kept in the database (files/database-store.ts, with DATABASE_URL): the same sealed
 * bytes a file in DATA_DIR/attachments holds, as rows: idx -1 is the header, idx 0.. the sealed
 * 64 KiB chunks of files/chunked.ts. Stored out of line without compression (hand-written SQL in
 * the migration): the bytes are ciphertext.
 */
export const attachmentChunks = pgTable(
  'attachment_chunks',
  {
    storageKey: text('storage_key').notNull(),
    idx: integer('idx').notNull(),
    bytes: bytea('bytes').notNull(),
  },
  (t) => [primaryKey({ columns: [t.storageKey, t.idx] })],
);

/**
 * Every checkpoint the ledger signed (c2sp.org/tlog-checkpoint): one per tree size, append-only.
 * `note` is the signed note exactly as served; `rootHash` is hex.
 */
export const ledgerCheckpoints = pgTable('ledger_checkpoints', {
  treeSize: bigint('tree_size', { mode: 'number' }).primaryKey(),
  rootHash: text('root_hash').notNull(),
  note: text('note').notNull(),
  createdAt: createdAt(),
});

/**
 * Specialist share links (docs/decisions.md#specialist-share-links): one record, one recipient,
 * until `expiresAt` or revocation. Only SHA-256 of the link's token is stored; the link works only
 * while src/server/access.ts says so (consent, the record's switch, the record's status).
 */
export const shareLinks = pgTable(
  'share_links',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    recordId: uuid('record_id')
      .notNull()
      .references(() => medicalRecords.id),
    patientId: uuid('patient_id')
      .notNull()
      .references(() => patients.id),
    createdBy: uuid('created_by')
      .notNull()
      .references(() => users.id),
    recipientEmail: text('recipient_email').notNull(),
    note: text('note'),
    /** SHA-256 (hex) of the 32 random bytes of the link. */
    tokenHash: text('token_hash').notNull().unique(),
    expiresAt: ts('expires_at').notNull(),
    revokedAt: ts('revoked_at'),
    /**
     * Set while the account that made the link is suspended (docs/decisions.md#account-control):
     * the link does not open; a reactivation clears it (restored) or revokes the link.
     */
    suspendedAt: ts('suspended_at'),
    timesOpened: integer('times_opened').notNull().default(0),
    lastOpenedAt: ts('last_opened_at'),
    createdAt: createdAt(),
  },
  (t) => [
    index('share_links_record_idx').on(t.recordId, t.createdAt),
    index('share_links_patient_idx').on(t.patientId),
  ],
);
