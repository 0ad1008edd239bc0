// A user row as the API shows it: PublicUser (the session plugin and the auth service both answer
// with it, so it lives here rather than in either) and whoIs, the part the admin's view shares.
import type { PublicUser } from '../shared/users.js';
import { users } from './db/schema.js';

type UserRow = typeof users.$inferSelect;

/**
 * The columns a PublicUser is made of, for reads that need no more: the session lookup on every
 * request reads these and not the whole row (the password hash stays in the database).
 */
export const publicUserColumns = {
  id: users.id,
  email: users.email,
  role: users.role,
  firstName: users.firstName,
  lastName: users.lastName,
  hospitalName: users.hospitalName,
  lastLoginAt: users.lastLoginAt,
  twoFactorEnabled: users.twoFactorEnabled,
  timeZone: users.timeZone,
};
type PublicUserRow = Pick<UserRow, keyof typeof publicUserColumns>;

/** What every view of a user shows: who they are (a hospital's name only for a hospital). */
export const whoIs = (row: PublicUserRow) => ({
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
  return {
    ...whoIs(row),
    lastLoginAt: previousLoginAt,
    twoFactorEnabled: row.twoFactorEnabled,
    timeZone: row.role === 'hospital' ? row.timeZone : null,
  };
}
