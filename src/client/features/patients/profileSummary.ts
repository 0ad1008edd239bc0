// The patient's profile summary (docs/spec.md#patient-dashboard): its rows with the spec's fallbacks.
import type { Patient } from '../../../shared/patients';

/** The profile summary's rows with the spec's fallbacks; Phone only when present. */
export function profileSummary(
  profile:
    | (Pick<
        Patient,
        | 'patientId'
        | 'dateOfBirth'
        | 'gender'
        | 'primaryCarePhysician'
        | 'insuranceProvider'
        | 'insurancePolicy'
        | 'phone'
      > &
        Partial<
          Pick<Patient, 'address' | 'preferredLanguage' | 'emergencyContactName' | 'emergencyContactPhone'>
        >)
    | null,
  formatDate: (value: string) => string,
  languageName: (tag: string) => string | null = (tag) => tag,
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
  if (profile?.address) rows.push({ label: 'Address', value: profile.address });
  if (profile?.preferredLanguage) {
    rows.push({
      label: 'Language',
      value: languageName(profile.preferredLanguage) ?? profile.preferredLanguage,
    });
  }
  const emergency = [profile?.emergencyContactName, profile?.emergencyContactPhone]
    .filter(Boolean)
    .join(' · ');
  if (emergency) rows.push({ label: 'Emergency Contact', value: emergency });
  return rows;
}
