// Reading audit trails: a hospital's (entries scoped to it: its users' actions and reads of its
// patients' records) and a patient's (entries scoped to their patient row). Filters by action,
// user and period; paged; newest first.
import {
  and,
  count,
  desc,
  eq,
  getTableColumns,
  gte,
  isNull,
  lt,
  ne,
  notInArray,
  or,
  sql,
  type SQL,
} from 'drizzle-orm';
import type { AuditPage, AuditQuery, AuditUser } from '../../../shared/hospital.js';
import { displayName, joinedDisplayName } from '../../../shared/users.js';
import type { Db } from '../../db/connect.js';
import { isoTime } from '../../db/iso-time.js';
import { attachments, auditLogs, ledgerEntries, medicalRecords, users } from '../../db/schema.js';

/** A hospital's trail, or a patient's (`patientUserId`: the patient's own account). */
export type TrailScope = { hospitalId: string } | { patientId: string; patientUserId: string };

/**
 * What a patient may see of their trail: nothing about the hospital's drafts (their titles and
 * file names, a record not uploaded yet or discarded), so entries on a record or an attachment
 * count only while that record is uploaded (final).
 */
const aboutWhatThePatientCanSee = and(
  ne(auditLogs.action, 'record_draft'),
  or(
    isNull(auditLogs.entityType),
    notInArray(auditLogs.entityType, ['medical_record', 'attachment']),
    and(
      eq(auditLogs.entityType, 'medical_record'),
      sql`exists (select 1 from ${medicalRecords} where ${medicalRecords.id}::text = ${auditLogs.entityId}
        and ${medicalRecords.status} = 'final')`,
    ),
    and(
      eq(auditLogs.entityType, 'attachment'),
      sql`exists (select 1 from ${attachments} join ${medicalRecords} on ${medicalRecords.id} = ${attachments.recordId}
        where ${attachments.id}::text = ${auditLogs.entityId} and ${medicalRecords.status} = 'final')`,
    ),
  ),
);

/** A routine read: a list of records opened (one entry per list, not about one record). */
// coalesce: never null, so `not` of it keeps every other entry.
const routineRead = sql`(${auditLogs.action} = 'record_access' and coalesce(${auditLogs.entityType}, '') = 'patient')`;

function filters(scope: TrailScope, query: AuditQuery): SQL | undefined {
  const conditions: (SQL | undefined)[] = [
    'hospitalId' in scope
      ? eq(auditLogs.hospitalId, scope.hospitalId)
      : and(eq(auditLogs.patientId, scope.patientId), aboutWhatThePatientCanSee),
  ];
  if (query.action && query.action !== 'all') conditions.push(eq(auditLogs.action, query.action));
  if (query.userId && query.userId !== 'all') conditions.push(eq(auditLogs.userId, query.userId));
  if (query.from) conditions.push(gte(auditLogs.createdAt, query.from));
  if (query.to) conditions.push(lt(auditLogs.createdAt, query.to));
  return and(...conditions);
}

/** An entry's columns, its time as the API's ISO string (db/iso-time.ts), not through a Date. */
const listedEntryColumns = { ...getTableColumns(auditLogs), createdAt: isoTime(auditLogs.createdAt) };

export async function listTrail(db: Db, scope: TrailScope, query: AuditQuery): Promise<AuditPage> {
  const matching = filters(scope, query);
  const hide = query.routine === 'hide';
  const where = hide ? and(matching, sql`not ${routineRead}`) : matching;
  const [{ total, routineHidden }] = await db
    .select({
      total: hide ? sql<number>`count(*) filter (where not ${routineRead})`.mapWith(Number) : count(),
      routineHidden: sql<number>`count(*) filter (where ${routineRead})`.mapWith(Number),
    })
    .from(auditLogs)
    .where(matching);
  const rows = await db
    .select({
      entry: listedEntryColumns,
      user: { email: users.email, firstName: users.firstName, lastName: users.lastName },
      ledgerHash: ledgerEntries.hash,
    })
    .from(auditLogs)
    .leftJoin(users, eq(users.id, auditLogs.userId))
    .leftJoin(ledgerEntries, eq(ledgerEntries.hash, auditLogs.blockchainHash))
    .where(where)
    .orderBy(desc(auditLogs.createdAt), desc(auditLogs.id))
    .limit(query.pageSize)
    .offset((query.page - 1) * query.pageSize);
  return {
    items: rows.map(({ entry, user, ledgerHash }) => ({
      id: entry.id,
      action: entry.action,
      details: entry.details,
      userId: entry.userId,
      userName: joinedDisplayName(user),
      entityType: entry.entityType,
      entityId: entry.entityId,
      // Staff members' addresses stay out of a patient's view; the patient sees their own.
      ipAddress: 'hospitalId' in scope || entry.userId === scope.patientUserId ? entry.ipAddress : null,
      createdAt: entry.createdAt,
      blockchainHash: entry.blockchainHash,
      blockchainVerified: !!entry.blockchainHash && ledgerHash === entry.blockchainHash,
    })),
    total,
    page: query.page,
    pageSize: query.pageSize,
    ...(hide ? { routineHidden } : {}),
  };
}

/** The users who appear in a hospital's trail (the user filter's options). */
export async function trailUsers(db: Db, hospitalId: string): Promise<AuditUser[]> {
  const rows = await db
    .selectDistinct({
      id: users.id,
      email: users.email,
      firstName: users.firstName,
      lastName: users.lastName,
      role: users.role,
    })
    .from(auditLogs)
    .innerJoin(users, eq(users.id, auditLogs.userId))
    .where(eq(auditLogs.hospitalId, hospitalId))
    .limit(500);
  return rows
    .map((u) => ({ id: u.id, name: displayName(u), role: u.role }))
    .sort((a, b) => a.name.localeCompare(b.name));
}
