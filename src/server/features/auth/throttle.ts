// Sign-in throttling, shared by every server process through the database, and built so that it
// cannot be turned against the account's owner (ASVS 6.3, NIST 800-63B 5.2.2):
// - each attempt is counted before the password is checked, by one atomic upsert that returns the
//   new counts, so parallel attempts cannot all slip under a limit;
// - the hard limit is per (account, address) and per address: an attacker locks out only
//   themselves, and the owner signing in from an address with no failures is never refused;
// - per account (attempts from every address together) there is a cap: past it the account is
//   under attack, and a right password alone no longer signs in (auth/service.ts: the answer is the
//   same as for a wrong one, and the owner is e-mailed a one-time sign-in link). Counted in the same
//   statement, so many addresses at once cannot get more than the cap of guesses evaluated.
import { eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/connect.js';
import { loginFailures } from '../../db/schema.js';
import { tooManyRequests } from '../../errors.js';

export const THROTTLE_WINDOW_MS = 15 * 60_000;
/** An address may make this many times more attempts (over all accounts) than one account. */
const IP_FACTOR = 4;
/** An account is under attack past this many times the per-address limit, over all addresses. */
const ACCOUNT_FACTOR = 4;

const keys = (email: string, ip: string) => ({
  accountAtAddress: `acct-ip:${email}|${ip}`,
  address: `ip:${ip}`,
  account: `acct:${email}`,
});

/** Failed attempts (from any address) after which an account is under attack. */
export const accountCap = (max: number) => max * ACCOUNT_FACTOR;

/** Adds one to each counter (a new window when the old one ended) and answers the new counts. */
async function count(db: Db, counterKeys: string[], now: Date): Promise<Map<string, number>> {
  const windowStart = new Date(now.getTime() - THROTTLE_WINDOW_MS).toISOString();
  const nowIso = now.toISOString();
  const rows = await db
    .insert(loginFailures)
    .values(counterKeys.map((key) => ({ key, failures: 1, windowStart: now })))
    .onConflictDoUpdate({
      target: loginFailures.key,
      set: {
        failures: sql`case when ${loginFailures.windowStart} < ${windowStart}::timestamptz then 1 else ${loginFailures.failures} + 1 end`,
        windowStart: sql`case when ${loginFailures.windowStart} < ${windowStart}::timestamptz then ${nowIso}::timestamptz else ${loginFailures.windowStart} end`,
      },
    })
    .returning({ key: loginFailures.key, failures: loginFailures.failures });
  return new Map(rows.map((r) => [r.key, r.failures]));
}

export interface SignInAttempt {
  /** The account is past its cap: a right password must not be enough on its own. */
  underAttack: boolean;
}

/**
 * Counts a sign-in attempt before the password is checked; 429 when this address has used up its
 * attempts (for this account, or over all accounts). Answers whether the account is under attack.
 */
export async function reserveSignInAttempt(
  db: Db,
  email: string,
  ip: string,
  max: number,
  now = new Date(),
): Promise<SignInAttempt> {
  const k = keys(email, ip);
  const counts = await count(db, [k.accountAtAddress, k.address, k.account], now);
  if ((counts.get(k.accountAtAddress) ?? 0) > max || (counts.get(k.address) ?? 0) > max * IP_FACTOR) {
    throw tooManyRequests('Too many failed sign-in attempts. Please wait 15 minutes and try again.');
  }
  return { underAttack: (counts.get(k.account) ?? 0) > accountCap(max) };
}

/** The owner proved control of the mailbox (a password reset): the account is no longer under attack. */
export async function endAccountCount(db: Db, email: string) {
  await db.delete(loginFailures).where(eq(loginFailures.key, keys(email, '').account));
}

/** A successful sign-in: the account's counters end, and the attempt no longer counts for the address. */
export async function signInSucceeded(db: Db, email: string, ip: string) {
  const k = keys(email, ip);
  await db.delete(loginFailures).where(inArray(loginFailures.key, [k.accountAtAddress, k.account]));
  await db
    .update(loginFailures)
    .set({ failures: sql`greatest(${loginFailures.failures} - 1, 0)` })
    .where(eq(loginFailures.key, k.address));
}
