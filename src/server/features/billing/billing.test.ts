import crypto from 'node:crypto';
import { eq } from 'drizzle-orm';
import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { subscriptions } from '../../db/schema.js';
import {
  addPatient,
  auditRows,
  call,
  createTestApp,
  postRawJson,
  signedInAdmin,
  signedInHospital,
  signedInPatient,
  useCast,
} from '../../test/helpers.js';
import { uploadRecord } from '../records/testing.js';
import { PAYMENT_REQUIRED_MESSAGE, STRIPE_MANAGED } from './service.js';
import { TRIAL_DAYS } from '../../../shared/constants.js';

const WEBHOOK_SECRET = 'whsec_test_medledger';
const DAY = 86_400_000;
const start = new Date('2030-05-01T08:00:00Z');
let clock = start;
const t = useCast({
  config: { stripeWebhookSecret: WEBHOOK_SECRET },
  options: { now: () => clock },
  hospital: false,
  admin: true,
});

/** Runs `fn` with the clock moved `days` past the start. */
async function after<T>(days: number, fn: () => Promise<T>): Promise<T> {
  clock = new Date(start.getTime() + days * DAY);
  try {
    return await fn();
  } finally {
    clock = start;
  }
}

const status = (cookie?: string) =>
  t.app.inject({ method: 'GET', url: '/api/billing/status', headers: cookie ? { cookie } : {} });

const addPatientAs = (cookie: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/patients',
    headers: { cookie },
    payload: { firstName: 'Tia', lastName: 'Trial' },
  });

const activate = (hospitalUserId: string, cookie = t.admin.cookie) =>
  t.app.inject({
    method: 'POST',
    url: `/api/billing/subscriptions/${hospitalUserId}/activate`,
    headers: { cookie },
  });

function webhook(event: unknown, secret = WEBHOOK_SECRET, tamper?: (body: string) => string) {
  const payload = JSON.stringify(event);
  const header = Stripe.webhooks.generateTestHeaderString({ payload, secret });
  return t.app.inject({
    method: 'POST',
    url: '/api/billing/webhook',
    headers: { 'content-type': 'application/json', 'stripe-signature': header },
    payload: tamper ? tamper(payload) : payload,
  });
}

const event = (type: string, object: Record<string, unknown>) => ({
  id: `evt_${crypto.randomBytes(6).toString('hex')}`,
  object: 'event',
  type,
  data: { object },
});

describe('the trial', () => {
  it('answers 401 signed out and 403 for the administrator', async () => {
    expect((await status()).statusCode).toBe(401);
    expect((await status(t.admin.cookie)).statusCode).toBe(403);
  });

  it('gives a new hospital 7 days of writing', async () => {
    const h = await signedInHospital(t.app);
    const res = await status(h.cookie);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      status: 'trialing',
      writeAllowed: true,
      trialDaysLeft: 7,
      message: null,
      checkoutAvailable: false,
    });
    expect(res.json().trialEndsAt).toBe(new Date(start.getTime() + 7 * DAY).toISOString());
    expect((await after(6.9, () => addPatientAs(h.cookie))).statusCode).toBe(201);
  });

  it('after the trial: reads still work, every write answers 402 with a message, the status explains', async () => {
    const h = await signedInHospital(t.app);
    const patient = await addPatient(t.app, h.cookie);
    await after(7, async () => {
      const s = await status(h.cookie);
      expect(s.json()).toMatchObject({
        writeAllowed: false,
        trialDaysLeft: 0,
        message: PAYMENT_REQUIRED_MESSAGE,
      });
      const add = await addPatientAs(h.cookie);
      expect(add.statusCode).toBe(402);
      expect(add.json().message).toBe(PAYMENT_REQUIRED_MESSAGE);
      const edit = await call(t.app, 'PUT', `/api/patients/${patient.id}`, h.cookie, {
        firstName: 'Changed',
      });
      expect(edit.statusCode).toBe(402);
      const del = await call(t.app, 'DELETE', `/api/patients/${patient.id}`, h.cookie);
      expect(del.statusCode).toBe(402);
      const list = await call(t.app, 'GET', '/api/patients', h.cookie);
      expect(list.statusCode).toBe(200);
      const one = await call(t.app, 'GET', `/api/patients/${patient.id}`, h.cookie);
      expect(one.statusCode).toBe(200);
      expect(one.json().firstName).toBe('Pat');
    });
  });

  it("leaves that hospital's patients full access to their own records after the trial", async () => {
    const h = await signedInHospital(t.app);
    const patient = await addPatient(t.app, h.cookie);
    const upload = await uploadRecord(t.app, h.cookie, patient.id, { fields: { title: 'Lipid panel' } });
    expect(upload.statusCode).toBe(201);
    // Past the trial, and within the 30 days the patient's activation code lasts.
    await after(TRIAL_DAYS + 3, async () => {
      // The hospital may no longer write ...
      expect((await uploadRecord(t.app, h.cookie, patient.id)).statusCode).toBe(402);
      // ... but its patient signs up, reads, downloads and changes sharing as before.
      const p = await signedInPatient(t.app, patient.patientId);
      const list = await call(t.app, 'GET', '/api/medical-records', p.cookie);
      expect(list.statusCode).toBe(200);
      const [record] = list.json().items;
      expect(record.title).toBe('Lipid panel');
      const one = await call(t.app, 'GET', `/api/medical-records/record/${record.id}`, p.cookie);
      expect(one.statusCode).toBe(200);
      const file = await call(t.app, 'GET', record.fileUrl, p.cookie);
      expect(file.statusCode).toBe(200);
      expect(file.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
      const sharing = await call(t.app, 'PUT', `/api/medical-records/${record.id}/sharing`, p.cookie, {
        shareWithSpecialists: false,
        shareWithFamily: true,
      });
      expect(sharing.statusCode).toBe(200);
    });
  });
});

describe('the administrator marks a subscription active (no Stripe configured)', () => {
  it('refuses signed out (401), a hospital (403), and unknown, malformed or non-hospital ids (404)', async () => {
    const h = await signedInHospital(t.app);
    expect(
      (await t.app.inject({ method: 'POST', url: `/api/billing/subscriptions/${h.userId}/activate` }))
        .statusCode,
    ).toBe(401);
    expect((await activate(h.userId, h.cookie)).statusCode).toBe(403);
    expect((await activate(crypto.randomUUID())).statusCode).toBe(404);
    expect((await activate('x')).statusCode).toBe(404);
    const adminRow = await signedInAdmin(t);
    expect((await activate(adminRow.userId)).statusCode).toBe(404);
  });

  it('lets a hospital write again after its trial, and audits the change', async () => {
    const h = await signedInHospital(t.app);
    await after(10, async () => {
      expect((await addPatientAs(h.cookie)).statusCode).toBe(402);
      const res = await activate(h.userId);
      expect(res.statusCode).toBe(200);
      expect((await status(h.cookie)).json()).toMatchObject({
        status: 'active',
        writeAllowed: true,
        message: null,
      });
      expect((await addPatientAs(h.cookie)).statusCode).toBe(201);
    });
    const audit = await auditRows(t, { hospitalId: h.userId, action: 'subscription_change' });
    expect(audit).toHaveLength(1);
  });

  it('lists every hospital account, including ones that signed up directly, with its state', async () => {
    const list = (cookie?: string) =>
      t.app.inject({ method: 'GET', url: '/api/billing/subscriptions', headers: cookie ? { cookie } : {} });
    const h = await signedInHospital(t.app, 'Signup Clinic');
    expect((await list()).statusCode).toBe(401);
    expect((await list(h.cookie)).statusCode).toBe(403);

    const before = (await list(t.admin.cookie)).json();
    expect(before.stripeManaged).toBe(false);
    expect(before.hospitals).toContainEqual(
      expect.objectContaining({
        hospitalUserId: h.userId,
        hospitalName: 'Signup Clinic',
        status: 'trialing',
        writeAllowed: true,
      }),
    );
    await after(10, async () => {
      const ended = (await list(t.admin.cookie)).json();
      expect(ended.hospitals).toContainEqual(
        expect.objectContaining({ hospitalUserId: h.userId, status: 'trialing', writeAllowed: false }),
      );
      expect((await activate(h.userId)).statusCode).toBe(200);
      const after = (await list(t.admin.cookie)).json();
      expect(after.hospitals).toContainEqual(
        expect.objectContaining({ hospitalUserId: h.userId, status: 'active', writeAllowed: true }),
      );
    });
    // Only hospitals are listed.
    const all = (await list(t.admin.cookie)).json().hospitals as { hospitalUserId: string }[];
    expect(all.some((x) => x.hospitalUserId === t.admin.userId)).toBe(false);
  });

  it('is refused with 409 where Stripe manages subscriptions', async () => {
    const withStripe = await createTestApp({ stripeSecretKey: 'sk_test_x', stripePriceId: 'price_x' });
    try {
      const a = await signedInAdmin(withStripe);
      const h = await signedInHospital(withStripe.app);
      const res = await call(
        withStripe.app,
        'POST',
        `/api/billing/subscriptions/${h.userId}/activate`,
        a.cookie,
      );
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toBe(STRIPE_MANAGED);
      const s = await call(withStripe.app, 'GET', '/api/billing/status', h.cookie);
      expect(s.json().checkoutAvailable).toBe(true);
    } finally {
      await withStripe.close();
    }
  });
});

describe('Stripe checkout and webhook', () => {
  it('says checkout is not available without Stripe (503), and needs a hospital', async () => {
    const h = await signedInHospital(t.app);
    expect((await t.app.inject({ method: 'POST', url: '/api/billing/checkout' })).statusCode).toBe(401);
    expect((await call(t.app, 'POST', '/api/billing/checkout', t.admin.cookie)).statusCode).toBe(403);
    const res = await call(t.app, 'POST', '/api/billing/checkout', h.cookie);
    expect(res.statusCode).toBe(503);
    expect(res.json().message).toMatch(/not configured/);
  });

  it('refuses a webhook without a signature, with a wrong secret, or with an altered body (400)', async () => {
    const h = await signedInHospital(t.app);
    const completed = event('checkout.session.completed', {
      object: 'checkout.session',
      mode: 'subscription',
      payment_status: 'paid',
      client_reference_id: h.userId,
      customer: 'cus_evil',
      subscription: 'sub_evil',
    });
    const unsigned = await t.app.inject({
      method: 'POST',
      url: '/api/billing/webhook',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify(completed),
    });
    expect(unsigned.statusCode).toBe(400);
    expect((await webhook(completed, 'whsec_wrong')).statusCode).toBe(400);
    const altered = await webhook(completed, WEBHOOK_SECRET, (body) => body.replace('cus_evil', 'cus_other'));
    expect(altered.statusCode).toBe(400);
    expect(altered.json().message).toBe('Invalid Stripe signature.');
    const [sub] = await t.ctx.db.select().from(subscriptions).where(eq(subscriptions.userId, h.userId));
    expect(sub.status).toBe('trialing');
  });

  it('activates the subscription on a signed checkout.session.completed, and cancels it on deletion', async () => {
    const h = await signedInHospital(t.app);
    const res = await webhook(
      event('checkout.session.completed', {
        object: 'checkout.session',
        mode: 'subscription',
        payment_status: 'paid',
        client_reference_id: h.userId,
        customer: 'cus_123',
        subscription: 'sub_123',
      }),
    );
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ received: true });
    const [sub] = await t.ctx.db.select().from(subscriptions).where(eq(subscriptions.userId, h.userId));
    expect(sub).toMatchObject({
      status: 'active',
      stripeCustomerId: 'cus_123',
      stripeSubscriptionId: 'sub_123',
    });
    expect((await after(20, () => addPatientAs(h.cookie))).statusCode).toBe(201);

    const periodEnd = Math.floor(start.getTime() / 1000) + 30 * 86400;
    const updated = await webhook(
      event('customer.subscription.updated', {
        id: 'sub_123',
        object: 'subscription',
        status: 'past_due',
        customer: 'cus_123',
        metadata: {},
        items: { data: [{ current_period_end: periodEnd, price: { id: 'price_1', product: 'prod_1' } }] },
      }),
    );
    expect(updated.statusCode).toBe(200);
    const [pastDue] = await t.ctx.db.select().from(subscriptions).where(eq(subscriptions.userId, h.userId));
    expect(pastDue).toMatchObject({ status: 'past_due', priceId: 'price_1', productId: 'prod_1' });
    expect(pastDue.currentPeriodEnd?.getTime()).toBe(periodEnd * 1000);
    expect((await after(20, () => addPatientAs(h.cookie))).statusCode).toBe(402);

    await webhook(
      event('customer.subscription.deleted', {
        id: 'sub_123',
        object: 'subscription',
        status: 'canceled',
        customer: 'cus_123',
        metadata: { hospitalUserId: h.userId },
        items: { data: [] },
      }),
    );
    const [canceled] = await t.ctx.db.select().from(subscriptions).where(eq(subscriptions.userId, h.userId));
    expect(canceled.status).toBe('canceled');
    const audit = await auditRows(t, { hospitalId: h.userId, action: 'subscription_change' });
    expect(audit).toHaveLength(3);
  });

  it('acknowledges events it does not act on, and ignores references to unknown or non-hospital users', async () => {
    const other = await webhook(event('invoice.paid', { object: 'invoice' }));
    expect(other.statusCode).toBe(200);
    const patientRef = await webhook(
      event('checkout.session.completed', {
        object: 'checkout.session',
        mode: 'subscription',
        payment_status: 'paid',
        client_reference_id: (await signedInAdmin(t)).userId,
        customer: 'cus_x',
        subscription: 'sub_x',
      }),
    );
    expect(patientRef.statusCode).toBe(200);
    const rows = await t.ctx.db
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.stripeCustomerId, 'cus_x'));
    expect(rows).toHaveLength(0);
  });

  it('refuses signed events whose fields it acts on cannot be stored (400), and changes nothing', async () => {
    const h = await signedInHospital(t.app);
    const subscription = (change: Record<string, unknown>) =>
      event('customer.subscription.updated', {
        id: 'sub_edge',
        object: 'subscription',
        status: 'active',
        customer: 'cus_edge',
        metadata: { hospitalUserId: h.userId },
        items: { data: [{ current_period_end: 1_900_000_000, price: { id: 'price_1', product: 'prod_1' } }] },
        ...change,
      });
    const unreadable = [
      subscription({ items: { data: [{ current_period_end: 1e13 }] } }),
      subscription({ items: { data: [{ current_period_end: 253_402_300_800 }] } }), // the year 10000
      subscription({ items: { data: [{ current_period_end: 'abc' }] } }),
      subscription({ id: 'sub_\u0000' }),
      subscription({ customer: { id: 'cus_\u0000' } }),
      { ...event('customer.subscription.deleted', {}), data: { object: null } },
      { id: 'evt_no_data', object: 'event', type: 'checkout.session.completed' },
      event('checkout.session.completed', {
        mode: 'subscription',
        client_reference_id: h.userId,
        customer: 'c\u0000',
      }),
      null,
    ];
    for (const body of unreadable) {
      const res = await webhook(body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().message).toMatch(/could not be read/);
    }
    const [sub] = await t.ctx.db.select().from(subscriptions).where(eq(subscriptions.userId, h.userId));
    expect(sub.stripeSubscriptionId).toBeNull();
    expect(await auditRows(t, { hospitalId: h.userId, action: 'subscription_change' })).toHaveLength(0);
    // The same event with values that fit is applied.
    expect((await webhook(subscription({}))).statusCode).toBe(200);
    const [applied] = await t.ctx.db.select().from(subscriptions).where(eq(subscriptions.userId, h.userId));
    expect(applied).toMatchObject({ status: 'active', stripeSubscriptionId: 'sub_edge' });
  });

  it('answers 503 when no webhook secret is configured', async () => {
    const plain = await createTestApp();
    try {
      const res = await plain.app.inject({
        method: 'POST',
        url: '/api/billing/webhook',
        headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=abc' },
        payload: '{}',
      });
      expect(res.statusCode).toBe(503);
    } finally {
      await plain.close();
    }
  });

  it('still parses JSON normally on every other route', async () => {
    const res = await postRawJson(t.app, '/api/provider-applications', '{"hospitalName":"x"');
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('The request body is not valid JSON.');
  });
});
