// MRNs (docs/decisions.md#mrns): `MRN` + year + 6 random digits, unique. The unique index on
// patients.patient_id is the final word; callers retry on a collision.
import crypto from 'node:crypto';

export function generateMrn(now: Date): string {
  const digits = String(crypto.randomInt(0, 1_000_000)).padStart(6, '0');
  return `MRN${now.getUTCFullYear()}${digits}`;
}

export const MRN_ATTEMPTS = 8;
