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
  type Placeholder,
  type SQL,
} from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { auditActorName, auditText } from '../../../shared/audit-events.js';
import type { AuditPage, AuditQuery, AuditUser } from '../../../shared/hospital.js';
import { displayName, joinedDisplayName } from '../../../shared/users.js';
import { organization, organizationJoin } from '../../users.js';
import type { Db } from '../../db/connect.js';
import { isoTime } from '../../db/iso-time.js';
import { pageBounds, subqueryTotal } from '../../db/paging.js';
import { preparedPerDb } from '../../db/prepared.js';
import {
  attachments,
  auditLogs,
  hospitalAuditCounts,
  isRoutineRead,
  ledgerEntries,
  medicalRecords,
  users,
} from '../../db/schema.js';
import { foldAuditCounts } from './service.js';

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

const routineRead = isRoutineRead(auditLogs.action, auditLogs.entityType);

/** A hospital's trail: its entries (the id given, or a prepared statement's placeholder for it). */
const hospitalTrail = (hospitalId: string | Placeholder) => eq(auditLogs.hospitalId, hospitalId);

/** Which entries a trail holds: the hospital's, or what its patient may see of theirs. */
function scopeCondition(scope: TrailScope): SQL | undefined {
  return 'hospitalId' in scope
    ? hospitalTrail(scope.hospitalId)
    : and(eq(auditLogs.patientId, scope.patientId), aboutWhatThePatientCanSee);
}

/**
 * Staff members' addresses (a hospital's, an administrator's) stay out of a patient's view; the
 * patient sees every other actor's: their own, their family's, a specialist's opening their link.
 */
const isStaff = (role: string | null | undefined) => role === 'hospital' || role === 'medledger_admin';

/** The query's own filters (action, user, period); none is the trail's opening view. */
function queryFilters(query: AuditQuery): SQL[] {
  const conditions: SQL[] = [];
  if (query.action && query.action !== 'all') conditions.push(eq(auditLogs.action, query.action));
  if (query.userId && query.userId !== 'all') conditions.push(eq(auditLogs.userId, query.userId));
  if (query.from) conditions.push(gte(auditLogs.createdAt, query.from));
  if (query.to) conditions.push(lt(auditLogs.createdAt, query.to));
  return conditions;
}

/** An entry's columns, its time as the API's ISO string (db/iso-time.ts), not through a Date. */
const listedEntryColumns = { ...getTableColumns(auditLogs), createdAt: isoTime(auditLogs.createdAt) };

/**
 * How many entries match, and how many of them are routine reads: two counts, so that each can be
 * answered from an index (the routine one from audit_logs_routine_read_idx), never one pass over
 * every matching row that reads each one's action.
 */
function matchingCounts(db: Db, matching: SQL | undefined, hide: boolean) {
  const all = db.select({ n: count() }).from(auditLogs).where(matching);
  const routine = db.select({ n: count() }).from(auditLogs).where(and(matching, routineRead));
  return {
    // With routine=hide the page leaves the routine reads out, and so does its total.
    total: hide ? sql<number>`cast((${all}) - (${routine}) as integer)`.mapWith(Number) : subqueryTotal(all),
    routineHidden: hide ? subqueryTotal(routine) : sql<number>`0`.mapWith(Number),
    slots: sql<number>`0`.mapWith(Number),
  };
}

/**
 * A hospital's whole trail counted: the sums of its rows in hospital_audit_counts (kept by a
 * trigger, db/schema.ts), a few rows however long the trail, where counting the trail itself read
 * every entry on every page (1.9 of 2.0 ms per page at 20,000 entries, bench/api-cpu). `slots`
 * says how many rows were summed, for foldAuditCounts.
 */
function wholeTrailCounts(db: Db, hospitalId: string | Placeholder, hide: boolean) {
  const sumOf = (column: AnyPgColumn) =>
    sql<number>`(${db
      .select({ n: sql`coalesce(sum(${column}), 0)` })
      .from(hospitalAuditCounts)
      .where(eq(hospitalAuditCounts.hospitalId, hospitalId))})`;
  const entries = sumOf(hospitalAuditCounts.entries);
  const routine = sumOf(hospitalAuditCounts.routineReads);
  return {
    total: sql<number>`cast(${hide ? sql`${entries} - ${routine}` : entries} as integer)`.mapWith(Number),
    routineHidden: hide
      ? sql<number>`cast(${routine} as integer)`.mapWith(Number)
      : sql<number>`0`.mapWith(Number),
    slots: subqueryTotal(
      db
        .select({ n: count() })
        .from(hospitalAuditCounts)
        .where(eq(hospitalAuditCounts.hospitalId, hospitalId)),
    ),
  };
}

type TrailCounts = ReturnType<typeof matchingCounts>;

/** A hospital's counter rows are folded into one when a page finds more than this many. */
const FOLD_AT_SLOTS = 32;

/**
 * A page of the entries matching `matching`, newest first, each row with the counts (db/paging.ts):
 * one statement.
 */
function trailPageQuery(
  db: Db,
  matching: SQL | undefined,
  hide: boolean,
  counts: TrailCounts,
  bounds: { limit: number | Placeholder; offset: number | Placeholder },
) {
  return db
    .select({
      entry: listedEntryColumns,
      user: { email: users.email, firstName: users.firstName, lastName: users.lastName, role: users.role },
      organizationName: organization.hospitalName,
      ledgerHash: ledgerEntries.hash,
      ...counts,
    })
    .from(auditLogs)
    .leftJoin(users, eq(users.id, auditLogs.userId))
    .leftJoin(organization, organizationJoin)
    .leftJoin(ledgerEntries, eq(ledgerEntries.hash, auditLogs.blockchainHash))
    .where(hide ? and(matching, sql`not ${routineRead}`) : matching)
    .orderBy(desc(auditLogs.createdAt), desc(auditLogs.id))
    .limit(bounds.limit)
    .offset(bounds.offset);
}

/**
 * A hospital's whole trail, the view its Audit page opens on (with routine reads shown or hidden):
 * prepared once, like the patient list's first page.
 */
const wholeHospitalTrail = (hide: boolean) =>
  preparedPerDb((db) => {
    const hospitalId = sql.placeholder('hospitalId');
    return trailPageQuery(db, hospitalTrail(hospitalId), hide, wholeTrailCounts(db, hospitalId, hide), {
      limit: sql.placeholder('limit'),
      offset: sql.placeholder('offset'),
    }).prepare(`audit_trail_hospital_${hide ? 'hide' : 'show'}`);
  });
const wholeHospitalTrails = { show: wholeHospitalTrail(false), hide: wholeHospitalTrail(true) };

/**
 * Who acted, as the trails name them: a person, and for a hospital's member their organization
 * too ("Ada Okafor, St. Mary's"), so that every entry says who and for whom.
 */
function actorName(
  user: {
    email: string | null;
    firstName: string | null;
    lastName: string | null;
    role: string | null;
  } | null,
  organizationName: string | null,
): string | null {
  const name = joinedDisplayName(user);
  return name && user?.role === 'hospital' && organizationName ? `${name}, ${organizationName}` : name;
}

export async function listTrail(db: Db, scope: TrailScope, query: AuditQuery): Promise<AuditPage> {
  const hide = query.routine === 'hide';
  const filtered = queryFilters(query);
  const matching = and(scopeCondition(scope), ...filtered);
  const bounds = pageBounds(query);
  // A hospital's whole trail (its Audit page's opening view) is counted from its counter rows.
  const whole = 'hospitalId' in scope && filtered.length === 0 ? scope.hospitalId : null;
  const counts = () =>
    whole === null ? matchingCounts(db, matching, hide) : wholeTrailCounts(db, whole, hide);
  const rows =
    whole === null
      ? await trailPageQuery(db, matching, hide, counts(), bounds)
      : await wholeHospitalTrails[hide ? 'hide' : 'show'](db).execute({ hospitalId: whole, ...bounds });
  // An empty page carries no counts: they are asked apart (an empty trail, a page past its end, or
  // a trail of routine reads only, hidden), from one row, since each count is a subquery.
  const counted = rows[0] ?? (await db.select(counts()).from(sql`(select 1) as one`))[0];
  if (whole !== null && counted.slots > FOLD_AT_SLOTS) await foldAuditCounts(db, whole);
  return {
    items: rows.map(({ entry, user, organizationName, ledgerHash }) => ({
      id: entry.id,
      action: entry.action,
      details: auditText(entry.action, entry.data, entry.details),
      userId: entry.userId,
      userName: actorName(user, organizationName) ?? auditActorName(entry.action, entry.data) ?? null,
      entityType: entry.entityType,
      entityId: entry.entityId,
      ipAddress: 'hospitalId' in scope || !isStaff(user?.role) ? entry.ipAddress : null,
      createdAt: entry.createdAt,
      blockchainHash: entry.blockchainHash,
      blockchainVerified: !!entry.blockchainHash && ledgerHash === entry.blockchainHash,
    })),
    total: counted.total,
    page: query.page,
    pageSize: query.pageSize,
    ...(hide ? { routineHidden: counted.routineHidden } : {}),
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
