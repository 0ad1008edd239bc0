// A user row as the API shows it: PublicUser (the session plugin and the auth service both answer
// with it, so it lives here rather than in either) and whoIs, the part the admin's view shares.
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { PublicUser } from '../shared/users.js';
import type { Db } from './db/connect.js';
import { users } from './db/schema.js';

type UserRow = typeof users.$inferSelect;

/**
 * The hospital a member belongs to, joined as `organization` on `organizationJoin`: its name and
 * time zone are the member's (docs/decisions.md#staff-accounts), and its suspension is theirs.
 */
export const organization = alias(users, 'organization');
export const organizationJoin = eq(organization.id, users.hospitalId);

/**
 * The columns a PublicUser is made of, over users left-joined with `organization`: the session
 * lookup on every request reads these and not the whole row (the password hash stays in the
 * database).
 */
export const publicUserColumns = {
  id: users.id,
  email: users.email,
  role: users.role,
  firstName: users.firstName,
  lastName: users.lastName,
  hospitalId: users.hospitalId,
  staffRole: users.staffRole,
  hospitalName: organization.hospitalName,
  lastLoginAt: users.lastLoginAt,
  twoFactorEnabled: users.twoFactorEnabled,
  timeZone: organization.timeZone,
  staffTwoFactorRequired: organization.staffTwoFactorRequired,
  providerVerifiedAt: organization.verifiedAt,
};
type PublicUserRow = Pick<
  UserRow,
  'id' | 'email' | 'role' | 'firstName' | 'lastName' | 'hospitalId' | 'staffRole'
> & {
  hospitalName: string | null;
  lastLoginAt: Date | null;
  twoFactorEnabled: boolean;
  timeZone: string | null;
  staffTwoFactorRequired?: boolean | null;
  providerVerifiedAt?: Date | null;
};

/** What every view of a user shows: who they are (a hospital's name only for a hospital). */
export const whoIs = (
  row: Pick<PublicUserRow, 'id' | 'email' | 'role' | 'firstName' | 'lastName' | 'hospitalName'>,
) => ({
  id: row.id,
  email: row.email,
  role: row.role,
  firstName: row.firstName,
  lastName: row.lastName,
  hospitalName: row.role === 'hospital' ? row.hospitalName : null,
});

export function toPublicUser(
  row: PublicUserRow,
  previousLoginAt: string | null = row.lastLoginAt?.toISOString() ?? null,
): PublicUser {
  const hospital = row.role === 'hospital';
  return {
    ...whoIs(row),
    lastLoginAt: previousLoginAt,
    twoFactorEnabled: row.twoFactorEnabled,
    timeZone: hospital ? (row.timeZone ?? 'UTC') : null,
    hospitalId: hospital ? row.hospitalId : null,
    staffRole: hospital ? row.staffRole : null,
    ...(hospital
      ? {
          staffTwoFactorRequired: row.staffTwoFactorRequired ?? false,
          providerVerified: !!row.providerVerifiedAt,
        }
      : {}),
  };
}

/** The PublicUser of an account by id (its organization's name and zone read with it). */
export async function readPublicUser(
  db: Db,
  userId: string,
  previousLoginAt?: string | null,
): Promise<PublicUser> {
  const [row] = await db
    .select(publicUserColumns)
    .from(users)
    .leftJoin(organization, organizationJoin)
    .where(eq(users.id, userId));
  if (!row) throw new Error(`readPublicUser: no user ${userId}`);
  return toPublicUser(row, previousLoginAt);
}

/**
 * The columns a new hospital account is inserted with: it is its own organization, and its first
 * admin (every way a hospital is made: signup, provider registration, tests).
 */
export function newHospitalAccount(id: string = randomUUID()) {
  return { id, hospitalId: id, staffRole: 'hospital_admin' as const };
}
