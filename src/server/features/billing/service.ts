// Subscriptions: every hospital account starts a 7-day trial (docs/spec.md#purpose-and-users);
// after it, writes need an active subscription (Stripe, or marked active by the administrator).
import { addDays } from 'date-fns';
import { and, asc, eq } from 'drizzle-orm';
import { TRIAL_DAYS, type Role } from '../../../shared/constants.js';
import type { BillingStatus, HospitalSubscription } from '../../../shared/providers.js';
import type { Db } from '../../db/connect.js';
import { subscriptions, users } from '../../db/schema.js';
import { notFound, paymentRequired } from '../../errors.js';
import { recordAudit, type AuditData } from '../audit/service.js';

export async function startTrial(db: Db, userId: string, now = new Date()): Promise<void> {
  await db
    .insert(subscriptions)
    .values({ userId, status: 'trialing', trialEndsAt: addDays(now, TRIAL_DAYS) })
    .onConflictDoNothing({ target: subscriptions.userId });
}

export const PAYMENT_REQUIRED_MESSAGE =
  'Your 7-day free trial has ended. Add a payment method to keep adding and changing records; you can still read everything.';

export type WriteAccess = { allowed: true } | { allowed: false; reason: 'trial_ended' | 'inactive' };

type SubscriptionRow = typeof subscriptions.$inferSelect;

/** The write rule itself: an active subscription, or a trial that has not ended. */
export function writeAccessOf(sub: SubscriptionRow | undefined | null, now: Date): WriteAccess {
  if (sub?.status === 'active') return { allowed: true };
  if (sub?.status === 'trialing' && sub.trialEndsAt && sub.trialEndsAt > now) return { allowed: true };
  return { allowed: false, reason: sub?.status === 'trialing' ? 'trial_ended' : 'inactive' };
}

/** Whether a hospital may write now (see writeAccessOf). */
export async function hospitalWriteAccess(
  db: Db,
  hospitalUserId: string,
  now = new Date(),
): Promise<WriteAccess> {
  const [sub] = await db.select().from(subscriptions).where(eq(subscriptions.userId, hospitalUserId));
  return writeAccessOf(sub, now);
}

/**
 * Every hospital account with its subscription, for the administrator: hospitals that signed up
 * directly (not through an application) need "mark active" after their trial too.
 */
export async function listHospitalSubscriptions(db: Db, now: Date): Promise<HospitalSubscription[]> {
  const rows = await db
    .select({ user: users, sub: subscriptions })
    .from(users)
    .leftJoin(subscriptions, eq(subscriptions.userId, users.id))
    // The organizations, not each of their members.
    .where(and(eq(users.role, 'hospital'), eq(users.hospitalId, users.id)))
    .orderBy(asc(users.createdAt));
  return rows.map(({ user, sub }) => ({
    hospitalUserId: user.id,
    email: user.email,
    hospitalName: user.hospitalName,
    status: sub?.status ?? 'inactive',
    trialEndsAt: sub?.trialEndsAt?.toISOString() ?? null,
    currentPeriodEnd: sub?.currentPeriodEnd?.toISOString() ?? null,
    writeAllowed: writeAccessOf(sub, now).allowed,
    createdAt: user.createdAt.toISOString(),
  }));
}

/** Throws 402 with a message when a hospital's trial has ended without a subscription. */
async function assertHospitalCanWrite(db: Db, hospitalUserId: string, now = new Date()): Promise<void> {
  const access = await hospitalWriteAccess(db, hospitalUserId, now);
  if (!access.allowed) throw paymentRequired(PAYMENT_REQUIRED_MESSAGE);
}

/**
 * The trial's write guard, installed by plugins/policy.ts on every route whose policy declares
 * `writeAccess`: 402 once a hospital's trial has ended without a subscription; other roles' writes
 * are not billed. src/server/route-guards.test.ts pins which hospital writes do without it.
 */
export async function assertWriteAccess(
  db: Db,
  user: { id: string; role: Role; hospitalId?: string | null },
  now: Date,
): Promise<void> {
  // A member writes on their organization's trial or subscription.
  if (user.role === 'hospital') await assertHospitalCanWrite(db, user.hospitalId ?? user.id, now);
}

export const STRIPE_MANAGED = 'Subscriptions are managed through Stripe on this server.';

/** What the dashboard banner shows: trial state, whether writes are allowed and why not. */
export async function billingStatus(
  db: Db,
  hospitalUserId: string,
  now: Date,
  options: { checkoutAvailable: boolean; supportEmail: string },
): Promise<BillingStatus> {
  const [sub] = await db.select().from(subscriptions).where(eq(subscriptions.userId, hospitalUserId));
  const access = await hospitalWriteAccess(db, hospitalUserId, now);
  const trialing = sub?.status === 'trialing' && sub.trialEndsAt;
  return {
    status: sub?.status ?? 'inactive',
    trialEndsAt: sub?.trialEndsAt?.toISOString() ?? null,
    currentPeriodEnd: sub?.currentPeriodEnd?.toISOString() ?? null,
    writeAllowed: access.allowed,
    trialDaysLeft: trialing
      ? Math.max(0, Math.ceil((sub.trialEndsAt!.getTime() - now.getTime()) / 86_400_000))
      : null,
    message: access.allowed ? null : PAYMENT_REQUIRED_MESSAGE,
    checkoutAvailable: options.checkoutAvailable,
    supportEmail: options.supportEmail,
  };
}

/** Stripe-style statuses reduced to ours: only `active` allows writes after the trial. */
export function ourStatus(stripeStatus: string): string {
  if (stripeStatus === 'active' || stripeStatus === 'trialing') return 'active';
  if (stripeStatus === 'past_due' || stripeStatus === 'unpaid') return 'past_due';
  if (stripeStatus === 'canceled' || stripeStatus === 'incomplete_expired' || stripeStatus === 'paused')
    return 'canceled';
  return 'inactive';
}

export interface SubscriptionChange {
  hospitalUserId: string;
  status: string;
  stripeCustomerId?: string | null;
  stripeSubscriptionId?: string | null;
  currentPeriodEnd?: Date | null;
  priceId?: string | null;
  productId?: string | null;
  /** Who made the change: the administrator, or null for Stripe. */
  actorId: string | null;
  /** What the audit entry says of the change. */
  audit: AuditData<'subscription_change'>;
  ip?: string | null;
}

/** Creates or updates a hospital's subscription row and audits the change, in one transaction. */
export async function applySubscriptionChange(db: Db, change: SubscriptionChange, now: Date): Promise<void> {
  const defined = <T extends object>(o: T) =>
    Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
  const fields = defined({
    status: change.status,
    stripeCustomerId: change.stripeCustomerId,
    stripeSubscriptionId: change.stripeSubscriptionId,
    currentPeriodEnd: change.currentPeriodEnd,
    priceId: change.priceId,
    productId: change.productId,
  });
  await db.transaction(async (tx) => {
    await tx
      .insert(subscriptions)
      .values({ userId: change.hospitalUserId, ...fields, status: change.status, updatedAt: now })
      .onConflictDoUpdate({ target: subscriptions.userId, set: { ...fields, updatedAt: now } });
    await recordAudit(
      tx,
      { id: change.actorId, ip: change.ip },
      {
        event: { kind: 'subscription_change', data: change.audit },
        subject: { type: 'subscription', id: change.hospitalUserId },
      },
    );
  });
}

/** The administrator marks a hospital's subscription active (when Stripe is not configured). */
export async function markSubscriptionActive(
  db: Db,
  hospitalUserId: string,
  adminId: string,
  ip: string,
  now: Date,
): Promise<void> {
  const [hospital] = await db
    .select({ id: users.id, hospitalName: users.hospitalName })
    .from(users)
    .where(and(eq(users.id, hospitalUserId), eq(users.role, 'hospital')));
  if (!hospital) throw notFound('Hospital not found.');
  await applySubscriptionChange(
    db,
    {
      hospitalUserId,
      status: 'active',
      actorId: adminId,
      audit: { change: 'marked_active', hospitalName: hospital.hospitalName ?? 'hospital' },
      ip,
    },
    now,
  );
}
