// Writing audit entries. Call it with the same transaction handle as the change it records, so
// that either both exist or neither does (docs/decisions.md#audit-trail).
import type { Db } from '../../db/connect.js';
import { auditLogs } from '../../db/schema.js';
import type { AUDIT_ACTIONS } from '../../../shared/constants.js';

export type AuditAction = (typeof AUDIT_ACTIONS)[number];

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
