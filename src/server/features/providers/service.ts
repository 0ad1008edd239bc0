// Provider onboarding (docs/spec.md#purpose-and-users and #states): a public application, the
// administrator's review, the e-mailed one-time registration link (72 hours) and registration with
// a 7-day trial.
import { addHours } from 'date-fns';
import { and, count, desc, eq, isNull } from 'drizzle-orm';
import { orgOf, type Actor } from '../../access.js';
import { REGISTRATION_TOKEN_HOURS } from '../../../shared/constants.js';
import {
  PROVIDER_MESSAGES,
  VERIFICATION_MESSAGES,
  type Application,
  type VerificationRequest,
  type VerificationStatus,
  type ProviderApplicationData,
  type ProviderRegisterInput,
} from '../../../shared/providers.js';
import type { PublicUser } from '../../../shared/users.js';
import type { Paged, PagingQuery } from '../../../shared/paging.js';
import type { Db } from '../../db/connect.js';
import { isUniqueViolation } from '../../db/outage.js';
import { fetchPage, windowTotal } from '../../db/paging.js';
import { providerApplications, subscriptions, users } from '../../db/schema.js';
import { HttpError, badRequest, conflict, notFound } from '../../errors.js';
import { notifyApplicationSubmitted } from '../notifications/events.js';
import { issueToken, parseToken, verifierMatches } from '../../mail/link-tokens.js';
import type { Mailer } from '../../mail/mailer.js';
import { applicationRejected, hospitalVerified, registrationInvite } from '../../mail/templates.js';
import { recordAudit } from '../audit/service.js';
import { EMAIL_TAKEN, registerUser } from '../auth/service.js';

const ONE_PENDING_PER_EMAIL = 'provider_applications_one_pending_idx';

export const LINK_INVALID = PROVIDER_MESSAGES.tokenMissing;
export const LINK_USED =
  'This registration link has already been used. Please log in with your account instead.';
export const LINK_EXPIRED =
  'This registration link has expired. Please contact MedLedger support to receive a new one.';
export const NOT_PENDING = 'This application has already been reviewed.';
export const MAIL_FAILED =
  'The email to the applicant could not be sent, so nothing was changed. Please try again later.';

type ApplicationRow = typeof providerApplications.$inferSelect;

function toApplication(row: ApplicationRow, subscriptionStatus: string | null = null): Application {
  return {
    id: row.id,
    hospitalName: row.hospitalName,
    website: row.website,
    address: row.address,
    contactName: row.contactName,
    contactEmail: row.contactEmail,
    contactPhone: row.contactPhone,
    npiNumber: row.npiNumber,
    licenseNumber: row.licenseNumber,
    status: row.status,
    notes: row.notes,
    reviewedBy: row.reviewedBy,
    reviewedAt: row.reviewedAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    hospitalUserId: row.userId,
    subscriptionStatus,
  };
}

/**
 * Saves a public application. A second pending one for the same contact e-mail is refused by the
 * database's partial unique index, so two submitted at once cannot both be waiting for review.
 */
export async function submitApplication(
  db: Db,
  data: ProviderApplicationData,
  now: Date,
): Promise<Application> {
  try {
    return await db.transaction(async (tx) => {
      const [row] = await tx
        .insert(providerApplications)
        .values({ ...data, status: 'pending', createdAt: now })
        .returning();
      await notifyApplicationSubmitted(tx, row, now);
      return toApplication(row);
    });
  } catch (err) {
    if (isUniqueViolation(err, ONE_PENDING_PER_EMAIL)) throw conflict(PROVIDER_MESSAGES.duplicatePending);
    throw err;
  }
}

/** One page of the applications, newest first (id breaks ties), with the total. */
export async function listApplications(db: Db, paging: PagingQuery): Promise<Paged<Application>> {
  return fetchPage(
    paging,
    ({ limit, offset }) =>
      db
        .select({ app: providerApplications, subscriptionStatus: subscriptions.status, total: windowTotal() })
        .from(providerApplications)
        .leftJoin(subscriptions, eq(subscriptions.userId, providerApplications.userId))
        .orderBy(desc(providerApplications.createdAt), desc(providerApplications.id))
        .limit(limit)
        .offset(offset),
    async () => (await db.select({ total: count() }).from(providerApplications))[0].total,
    (rows) => rows.map((r) => toApplication(r.app, r.subscriptionStatus)),
  );
}

export interface ReviewInput {
  id: string;
  status: 'approved' | 'rejected';
  notes: string | null;
  adminId: string;
  ip: string;
}

export interface MailDeps {
  mail: Mailer;
  publicUrl: string;
  supportEmail: string;
  /** Where a failed send is reported (the request's logger). */
  logError: (err: unknown) => void;
}

export const registrationLink = (publicUrl: string, token: string) =>
  `${publicUrl}/provider-register?token=${encodeURIComponent(token)}`;

async function sendOrFail(deps: MailDeps, send: () => Promise<void>) {
  try {
    await send();
  } catch (err) {
    deps.logError(err);
    throw new HttpError(503, MAIL_FAILED);
  }
}

/**
 * Approves or rejects a pending application and e-mails the contact. The e-mail is sent inside the
 * transaction, so that a failed send leaves the application pending for another try.
 */
export async function reviewApplication(
  db: Db,
  deps: MailDeps,
  input: ReviewInput,
  now: Date,
): Promise<Application> {
  return db.transaction(async (tx) => {
    const [current] = await tx
      .select()
      .from(providerApplications)
      .where(eq(providerApplications.id, input.id));
    if (!current) throw notFound('Application not found.');
    // A request of an existing (self-signed-up) hospital: approving verifies that account, no link.
    const existingAccount = current.userId !== null && current.status === 'pending';
    const issued = input.status === 'approved' && !existingAccount ? issueToken() : null;
    // `status = pending` in the update makes two reviews at once end with one winner.
    const [row] = await tx
      .update(providerApplications)
      .set({
        status: input.status,
        notes: input.notes,
        reviewedBy: input.adminId,
        reviewedAt: now,
        tokenSelector: issued?.selector ?? null,
        tokenVerifierHash: issued?.verifierHash ?? null,
        tokenExpiresAt: issued ? addHours(now, REGISTRATION_TOKEN_HOURS) : null,
        tokenUsed: false,
      })
      .where(and(eq(providerApplications.id, input.id), eq(providerApplications.status, 'pending')))
      .returning();
    if (!row) throw conflict(NOT_PENDING);
    if (existingAccount && input.status === 'approved') {
      await tx
        .update(users)
        .set({ verifiedAt: now })
        .where(and(eq(users.id, row.userId!), isNull(users.verifiedAt)));
    }
    await recordAudit(
      tx,
      { id: input.adminId, ip: input.ip },
      {
        event: {
          kind: 'application_review',
          data: {
            change: 'reviewed',
            hospitalName: row.hospitalName,
            email: row.contactEmail,
            status: input.status,
          },
        },
        subject: { type: 'provider_application', id: row.id },
      },
    );
    await sendOrFail(deps, () =>
      deps.mail.send(
        existingAccount && input.status === 'approved'
          ? hospitalVerified(row.contactEmail, row.contactName, row.hospitalName)
          : issued
            ? registrationInvite(
                row.contactEmail,
                row.contactName,
                row.hospitalName,
                registrationLink(deps.publicUrl, issued.token),
              )
            : applicationRejected(row.contactEmail, row.contactName, row.hospitalName, deps.supportEmail),
      ),
    );
    return toApplication(row);
  });
}

/** A new registration link for an approved application that has not been used (e.g. expired). */
export async function resendRegistrationLink(
  db: Db,
  deps: MailDeps,
  input: { id: string; adminId: string; ip: string },
  now: Date,
): Promise<Application> {
  return db.transaction(async (tx) => {
    const issued = issueToken();
    const [row] = await tx
      .update(providerApplications)
      .set({
        tokenSelector: issued.selector,
        tokenVerifierHash: issued.verifierHash,
        tokenExpiresAt: addHours(now, REGISTRATION_TOKEN_HOURS),
        tokenUsed: false,
      })
      .where(
        and(
          eq(providerApplications.id, input.id),
          eq(providerApplications.status, 'approved'),
          eq(providerApplications.tokenUsed, false),
          // A verified existing account has nothing to register.
          isNull(providerApplications.userId),
        ),
      )
      .returning();
    if (!row) {
      const [exists] = await tx
        .select({ id: providerApplications.id })
        .from(providerApplications)
        .where(eq(providerApplications.id, input.id));
      if (!exists) throw notFound('Application not found.');
      throw conflict(
        'A new link can only be sent for an approved application that has not been registered yet.',
      );
    }
    await recordAudit(
      tx,
      { id: input.adminId, ip: input.ip },
      {
        event: { kind: 'application_review', data: { change: 'link_resent', email: row.contactEmail } },
        subject: { type: 'provider_application', id: row.id },
      },
    );
    await sendOrFail(deps, () =>
      deps.mail.send(
        registrationInvite(
          row.contactEmail,
          row.contactName,
          row.hospitalName,
          registrationLink(deps.publicUrl, issued.token),
        ),
      ),
    );
    return toApplication(row);
  });
}

/** Finds the approved application a registration token belongs to, or says why it cannot be used. */
async function applicationForToken(db: Db, token: string, now: Date): Promise<ApplicationRow> {
  const parsed = parseToken(token);
  if (!parsed) throw badRequest(LINK_INVALID);
  const [row] = await db
    .select()
    .from(providerApplications)
    .where(eq(providerApplications.tokenSelector, parsed.selector));
  // The verifier is checked before anything else is said about the link.
  if (!row || row.status !== 'approved' || !verifierMatches(parsed.verifier, row.tokenVerifierHash)) {
    throw badRequest(LINK_INVALID);
  }
  if (row.tokenUsed) throw badRequest(LINK_USED);
  if (!row.tokenExpiresAt || row.tokenExpiresAt <= now) throw badRequest(LINK_EXPIRED);
  return row;
}

/** Creates the hospital account of an approved application, uses up the token, starts the trial. */
export async function registerProvider(
  db: Db,
  input: ProviderRegisterInput,
  ip: string,
  now: Date,
): Promise<PublicUser> {
  const application = await applicationForToken(db, input.token, now);
  return db.transaction(async (tx) => {
    // Using the token first takes the row's lock: a concurrent second registration waits here,
    // then finds it used.
    const used = await tx
      .update(providerApplications)
      .set({ tokenUsed: true })
      .where(and(eq(providerApplications.id, application.id), eq(providerApplications.tokenUsed, false)))
      .returning({ id: providerApplications.id });
    if (used.length !== 1) throw badRequest(LINK_USED);
    const outcome = await registerUser(
      tx,
      {
        email: application.contactEmail,
        password: input.password,
        firstName: input.firstName,
        lastName: input.lastName,
        role: 'hospital',
        hospitalName: application.hospitalName,
        timeZone: input.timeZone,
      },
      now,
    );
    // The token was mailed to this address, and its holder never typed it: telling them that it
    // already has an account tells nobody else anything (docs/decisions.md#accounts-and-signup).
    if (!outcome.created) throw conflict(EMAIL_TAKEN);
    const { user } = outcome;
    await tx
      .update(providerApplications)
      .set({ userId: user.id })
      .where(eq(providerApplications.id, application.id));
    // Vetted by an administrator's approval: a verified provider from the start.
    await tx.update(users).set({ verifiedAt: now }).where(eq(users.id, user.id));
    await recordAudit(
      tx,
      { id: user.id, ip },
      {
        event: { kind: 'provider_register', data: { hospitalName: application.hospitalName } },
        subject: { type: 'provider_application', id: application.id, hospitalId: user.id },
      },
    );
    return user;
  });
}

/** GET /api/hospital/verification: verified or not, and the organization's latest request. */
export async function verificationStatus(db: Db, actor: Actor): Promise<VerificationStatus> {
  const hospitalId = orgOf(actor);
  const [org] = await db.select({ verifiedAt: users.verifiedAt }).from(users).where(eq(users.id, hospitalId));
  const [latest] = await db
    .select()
    .from(providerApplications)
    .where(eq(providerApplications.userId, hospitalId))
    .orderBy(desc(providerApplications.createdAt))
    .limit(1);
  return {
    verified: !!org?.verifiedAt,
    verifiedAt: org?.verifiedAt?.toISOString() ?? null,
    request: latest
      ? {
          id: latest.id,
          status: latest.status,
          createdAt: latest.createdAt.toISOString(),
          reviewedAt: latest.reviewedAt?.toISOString() ?? null,
        }
      : null,
  };
}

/**
 * POST /api/hospital/verification: a self-signed-up hospital applies to be verified, as the
 * organization (its name) and the signed-in admin (the contact). It waits in the administrator's
 * applications like a new provider's; approving it verifies this account (reviewApplication).
 */
export async function requestVerification(
  db: Db,
  actor: Actor,
  input: VerificationRequest,
  now: Date,
): Promise<VerificationStatus> {
  const hospitalId = orgOf(actor);
  try {
    await db.transaction(async (tx) => {
      // Two requests at once queue here: the second sees the first one pending.
      const [org] = await tx
        .select({ verifiedAt: users.verifiedAt, hospitalName: users.hospitalName })
        .from(users)
        .where(eq(users.id, hospitalId))
        .for('update');
      if (!org) throw notFound('Hospital not found.');
      if (org.verifiedAt) throw conflict(VERIFICATION_MESSAGES.alreadyVerified);
      const [waiting] = await tx
        .select({ id: providerApplications.id })
        .from(providerApplications)
        .where(and(eq(providerApplications.userId, hospitalId), eq(providerApplications.status, 'pending')));
      if (waiting) throw conflict(VERIFICATION_MESSAGES.pending);
      const [me] = await tx
        .select({ firstName: users.firstName, lastName: users.lastName, email: users.email })
        .from(users)
        .where(eq(users.id, actor.id));
      const hospitalName = org.hospitalName ?? 'Hospital';
      const [row] = await tx
        .insert(providerApplications)
        .values({
          ...input,
          hospitalName,
          contactName: [me.firstName, me.lastName].filter(Boolean).join(' ') || hospitalName,
          contactEmail: me.email.toLowerCase(),
          userId: hospitalId,
          status: 'pending',
          createdAt: now,
        })
        .returning();
      await notifyApplicationSubmitted(tx, row, now);
      await recordAudit(tx, actor, {
        event: { kind: 'application_review', data: { change: 'verification_requested', hospitalName } },
        subject: { type: 'provider_application', id: row.id },
      });
    });
  } catch (err) {
    if (isUniqueViolation(err, ONE_PENDING_PER_EMAIL)) throw conflict(PROVIDER_MESSAGES.duplicatePending);
    throw err;
  }
  return verificationStatus(db, actor);
}
