// Writing audit entries. Call it with the same transaction handle as the change it records, so
// that either both exist or neither does (docs/decisions.md#audit-trail).
import type { Db } from '../../db/connect.js';
import { auditLogs } from '../../db/schema.js';

export type AuditAction =
  | 'login'
  | 'record_upload'
  | 'record_access'
  | 'record_view'
  | 'record_download'
  | 'integrity_failure'
  | 'record_draft'
  | 'record_amend'
  | 'record_entered_in_error'
  | 'consent_change'
  | 'profile_change'
  | 'patient_create'
  | 'patient_update'
  | 'patient_archive'
  | 'appointment_create'
  | 'appointment_update'
  | 'appointment_status'
  | 'appointment_cancel'
  | 'family_contact_change'
  | 'settings_change'
  | 'application_review'
  | 'provider_register'
  | 'password_reset'
  | 'password_change'
  | 'two_factor_change'
  | 'session_end'
  | 'subscription_change';

export interface AuditEntry {
  userId: string | null;
  action: AuditAction;
  entityId?: string | null;
  entityType?: string | null;
  details?: string | null;
  ipAddress?: string | null;
  blockchainHash?: string | null;
  /** Which hospital's trail the entry belongs to (the hospital user's id). */
  hospitalId?: string | null;
  /** Which patient's trail the entry belongs to (patients.id). */
  patientId?: string | null;
}

export async function writeAudit(db: Db, entry: AuditEntry): Promise<void> {
  await db.insert(auditLogs).values({
    userId: entry.userId,
    action: entry.action,
    entityId: entry.entityId ?? null,
    entityType: entry.entityType ?? null,
    details: entry.details ?? null,
    ipAddress: entry.ipAddress ?? null,
    blockchainHash: entry.blockchainHash ?? null,
    hospitalId: entry.hospitalId ?? null,
    patientId: entry.patientId ?? null,
  });
}
