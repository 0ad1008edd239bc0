// The administrator's account control (issue 9, items 6 and 7; docs/decisions.md#account-control):
// the Users table, suspension (every session ends, sign-in answers 403, and what the account made
// reach others stops: its share links and family grants), reactivation (which restores those only
// when the administrator says so) and provider verification. Each change is audited in the
// transaction that makes it.
import { and, count, desc, eq, ilike, inArray, isNotNull, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { AdminUser, AdminUserListQuery, AdminUserPage } from '../../../shared/admin-users.js';
import type { Db } from '../../db/connect.js';
import { familyGrants, familyInvitations, patients, shareLinks, users } from '../../db/schema.js';
import { badRequest, conflict, notFound } from '../../errors.js';
import { destroyUserSessions } from '../../plugins/session.js';
import { isUuid } from '../../access.js';
import { whoIs } from '../../users.js';
import { recordAudit, type AuditRecord } from '../audit/service.js';
import { likePattern } from '../patients/search.js';

type UserRow = typeof users.$inferSelect;

export interface AdminActor {
  id: string;
  ip: string;
}

export const USER_NOT_FOUND = 'User not found.';

export function toAdminUser(row: UserRow): AdminUser {
  return {
    ...whoIs(row),
    status: row.suspendedAt ? 'suspended' : 'active',
    suspendedAt: row.suspendedAt?.toISOString() ?? null,
    verified: row.role === 'hospital' ? row.verifiedAt !== null : null,
    verifiedAt: row.role === 'hospital' ? (row.verifiedAt?.toISOString() ?? null) : null,
    twoFactorEnabled: row.twoFactorEnabled,
    lastLoginAt: row.lastLoginAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}

function statusFilter(status: AdminUserListQuery['status']): SQL | undefined {
  switch (status) {
    case 'active':
      return isNull(users.suspendedAt);
    case 'suspended':
      return isNotNull(users.suspendedAt);
    case 'verified':
      return and(eq(users.role, 'hospital'), isNotNull(users.verifiedAt));
    case 'unverified':
      return and(eq(users.role, 'hospital'), isNull(users.verifiedAt));
    default:
      return undefined;
  }
}

/** Every account of every role, newest first: search by name, hospital name or e-mail; paged. */
export async function listUsers(db: Db, query: AdminUserListQuery): Promise<AdminUserPage> {
  const conditions: (SQL | undefined)[] = [statusFilter(query.status)];
  if (query.role !== 'all') conditions.push(eq(users.role, query.role));
  const search = query.search?.trim();
  if (search) {
    const pattern = likePattern(search);
    conditions.push(
      or(
        ilike(users.email, pattern),
        ilike(users.firstName, pattern),
        ilike(users.lastName, pattern),
        ilike(sql`coalesce(${users.firstName}, '') || ' ' || coalesce(${users.lastName}, '')`, pattern),
        ilike(users.hospitalName, pattern),
      ),
    );
  }
  const where = and(...conditions);
  const [{ total }] = await db.select({ total: count() }).from(users).where(where);
  const rows = await db
    .select()
    .from(users)
    .where(where)
    .orderBy(desc(users.createdAt), desc(users.id))
    .limit(query.pageSize)
    .offset((query.page - 1) * query.pageSize);
  return { items: rows.map(toAdminUser), total, page: query.page, pageSize: query.pageSize };
}

async function findUser(db: Db, id: string): Promise<UserRow> {
  if (!isUuid(id)) throw notFound(USER_NOT_FOUND);
  const [row] = await db.select().from(users).where(eq(users.id, id));
  if (!row) throw notFound(USER_NOT_FOUND);
  return row;
}

const who = (u: UserRow) => `${u.email} (${u.role === 'medledger_admin' ? 'administrator' : u.role})`;

/**
 * Changes an account only while `when` holds, so that of two changes at once one is refused
 * (409 with `refused`) and only one is audited.
 */
async function changeAccount(
  tx: Db,
  id: string,
  set: Partial<typeof users.$inferInsert>,
  when: SQL,
  refused: string,
): Promise<UserRow> {
  const [row] = await tx
    .update(users)
    .set(set)
    .where(and(eq(users.id, id), when))
    .returning();
  if (!row) throw conflict(refused);
  return row;
}

/** An administrator's change to an account, audited (in the account's own trails too). */
const auditAccount = (tx: Db, actor: AdminActor, row: UserRow, event: AuditRecord['event']) =>
  recordAudit(tx, actor, { event, subject: { type: 'user', id: row.id, role: row.role } });

/** "1 session", "3 sessions": the counts in audit entries and answers. */
export const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** The patient rows of an account (a patient's own; none for other roles), as a subquery. */
const patientRowsOf = (tx: Db, userId: string) =>
  tx.select({ id: patients.id }).from(patients).where(eq(patients.userId, userId));

/** What an account made reach others: the share links it made, the family grants it gave. */
const sharingOf = (tx: Db, userId: string) => ({
  links: eq(shareLinks.createdBy, userId),
  grants: inArray(familyGrants.patientId, patientRowsOf(tx, userId)),
});

/**
 * Stops what the account made reach others, in the suspension's transaction: its live share links
 * and its family grants are marked suspended (access.ts then refuses them at the next request),
 * and its invitations not yet accepted are cancelled (an acceptance would make a grant afresh).
 */
async function suspendSharing(tx: Db, userId: string, now: Date) {
  const of = sharingOf(tx, userId);
  const links = await tx
    .update(shareLinks)
    .set({ suspendedAt: now })
    .where(and(of.links, isNull(shareLinks.revokedAt), isNull(shareLinks.suspendedAt)))
    .returning({ id: shareLinks.id });
  const grants = await tx
    .update(familyGrants)
    .set({ suspendedAt: now })
    .where(and(of.grants, isNull(familyGrants.suspendedAt)))
    .returning({ id: familyGrants.id });
  await tx
    .delete(familyInvitations)
    .where(
      and(inArray(familyInvitations.patientId, patientRowsOf(tx, userId)), isNull(familyInvitations.usedAt)),
    );
  return { links: links.length, grants: grants.length };
}

/**
 * On reactivation, what the suspension stopped either comes back (`restore`) or ends for good: the
 * links are revoked and the grants removed (a family member then needs a new invitation).
 */
async function endOrRestoreSharing(tx: Db, userId: string, restore: boolean, now: Date) {
  const of = sharingOf(tx, userId);
  const links = await tx
    .update(shareLinks)
    .set(restore ? { suspendedAt: null } : { suspendedAt: null, revokedAt: now })
    .where(and(of.links, isNotNull(shareLinks.suspendedAt)))
    .returning({ id: shareLinks.id });
  const suspendedGrants = and(of.grants, isNotNull(familyGrants.suspendedAt));
  const grants = restore
    ? await tx
        .update(familyGrants)
        .set({ suspendedAt: null })
        .where(suspendedGrants)
        .returning({ id: familyGrants.id })
    : await tx.delete(familyGrants).where(suspendedGrants).returning({ id: familyGrants.id });
  return { links: links.length, grants: grants.length };
}

export const sharingText = (n: { links: number; grants: number }) =>
  `${plural(n.links, 'share link')} and ${plural(n.grants, 'family grant')}`;

/**
 * Suspends an account: it can no longer sign in (403 with ACCOUNT_SUSPENDED), every session and
 * unfinished two-step sign-in of it ends, and its share links and family grants stop, all in the
 * same transaction. Not the caller's own.
 */
export async function suspendUser(
  db: Db,
  actor: AdminActor,
  id: string,
  now: Date,
): Promise<{ user: AdminUser; sessionsEnded: number; sharingStopped: { links: number; grants: number } }> {
  const target = await findUser(db, id);
  if (target.id === actor.id) throw badRequest('You cannot suspend your own account.');
  return db.transaction(async (tx) => {
    const row = await changeAccount(
      tx,
      target.id,
      { suspendedAt: now },
      isNull(users.suspendedAt),
      'This account is already suspended.',
    );
    const sessionsEnded = await destroyUserSessions(tx, row.id);
    const sharingStopped = await suspendSharing(tx, row.id, now);
    await auditAccount(tx, actor, row, {
      kind: 'account_suspend',
      data: { account: who(row), sessionsEnded, ...sharingStopped },
    });
    return { user: toAdminUser(row), sessionsEnded, sharingStopped };
  });
}

/**
 * Lifts a suspension: the account can sign in again (its old sessions stay ended). Its share links
 * and family grants come back only with `restoreSharing`; otherwise they end for good.
 */
export async function reactivateUser(
  db: Db,
  actor: AdminActor,
  id: string,
  restoreSharing: boolean,
  now: Date,
): Promise<{ user: AdminUser; sharing: { links: number; grants: number } }> {
  const target = await findUser(db, id);
  return db.transaction(async (tx) => {
    const row = await changeAccount(
      tx,
      target.id,
      { suspendedAt: null },
      isNotNull(users.suspendedAt),
      'This account is not suspended.',
    );
    const sharing = await endOrRestoreSharing(tx, row.id, restoreSharing, now);
    await auditAccount(tx, actor, row, {
      kind: 'account_reactivate',
      data: { account: who(row), restored: restoreSharing, ...sharing },
    });
    return { user: toAdminUser(row), sharing };
  });
}

/** Marks a self-signed-up hospital as a verified provider (its records then say so). */
export async function verifyProvider(db: Db, actor: AdminActor, id: string, now: Date): Promise<AdminUser> {
  const target = await findUser(db, id);
  if (target.role !== 'hospital') throw badRequest('Only hospital accounts can be verified as providers.');
  return db.transaction(async (tx) => {
    const row = await changeAccount(
      tx,
      target.id,
      { verifiedAt: now },
      isNull(users.verifiedAt),
      'This hospital is already a verified provider.',
    );
    await auditAccount(tx, actor, row, {
      kind: 'provider_verify',
      data: { hospital: row.hospitalName ?? row.email },
    });
    return toAdminUser(row);
  });
}
