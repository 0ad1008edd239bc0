// A user row as the API shows it (PublicUser): the session plugin and the auth service both answer
// with it, so it lives here rather than in either.
import type { PublicUser } from '../shared/users.js';
import type { users } from './db/schema.js';

export function toPublicUser(
  row: typeof users.$inferSelect,
  previousLoginAt: string | null = row.lastLoginAt?.toISOString() ?? null,
): PublicUser {
  return {
    id: row.id,
    email: row.email,
    role: row.role,
    firstName: row.firstName,
    lastName: row.lastName,
    hospitalName: row.role === 'hospital' ? row.hospitalName : null,
    lastLoginAt: previousLoginAt,
    twoFactorEnabled: row.twoFactorEnabled,
    timeZone: row.role === 'hospital' ? row.timeZone : null,
  };
}
