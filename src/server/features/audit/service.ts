// Recording audit events (docs/decisions.md#audit-trail). Call it with the same transaction
// handle as the change it records, so that either both exist or neither does. The actor is given
// once (who acted and from where); the event says what they did (src/shared/audit-events.ts, its
// typed data stored as is); the subject says what it was done to, and from it alone this module
// decides whose trails the entry belongs to.
import { sql, type Placeholder, type SQL } from 'drizzle-orm';
import type { AuditEvent } from '../../../shared/audit-events.js';
import type { Role } from '../../../shared/constants.js';
import type { Db } from '../../db/connect.js';
import { preparedPerDb } from '../../db/prepared.js';
import { auditLogs, hospitalAuditCounts, patients, users } from '../../db/schema.js';

export type { AuditAction, AuditData } from '../../../shared/audit-events.js';

/** Who acted: a user (an `Actor` will do) or nobody signed in (`id: null`), and their IP. */
export interface AuditActor {
  id: string | null;
  ip?: string | null;
}

/**
 * What the event was done to. Its trails follow from it: a patient's things (the patient row, a
 * record, an attachment, an appointment, a family contact, a share link, consent) are in the
 * patient's trail and their hospital's; a hospital's own things in the hospital's; an account's
 * events in the trails of whom the account is (a hospital's own, a patient's own and their
 * hospital's); anything else only in the actor's own (audit_logs.user_id).
 */
export type AuditSubject =
  | { type: 'patient'; id: string; hospitalId: string }
  | {
      type:
        | 'medical_record'
        | 'attachment'
        | 'appointment'
        | 'family_contact'
        | 'share_link'
        | 'consent_settings';
      id: string;
      patientId: string;
      hospitalId: string;
    }
  | { type: 'hospital' | 'subscription'; id: string }
  | { type: 'user'; id: string; role: Role }
  | { type: 'provider_application'; id: string; hospitalId?: string | null };

/** An event and its subject: what a change records (and a ledgered change carries). */
export interface AuditRecord {
  event: AuditEvent;
  subject: AuditSubject;
}

/** The trails a subject's events belong to; for a patient's account, looked up by its user id. */
function trailsOf(
  subject: AuditSubject,
): { hospitalId: string | null; patientId: string | null } | { account: string } | { member: string } {
  switch (subject.type) {
    case 'patient':
      return { hospitalId: subject.hospitalId, patientId: subject.id };
    case 'hospital':
    case 'subscription':
      return { hospitalId: subject.id, patientId: null };
    case 'user':
      // A hospital member's own events are in their organization's trail.
      if (subject.role === 'hospital') return { member: subject.id };
      if (subject.role === 'patient') return { account: subject.id };
      return { hospitalId: null, patientId: null };
    case 'provider_application':
      return { hospitalId: subject.hospitalId ?? null, patientId: null };
    default:
      return { hospitalId: subject.hospitalId, patientId: subject.patientId };
  }
}

/** A hospital member's trail: their organization's. */
const memberTrails = (userId: string | Placeholder) => ({
  hospitalId: sql`(select ${users.hospitalId} from ${users} where ${users.id} = ${userId})`,
  patientId: sql`null::uuid`,
});

/** A patient account's trails: its patient row's and that row's hospital's (none without a row). */
const patientAccountTrails = (userId: string | Placeholder) => ({
  hospitalId: sql`(select ${patients.createdByHospitalId} from ${patients} where ${patients.userId} = ${userId})`,
  patientId: sql`(select ${patients.id} from ${patients} where ${patients.userId} = ${userId})`,
});

const placeholders = {
  userId: sql.placeholder('userId'),
  action: sql.placeholder('action'),
  entityId: sql.placeholder('entityId'),
  entityType: sql.placeholder('entityType'),
  data: sql.placeholder('data'),
  ipAddress: sql.placeholder('ipAddress'),
  blockchainHash: sql.placeholder('blockchainHash'),
};

/**
 * Every read is audited, so this insert runs on most requests: prepared once per database handle
 * (db/prepared.ts), the query builder does not run again for each entry. A patient account's
 * event has its own, which finds its trails in the same statement.
 */
const insertAudit = preparedPerDb((db) =>
  db
    .insert(auditLogs)
    .values({
      ...placeholders,
      hospitalId: sql.placeholder('hospitalId'),
      patientId: sql.placeholder('patientId'),
    })
    .prepare('audit_insert'),
);
const insertAccountAudit = preparedPerDb((db) =>
  db
    .insert(auditLogs)
    .values({ ...placeholders, ...patientAccountTrails(sql.placeholder('entityId')) })
    .prepare('audit_insert_account'),
);
const insertMemberAudit = preparedPerDb((db) =>
  db
    .insert(auditLogs)
    .values({ ...placeholders, ...memberTrails(sql.placeholder('entityId')) })
    .prepare('audit_insert_member'),
);

/** The columns of `record` by `actor` other than its trails. */
function entryColumns(actor: AuditActor, { event, subject }: AuditRecord) {
  return {
    userId: actor.id,
    action: event.kind,
    entityId: subject.id,
    entityType: subject.type,
    data: event.data,
    ipAddress: actor.ip ?? null,
  };
}

/** Records `record` by `actor` in `db` (the transaction of the change it records). */
export async function recordAudit(db: Db, actor: AuditActor, record: AuditRecord): Promise<void> {
  const trails = trailsOf(record.subject);
  const columns = { ...entryColumns(actor, record), blockchainHash: null };
  if ('account' in trails) await insertAccountAudit(db).execute(columns);
  else if ('member' in trails) await insertMemberAudit(db).execute(columns);
  else await insertAudit(db).execute({ ...columns, ...trails });
}

/**
 * The same insert as a statement not yet run (with a RETURNING), for a ledgered change to make
 * within its ledger entry's statement (ledger/ledgered.ts).
 */
export function auditInsert(db: Db, actor: AuditActor, record: AuditRecord, blockchainHash: SQL) {
  const trails = trailsOf(record.subject);
  return db
    .insert(auditLogs)
    .values({
      ...entryColumns(actor, record),
      blockchainHash,
      ...('account' in trails
        ? patientAccountTrails(trails.account)
        : 'member' in trails
          ? memberTrails(trails.member)
          : trails),
    })
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
