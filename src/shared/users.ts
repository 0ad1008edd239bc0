import type { Role, StaffRole } from './constants.js';

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
  /**
   * A hospital member's organization: the id every API that takes a hospital id takes (the first
   * admin's own id for hospitals made before staff accounts); null for other roles.
   */
  hospitalId?: string | null;
  /** A hospital member's staff role; null for other roles. */
  staffRole?: StaffRole | null;
  /** The hospital requires two-factor sign-in of its staff (hospital members only). */
  staffTwoFactorRequired?: boolean;
  /** The hospital is verified by MedLedger (docs/decisions.md#verified-providers); members only. */
  providerVerified?: boolean;
}

/**
 * First and last name joined by a space, a blank or missing one left out ('' when both are). At
 * module level, not inside the functions that use it: the server runs under tsx, whose esbuild
 * keeps function names by defining `name` on every named closure as it is made, and a record list
 * names each of its rows' patients (Object.defineProperty per row, in its profile).
 */
export const joinNames = (first?: string | null, last?: string | null) =>
  [first, last].filter((name) => name && name.trim()).join(' ');

/** Display name: first and last name, else e-mail. */
export function displayName(user: Pick<PublicUser, 'firstName' | 'lastName' | 'email'>): string {
  return joinNames(user.firstName, user.lastName) || user.email;
}

/**
 * displayName of a user read through an outer join, whose fields are all null when there is none
 * (an audit entry's actor, a record's retractor): null then.
 */
export const joinedDisplayName = (
  user: { firstName: string | null; lastName: string | null; email: string | null } | null,
): string | null => (user?.email ? joinNames(user.firstName, user.lastName) || user.email : null);
