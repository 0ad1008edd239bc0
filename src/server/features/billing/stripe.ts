// Stripe Checkout for the subscription after the trial, and the signature-verified webhook that
// activates it. Used only when STRIPE_SECRET_KEY (and STRIPE_PRICE_ID) are set.
import { eq } from 'drizzle-orm';
import Stripe from 'stripe';
import { z } from 'zod';
import { EARLIEST_YEAR, LATEST_YEAR } from '../../../shared/dates.js';
import type { Config } from '../../config.js';
import type { Db } from '../../db/connect.js';
import { subscriptions, users } from '../../db/schema.js';
import { HttpError, badRequest, conflict } from '../../errors.js';
import { isUuid } from '../../access.js';
import { applySubscriptionChange, ourStatus } from './service.js';

export const CHECKOUT_FAILED = 'The payment page could not be opened. Please try again.';

export const checkoutAvailable = (config: Config) => Boolean(config.stripeSecretKey && config.stripePriceId);

/** How a Stripe client is made; tests point it at a local stand-in for Stripe's API. */
let makeClient = (key: string) => new Stripe(key);
export function setStripeClientFactory(factory: (key: string) => Stripe) {
  makeClient = factory;
  client = undefined;
}

let client: { key: string; stripe: Stripe } | undefined;
function stripeFor(config: Config): Stripe {
  if (!config.stripeSecretKey) throw new HttpError(503, 'Online payment is not configured on this server.');
  if (client?.key !== config.stripeSecretKey) {
    client = { key: config.stripeSecretKey, stripe: makeClient(config.stripeSecretKey) };
  }
  return client.stripe;
}

/** Starts a Checkout session for the hospital's subscription; returns the page to send it to. */
export async function startCheckout(
  db: Db,
  config: Config,
  hospital: { id: string; email: string },
  logError: (err: unknown) => void = () => {},
): Promise<string> {
  if (!checkoutAvailable(config)) {
    throw new HttpError(503, 'Online payment is not configured on this server. Please contact support.');
  }
  const [sub] = await db.select().from(subscriptions).where(eq(subscriptions.userId, hospital.id));
  if (sub?.status === 'active') throw conflict('Your subscription is already active.');
  const stripe = stripeFor(config);
  let session: Stripe.Checkout.Session;
  try {
    session = await stripe.checkout.sessions.create({
      mode: 'subscription',
      line_items: [{ price: config.stripePriceId, quantity: 1 }],
      client_reference_id: hospital.id,
      ...(sub?.stripeCustomerId ? { customer: sub.stripeCustomerId } : { customer_email: hospital.email }),
      subscription_data: { metadata: { hospitalUserId: hospital.id } },
      metadata: { hospitalUserId: hospital.id },
      success_url: `${config.publicUrl}/hospital-dashboard?billing=success`,
      cancel_url: `${config.publicUrl}/hospital-dashboard?billing=cancelled`,
    });
  } catch (err) {
    logError(err);
    throw new HttpError(502, CHECKOUT_FAILED);
  }
  if (!session.url) throw new HttpError(502, CHECKOUT_FAILED);
  return session.url;
}

/** Checks the Stripe-Signature header against the raw body; a bad or missing one is a 400. */
export function verifyWebhook(config: Config, rawBody: Buffer, signature: string | undefined): Stripe.Event {
  if (!config.stripeWebhookSecret)
    throw new HttpError(503, 'Stripe webhooks are not configured on this server.');
  if (!signature) throw badRequest('Missing Stripe-Signature header.');
  try {
    return Stripe.webhooks.constructEvent(rawBody, signature, config.stripeWebhookSecret);
  } catch {
    throw badRequest('Invalid Stripe signature.');
  }
}

const idOf = (value: string | { id: string } | null | undefined) =>
  typeof value === 'string' ? value : (value?.id ?? null);

/**
 * The fields of the events we act on, checked before any is stored: the signature proves who sent
 * an event, not that its values fit our columns (a NUL in an id, a period end in the year 10000),
 * and a 500 would only make Stripe send it again. Other fields pass through unread.
 */
const stripeId = z.string().regex(/^[A-Za-z0-9_]{1,255}$/);
const reference = z.union([stripeId, z.looseObject({ id: stripeId })]).nullish();
const epochSeconds = z
  .number()
  .int()
  .min(Date.UTC(EARLIEST_YEAR, 0, 1) / 1000)
  .max(Date.UTC(LATEST_YEAR + 1, 0, 1) / 1000 - 1);
const checkoutSessionSchema = z.looseObject({
  mode: z.string().nullish(),
  payment_status: z.string().nullish(),
  client_reference_id: z.string().nullish(),
  customer: reference,
  subscription: reference,
});
const subscriptionSchema = z.looseObject({
  id: stripeId,
  status: z.string(),
  customer: reference,
  metadata: z.record(z.string(), z.string()).nullish(),
  items: z
    .looseObject({
      data: z.array(
        z.looseObject({
          current_period_end: epochSeconds.nullish(),
          price: z.looseObject({ id: stripeId, product: reference }).nullish(),
        }),
      ),
    })
    .nullish(),
});
const NOT_READABLE = 'The event could not be read: a field we act on is missing or out of range.';

function eventObject<T>(event: Stripe.Event, schema: z.ZodType<T>): T {
  const parsed = schema.safeParse((event.data as { object?: unknown } | undefined)?.object);
  if (!parsed.success) throw badRequest(NOT_READABLE);
  return parsed.data;
}

/** The id when it names a hospital account, else null. */
async function hospitalId(db: Db, userId: string | null | undefined): Promise<string | null> {
  if (!userId || !isUuid(userId)) return null;
  const [row] = await db.select({ role: users.role }).from(users).where(eq(users.id, userId));
  return row?.role === 'hospital' ? userId : null;
}

/** The hospital a Stripe subscription belongs to: its metadata, else the stored subscription id. */
async function hospitalForSubscription(
  db: Db,
  sub: z.infer<typeof subscriptionSchema>,
): Promise<string | null> {
  const fromMetadata = await hospitalId(db, sub.metadata?.hospitalUserId);
  if (fromMetadata) return fromMetadata;
  const [row] = await db
    .select({ userId: subscriptions.userId })
    .from(subscriptions)
    .where(eq(subscriptions.stripeSubscriptionId, sub.id));
  return row?.userId ?? null;
}

/** Applies the events we act on; others are acknowledged and ignored. Replays are harmless. */
export async function handleStripeEvent(db: Db, event: Stripe.Event, now: Date): Promise<void> {
  if (typeof event !== 'object' || event === null || typeof event.type !== 'string')
    throw badRequest(NOT_READABLE);
  if (event.type === 'checkout.session.completed') {
    const session = eventObject(event, checkoutSessionSchema);
    if (session.mode !== 'subscription' || session.payment_status === 'unpaid') return;
    const hospitalUserId = await hospitalId(db, session.client_reference_id);
    if (!hospitalUserId) return;
    await applySubscriptionChange(
      db,
      {
        hospitalUserId,
        status: 'active',
        stripeCustomerId: idOf(session.customer),
        stripeSubscriptionId: idOf(session.subscription),
        actorId: null,
        audit: { change: 'checkout' },
      },
      now,
    );
    return;
  }
  if (
    event.type === 'customer.subscription.created' ||
    event.type === 'customer.subscription.updated' ||
    event.type === 'customer.subscription.deleted'
  ) {
    const sub = eventObject(event, subscriptionSchema);
    const hospitalUserId = await hospitalForSubscription(db, sub);
    if (!hospitalUserId) return;
    const item = sub.items?.data?.[0];
    const periodEnd = item?.current_period_end;
    const status = event.type === 'customer.subscription.deleted' ? 'canceled' : ourStatus(sub.status);
    await applySubscriptionChange(
      db,
      {
        hospitalUserId,
        status,
        stripeCustomerId: idOf(sub.customer),
        stripeSubscriptionId: sub.id,
        currentPeriodEnd: periodEnd ? new Date(periodEnd * 1000) : undefined,
        priceId: item?.price?.id,
        productId: idOf(item?.price?.product),
        actorId: null,
        audit: { change: 'stripe', stripeStatus: sub.status, status },
      },
      now,
    );
  }
}
