// Two-factor sign-in (issue 9): TOTP per RFC 6238 (SHA-1, 6 digits, 30 s, one step of drift either
// way) with otpauth, and ten single-use recovery codes. The secret is kept encrypted (AES-256-GCM
// under a key derived from the file key, the user id as associated data) and never shown again
// once confirmed; the last time step used is stored so that a code cannot be replayed.
import crypto from 'node:crypto';
import { and, count, eq, gt, isNull, lt, or, sql } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import {
  PENDING_LOGIN_MINUTES,
  RECOVERY_CODE_COUNT,
  TOTP_DIGITS,
  TOTP_ISSUER,
  TOTP_PERIOD_SECONDS,
  TWO_FACTOR_MESSAGES,
  type TwoFactorSetup,
  type TwoFactorStatus,
} from '../../../shared/account.js';
import type { Db } from '../../db/connect.js';
import { pendingLogins, recoveryCodes, userTwoFactor, users } from '../../db/schema.js';
import { HttpError, badRequest, conflict, forbidden, notFound, unauthorized } from '../../errors.js';
import { recordAudit, type AuditActor } from '../audit/service.js';
import { verifyPassword } from './passwords.js';
import { reserveSignInAttempt, signInSucceeded } from './throttle.js';
import { sha256Hex } from '../../digest.js';
import type { Actor } from '../../access.js';

/** A pending sign-in is dropped after this many wrong codes (the throttle also counts them). */
const PENDING_MAX_FAILURES = 5;
/** A set-up not confirmed within this time must be started again. */
const SETUP_VALID_MS = 60 * 60_000;

export interface TwoFactorDeps {
  db: Db;
  /** 32 bytes: encrypts the TOTP secrets at rest. */
  secretKey: Buffer;
  loginMaxFailures: number;
}

type UserRow = typeof users.$inferSelect;
/** The signed-in user changing their own two-factor sign-in (the e-mail labels the TOTP account). */
type AccountHolder = Pick<Actor, 'id' | 'ip' | 'role'> & { email: string };

/** Recovery codes are kept as HMAC-SHA256 under the server key: a copy of the table alone cannot be searched. */
const recoveryHash = (key: Buffer, code: string) =>
  crypto
    .createHmac('sha256', key)
    .update(`recovery:${normaliseRecovery(code)}`)
    .digest('hex');

function encryptSecret(key: Buffer, userId: string, base32: string): string {
  const iv = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(userId));
  const data = Buffer.concat([cipher.update(base32, 'utf8'), cipher.final()]);
  return `v1:${Buffer.concat([iv, cipher.getAuthTag(), data]).toString('base64')}`;
}

function decryptSecret(key: Buffer, userId: string, stored: string): string {
  const raw = Buffer.from(stored.slice(3), 'base64');
  const decipher = crypto.createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
  decipher.setAAD(Buffer.from(userId));
  decipher.setAuthTag(raw.subarray(12, 28));
  return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
}

export function totpFor(base32: string, email: string): TOTP {
  return new TOTP({
    issuer: TOTP_ISSUER,
    label: email,
    algorithm: 'SHA1',
    digits: TOTP_DIGITS,
    period: TOTP_PERIOD_SECONDS,
    secret: Secret.fromBase32(base32),
  });
}

/** The time step a 6-digit code belongs to (within one step of `now`), or null. */
function matchingStep(totp: TOTP, code: string, now: Date): number | null {
  if (!new RegExp(`^\\d{${TOTP_DIGITS}}$`).test(code)) return null;
  const delta = totp.validate({ token: code, timestamp: now.getTime(), window: 1 });
  return delta === null ? null : totp.counter({ timestamp: now.getTime() }) + delta;
}

/** "abcde-fghij": 50 random bits in an unambiguous lower-case alphabet. */
function newRecoveryCode(): string {
  const alphabet = 'abcdefghjkmnpqrstuvwxyz23456789';
  const bytes = crypto.randomBytes(10);
  const chars = [...bytes].map((b) => alphabet[b % alphabet.length]).join('');
  return `${chars.slice(0, 5)}-${chars.slice(5)}`;
}
const normaliseRecovery = (code: string) => code.replace(/[\s-]/g, '').toLowerCase();

async function twoFactorRow(db: Db, userId: string) {
  const [row] = await db.select().from(userTwoFactor).where(eq(userTwoFactor.userId, userId));
  return row ?? null;
}

export async function twoFactorStatus(db: Db, userId: string): Promise<TwoFactorStatus> {
  const [user] = await db.select({ on: users.twoFactorEnabled }).from(users).where(eq(users.id, userId));
  const [left] = await db
    .select({ n: count() })
    .from(recoveryCodes)
    .where(and(eq(recoveryCodes.userId, userId), isNull(recoveryCodes.usedAt)));
  return { enabled: user?.on ?? false, recoveryCodesLeft: user?.on ? Number(left?.n ?? 0) : 0 };
}

/** A new secret, kept as pending until a code from it is confirmed. */
export async function startSetup(
  deps: TwoFactorDeps,
  actor: AccountHolder,
  now: Date,
): Promise<TwoFactorSetup> {
  const [user] = await deps.db.select().from(users).where(eq(users.id, actor.id));
  if (user?.twoFactorEnabled) {
    throw conflict('Two-factor sign-in is already on. Turn it off first to set it up again.');
  }
  const secret = new Secret({ size: 20 }).base32;
  const pendingSecret = encryptSecret(deps.secretKey, actor.id, secret);
  await deps.db
    .insert(userTwoFactor)
    .values({ userId: actor.id, pendingSecret, pendingCreatedAt: now })
    .onConflictDoUpdate({ target: userTwoFactor.userId, set: { pendingSecret, pendingCreatedAt: now } });
  return { secret, otpauthUri: totpFor(secret, actor.email).toString() };
}

/** Confirms the pending secret with a code from it; answers the recovery codes, shown this once. */
export async function enableTwoFactor(
  deps: TwoFactorDeps,
  actor: AccountHolder,
  code: string,
  now: Date,
): Promise<string[]> {
  const row = await twoFactorRow(deps.db, actor.id);
  const [user] = await deps.db.select().from(users).where(eq(users.id, actor.id));
  if (user?.twoFactorEnabled) throw conflict('Two-factor sign-in is already on.');
  if (
    !row?.pendingSecret ||
    !row.pendingCreatedAt ||
    now.getTime() - row.pendingCreatedAt.getTime() > SETUP_VALID_MS
  ) {
    throw badRequest('Start the two-factor set-up first (or again: the last one has expired).');
  }
  // Wrong codes here are counted like sign-in attempts: a stolen session cannot guess at speed.
  await reserveSignInAttempt(deps.db, `2fa-setup:${actor.email}`, actor.ip, deps.loginMaxFailures, now);
  const secret = decryptSecret(deps.secretKey, actor.id, row.pendingSecret);
  const step = matchingStep(totpFor(secret, actor.email), code, now);
  if (step === null) throw badRequest(TWO_FACTOR_MESSAGES.codeInvalid);
  await signInSucceeded(deps.db, `2fa-setup:${actor.email}`, actor.ip);
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  await deps.db.transaction(async (tx) => {
    await tx
      .update(userTwoFactor)
      .set({
        secret: encryptSecret(deps.secretKey, actor.id, secret),
        pendingSecret: null,
        pendingCreatedAt: null,
        lastUsedStep: step,
        enabledAt: now,
      })
      .where(eq(userTwoFactor.userId, actor.id));
    await tx.update(users).set({ twoFactorEnabled: true }).where(eq(users.id, actor.id));
    await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, actor.id));
    await tx
      .insert(recoveryCodes)
      .values(
        codes.map((c) => ({ userId: actor.id, codeHash: recoveryHash(deps.secretKey, c), createdAt: now })),
      );
    await recordAudit(tx, actor, {
      event: { kind: 'two_factor_change', data: { change: 'on' } },
      subject: { type: 'user', id: actor.id, role: actor.role },
    });
  });
  return codes;
}

/** Turns two-factor sign-in off after the password is confirmed (throttled like a sign-in). */
export async function disableTwoFactor(
  deps: TwoFactorDeps,
  actor: AccountHolder,
  password: string,
  now: Date,
) {
  await reserveSignInAttempt(deps.db, actor.email, actor.ip, deps.loginMaxFailures, now);
  const [user] = await deps.db.select().from(users).where(eq(users.id, actor.id));
  if (!user || !(await verifyPassword(user.password, password))) {
    throw forbidden('The password is not correct.');
  }
  await signInSucceeded(deps.db, actor.email, actor.ip);
  if (!user.twoFactorEnabled) throw conflict('Two-factor sign-in is not on.');
  await clearTwoFactor(deps.db, user, { id: user.id, ip: actor.ip }, 'off');
}

/**
 * Checks a second-factor code and uses it up: a TOTP code only for a time step after the last one
 * used (one atomic update, so two requests with one code cannot both pass), a recovery code once.
 */
export async function useSecondFactor(
  db: Db,
  secretKey: Buffer,
  user: UserRow,
  code: string,
  now: Date,
): Promise<'totp' | 'recovery' | null> {
  const row = await twoFactorRow(db, user.id);
  if (!row?.secret) return null;
  if (/^\d+$/.test(code)) {
    const step = matchingStep(totpFor(decryptSecret(secretKey, user.id, row.secret), user.email), code, now);
    if (step === null) return null;
    const used = await db
      .update(userTwoFactor)
      .set({ lastUsedStep: step })
      .where(
        and(
          eq(userTwoFactor.userId, user.id),
          or(isNull(userTwoFactor.lastUsedStep), lt(userTwoFactor.lastUsedStep, step)),
        ),
      )
      .returning({ userId: userTwoFactor.userId });
    return used.length > 0 ? 'totp' : null;
  }
  const used = await db
    .update(recoveryCodes)
    .set({ usedAt: now })
    .where(
      and(
        eq(recoveryCodes.userId, user.id),
        eq(recoveryCodes.codeHash, recoveryHash(secretKey, code)),
        isNull(recoveryCodes.usedAt),
      ),
    )
    .returning({ id: recoveryCodes.id });
  return used.length > 0 ? 'recovery' : null;
}

/** The password was right and two-factor is on: a pending sign-in for this browser's cookie. */
export async function createPendingLogin(
  db: Db,
  userId: string,
  remember: boolean,
  now: Date,
): Promise<{ token: string; expire: Date }> {
  const token = crypto.randomBytes(32).toString('base64url');
  const expire = new Date(now.getTime() + PENDING_LOGIN_MINUTES * 60_000);
  await db
    .insert(pendingLogins)
    .values({ tokenHash: sha256Hex(token), userId, remember, expire, createdAt: now });
  return { token, expire };
}

export async function dropPendingLogin(db: Db, token: string | undefined) {
  if (token && token.length <= 100)
    await db.delete(pendingLogins).where(eq(pendingLogins.tokenHash, sha256Hex(token)));
}

/**
 * The second step of a sign-in: the pending sign-in of this browser, and a code (throttled with
 * the password attempts of the account and address). Answers the user; the caller completes it.
 */
export async function verifyPendingLogin(
  deps: TwoFactorDeps,
  token: string | undefined,
  code: string,
  ip: string,
  now: Date,
): Promise<{ user: UserRow; remember: boolean; method: 'totp' | 'recovery' }> {
  if (!token || token.length > 100) throw unauthorized(TWO_FACTOR_MESSAGES.noPendingLogin);
  const [pending] = await deps.db
    .select()
    .from(pendingLogins)
    .where(
      and(
        eq(pendingLogins.tokenHash, sha256Hex(token)),
        eq(pendingLogins.proof, 'code'),
        gt(pendingLogins.expire, now),
      ),
    );
  if (!pending) throw unauthorized(TWO_FACTOR_MESSAGES.noPendingLogin);
  const [user] = await deps.db.select().from(users).where(eq(users.id, pending.userId));
  if (!user?.twoFactorEnabled) throw unauthorized(TWO_FACTOR_MESSAGES.noPendingLogin);
  await reserveSignInAttempt(deps.db, user.email, ip, deps.loginMaxFailures, now);
  const method = await useSecondFactor(deps.db, deps.secretKey, user, code, now);
  if (!method) {
    const [row] = await deps.db
      .update(pendingLogins)
      .set({ failures: sql`${pendingLogins.failures} + 1` })
      .where(eq(pendingLogins.tokenHash, pending.tokenHash))
      .returning({ failures: pendingLogins.failures });
    if ((row?.failures ?? PENDING_MAX_FAILURES) >= PENDING_MAX_FAILURES) {
      await deps.db.delete(pendingLogins).where(eq(pendingLogins.tokenHash, pending.tokenHash));
    }
    throw new HttpError(401, TWO_FACTOR_MESSAGES.codeInvalid);
  }
  // One use: a second request with the same cookie finds nothing.
  const taken = await deps.db
    .delete(pendingLogins)
    .where(eq(pendingLogins.tokenHash, pending.tokenHash))
    .returning({ userId: pendingLogins.userId });
  if (taken.length === 0) throw unauthorized(TWO_FACTOR_MESSAGES.noPendingLogin);
  // The password step counted as an attempt too: a finished sign-in gives it back to the address
  // (completeSignIn gives back the code's).
  await signInSucceeded(deps.db, user.email, ip);
  return { user, remember: pending.remember, method };
}

/**
 * Turns two-factor sign-in off for a locked-out user (lost phone and recovery codes), from the
 * server's command line (`npm run admin -- reset-two-factor --email E`). Answers whether it was on.
 */
export async function resetTwoFactor(db: Db, email: string): Promise<boolean> {
  const [user] = await db.select().from(users).where(eq(users.email, email.trim().toLowerCase()));
  if (!user) throw notFound('No account has this e-mail.');
  const wasOn = user.twoFactorEnabled;
  // Done by an administrator at the command line, not by the account's holder: no user acted.
  await clearTwoFactor(db, user, { id: null, ip: null }, 'reset');
  return wasOn;
}

/**
 * Two-factor sign-in off, in one transaction: the secret, the recovery codes and any sign-in
 * waiting for a code go, and the change is audited. The user's own "turn off" and the
 * administrator's reset both end here, so they cannot drift apart.
 */
async function clearTwoFactor(
  db: Db,
  user: Pick<Actor, 'id' | 'role'>,
  actor: AuditActor,
  change: 'off' | 'reset',
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.update(users).set({ twoFactorEnabled: false }).where(eq(users.id, user.id));
    await tx.delete(userTwoFactor).where(eq(userTwoFactor.userId, user.id));
    await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, user.id));
    await tx.delete(pendingLogins).where(eq(pendingLogins.userId, user.id));
    await recordAudit(tx, actor, {
      event: { kind: 'two_factor_change', data: { change } },
      subject: { type: 'user', id: user.id, role: user.role },
    });
  });
}
