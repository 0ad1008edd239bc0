// The patient's activity trail: its wording per action and its filter's choices.
import type { AuditEntry } from '../../../shared/hospital';

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

export const ACTIVITY_ACTION_LABELS: Record<string, string> = {
  all: 'All Activities',
  record_upload: 'Record Upload',
  record_access: 'Record Access',
  record_view: 'Record View',
  consent_change: 'Consent Change',
  profile_change: 'Profile Change',
  family_contact_change: 'Family Contact Change',
  family_access: 'Family Access',
  login: 'Login',
};
