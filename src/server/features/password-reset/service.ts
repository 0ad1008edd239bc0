// Forgot password (docs/decisions.md#password-reset): a one-time reset link by e-mail (1 hour, same
// token design as registration). The request never reveals whether an account exists; a reset ends
// every session.
import { addHours, subHours } from 'date-fns';
import { and, count, eq, gt, isNull } from 'drizzle-orm';
import { PASSWORD_RESET_TOKEN_HOURS } from '../../../shared/constants.js';
import { displayName } from '../../../shared/users.js';
import type { Db } from '../../db/connect.js';
import { passwordResetTokens, users } from '../../db/schema.js';
import { badRequest } from '../../errors.js';
import { issueToken, parseToken, verifierMatches } from '../../mail/link-tokens.js';
import type { Mailer } from '../../mail/mailer.js';
import { passwordReset } from '../../mail/templates.js';
import { destroyUserSessions } from '../../plugins/session.js';
import { recordAudit } from '../audit/service.js';
import { hashPassword } from '../auth/passwords.js';
import { endAccountCount } from '../auth/throttle.js';

export const RESET_INVALID = 'This reset link is invalid. Please request a new one.';
export const RESET_USED = 'This reset link has already been used. Please request a new one.';
export const RESET_EXPIRED = 'This reset link has expired. Please request a new one.';
export const RESET_DONE = 'Your password has been reset. You can now log in with your new password.';
/** At most this many reset e-mails per account and hour, so an inbox cannot be flooded. */
export const MAX_RESETS_PER_HOUR = 3;

export const resetLink = (publicUrl: string, token: string) =>
  `${publicUrl}/reset-password?token=${encodeURIComponent(token)}`;

/**
 * Issues a token and e-mails the link when the address has an account that is not suspended;
 * silently nothing otherwise.
 * The hourly count and the new token are decided under a lock on the user's row, so parallel
 * requests cannot all pass the count; the mail goes out after the commit.
 */
export async function requestPasswordReset(
  db: Db,
  deps: { mail: Mailer; publicUrl: string },
  email: string,
  now: Date,
): Promise<void> {
  const issued = await db.transaction(async (tx) => {
    const [user] = await tx.select().from(users).where(eq(users.email, email)).for('no key update');
    // A suspended account gets no link: it could not sign in with the new password anyway.
    if (!user || user.suspendedAt) return null;
    const [recent] = await tx
      .select({ n: count() })
      .from(passwordResetTokens)
      .where(
        and(eq(passwordResetTokens.userId, user.id), gt(passwordResetTokens.createdAt, subHours(now, 1))),
      );
    if ((recent?.n ?? 0) >= MAX_RESETS_PER_HOUR) return null;
    const token = issueToken();
    await tx.insert(passwordResetTokens).values({
      userId: user.id,
      selector: token.selector,
      verifierHash: token.verifierHash,
      expiresAt: addHours(now, PASSWORD_RESET_TOKEN_HOURS),
      createdAt: now,
    });
    return { user, token: token.token };
  });
  if (!issued) return;
  const { user, token } = issued;
  await deps.mail.send(passwordReset(user.email, displayName(user), resetLink(deps.publicUrl, token)));
}

/** Sets a new password from a reset link; the link and every other open link are used up. */
export async function resetPassword(
  db: Db,
  input: { token: string; password: string },
  ip: string,
  now: Date,
): Promise<void> {
  const parsed = parseToken(input.token);
  if (!parsed) throw badRequest(RESET_INVALID);
  const [row] = await db
    .select()
    .from(passwordResetTokens)
    .where(eq(passwordResetTokens.selector, parsed.selector));
  if (!row || !verifierMatches(parsed.verifier, row.verifierHash)) throw badRequest(RESET_INVALID);
  if (row.used) throw badRequest(RESET_USED);
  if (row.expiresAt <= now) throw badRequest(RESET_EXPIRED);
  const passwordHash = await hashPassword(input.password);
  await db.transaction(async (tx) => {
    const used = await tx
      .update(passwordResetTokens)
      .set({ used: true })
      .where(and(eq(passwordResetTokens.id, row.id), eq(passwordResetTokens.used, false)))
      .returning({ id: passwordResetTokens.id });
    if (used.length !== 1) throw badRequest(RESET_USED);
    // Other links still open for this account stop working too.
    await tx
      .update(passwordResetTokens)
      .set({ used: true })
      .where(and(eq(passwordResetTokens.userId, row.userId), eq(passwordResetTokens.used, false)));
    const [user] = await tx
      .update(users)
      .set({ password: passwordHash })
      .where(and(eq(users.id, row.userId), isNull(users.suspendedAt)))
      .returning({ id: users.id, email: users.email, role: users.role });
    // Suspended since the link was sent: the link is void, and nothing of this is kept.
    if (!user) throw badRequest(RESET_INVALID);
    await destroyUserSessions(tx, row.userId);
    // A locked-out owner who proved control of the mailbox may sign in again at once.
    await endAccountCount(tx, user.email);
    await recordAudit(
      tx,
      { id: row.userId, ip },
      {
        event: { kind: 'password_reset', data: {} },
        subject: { type: 'user', id: row.userId, role: user.role },
      },
    );
  });
}
