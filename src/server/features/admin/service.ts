// The administrator's account control (issue 9, items 6 and 7; docs/decisions.md#account-control):
// the Users table, suspension (every session ends, sign-in answers 403), reactivation and provider
// verification. Each change is audited in the transaction that makes it.
import { and, count, desc, eq, ilike, isNotNull, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { AdminUser, AdminUserListQuery, AdminUserPage } from '../../../shared/admin-users.js';
import type { Db } from '../../db/connect.js';
import { users } from '../../db/schema.js';
import { badRequest, conflict, notFound } from '../../errors.js';
import { destroyUserSessions } from '../../plugins/session.js';
import { isUuid } from '../../access.js';
import { whoIs } from '../../users.js';
import { writeAudit, type AuditAction } from '../audit/service.js';
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
/** A hospital's own trail shows what was done to its account. */
const trailOf = (u: UserRow) => (u.role === 'hospital' ? u.id : null);

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

/** An administrator's change to an account, audited (in a hospital's own trail too). */
const auditAccount = (tx: Db, actor: AdminActor, action: AuditAction, row: UserRow, details: string) =>
  writeAudit(tx, actor, { action, entityType: 'user', entityId: row.id, details, hospitalId: trailOf(row) });

/**
 * Suspends an account: it can no longer sign in (403 with ACCOUNT_SUSPENDED), and every session
 * and unfinished two-step sign-in of it ends in the same transaction. Not the caller's own.
 */
export async function suspendUser(
  db: Db,
  actor: AdminActor,
  id: string,
  now: Date,
): Promise<{ user: AdminUser; sessionsEnded: number }> {
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
    const ended = `ended ${sessionsEnded} session${sessionsEnded === 1 ? '' : 's'}`;
    await auditAccount(tx, actor, 'account_suspend', row, `Suspended the account ${who(row)}; ${ended}`);
    return { user: toAdminUser(row), sessionsEnded };
  });
}

/** Lifts a suspension: the account can sign in again (its old sessions stay ended). */
export async function reactivateUser(db: Db, actor: AdminActor, id: string): Promise<AdminUser> {
  const target = await findUser(db, id);
  return db.transaction(async (tx) => {
    const row = await changeAccount(
      tx,
      target.id,
      { suspendedAt: null },
      isNotNull(users.suspendedAt),
      'This account is not suspended.',
    );
    await auditAccount(tx, actor, 'account_reactivate', row, `Reactivated the account ${who(row)}`);
    return toAdminUser(row);
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
    await auditAccount(
      tx,
      actor,
      'provider_verify',
      row,
      `Verified ${row.hospitalName ?? row.email} as a provider`,
    );
    return toAdminUser(row);
  });
}
