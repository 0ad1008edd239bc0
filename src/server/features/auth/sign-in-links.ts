// E-mailed sign-in links (docs/decisions.md#sign-in-security): how the owner of an account under
// attack still gets in. Past the account's cap the right password alone signs nobody in; instead a
// one-time link goes to the account's address, and only the mailbox's holder can finish. A link is
// a pending sign-in (`pending_logins`, proof `mail`): its token's SHA-256 is kept, never the token.
import crypto from 'node:crypto';
import { and, count, eq, gt } from 'drizzle-orm';
import { displayName } from '../../../shared/users.js';
import type { Db } from '../../db/connect.js';
import { pendingLogins, users } from '../../db/schema.js';
import { sha256Hex } from '../../digest.js';
import { badRequest } from '../../errors.js';
import type { Mailer } from '../../mail/mailer.js';
import { signInLink } from '../../mail/templates.js';

export const SIGN_IN_LINK_MINUTES = 15;
/** Live links one account may have: a guesser who hit the password cannot flood the inbox. */
const MAX_LIVE_LINKS = 3;
export const SIGN_IN_LINK_INVALID =
  'This sign-in link is invalid, used or expired. Please sign in with your password again.';

export const signInLinkUrl = (publicUrl: string, token: string) =>
  `${publicUrl}/sign-in-link?token=${encodeURIComponent(token)}`;

type UserRow = typeof users.$inferSelect;

/**
 * Issues a link for `user` and mails it; nothing when the account already has its live links. The
 * count and the new link are decided under a lock on the user's row, so parallel sign-ins cannot
 * all pass the count; the mail goes out after the commit.
 */
export async function mailSignInLink(
  db: Db,
  deps: { mail: Mailer; publicUrl: string },
  userId: string,
  remember: boolean,
  now: Date,
): Promise<void> {
  const issued = await db.transaction(async (tx) => {
    const [user] = await tx.select().from(users).where(eq(users.id, userId)).for('no key update');
    if (!user || user.suspendedAt) return null;
    const [live] = await tx
      .select({ n: count() })
      .from(pendingLogins)
      .where(
        and(eq(pendingLogins.userId, userId), eq(pendingLogins.proof, 'mail'), gt(pendingLogins.expire, now)),
      );
    if ((live?.n ?? 0) >= MAX_LIVE_LINKS) return null;
    const token = crypto.randomBytes(32).toString('base64url');
    await tx.insert(pendingLogins).values({
      tokenHash: sha256Hex(token),
      userId,
      proof: 'mail',
      remember,
      expire: new Date(now.getTime() + SIGN_IN_LINK_MINUTES * 60_000),
      createdAt: now,
    });
    return { user, token };
  });
  if (!issued) return;
  const { user, token } = issued;
  await deps.mail.send(
    signInLink(user.email, displayName(user), signInLinkUrl(deps.publicUrl, token), SIGN_IN_LINK_MINUTES),
  );
}

/**
 * Takes a link (once: every other link of the account dies with it) and answers whom it signs in;
 * the caller completes the sign-in. An account that has turned two-factor on since needs its code.
 */
export async function useSignInLink(
  db: Db,
  token: string,
  now: Date,
): Promise<{ user: UserRow; remember: boolean }> {
  const [taken] = await db
    .delete(pendingLogins)
    .where(and(eq(pendingLogins.tokenHash, sha256Hex(token)), eq(pendingLogins.proof, 'mail')))
    .returning();
  if (!taken || taken.expire <= now) throw badRequest(SIGN_IN_LINK_INVALID);
  await db
    .delete(pendingLogins)
    .where(and(eq(pendingLogins.userId, taken.userId), eq(pendingLogins.proof, 'mail')));
  const [user] = await db.select().from(users).where(eq(users.id, taken.userId));
  if (!user || user.twoFactorEnabled) throw badRequest(SIGN_IN_LINK_INVALID);
  return { user, remember: taken.remember };
}
