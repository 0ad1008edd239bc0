// Patient activation codes (docs/decisions.md#identity): 10 characters of Crockford's base32
// (50 bits), shown in two groups of five for reading aloud, e.g. `7KQ2M-XD94R`. What a person
// types is read the Crockford way: any case, dashes and spaces ignored, I and L taken as 1, O as 0.
// Shared by the server (which makes and checks codes) and the signup form (which shows the field).
import { z } from 'zod';
import { patientSchema } from './patients.js';

/** Crockford's base32 alphabet: digits and letters without I, L, O and U. */
export const ACTIVATION_CODE_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
/** 10 characters × 5 bits = 50 bits of entropy. */
export const ACTIVATION_CODE_LENGTH = 10;
const GROUP = 5;

/** The canonical form of a typed code (10 alphabet characters), or null when it cannot be one. */
export function normalizeActivationCode(input: string): string | null {
  const cleaned = input.toUpperCase().replace(/[\s-]/g, '').replace(/[IL]/g, '1').replace(/O/g, '0');
  if (cleaned.length !== ACTIVATION_CODE_LENGTH) return null;
  for (const c of cleaned) if (!ACTIVATION_CODE_ALPHABET.includes(c)) return null;
  return cleaned;
}

/** `ABCDEFGHJK` -> `ABCDE-FGHJK` (how a code is shown, printed and mailed). */
export function formatActivationCode(code: string): string {
  const groups: string[] = [];
  for (let i = 0; i < code.length; i += GROUP) groups.push(code.slice(i, i + GROUP));
  return groups.join('-');
}

/** The patient's activation link: the signup page with the MRN and the code filled in. */
/**
 * The sign-up link with the MRN and code filled in; the mailed one also carries the address on file
 * (the one sign-up requires), so the form starts with it (issue 57).
 */
export const activationLink = (publicUrl: string, mrn: string, code: string, email?: string) =>
  `${publicUrl}/signup?mrn=${encodeURIComponent(mrn)}&code=${encodeURIComponent(code)}${
    email ? `&email=${encodeURIComponent(email)}` : ''
  }`;

/** What the hospital gets once, when it adds a patient or issues a new code. */
export const issuedActivationCodeSchema = z.object({
  /** Grouped (`ABCDE-FGHJK`); never shown again: only its keyed hash is kept. */
  activationCode: z.string(),
  activationCodeExpiresAt: z.string(),
  /** True when the patient has an e-mail on file: the activation link is being mailed to it. */
  activationLinkEmailed: z.boolean(),
});
export type IssuedActivationCode = z.infer<typeof issuedActivationCodeSchema>;

/** POST /api/patients answers the new patient with its first activation code. */
export const createdPatientSchema = patientSchema.extend(issuedActivationCodeSchema.shape);
export type CreatedPatient = z.infer<typeof createdPatientSchema>;
