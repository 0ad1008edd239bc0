// Staff invitations' links (docs/decisions.md#staff-accounts): checked when the invited person
// registers (POST /api/auth/register with role hospital and inviteToken), used up with the account.
import { and, eq, isNull } from 'drizzle-orm';
import { STAFF_MESSAGES } from '../../../shared/staff.js';
import { joinNames } from '../../../shared/users.js';
import type { Db } from '../../db/connect.js';
import { staffInvitations, users } from '../../db/schema.js';
import { HttpError, badRequest, conflict } from '../../errors.js';
import { parseToken, verifierMatches } from '../../mail/link-tokens.js';
import { recordAudit } from '../audit/service.js';

export const STAFF_DEACTIVATED = STAFF_MESSAGES.deactivated;

export type StaffInvitationRow = typeof staffInvitations.$inferSelect;

/** The page the mailed link opens: the join form, its address filled in. */
export const staffInvitationLink = (publicUrl: string, token: string, email: string) =>
  `${publicUrl}/join-staff?token=${encodeURIComponent(token)}&email=${encodeURIComponent(email)}`;

/**
 * The invitation a token names, locked, once it is usable by `email` (else the 4xx that says why):
 * not cancelled, not used, not expired, sent to this address, of a hospital that is not suspended.
 */
export async function usableStaffInvitation(tx: Db, token: string, email: string, now: Date) {
  const parsed = parseToken(token);
  if (!parsed) throw badRequest(STAFF_MESSAGES.inviteInvalid);
  const [invitation] = await tx
    .select()
    .from(staffInvitations)
    .where(eq(staffInvitations.tokenSelector, parsed.selector))
    .for('update');
  if (
    !invitation ||
    invitation.cancelledAt ||
    !verifierMatches(parsed.verifier, invitation.tokenVerifierHash)
  )
    throw badRequest(STAFF_MESSAGES.inviteInvalid);
  if (invitation.acceptedAt) throw conflict(STAFF_MESSAGES.inviteUsed);
  if (invitation.expiresAt <= now) throw new HttpError(410, STAFF_MESSAGES.inviteExpired);
  if (invitation.email !== email.toLowerCase()) throw badRequest(STAFF_MESSAGES.inviteOtherEmail);
  const [hospital] = await tx
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.id, invitation.hospitalId), isNull(users.suspendedAt)))
    .for('share');
  if (!hospital) throw badRequest(STAFF_MESSAGES.inviteInvalid);
  return invitation;
}

/** Uses up the invitation with the account it became; the hospital's trail says who joined. */
export async function acceptStaffInvitation(
  tx: Db,
  invitation: StaffInvitationRow,
  userId: string,
  ip: string | null,
  now: Date,
) {
  await tx
    .update(staffInvitations)
    .set({ acceptedAt: now, userId })
    .where(eq(staffInvitations.id, invitation.id));
  await recordAudit(
    tx,
    { id: userId, ip },
    {
      event: {
        kind: 'staff_change',
        data: {
          change: 'joined',
          member: joinNames(invitation.firstName, invitation.lastName),
          staffRole: invitation.staffRole,
        },
      },
      subject: { type: 'hospital', id: invitation.hospitalId },
    },
  );
}
