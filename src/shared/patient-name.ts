// A patient's display name, apart from patients.ts's schemas so that a page listing patients does
// not load Zod for it.
import type { Patient } from './patients.js';
import { joinNames } from './users.js';

/**
 * Display name (docs/spec.md#hospital-dashboard): own names, else the account's names, else e-mail,
 * else "Unknown Patient".
 */
export function patientDisplayName(
  p: Pick<Patient, 'firstName' | 'lastName' | 'email'> & { user?: Patient['user'] },
): string {
  return (
    joinNames(p.firstName, p.lastName) ||
    joinNames(p.user?.firstName, p.user?.lastName) ||
    p.email ||
    p.user?.email ||
    'Unknown Patient'
  );
}
