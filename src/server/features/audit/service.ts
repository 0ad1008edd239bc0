// Writing audit entries. Call it with the same transaction handle as the change it records, so
// that either both exist or neither does (docs/decisions.md#audit-trail). The actor is given once
// (who acted and from where); the entry says what they did.
import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/connect.js';
import { preparedPerDb } from '../../db/prepared.js';
import { auditLogs, hospitalAuditCounts } from '../../db/schema.js';
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

/**
 * Every read is audited, so this insert runs on most requests: prepared once per database handle
 * (db/prepared.ts), the query builder does not run again for each entry.
 */
const insertAudit = preparedPerDb((db) =>
  db
    .insert(auditLogs)
    .values({
      userId: sql.placeholder('userId'),
      action: sql.placeholder('action'),
      entityId: sql.placeholder('entityId'),
      entityType: sql.placeholder('entityType'),
      details: sql.placeholder('details'),
      ipAddress: sql.placeholder('ipAddress'),
      blockchainHash: sql.placeholder('blockchainHash'),
      hospitalId: sql.placeholder('hospitalId'),
      patientId: sql.placeholder('patientId'),
    })
    .prepare('audit_insert'),
);

/** The audit row of `entry` by `actor`, as inserted. */
function auditRow(actor: AuditActor, entry: AuditEntry) {
  return {
    userId: actor.id,
    action: entry.action,
    entityId: entry.entityId ?? null,
    entityType: entry.entityType ?? null,
    details: entry.details ?? null,
    ipAddress: actor.ip ?? null,
    blockchainHash: entry.blockchainHash ?? null,
    hospitalId: entry.hospitalId ?? null,
    patientId: entry.patientId ?? null,
  } satisfies typeof auditLogs.$inferInsert;
}

export async function writeAudit(db: Db, actor: AuditActor, entry: AuditEntry): Promise<void> {
  await insertAudit(db).execute(auditRow(actor, entry));
}

/**
 * The same insert as a statement not yet run (with a RETURNING), for a ledgered change to make
 * within its ledger entry's statement (ledger/ledgered.ts).
 */
export function auditInsert(
  db: Db,
  actor: AuditActor,
  entry: Omit<AuditEntry, 'blockchainHash'>,
  blockchainHash: SQL,
) {
  return db
    .insert(auditLogs)
    .values({ ...auditRow(actor, entry), blockchainHash })
    .returning({ id: auditLogs.id });
}

/**
 * Folds a hospital's counter rows (hospital_audit_counts, one per connection that wrote to its
 * trail) into slot 0, so that the rows summed for its trail's totals stay few as connections come
 * and go. Rows that a transaction in progress has written are skipped (SKIP LOCKED) and left for
 * a later fold: the fold waits on no writer, and the sum is the same before and after.
 */
export async function foldAuditCounts(db: Db, hospitalId: string): Promise<void> {
  const c = hospitalAuditCounts;
  await db.execute(sql`
    with folded as (
      delete from ${c}
      where (${c.hospitalId}, ${c.slot}) in (
        select ${c.hospitalId}, ${c.slot} from ${c}
        where ${c.hospitalId} = ${hospitalId} and ${c.slot} <> 0
        for update skip locked)
      returning ${c.entries}, ${c.routineReads})
    insert into ${c} as kept (hospital_id, slot, entries, routine_reads)
    select ${hospitalId}::uuid, 0, coalesce(sum(entries), 0), coalesce(sum(routine_reads), 0) from folded
    on conflict (hospital_id, slot) do update
      set entries = kept.entries + excluded.entries, routine_reads = kept.routine_reads + excluded.routine_reads`);
}
