// The patient's activity trail: its wording per action (the filter's labels are the shared
// AUDIT_ACTION_LABELS).
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
