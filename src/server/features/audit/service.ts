// Writing audit entries. Call it with the same transaction handle as the change it records, so
// that either both exist or neither does (docs/decisions.md#audit-trail). The actor is given once
// (who acted and from where); the entry says what they did.
import type { Db } from '../../db/connect.js';
import { auditLogs } from '../../db/schema.js';
import type { AUDIT_ACTIONS } from '../../../shared/constants.js';

export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** Who acted: a user (an `Actor` will do) or nobody signed in (`id: null`), and their IP. */
export interface AuditActor {
  id: string | null;
  ip?: string | null;
}

export interface AuditEntry {
  action: AuditAction;
  entityId?: string | null;
  entityType?: string | null;
  details?: string | null;
  blockchainHash?: string | null;
  /** Which hospital's trail the entry belongs to (the hospital user's id). */
  hospitalId?: string | null;
  /** Which patient's trail the entry belongs to (patients.id). */
  patientId?: string | null;
}

export async function writeAudit(db: Db, actor: AuditActor, entry: AuditEntry): Promise<void> {
  await db.insert(auditLogs).values({
    userId: actor.id,
    action: entry.action,
    entityId: entry.entityId ?? null,
    entityType: entry.entityType ?? null,
    details: entry.details ?? null,
    ipAddress: actor.ip ?? null,
    blockchainHash: entry.blockchainHash ?? null,
    hospitalId: entry.hospitalId ?? null,
    patientId: entry.patientId ?? null,
  });
}
