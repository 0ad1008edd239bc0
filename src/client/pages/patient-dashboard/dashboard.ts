// Pure helpers of the patient dashboard: the stat cards' counts, the profile summary's fallbacks,
// the activity trail's wording, and the file a record list's Download button fetches.
import type { AuditEntry } from '../../../shared/hospital';
import type { Patient } from '../../../shared/patients';
import type { MedicalRecord } from '../../../shared/records';

type RecordForStats = Pick<MedicalRecord, 'createdAt' | 'isBlockchainVerified'>;

/**
 * Records created after the last sign-in; all of them when there was none
 * (docs/spec.md#patient-dashboard).
 */
export function newNotificationCount(records: readonly RecordForStats[], lastLoginAt: string | null): number {
  if (!lastLoginAt) return records.length;
  const since = new Date(lastLoginAt).getTime();
  if (Number.isNaN(since)) return records.length;
  return records.filter((r) => new Date(r.createdAt).getTime() > since).length;
}

export const verifiedCount = (records: readonly RecordForStats[]) =>
  records.filter((r) => r.isBlockchainVerified).length;

/** The profile summary's rows with the spec's fallbacks; Phone only when present. */
export function profileSummary(
  profile: Pick<
    Patient,
    | 'patientId'
    | 'dateOfBirth'
    | 'gender'
    | 'primaryCarePhysician'
    | 'insuranceProvider'
    | 'insurancePolicy'
    | 'phone'
  > | null,
  formatDate: (value: string) => string,
): { label: string; value: string }[] {
  const gender = profile?.gender?.trim();
  const insurance = [
    profile?.insuranceProvider,
    profile?.insurancePolicy && `Policy ${profile.insurancePolicy}`,
  ]
    .filter(Boolean)
    .join(' · ');
  const rows = [
    { label: 'Patient ID', value: profile?.patientId || 'Not assigned' },
    {
      label: 'Date of Birth',
      value: profile?.dateOfBirth ? formatDate(profile.dateOfBirth) : 'Not provided',
    },
    { label: 'Gender', value: gender ? gender.charAt(0).toUpperCase() + gender.slice(1) : 'Not specified' },
    { label: 'Primary Care', value: profile?.primaryCarePhysician || 'Not assigned' },
    { label: 'Insurance', value: insurance || 'Not provided' },
  ];
  if (profile?.phone) rows.push({ label: 'Phone', value: profile.phone });
  return rows;
}

const DESCRIPTIONS: Record<string, string> = {
  record_upload: 'A medical record was added to your file',
  record_access: 'Your medical records were accessed',
  record_view: 'A medical record was viewed',
  record_download: 'A medical record was downloaded',
  consent_change: 'Your sharing consent was changed',
  profile_change: 'Your profile was updated',
  family_contact_change: 'Your family contacts were changed',
  family_access: 'Family access to your records was changed',
  login: 'Signed in to the Patient Portal',
};

/** A friendly line for an activity entry: what the server recorded, else a sentence for the action. */
export function activityDescription(entry: Pick<AuditEntry, 'action' | 'details'>): string {
  return entry.details || DESCRIPTIONS[entry.action] || `${entry.action.replace(/_/g, ' ')} action performed`;
}

/** The list's Download: GET /api/download/<last segment of fileUrl>, saved as fileName or "<title>.pdf". */
export function recordDownload(record: Pick<MedicalRecord, 'fileUrl' | 'fileName' | 'title'>) {
  const last = record.fileUrl?.split('/').filter(Boolean).pop();
  if (!last) return null;
  return {
    url: `/api/download/${encodeURIComponent(last)}`,
    fileName: record.fileName || `${record.title}.pdf`,
  };
}
