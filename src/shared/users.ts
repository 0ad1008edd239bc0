import type { Role } from './constants.js';

/** The signed-in user as the API returns it and the browser keeps it (docs/spec.md#entities, "User"). */
export interface PublicUser {
  id: string;
  email: string;
  role: Role;
  firstName: string | null;
  lastName: string | null;
  hospitalName: string | null;
  /** The sign-in before the current one (null on a first sign-in). */
  lastLoginAt: string | null;
  /** Two-factor sign-in is on (always sent by the server; optional for older stored users). */
  twoFactorEnabled?: boolean;
  /** A hospital's IANA time zone; null for other roles (optional for older stored users). */
  timeZone?: string | null;
}

/** Display name: first and last name, else e-mail. */
export function displayName(user: Pick<PublicUser, 'firstName' | 'lastName' | 'email'>): string {
  const name = [user.firstName, user.lastName].filter((p) => p && p.trim()).join(' ');
  return name || user.email;
}
