// A user row as the API shows it: PublicUser (the session plugin and the auth service both answer
// with it, so it lives here rather than in either) and whoIs, the part the admin's view shares.
import type { PublicUser } from '../shared/users.js';
import type { users } from './db/schema.js';

type UserRow = typeof users.$inferSelect;

/** What every view of a user shows: who they are (a hospital's name only for a hospital). */
export const whoIs = (row: UserRow) => ({
  id: row.id,
  email: row.email,
  role: row.role,
  firstName: row.firstName,
  lastName: row.lastName,
  hospitalName: row.role === 'hospital' ? row.hospitalName : null,
});

export function toPublicUser(
  row: UserRow,
  previousLoginAt: string | null = row.lastLoginAt?.toISOString() ?? null,
): PublicUser {
  return {
    ...whoIs(row),
    lastLoginAt: previousLoginAt,
    twoFactorEnabled: row.twoFactorEnabled,
    timeZone: row.role === 'hospital' ? row.timeZone : null,
  };
}
