// Accounts: signup (docs/spec.md#validation, docs/decisions.md#accounts-and-signup), sign-in with
// throttling (one call, `signIn`, for every proof; the route only writes the cookies it answers),
// admin creation.
import { and, eq, isNull } from 'drizzle-orm';
import type { PasswordChangeInput } from '../../../shared/account.js';
import { ACCOUNT_SUSPENDED } from '../../../shared/admin-users.js';
import { PORTAL_DENIED, PORTAL_ROLE, type LoginInput, type RegisterInput } from '../../../shared/auth.js';
import type { PublicUser } from '../../../shared/users.js';
import type { Db } from '../../db/connect.js';
import type { Mailer } from '../../mail/mailer.js';
import { isUniqueViolation } from '../../db/outage.js';
import { patients, users } from '../../db/schema.js';
import { HttpError, badRequest, conflict, forbidden, tooManyRequests } from '../../errors.js';
import { recordAudit } from '../audit/service.js';
import { startTrial } from '../billing/service.js';
import {
  createSession,
  destroySession,
  destroyUserSessions,
  type DeviceInfo,
} from '../../plugins/session.js';
import { newHospitalAccount, organization, readPublicUser, toPublicUser } from '../../users.js';
import { STAFF_DEACTIVATED, acceptStaffInvitation, usableStaffInvitation } from '../staff/invitations.js';
import { hashPassword, verifyAgainstDummy, verifyPassword } from './passwords.js';
import { recordSignInDevice } from './devices.js';
import { mailSignInLink, useSignInLink } from './sign-in-links.js';
import { reserveSignInAttempt, signInSucceeded } from './throttle.js';
import { createPendingLogin, dropPendingLogin, verifyPendingLogin } from './two-factor.js';
import { notifyPatientClaimed, notifyTrialEnding } from '../notifications/events.js';
import { consumeActivationCode, signupAttemptsKey } from '../patients/activation.js';
import { countHit } from '../../plugins/rate-limit-store.js';
import { grantInvitation, usableInvitation } from '../proxy/invitations.js';
import { accountCreated, signupWithTakenAddress } from '../../mail/templates.js';

export const EMAIL_TAKEN = 'An account with this email already exists.';
/**
 * One message for every failure of a patient's claim (unknown or claimed MRN, another e-mail than
 * the one on file, a wrong, expired, replaced or used activation code), so that signup does not
 * reveal which check failed.
 */
export const MRN_NOT_MATCHED =
  'We could not match this Medical Record Number and activation code. Check both with your healthcare provider, and use the email address they have on file.';
export const MRN_RATE_LIMITED =
  'Too many sign-up attempts for this Medical Record Number from your network. Please wait an hour, or ask your healthcare provider for a new activation code, which works at once.';
export const MRN_WINDOW_MS = 60 * 60_000;

/**
 * What a patient's signup needs besides the form: the codes' HMAC key, the per-MRN-and-address
 * limit and the address the attempt comes from.
 */
export interface PatientClaimSettings {
  activationKey: Buffer;
  /** Sign-up attempts per MRN, address and hour (REGISTER_MAX_PER_MRN), counted in the database. */
  maxPerMrn: number;
  address: string;
}
export const INVALID_CREDENTIALS = 'Invalid credentials';

/**
 * What a signup came to. The signup route answers both alike and mails the address (a welcome, or
 * a word to its owner), so that signup does not tell who has an account (issue 56, item 11).
 */
export type SignupOutcome =
  | { created: true; user: PublicUser }
  | { created: false; owner: { email: string; firstName: string | null } };

/** Thrown inside the signup transaction to roll back every check's work (a used code comes back). */
class AddressTaken extends Error {}

export async function registerUser(
  db: Db,
  input: RegisterInput,
  now = new Date(),
  claim?: PatientClaimSettings,
): Promise<SignupOutcome> {
  if (input.role === 'medledger_admin') {
    throw forbidden('Administrator accounts cannot be created by signup.');
  }
  const activationKey = claim?.activationKey;
  if (input.role === 'patient') {
    if (!claim || !activationKey) throw new Error('registerUser: a patient signup needs the claim settings');
    // Counted before anything is checked (or hashed), in its own statement, so every attempt on an
    // MRN from an address counts, across processes, whatever its outcome. Known and unknown MRNs
    // count alike. A new activation code starts the MRN's counts again (activation.ts).
    const key = signupAttemptsKey(input.mrn ?? '', claim.address);
    const { hits } = await countHit(db, key, MRN_WINDOW_MS, now);
    if (hits > claim.maxPerMrn) throw tooManyRequests(MRN_RATE_LIMITED);
  }
  // Hashed whether or not the address is taken, so that the taken case is not quicker.
  const passwordHash = await hashPassword(input.password);
  try {
    const user = await db.transaction(async (tx) => {
      // Every check of the MRN, code and invitation comes before the address is looked at, so
      // their refusals are the same for a taken address and a new one.
      let patientRowId: string | null = null;
      if (input.role === 'patient' && activationKey) {
        const [patient] = await tx
          .select()
          .from(patients)
          .where(and(eq(patients.patientId, input.mrn ?? ''), isNull(patients.userId)))
          // The patient row before its code, in the order a new code is issued: no deadlock.
          .for('update');
        const emailOnFile = patient?.email?.trim().toLowerCase();
        if (!patient || (emailOnFile && emailOnFile !== input.email)) throw badRequest(MRN_NOT_MATCHED);
        // The code dies here; a failure later in this transaction brings it back.
        const codeOk = await consumeActivationCode(
          tx,
          activationKey,
          patient.id,
          input.activationCode ?? '',
          now,
        );
        if (!codeOk) throw badRequest(MRN_NOT_MATCHED);
        patientRowId = patient.id;
      }
      const invitation =
        input.role === 'family'
          ? await usableInvitation(tx, input.inviteToken ?? '', input.email, now)
          : null;
      // A hospital signup with an invitation joins the inviting hospital as one of its staff.
      const staffInvitation =
        input.role === 'hospital' && input.inviteToken
          ? await usableStaffInvitation(tx, input.inviteToken, input.email, now)
          : null;
      const newHospital = input.role === 'hospital' && !staffInvitation;

      const [existing] = await tx.select({ id: users.id }).from(users).where(eq(users.email, input.email));
      if (existing) throw new AddressTaken();

      const [user] = await tx
        .insert(users)
        .values({
          email: input.email,
          password: passwordHash,
          role: input.role,
          firstName: input.firstName,
          lastName: input.lastName,
          hospitalName: newHospital ? (input.hospitalName ?? null) : null,
          hospitalAdminEmail: newHospital ? input.email : null,
          timeZone: newHospital ? (input.timeZone ?? 'UTC') : 'UTC',
          ...(newHospital ? newHospitalAccount() : {}),
          ...(staffInvitation
            ? {
                hospitalId: staffInvitation.hospitalId,
                staffRole: staffInvitation.staffRole,
                department: staffInvitation.department,
              }
            : {}),
        })
        .returning();

      if (patientRowId) {
        // The isNull guard makes a concurrent claim of the same MRN fail instead of overwrite.
        const claimed = await tx
          .update(patients)
          .set({ userId: user.id, updatedAt: now })
          .where(and(eq(patients.id, patientRowId), isNull(patients.userId)))
          .returning({ id: patients.id });
        if (claimed.length === 0) throw badRequest(MRN_NOT_MATCHED);
        await notifyPatientClaimed(tx, patientRowId, now);
      }
      // The sign-up's address is the family member's, recorded with their acceptance.
      if (invitation) await grantInvitation(tx, user.id, invitation, claim?.address ?? null, now);
      if (staffInvitation)
        await acceptStaffInvitation(tx, staffInvitation, user.id, claim?.address ?? null, now);
      if (newHospital) await startTrial(tx, user.id, now);
      if (newHospital) await notifyTrialEnding(tx, user.id, now);
      return readPublicUser(tx, user.id, null);
    });
    return { created: true, user };
  } catch (err) {
    if (err instanceof HttpError) throw err;
    // A concurrent signup with the same address committed first (the unique index): taken alike.
    if (!(err instanceof AddressTaken) && !isUniqueViolation(err)) throw err;
    const [owner] = await db
      .select({ email: users.email, firstName: users.firstName })
      .from(users)
      .where(eq(users.email, input.email));
    if (!owner) throw err;
    return { created: false, owner };
  }
}

/**
 * The mail that follows every signup, after the answer: a welcome to a new account, or a word to
 * the owner of a taken address (sign in, or reset the password).
 */
export async function mailSignupOutcome(mail: Mailer, publicUrl: string, outcome: SignupOutcome) {
  const signInUrl = `${publicUrl}/`;
  await mail.send(
    outcome.created
      ? accountCreated(outcome.user.email, outcome.user.firstName ?? '', signInUrl)
      : signupWithTakenAddress(outcome.owner.email, outcome.owner.firstName ?? '', signInUrl),
  );
}

/** Suspended by an administrator: the account itself, or the hospital it is a member of. */
async function isSuspended(db: Db, user: Pick<UserRow, 'id' | 'suspendedAt' | 'hospitalId'>) {
  if (user.suspendedAt) return true;
  if (!user.hospitalId || user.hospitalId === user.id) return false;
  const [org] = await db
    .select({ suspendedAt: organization.suspendedAt })
    .from(organization)
    .where(eq(organization.id, user.hospitalId));
  return !!org?.suspendedAt;
}

export interface LoginResult {
  user: PublicUser;
  userId: string;
  previousLoginAt: string | null;
}

type UserRow = typeof users.$inferSelect;

/**
 * The answer to every sign-in on an account under attack (past its cap), right password or wrong,
 * known address or not: guessing past the cap learns nothing, and the owner is told what to do.
 */
export const SIGN_IN_LINK_SENT =
  'Too many failed sign-in attempts on this account. If your password was right, we have e-mailed you a link to finish signing in.';

/** How an account under attack gets its e-mailed sign-in link (sign-in-links.ts). */
export interface SignInLinkDeps {
  mail: Mailer;
  publicUrl: string;
}

/**
 * The password step: the account when the credentials are right (throttled), else 401. On an
 * account under attack a right password is not enough: an account with two-factor goes on to its
 * code (which a guesser lacks); any other answers SIGN_IN_LINK_SENT, and when the password was
 * right a sign-in link is mailed, after the answer (so its timing tells nothing).
 */
export async function checkPassword(
  db: Db,
  input: LoginInput,
  ip: string,
  maxFailures: number,
  now: Date,
  links: SignInLinkDeps,
): Promise<UserRow> {
  const { underAttack } = await reserveSignInAttempt(db, input.email, ip, maxFailures, now);
  const [user] = await db.select().from(users).where(eq(users.email, input.email));
  const ok = user
    ? await verifyPassword(user.password, input.password)
    : (await verifyAgainstDummy(input.password), false);
  if (underAttack && !(ok && user?.twoFactorEnabled)) {
    if (ok && user) links.mail.later(() => mailSignInLink(db, links, user.id, input.remember ?? false, now));
    throw tooManyRequests(SIGN_IN_LINK_SENT);
  }
  if (!user || !ok) throw new HttpError(401, INVALID_CREDENTIALS);
  // The right password, but no sign-in follows: a suspended account, or another role's sign-in
  // page. Neither is a guess, so the attempt is given back; lastLoginAt and the audit stay as
  // they were (only completeSignIn writes them).
  const refusal = (await isSuspended(db, user))
    ? ACCOUNT_SUSPENDED
    : user.deactivatedAt
      ? STAFF_DEACTIVATED
      : input.portal && PORTAL_ROLE[input.portal] !== user.role
        ? PORTAL_DENIED[input.portal]
        : null;
  if (refusal) {
    await signInSucceeded(db, input.email, ip);
    throw forbidden(refusal);
  }
  return user;
}

/**
 * A sign-in that passed every step: the throttle's counters end, the sign-in time is kept and the
 * `login` audit entry written; `inTransaction` adds the caller's work (the device) to it.
 */
export async function completeSignIn(
  db: Db,
  user: UserRow,
  ip: string,
  now: Date,
  how: string | null = null,
  inTransaction?: (tx: Db) => Promise<void>,
): Promise<LoginResult> {
  const previousLoginAt = user.lastLoginAt?.toISOString() ?? null;
  await db.transaction(async (tx) => {
    // Suspended between the password and the code step (or at this very moment): no sign-in.
    const stamped = await tx
      .update(users)
      .set({ lastLoginAt: now })
      .where(and(eq(users.id, user.id), isNull(users.suspendedAt), isNull(users.deactivatedAt)))
      .returning({ id: users.id, deactivatedAt: users.deactivatedAt });
    if (stamped.length === 0) throw forbidden(ACCOUNT_SUSPENDED);
    if (await isSuspended(tx, user)) throw forbidden(ACCOUNT_SUSPENDED);
    await recordAudit(
      tx,
      { id: user.id, ip },
      {
        event: { kind: 'login', data: { role: user.role, ...(how ? { how } : {}) } },
        subject: { type: 'user', id: user.id, role: user.role },
      },
    );
    if (inTransaction) await inTransaction(tx);
  });
  await signInSucceeded(db, user.email, ip);
  return { user: await readPublicUser(db, user.id, previousLoginAt), userId: user.id, previousLoginAt };
}

/**
 * Changes the password of a signed-in user: the current one must be right (throttled like a
 * sign-in); every other session of the user ends; audited.
 */
export async function changePassword(
  db: Db,
  actor: { id: string; email: string; ip: string; sessionId: string },
  input: PasswordChangeInput,
  maxFailures: number,
  now: Date,
): Promise<number> {
  await reserveSignInAttempt(db, actor.email, actor.ip, maxFailures, now);
  const [user] = await db.select().from(users).where(eq(users.id, actor.id));
  if (!user || !(await verifyPassword(user.password, input.currentPassword))) {
    throw forbidden('The current password is not correct.');
  }
  await signInSucceeded(db, actor.email, actor.ip);
  if (input.newPassword === input.currentPassword) {
    throw badRequest('The new password must be different from the current one.');
  }
  const passwordHash = await hashPassword(input.newPassword);
  return db.transaction(async (tx) => {
    await tx.update(users).set({ password: passwordHash }).where(eq(users.id, actor.id));
    const ended = await destroyUserSessions(tx, actor.id, actor.sessionId);
    await recordAudit(tx, actor, {
      event: { kind: 'password_change', data: { sessionsEnded: ended } },
      subject: { type: 'user', id: actor.id, role: user.role },
    });
    return ended;
  });
}

/** Creates an administrator (the CLI and ADMIN_EMAIL/ADMIN_PASSWORD on first start). */
export async function createAdmin(
  db: Db,
  email: string,
  password: string,
): Promise<{ created: boolean; user: PublicUser }> {
  const normalised = email.trim().toLowerCase();
  const [existing] = await db.select().from(users).where(eq(users.email, normalised));
  if (existing) {
    if (existing.role !== 'medledger_admin') throw conflict(EMAIL_TAKEN);
    return { created: false, user: toPublicUser(existing) };
  }
  const [user] = await db
    .insert(users)
    .values({ email: normalised, password: await hashPassword(password), role: 'medledger_admin' })
    .returning();
  return { created: true, user: toPublicUser(user) };
}

/** One way of proving who signs in: the password, the second step's code, or an e-mailed link. */
export type SignInProof =
  | { kind: 'password'; input: LoginInput }
  | { kind: 'second-factor'; code: string }
  | { kind: 'link'; token: string };

/** What the browser brings to a sign-in: its address and agent, and the cookies that matter. */
export interface SignInBrowser {
  ip: string;
  device: DeviceInfo;
  /** The session it had before (ended and replaced: a new id for every sign-in). */
  sessionId?: string;
  /** The pending sign-in waiting for its second step. */
  pendingToken?: string;
  /** The device cookie that recognises it (devices.ts). */
  deviceToken?: string;
}

export interface SignInSettings {
  db: Db;
  loginMaxFailures: number;
  sessionTtlHours: number;
  /** The key two-factor secrets are sealed with. */
  totpKey: Buffer;
  links: SignInLinkDeps;
}

/** The cookies a sign-in sets or ends; the route (the HTTP edge) writes them. */
export interface SignInCookies {
  session?: { sid: string; expire: Date; remember: boolean };
  device?: string;
  pending?: { token: string; expire: Date };
  clearSession?: boolean;
  clearPending?: boolean;
}

export interface SignedIn {
  answer: { user: PublicUser };
  cookies: SignInCookies;
}
export type SignInResult =
  SignedIn | { answer: { twoFactorRequired: true; message: string }; cookies: SignInCookies };

export const SECOND_STEP_MESSAGE = 'Enter the 6-digit code from your authenticator app, or a recovery code.';

/**
 * A sign-in, whichever its proof: the password (which may lead to the second step instead), the
 * second step's code, or an e-mailed sign-in link. Every proof that completes a sign-in ends
 * alike: audit, device (and its mail when new), a fresh session. Answers what to send and the
 * cookies to set.
 */
export async function signIn(
  settings: SignInSettings,
  proof: Exclude<SignInProof, { kind: 'password' }>,
  browser: SignInBrowser,
  now: Date,
): Promise<SignedIn>;
export async function signIn(
  settings: SignInSettings,
  proof: SignInProof,
  browser: SignInBrowser,
  now: Date,
): Promise<SignInResult>;
export async function signIn(
  settings: SignInSettings,
  proof: SignInProof,
  browser: SignInBrowser,
  now: Date,
): Promise<SignInResult> {
  const { db } = settings;
  if (proof.kind === 'password') {
    const user = await checkPassword(
      db,
      proof.input,
      browser.ip,
      settings.loginMaxFailures,
      now,
      settings.links,
    );
    // Rotate: whatever session the browser had before is ended, and a new id is issued.
    if (browser.sessionId) await destroySession(db, browser.sessionId);
    const remember = proof.input.remember ?? false;
    await dropPendingLogin(db, browser.pendingToken);
    if (!user.twoFactorEnabled) return startSession(settings, user, remember, null, browser, now, {});
    // Nobody is signed in yet: this browser holds a pending sign-in for the second step.
    const pending = await createPendingLogin(db, user.id, remember, now);
    return {
      answer: { twoFactorRequired: true, message: SECOND_STEP_MESSAGE },
      cookies: { pending, clearSession: !!browser.sessionId },
    };
  }
  if (proof.kind === 'second-factor') {
    const { user, remember, method } = await verifyPendingLogin(
      { db, secretKey: settings.totpKey, loginMaxFailures: settings.loginMaxFailures },
      browser.pendingToken,
      proof.code,
      browser.ip,
      now,
    );
    const how = method === 'recovery' ? 'with a recovery code' : 'with two-factor';
    return startSession(settings, user, remember, how, browser, now, { clearPending: true });
  }
  const { user, remember } = await useSignInLink(db, proof.token, now);
  return startSession(settings, user, remember, 'with an e-mailed sign-in link', browser, now, {});
}

/** Every step passed: audit, device (and its mail when new), and a fresh session. */
async function startSession(
  settings: SignInSettings,
  user: UserRow,
  remember: boolean,
  how: string | null,
  browser: SignInBrowser,
  now: Date,
  cookies: SignInCookies,
): Promise<SignedIn> {
  let device = '';
  const result = await completeSignIn(settings.db, user, browser.ip, now, how, async (tx) => {
    device = await recordSignInDevice(tx, user.id, browser.deviceToken, browser.device, now);
  });
  const { sid, expire } = await createSession(
    settings.db,
    { userId: result.userId, previousLoginAt: result.previousLoginAt },
    settings.sessionTtlHours,
    remember,
    browser.device,
  );
  return {
    answer: { user: result.user },
    cookies: { ...cookies, session: { sid, expire, remember }, device },
  };
}
