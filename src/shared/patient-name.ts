// A patient's display name, apart from patients.ts's schemas so that a page listing patients does
// not load Zod for it.
import type { Patient } from './patients.js';

// At module level, not inside patientDisplayName: the server runs under tsx, whose esbuild keeps
// function names by defining `name` on every named closure as it is made, and a record list names
// each of its rows' patients (Object.defineProperty per row, in the record list's profile).
const joinNames = (a?: string | null, b?: string | null) => [a, b].filter((s) => s && s.trim()).join(' ');

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
