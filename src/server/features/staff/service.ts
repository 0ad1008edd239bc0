// A hospital's staff (docs/decisions.md#staff-accounts): members listed, invited by e-mail, their
// role changed, deactivated and reactivated; and the practitioners work is attributed to. Every
// change of one hospital's staff takes its organization's row lock first, so that two admins
// demoting or deactivating each other at once cannot leave the hospital without an admin.
import { addHours } from 'date-fns';
import { and, asc, count, eq, gt, inArray, isNotNull, isNull, ne } from 'drizzle-orm';
import { STAFF_INVITE_HOURS } from '../../../shared/constants.js';
import type { Paged, PagingQuery } from '../../../shared/paging.js';
import {
  STAFF_MESSAGES,
  STAFF_ROLE_LABELS,
  type Practitioner,
  type StaffInvitation,
  type StaffInviteInput,
  type StaffListQuery,
  type StaffMember,
  type StaffRoleChange,
} from '../../../shared/staff.js';
import { joinNames } from '../../../shared/users.js';
import { type Actor, isUuid, orgOf } from '../../access.js';
import type { Db } from '../../db/connect.js';
import { fetchPage, windowTotal } from '../../db/paging.js';
import { staffInvitations, users } from '../../db/schema.js';
import { conflict, notFound } from '../../errors.js';
import { issueToken } from '../../mail/link-tokens.js';
import type { Mailer } from '../../mail/mailer.js';
import { staffInvitation } from '../../mail/templates.js';
import { destroyUserSessions } from '../../plugins/session.js';
import { recordAudit } from '../audit/service.js';
import { staffInvitationLink, type StaffInvitationRow } from './invitations.js';

export interface StaffDeps {
  db: Db;
  mail: Mailer;
  publicUrl: string;
}

type MemberRow = Pick<
  typeof users.$inferSelect,
  | 'id'
  | 'email'
  | 'firstName'
  | 'lastName'
  | 'department'
  | 'staffRole'
  | 'lastLoginAt'
  | 'deactivatedAt'
  | 'twoFactorEnabled'
>;
const memberColumns = {
  id: users.id,
  email: users.email,
  firstName: users.firstName,
  lastName: users.lastName,
  department: users.department,
  staffRole: users.staffRole,
  lastLoginAt: users.lastLoginAt,
  deactivatedAt: users.deactivatedAt,
  twoFactorEnabled: users.twoFactorEnabled,
};

const memberName = (row: Pick<MemberRow, 'firstName' | 'lastName' | 'email'>) =>
  joinNames(row.firstName, row.lastName) || row.email;

const toMember = (row: MemberRow): StaffMember => ({
  id: row.id,
  email: row.email,
  name: memberName(row),
  firstName: row.firstName,
  lastName: row.lastName,
  department: row.department,
  // A hospital row always has one (users_staff_check).
  staffRole: row.staffRole ?? 'hospital_admin',
  status: row.deactivatedAt ? 'deactivated' : 'active',
  deactivatedAt: row.deactivatedAt?.toISOString() ?? null,
  lastLoginAt: row.lastLoginAt?.toISOString() ?? null,
  twoFactorEnabled: row.twoFactorEnabled,
});

const toInvitation = (row: StaffInvitationRow, now: Date): StaffInvitation => ({
  id: row.id,
  email: row.email,
  firstName: row.firstName,
  lastName: row.lastName,
  department: row.department,
  staffRole: row.staffRole,
  expiresAt: row.expiresAt.toISOString(),
  createdAt: row.createdAt.toISOString(),
  status: row.expiresAt > now ? 'pending' : 'expired',
});

const ofHospital = (hospitalId: string) => and(eq(users.role, 'hospital'), eq(users.hospitalId, hospitalId));

/** GET /api/hospital/staff: the organization's members, by name. */
export async function listStaff(db: Db, actor: Actor, query: StaffListQuery): Promise<Paged<StaffMember>> {
  const status = query.status ?? 'all';
  const where = and(
    ofHospital(orgOf(actor)),
    status === 'active'
      ? isNull(users.deactivatedAt)
      : status === 'deactivated'
        ? isNotNull(users.deactivatedAt)
        : undefined,
  );
  return fetchPage(
    query,
    ({ limit, offset }) =>
      db
        .select({ ...memberColumns, total: windowTotal() })
        .from(users)
        .where(where)
        .orderBy(asc(users.lastName), asc(users.firstName), asc(users.email))
        .limit(limit)
        .offset(offset),
    async () => (await db.select({ n: count() }).from(users).where(where))[0].n,
    (rows) => rows.map(toMember),
  );
}

/** Active clinicians and admins of the actor's hospital: whom records and visits name. */
const practitionersOf = (actor: Pick<Actor, 'role' | 'hospitalId' | 'id'>) =>
  and(
    ofHospital(orgOf(actor)),
    isNull(users.deactivatedAt),
    inArray(users.staffRole, ['clinician', 'hospital_admin']),
  );

const toPractitioner = (row: MemberRow): Practitioner => ({
  id: row.id,
  name: memberName(row),
  department: row.department,
  staffRole: row.staffRole ?? 'clinician',
});

/** GET /api/hospital/practitioners, by name. */
export async function listPractitioners(
  db: Db,
  actor: Pick<Actor, 'role' | 'hospitalId' | 'id'>,
): Promise<Practitioner[]> {
  const rows = await db
    .select(memberColumns)
    .from(users)
    .where(practitionersOf(actor))
    .orderBy(asc(users.lastName), asc(users.firstName), asc(users.email));
  return rows.map(toPractitioner);
}

/**
 * A practitioner of the actor's organization by id, for an upload or appointment to name; null
 * when it is not one (another hospital's member, front desk, deactivated, not an id at all).
 */
export async function findPractitioner(db: Db, actor: Actor, practitionerId: string) {
  if (!isUuid(practitionerId)) return null;
  const [row] = await db
    .select(memberColumns)
    .from(users)
    .where(and(practitionersOf(actor), eq(users.id, practitionerId)));
  return row ? toPractitioner(row) : null;
}

/** Holds the organization's row until the transaction ends: staff changes of one hospital queue. */
async function lockHospital(tx: Db, hospitalId: string) {
  await tx.select({ id: users.id }).from(users).where(eq(users.id, hospitalId)).for('update');
}

async function findMember(tx: Db, hospitalId: string, userId: string): Promise<MemberRow> {
  if (!isUuid(userId)) throw notFound(STAFF_MESSAGES.notMember);
  const [row] = await tx
    .select(memberColumns)
    .from(users)
    .where(and(ofHospital(hospitalId), eq(users.id, userId)));
  if (!row) throw notFound(STAFF_MESSAGES.notMember);
  return row;
}

/** 409 when the change would leave no active admin other than `userId`. */
async function assertAnotherAdmin(tx: Db, hospitalId: string, userId: string) {
  const [{ n }] = await tx
    .select({ n: count() })
    .from(users)
    .where(
      and(
        ofHospital(hospitalId),
        eq(users.staffRole, 'hospital_admin'),
        isNull(users.deactivatedAt),
        ne(users.id, userId),
      ),
    );
  if (n === 0) throw conflict(STAFF_MESSAGES.lastAdmin);
}

/** PATCH /api/hospital/staff/{userId}: a new staff role (and department); never the last admin's. */
export async function changeStaffRole(
  db: Db,
  actor: Actor,
  userId: string,
  input: StaffRoleChange,
): Promise<StaffMember> {
  const hospitalId = orgOf(actor);
  return db.transaction(async (tx) => {
    await lockHospital(tx, hospitalId);
    const member = await findMember(tx, hospitalId, userId);
    if (
      member.staffRole === 'hospital_admin' &&
      input.staffRole !== 'hospital_admin' &&
      !member.deactivatedAt
    ) {
      await assertAnotherAdmin(tx, hospitalId, userId);
    }
    const [row] = await tx
      .update(users)
      .set({
        staffRole: input.staffRole,
        ...(input.department !== undefined ? { department: input.department } : {}),
      })
      .where(eq(users.id, member.id))
      .returning(memberColumns);
    if (member.staffRole !== input.staffRole) {
      await recordAudit(tx, actor, {
        event: {
          kind: 'staff_change',
          data: { change: 'role', member: memberName(member), staffRole: input.staffRole },
        },
        subject: { type: 'hospital', id: hospitalId },
      });
    }
    return toMember(row);
  });
}

/**
 * POST /api/hospital/staff/{userId}/deactivate: out at once (every session and pending sign-in
 * ends; the session lookup refuses them from the next request); their past entries keep their name.
 */
export async function deactivateStaff(db: Db, actor: Actor, userId: string, now: Date): Promise<StaffMember> {
  const hospitalId = orgOf(actor);
  return db.transaction(async (tx) => {
    await lockHospital(tx, hospitalId);
    const member = await findMember(tx, hospitalId, userId);
    if (member.deactivatedAt) return toMember(member);
    if (member.staffRole === 'hospital_admin') await assertAnotherAdmin(tx, hospitalId, userId);
    const [row] = await tx
      .update(users)
      .set({ deactivatedAt: now })
      .where(eq(users.id, member.id))
      .returning(memberColumns);
    const sessionsEnded = await destroyUserSessions(tx, member.id);
    await recordAudit(tx, actor, {
      event: {
        kind: 'staff_change',
        data: { change: 'deactivated', member: memberName(member), sessionsEnded },
      },
      subject: { type: 'hospital', id: hospitalId },
    });
    return toMember(row);
  });
}

/** POST /api/hospital/staff/{userId}/reactivate: they can sign in again (no session comes back). */
export async function reactivateStaff(db: Db, actor: Actor, userId: string): Promise<StaffMember> {
  const hospitalId = orgOf(actor);
  return db.transaction(async (tx) => {
    await lockHospital(tx, hospitalId);
    const member = await findMember(tx, hospitalId, userId);
    if (!member.deactivatedAt) return toMember(member);
    const [row] = await tx
      .update(users)
      .set({ deactivatedAt: null })
      .where(eq(users.id, member.id))
      .returning(memberColumns);
    await recordAudit(tx, actor, {
      event: { kind: 'staff_change', data: { change: 'reactivated', member: memberName(member) } },
      subject: { type: 'hospital', id: hospitalId },
    });
    return toMember(row);
  });
}

const pendingInvitations = (hospitalId: string) =>
  and(
    eq(staffInvitations.hospitalId, hospitalId),
    isNull(staffInvitations.acceptedAt),
    isNull(staffInvitations.cancelledAt),
  );

/** GET /api/hospital/staff/invitations: invitations not accepted or cancelled (expired ones too). */
export async function listInvitations(
  db: Db,
  actor: Actor,
  query: PagingQuery,
  now: Date,
): Promise<Paged<StaffInvitation>> {
  const where = pendingInvitations(orgOf(actor));
  return fetchPage(
    query,
    ({ limit, offset }) =>
      db
        .select({ row: staffInvitations, total: windowTotal() })
        .from(staffInvitations)
        .where(where)
        .orderBy(asc(staffInvitations.createdAt))
        .limit(limit)
        .offset(offset),
    async () => (await db.select({ n: count() }).from(staffInvitations).where(where))[0].n,
    (rows) => rows.map((r) => toInvitation(r.row, now)),
  );
}

/** A new link for an invitation: its token, and the columns that store it (valid 72 hours from now). */
function newLink(now: Date) {
  const issued = issueToken();
  return {
    token: issued.token,
    columns: {
      tokenSelector: issued.selector,
      tokenVerifierHash: issued.verifierHash,
      expiresAt: addHours(now, STAFF_INVITE_HOURS),
    },
  };
}

/** The invitation's mail with its link, to send once the transaction has committed. */
async function invitationMail(deps: StaffDeps, tx: Db, actor: Actor, row: StaffInvitationRow, token: string) {
  const [hospital] = await tx
    .select({ hospitalName: users.hospitalName })
    .from(users)
    .where(eq(users.id, row.hospitalId));
  const [inviter] = await tx
    .select({ firstName: users.firstName, lastName: users.lastName, email: users.email })
    .from(users)
    .where(eq(users.id, actor.id));
  const mail = staffInvitation(
    row.email,
    {
      name: joinNames(row.firstName, row.lastName),
      hospitalName: hospital?.hospitalName ?? 'your hospital',
      inviterName: inviter ? memberName(inviter) : 'Your hospital admin',
      role: STAFF_ROLE_LABELS[row.staffRole].toLowerCase(),
    },
    staffInvitationLink(deps.publicUrl, token, row.email),
  );
  return () => deps.mail.send(mail);
}

/**
 * POST /api/hospital/staff: invites someone by e-mail (a one-time link valid 72 hours). An address
 * that has an account already, or an invitation waiting, is a 409 that says so: the admin typed
 * it and is told, while signup never tells.
 */
export async function inviteStaff(
  deps: StaffDeps,
  actor: Actor,
  input: StaffInviteInput,
  now: Date,
): Promise<StaffInvitation> {
  const hospitalId = orgOf(actor);
  const { row, send } = await deps.db.transaction(async (tx) => {
    await lockHospital(tx, hospitalId);
    const [existing] = await tx.select({ id: users.id }).from(users).where(eq(users.email, input.email));
    if (existing) throw conflict(STAFF_MESSAGES.alreadyMember);
    const [waiting] = await tx
      .select({ id: staffInvitations.id })
      .from(staffInvitations)
      .where(
        and(
          pendingInvitations(hospitalId),
          eq(staffInvitations.email, input.email),
          gt(staffInvitations.expiresAt, now),
        ),
      );
    if (waiting) throw conflict(STAFF_MESSAGES.pendingInvite);
    const link = newLink(now);
    const [row] = await tx
      .insert(staffInvitations)
      .values({
        hospitalId,
        email: input.email,
        firstName: input.firstName,
        lastName: input.lastName,
        staffRole: input.staffRole,
        department: input.department ?? null,
        invitedBy: actor.id,
        ...link.columns,
        createdAt: now,
      })
      .returning();
    const send = await invitationMail(deps, tx, actor, row, link.token);
    await recordAudit(tx, actor, {
      event: {
        kind: 'staff_change',
        data: {
          change: 'invited',
          member: `${joinNames(input.firstName, input.lastName)} (${input.email})`,
          staffRole: input.staffRole,
        },
      },
      subject: { type: 'hospital', id: hospitalId },
    });
    return { row, send };
  });
  await send();
  return toInvitation(row, now);
}

async function findInvitation(tx: Db, hospitalId: string, invitationId: string) {
  if (!isUuid(invitationId)) throw notFound(STAFF_MESSAGES.invitationNotFound);
  const [row] = await tx
    .select()
    .from(staffInvitations)
    .where(and(pendingInvitations(hospitalId), eq(staffInvitations.id, invitationId)))
    .for('update');
  if (!row) throw notFound(STAFF_MESSAGES.invitationNotFound);
  return row;
}

/** POST /api/hospital/staff/invitations/{id}/resend: a new link (valid 72 hours from now). */
export async function resendInvitation(
  deps: StaffDeps,
  actor: Actor,
  invitationId: string,
  now: Date,
): Promise<StaffInvitation> {
  const hospitalId = orgOf(actor);
  const { row, send } = await deps.db.transaction(async (tx) => {
    const found = await findInvitation(tx, hospitalId, invitationId);
    const link = newLink(now);
    const [row] = await tx
      .update(staffInvitations)
      .set(link.columns)
      .where(eq(staffInvitations.id, found.id))
      .returning();
    const send = await invitationMail(deps, tx, actor, row, link.token);
    await recordAudit(tx, actor, {
      event: { kind: 'staff_change', data: { change: 'invitation_resent', member: found.email } },
      subject: { type: 'hospital', id: hospitalId },
    });
    return { row, send };
  });
  await send();
  return toInvitation(row, now);
}

/** DELETE /api/hospital/staff/invitations/{id}: its link stops working at once. */
export async function cancelInvitation(db: Db, actor: Actor, invitationId: string, now: Date): Promise<void> {
  const hospitalId = orgOf(actor);
  await db.transaction(async (tx) => {
    const found = await findInvitation(tx, hospitalId, invitationId);
    await tx.update(staffInvitations).set({ cancelledAt: now }).where(eq(staffInvitations.id, found.id));
    await recordAudit(tx, actor, {
      event: { kind: 'staff_change', data: { change: 'invitation_cancelled', member: found.email } },
      subject: { type: 'hospital', id: hospitalId },
    });
  });
}
