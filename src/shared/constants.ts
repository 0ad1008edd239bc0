// Business constants of docs/spec.md#constants (and docs/decisions.md), shared by server and client.
export const BRAND = 'MedLedger';
export const USER_STORAGE_KEY = 'medledger.user';

export const ROLES = ['patient', 'hospital', 'medledger_admin', 'family'] as const;
export type Role = (typeof ROLES)[number];

/**
 * What a hospital's member may do inside their organization (docs/decisions.md#staff-accounts):
 * the session's role stays "hospital" for all of them; the staff role narrows it.
 */
export const STAFF_ROLES = ['hospital_admin', 'clinician', 'front_desk'] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];
export const STAFF_ROLE_LABELS: Record<StaffRole, string> = {
  hospital_admin: 'Hospital admin',
  clinician: 'Clinician',
  front_desk: 'Front desk',
};

/** The sign-in pages; each admits one role. */
export const LOGIN_PORTALS = ['hospital', 'patient', 'admin', 'family'] as const;
export type LoginPortal = (typeof LOGIN_PORTALS)[number];
export const PORTAL_ROLE: Record<LoginPortal, Role> = {
  hospital: 'hospital',
  patient: 'patient',
  admin: 'medledger_admin',
  family: 'family',
};
/** The answer (403) to the right password on another role's sign-in page: nobody is signed in. */
export const PORTAL_DENIED: Record<LoginPortal, string> = {
  hospital: 'Access Denied: This login is for healthcare providers only.',
  patient: 'Access Denied: This login is for patients only.',
  admin: 'Access Denied: This login is for MedLedger team administrators only.',
  family: 'Access Denied: This login is for family members a patient has invited.',
};

export const MIN_PASSWORD_LENGTH = 8;
export const MAX_PASSWORD_LENGTH = 200;
export const GENERATED_PASSWORD_LENGTH = 16;
export const COPIED_INDICATOR_MS = 3000;
export const PASSWORD_SYMBOLS = '!@#$%^&*()_+-=[]{}|;:,.<>?';

export const TRIAL_DAYS = 7;
export const MIN_NAME_LENGTH = 2;

export const APPOINTMENT_LENGTH_MINUTES = 60;
export const SLOT_START = '09:00';
export const SLOT_END = '17:30';
export const SLOT_STEP_MINUTES = 30;

export const APPOINTMENT_TYPES = [
  'consultation',
  'follow-up',
  'emergency',
  'surgery',
  'screening',
  'vaccination',
] as const;
export const DEPARTMENTS = [
  'cardiology',
  'neurology',
  'orthopedics',
  'pediatrics',
  'dermatology',
  'oncology',
  'emergency',
  'general',
] as const;
export const DEPARTMENT_LABELS: Record<(typeof DEPARTMENTS)[number], string> = {
  cardiology: 'Cardiology',
  neurology: 'Neurology',
  orthopedics: 'Orthopedics',
  pediatrics: 'Pediatrics',
  dermatology: 'Dermatology',
  oncology: 'Oncology',
  emergency: 'Emergency',
  general: 'General Medicine',
};
export const APPOINTMENT_STATUSES = [
  'scheduled',
  'confirmed',
  'checked_in',
  'completed',
  'no_show',
  'pending',
  'cancelled',
] as const;
export const RELATIONSHIPS = ['spouse', 'parent', 'child', 'sibling', 'guardian', 'other'] as const;

/** Every kind of audit entry the server writes (its AuditAction type is made from this list). */
export const AUDIT_ACTIONS = [
  'login',
  'record_upload',
  'record_access',
  'record_view',
  'record_download',
  // A record's ledger receipt downloaded (GET /api/medical-records/{id}/receipt).
  'receipt_download',
  // A stored attachment failed its integrity check while it was being downloaded.
  'integrity_failure',
  'record_draft',
  'record_amend',
  'record_entered_in_error',
  'consent_change',
  'profile_change',
  'patient_create',
  'patient_update',
  'patient_archive',
  'activation_code_issue',
  'appointment_create',
  'appointment_update',
  'appointment_status',
  'appointment_cancel',
  'family_contact_change',
  // Family proxy access (docs/decisions.md#family-proxy-access): invitation sent, accepted, revoked.
  'family_access',
  'settings_change',
  'application_review',
  'provider_register',
  'password_reset',
  'password_change',
  'two_factor_change',
  'session_end',
  'subscription_change',
  // The administrator's account control (issue 9).
  'account_suspend',
  'account_reactivate',
  'provider_verify',
  // A hospital's staff (issue 55): invitations, joining, role changes, deactivation.
  'staff_change',
] as const;

/** The hospital trail's action filter: every action that can appear in a hospital's trail. */
export const HOSPITAL_AUDIT_ACTIONS = AUDIT_ACTIONS.filter((a) => a !== 'application_review');
/**
 * The patient's activity filter: every action that can appear in a patient's trail (a hospital's
 * drafts never do; an account's events do, since the account is the patient's own).
 */
export const PATIENT_AUDIT_ACTIONS = [
  'record_upload',
  'record_access',
  'record_view',
  'record_download',
  'receipt_download',
  'integrity_failure',
  'record_amend',
  'record_entered_in_error',
  'consent_change',
  'profile_change',
  'patient_create',
  'patient_update',
  'patient_archive',
  'activation_code_issue',
  'appointment_create',
  'appointment_update',
  'appointment_status',
  'appointment_cancel',
  'family_contact_change',
  'family_access',
  'login',
  'password_reset',
  'password_change',
  'two_factor_change',
  'session_end',
  'account_suspend',
  'account_reactivate',
] as const;

export const MAX_UPLOAD_BYTES = 25 * 1024 * 1024;
export const ACCEPTED_FILE_EXTENSIONS = ['pdf', 'docx', 'jpg', 'jpeg', 'png'] as const;

export const HASH_DISPLAY_LENGTH = 16;
export const DEFAULT_PAGE_SIZE = 50;

export const REDIRECT_AFTER_APPLICATION_MS = 3000;
export const REDIRECT_AFTER_REGISTRATION_MS = 2000;
export const REDIRECT_AFTER_INVALID_TOKEN_MS = 3000;
export const ADD_PATIENT_TOAST_MS = 10_000;
export const TOAST_DEFAULT_MS = 5000;

export const REGISTRATION_TOKEN_HOURS = 72;
/** A family invitation link (docs/decisions.md#family-proxy-access) lives as long as a registration link. */
export const FAMILY_INVITE_HOURS = 72;
/** How long a staff invitation link works (issue 55). */
export const STAFF_INVITE_HOURS = 72;
export const PASSWORD_RESET_TOKEN_HOURS = 1;

// Labels the public pages show too (record types, genders, provider status) live here rather than
// beside their schemas, so that those pages load no Zod.
export const RECORD_TYPES = [
  'lab-results',
  'imaging',
  'prescription',
  'consultation',
  'discharge-summary',
  'surgery',
  'vaccination',
  'other',
] as const;
export type RecordType = (typeof RECORD_TYPES)[number];
export const RECORD_TYPE_LABELS: Record<RecordType, string> = {
  'lab-results': 'Lab Results',
  imaging: 'Imaging',
  prescription: 'Prescription',
  consultation: 'Consultation Notes',
  'discharge-summary': 'Discharge Summary',
  surgery: 'Surgical Report',
  vaccination: 'Vaccination',
  other: 'Other',
};

export const GENDER_OPTIONS = ['male', 'female', 'other', 'prefer not to say'] as const;

/** What the views say about a record's issuing hospital. */
export const PROVIDER_VERIFIED_LABEL = 'Verified provider';
export const PROVIDER_NOT_VERIFIED_LABEL = 'Provider not verified by MedLedger';
