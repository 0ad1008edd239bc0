// Patient activation codes (docs/decisions.md#identity): made when a hospital adds a patient or
// asks for a new one, checked and used up when the patient signs up with their MRN.
//
// Why a keyed hash (HMAC-SHA256 under a key derived from the file key) and not plain SHA-256 or a
// slow hash: a code has 50 bits, which online guessing cannot reach (sign-ups are rate-limited per
// address and per MRN, and a code lives 30 days at most), but which a copy of the database could be
// searched through offline (2^50 SHA-256 is days on one GPU). The key is not in the database, so a
// stolen table alone yields nothing; and an HMAC costs nothing per sign-up, unlike scrypt/argon2.
import crypto from 'node:crypto';
import { addDays } from 'date-fns';
import { and, eq, gt, sql } from 'drizzle-orm';
import {
  ACTIVATION_CODE_ALPHABET,
  ACTIVATION_CODE_LENGTH,
  activationLink,
  formatActivationCode,
  normalizeActivationCode,
} from '../../../shared/activation.js';
import type { Db } from '../../db/connect.js';
import { activationCodes, patients, rateLimitCounters, users } from '../../db/schema.js';
import type { OutgoingMail } from '../../mail/mailer.js';
import { patientActivation } from '../../mail/templates.js';
import { joinNames } from '../../../shared/users.js';

/** The HKDF purpose of the codes' HMAC key: `ctx.files.deriveKey(ACTIVATION_KEY_PURPOSE)`. */
export const ACTIVATION_KEY_PURPOSE = 'activation-code';

export interface ActivationSettings {
  /** HMAC key of the stored hashes (`ctx.files.deriveKey(ACTIVATION_KEY_PURPOSE)`). */
  key: Buffer;
  /** How long a code stays valid (ACTIVATION_CODE_DAYS). */
  days: number;
}

export interface IssuedActivationCode {
  /** Grouped for reading (`ABCDE-FGHJK`); shown once, never stored. */
  code: string;
  expiresAt: Date;
}

/** 10 characters drawn uniformly from the 32-letter alphabet with Node's CSPRNG (50 bits). */
export function generateActivationCode(): string {
  let code = '';
  for (let i = 0; i < ACTIVATION_CODE_LENGTH; i++) code += ACTIVATION_CODE_ALPHABET[crypto.randomInt(32)];
  return code;
}

const hashCode = (key: Buffer, normalized: string) =>
  crypto.createHmac('sha256', key).update(normalized).digest('hex');

/**
 * The counter of patient sign-up attempts on one MRN from one address (REGISTER_MAX_PER_MRN an
 * hour). Per address as well as per MRN, so that guesses from elsewhere cannot lock the real
 * patient out, as a count over all addresses did (issue 56). Guessing stays out of reach: even
 * 10,000 addresses, each held to REGISTER_MAX_PER_IP tries in 15 minutes, make about 6·10^8 tries
 * over a code's 30 days against 2^50 (10^15) codes.
 */
export const signupAttemptsKey = (mrn: string, address: string) => `${signupAttemptsPrefix(mrn)}${address}`;
const signupAttemptsPrefix = (mrn: string) => `register-mrn:${mrn}:`;

/**
 * A new code for the patient, replacing any earlier one (which is void from now on). The MRN's
 * sign-up attempt counts start again, so the new code works at once, wherever the earlier
 * attempts came from.
 */
export async function issueActivationCode(
  tx: Db,
  settings: ActivationSettings,
  patientRowId: string,
  now: Date,
): Promise<IssuedActivationCode> {
  const code = generateActivationCode();
  const expiresAt = addDays(now, settings.days);
  const codeHash = hashCode(settings.key, code);
  await tx
    .insert(activationCodes)
    .values({ patientId: patientRowId, codeHash, expiresAt, createdAt: now })
    .onConflictDoUpdate({
      target: activationCodes.patientId,
      set: { codeHash, expiresAt, createdAt: now },
    });
  const [patient] = await tx
    .select({ mrn: patients.patientId })
    .from(patients)
    .where(eq(patients.id, patientRowId));
  if (patient)
    await tx
      .delete(rateLimitCounters)
      .where(sql`starts_with(${rateLimitCounters.key}, ${signupAttemptsPrefix(patient.mrn)})`);
  return { code: formatActivationCode(code), expiresAt };
}

/**
 * Uses the patient's code up when `presented` is it and it has not expired: true once, false for a
 * wrong, expired, replaced or already used code (the caller answers all of them the same way).
 * One conditional delete, so two sign-ups racing with the same code cannot both succeed. Comparing
 * the HMAC in SQL leaks nothing useful by timing: without the key nobody can aim at a stored value.
 */
export async function consumeActivationCode(
  tx: Db,
  key: Buffer,
  patientRowId: string,
  presented: string,
  now: Date,
): Promise<boolean> {
  const normalized = normalizeActivationCode(presented);
  if (!normalized) return false;
  const used = await tx
    .delete(activationCodes)
    .where(
      and(
        eq(activationCodes.patientId, patientRowId),
        eq(activationCodes.codeHash, hashCode(key, normalized)),
        gt(activationCodes.expiresAt, now),
      ),
    )
    .returning({ patientId: activationCodes.patientId });
  return used.length === 1;
}

/**
 * The activation mail for a patient with an e-mail on file (null without one). It is sent straight
 * after the commit (`ctx.mail.later`) rather than through the notification job table: a job would
 * keep the code in the database in the clear, and the hospital holds the code anyway (the dialog
 * shows it; a lost mail is answered by issuing a new code).
 */
export async function activationMail(
  db: Db,
  publicUrl: string,
  patientRowId: string,
  issued: IssuedActivationCode,
): Promise<OutgoingMail | null> {
  const [row] = await db
    .select({ patient: patients, hospitalName: users.hospitalName })
    .from(patients)
    .innerJoin(users, eq(users.id, patients.createdByHospitalId))
    .where(eq(patients.id, patientRowId));
  const email = row?.patient.email;
  if (!email || row.patient.userId) return null;
  const { patient } = row;
  return patientActivation(
    email,
    {
      name: joinNames(patient.firstName, patient.lastName) || email,
      hospitalName: row.hospitalName ?? 'Your healthcare provider',
      mrn: patient.patientId,
      code: issued.code,
      expires: `${issued.expiresAt.toISOString().slice(0, 10)} (UTC)`,
    },
    activationLink(publicUrl, patient.patientId, issued.code, email),
  );
}
