// Family invitations (docs/decisions.md#family-proxy-access): a one-time link for 72 hours, made and
// stored like the provider registration links (mail/link-tokens.ts: only SHA-256 of the verifier is
// kept), mailed to a family contact who has "Can Access Medical Records" and an e-mail while the
// patient's "Share with family" consent is on. Accepting it (at signup, or signed in as a family
// member) turns it into a grant; whether the grant still counts is decided in access.ts.
import { addHours } from 'date-fns';
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import { FAMILY_INVITE_HOURS } from '../../../shared/constants.js';
import { joinNames } from '../../../shared/users.js';
import {
  type Actor,
  familySharingOn,
  findOwnPatient,
  isUuid,
  lockActiveAccount,
  lockPatientGrants,
} from '../../access.js';
import type { AppContext } from '../../context.js';
import type { Db } from '../../db/connect.js';
import { familyContacts, familyGrants, familyInvitations, patients, users } from '../../db/schema.js';
import { HttpError, badRequest, conflict, notFound } from '../../errors.js';
import { issueToken, parseToken, verifierMatches } from '../../mail/link-tokens.js';
import type { Mailer } from '../../mail/mailer.js';
import { familyInvitation } from '../../mail/templates.js';
import { recordAudit } from '../audit/service.js';

export const INVITE_MESSAGES = {
  noEmail: 'Add an e-mail address to this contact first: the invitation is sent by e-mail.',
  flagOff: 'Turn on "Can Access Medical Records" for this contact first.',
  consentOff: 'Turn on "Share with family" in Manage Consent first.',
  invalid: 'This invitation link is not valid. Ask the patient to send you a new one.',
  used: 'This invitation link has already been used.',
  expired: 'This invitation link has expired. Ask the patient to send you a new one.',
  otherEmail: 'This invitation was sent to another e-mail address: use the address it was sent to.',
  mailFailed: 'The invitation e-mail could not be sent, so nothing was changed. Please try again later.',
} as const;

export interface InviteDeps {
  db: Db;
  mail: Mailer;
  publicUrl: string;
  /** Where a failed send is reported (the request's logger). */
  logError: (err: unknown) => void;
}

/**
 * What the invitation senders need, from the app and the request's logger: the proxy, family-contacts
 * and consent routes all send invitations.
 */
/** The part of a request's logger the senders use (services import nothing from Fastify). */
export interface ErrorLog {
  error(details: { err: unknown }, message: string): void;
}

export const inviteDeps = (ctx: AppContext, log: ErrorLog): InviteDeps => ({
  db: ctx.db,
  mail: ctx.mail,
  publicUrl: ctx.config.publicUrl,
  logError: (err) => log.error({ err }, 'family invitation could not be sent'),
});

/** The signup page with the token, and the invited address filled in (the account must use it). */
export const invitationLink = (publicUrl: string, token: string, email: string) =>
  `${publicUrl}/signup?invite=${encodeURIComponent(token)}&email=${encodeURIComponent(email)}`;

type ContactRow = typeof familyContacts.$inferSelect;
type PatientRow = typeof patients.$inferSelect;

const patientName = (p: PatientRow) => joinNames(p.firstName, p.lastName) || 'A patient';
const contactName = (c: ContactRow) => `${c.firstName} ${c.lastName}`;

/** The contact with its patient and whether the patient's family sharing is on; none for a non-UUID. */
async function loadContact(db: Db, contactId: string) {
  if (!isUuid(contactId)) return undefined;
  const [row] = await db
    .select({
      contact: familyContacts,
      patient: patients,
      sharing: sql<boolean>`${familySharingOn(patients.id)}`,
    })
    .from(familyContacts)
    .innerJoin(patients, eq(patients.id, familyContacts.patientId))
    .where(eq(familyContacts.id, contactId));
  return row;
}

/** Why the contact cannot be invited now, or null. */
const refusal = (row: { contact: ContactRow; sharing: boolean }) =>
  !row.contact.canAccessRecords
    ? INVITE_MESSAGES.flagOff
    : !row.contact.email
      ? INVITE_MESSAGES.noEmail
      : !row.sharing
        ? INVITE_MESSAGES.consentOff
        : null;

/** Whether the contact already holds a grant or an unused, unexpired link to its address. */
async function holdsGrantOrLink(db: Db, contact: ContactRow, now: Date): Promise<boolean> {
  const [granted] = await db
    .select({ id: familyGrants.id })
    .from(familyGrants)
    .where(eq(familyGrants.contactId, contact.id))
    .limit(1);
  const [pending] = await db
    .select({ id: familyInvitations.id })
    .from(familyInvitations)
    .where(
      and(
        eq(familyInvitations.contactId, contact.id),
        eq(familyInvitations.email, contact.email!),
        isNull(familyInvitations.usedAt),
        gt(familyInvitations.expiresAt, now),
      ),
    )
    .limit(1);
  return !!granted || !!pending;
}

/**
 * Issues a new link for the contact (earlier unused ones die), audits it in the patient's trail
 * and mails it, all in one transaction: a failed send leaves nothing behind (503). The contact,
 * its flag and the patient's consent are read under the patient's grant lock, so a contact change
 * or a revoke racing it is decided before or after it (a link never goes to an address the
 * contact no longer has). `asked` ("Send invitation") answers 409 with the reason it cannot be
 * sent; `due` (the automatic one) sends only when nothing is held yet, else does nothing.
 * Answers the address it was sent to, or null.
 */
async function sendInvitation(
  deps: InviteDeps,
  actor: Actor,
  found: { contact: ContactRow; patient: PatientRow },
  mode: 'asked' | 'due',
  now: Date,
): Promise<string | null> {
  return deps.db.transaction(async (tx) => {
    await lockPatientGrants(tx, found.patient.id);
    await lockActiveAccount(tx, actor.id);
    const row = await loadContact(tx, found.contact.id);
    if (!row) throw notFound('Family contact not found.');
    const why = refusal(row);
    if (why && mode === 'asked') throw conflict(why);
    if (why || (mode === 'due' && (await holdsGrantOrLink(tx, row.contact, now)))) return null;
    const { contact, patient } = row;
    const email = contact.email!;
    await tx
      .delete(familyInvitations)
      .where(and(eq(familyInvitations.contactId, contact.id), isNull(familyInvitations.usedAt)));
    const issued = issueToken();
    await tx.insert(familyInvitations).values({
      contactId: contact.id,
      patientId: patient.id,
      email,
      tokenSelector: issued.selector,
      tokenVerifierHash: issued.verifierHash,
      expiresAt: addHours(now, FAMILY_INVITE_HOURS),
      createdAt: now,
    });
    await recordAudit(tx, actor, {
      event: { kind: 'family_access', data: { change: 'invited', contact: contactName(contact), email } },
      subject: {
        type: 'family_contact',
        id: contact.id,
        patientId: patient.id,
        hospitalId: patient.createdByHospitalId,
      },
    });
    try {
      await deps.mail.send(
        familyInvitation(
          email,
          { name: contactName(contact), patientName: patientName(patient) },
          invitationLink(deps.publicUrl, issued.token, email),
        ),
      );
    } catch (err) {
      deps.logError(err);
      throw new HttpError(503, INVITE_MESSAGES.mailFailed);
    }
    return email;
  });
}

/** POST /api/family-contacts/{id}/invite: the patient's own contact (else 404), when it may be invited (else 409). */
export async function inviteContact(deps: InviteDeps, actor: Actor, contactId: string, now: Date) {
  const row = await loadContact(deps.db, contactId);
  if (!row || row.patient.userId !== actor.id) throw notFound('Family contact not found.');
  const email = await sendInvitation(deps, actor, row, 'asked', now);
  return { message: `Invitation sent to ${email}.` };
}

/**
 * The automatic invitation (a contact saved, family sharing turned on): only for a contact that
 * may be invited, holds no grant yet and has no unused link still valid. Best effort: a failed
 * send is logged and the patient can send it again with "Send invitation".
 */
export async function inviteIfDue(deps: InviteDeps, actor: Actor, contactId: string, now: Date) {
  try {
    const row = await loadContact(deps.db, contactId);
    if (row) await sendInvitation(deps, actor, row, 'due', now);
  } catch (err) {
    deps.logError(err);
  }
}

/**
 * Ends every grant made through the contact and voids its unused links, in the caller's
 * transaction (under the patient's grant lock): the contact now names someone else, or its access
 * was taken away, so only a new invitation, accepted, gives access again. Answers how many grants
 * ended.
 */
export async function endContactGrants(tx: Db, contactId: string): Promise<number> {
  const ended = await tx
    .delete(familyGrants)
    .where(eq(familyGrants.contactId, contactId))
    .returning({ id: familyGrants.id });
  await tx
    .delete(familyInvitations)
    .where(and(eq(familyInvitations.contactId, contactId), isNull(familyInvitations.usedAt)));
  return ended.length;
}

/** Every contact of the signed-in patient that is due an invitation (family sharing was saved on). */
export async function inviteAllDue(deps: InviteDeps, actor: Actor, now: Date) {
  const patient = await findOwnPatient(deps.db, actor);
  const contacts = await deps.db
    .select({ id: familyContacts.id })
    .from(familyContacts)
    .where(and(eq(familyContacts.patientId, patient.id), eq(familyContacts.canAccessRecords, true)));
  for (const c of contacts) await inviteIfDue(deps, actor, c.id, now);
}

/**
 * Uses up an invitation for the account `familyUserId` (whose e-mail must be the invited one) and
 * records the grant, in the caller's transaction. Used by signup and by POST /api/proxy/accept.
 */
export async function acceptInvitation(
  tx: Db,
  familyUser: { id: string; email: string },
  token: string,
  ip: string | null,
  now: Date,
) {
  const invitation = await usableInvitation(tx, token, familyUser.email, now);
  await grantInvitation(tx, familyUser.id, invitation, ip, now);
}

/**
 * The invitation a token names, locked, once it is known usable by `email` (else the 4xx that says
 * why). Signup checks it before it looks at whether the address has an account.
 */
export async function usableInvitation(tx: Db, token: string, email: string, now: Date) {
  const parsed = parseToken(token);
  if (!parsed) throw badRequest(INVITE_MESSAGES.invalid);
  const bySelector = eq(familyInvitations.tokenSelector, parsed.selector);
  const [seen] = await tx
    .select({ patientId: familyInvitations.patientId, patientUserId: patients.userId })
    .from(familyInvitations)
    .innerJoin(patients, eq(patients.id, familyInvitations.patientId))
    .where(bySelector);
  if (!seen?.patientUserId) throw badRequest(INVITE_MESSAGES.invalid);
  // Read again under the patient's grant lock: a contact change or revoke that voided this link
  // meanwhile has deleted it, and one that comes later ends the grant made here. The patient's
  // account is held against a suspension too, which would otherwise miss the grant made here.
  await lockPatientGrants(tx, seen.patientId);
  await lockActiveAccount(tx, seen.patientUserId);
  const [invitation] = await tx.select().from(familyInvitations).where(bySelector).for('update');
  if (!invitation || !verifierMatches(parsed.verifier, invitation.tokenVerifierHash))
    throw badRequest(INVITE_MESSAGES.invalid);
  if (invitation.usedAt) throw conflict(INVITE_MESSAGES.used);
  if (invitation.expiresAt <= now) throw new HttpError(410, INVITE_MESSAGES.expired);
  if (invitation.email !== email.toLowerCase()) throw badRequest(INVITE_MESSAGES.otherEmail);
  return invitation;
}

/** Uses up a usable invitation (`usableInvitation`): the family member's grant, audited. */
export async function grantInvitation(
  tx: Db,
  familyUserId: string,
  invitation: typeof familyInvitations.$inferSelect,
  ip: string | null,
  now: Date,
) {
  await tx.update(familyInvitations).set({ usedAt: now }).where(eq(familyInvitations.id, invitation.id));
  await tx
    .insert(familyGrants)
    .values({
      familyUserId,
      patientId: invitation.patientId,
      contactId: invitation.contactId,
      createdAt: now,
    })
    .onConflictDoNothing();
  const [patient] = await tx.select().from(patients).where(eq(patients.id, invitation.patientId));
  await recordAudit(
    tx,
    { id: familyUserId, ip },
    {
      event: { kind: 'family_access', data: { change: 'accepted', email: invitation.email } },
      subject: {
        type: 'family_contact',
        id: invitation.contactId,
        patientId: patient.id,
        hospitalId: patient.createdByHospitalId,
      },
    },
  );
}

/** POST /api/proxy/accept: a signed-in family member adds another patient's invitation. */
export async function acceptAsFamily(db: Db, actor: Actor, token: string, now: Date) {
  const [user] = await db
    .select({ id: users.id, email: users.email })
    .from(users)
    .where(eq(users.id, actor.id));
  await db.transaction((tx) => acceptInvitation(tx, user, token, actor.ip, now));
}
