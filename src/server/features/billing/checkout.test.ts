// Stripe Checkout against a local stand-in for Stripe's API (no network): what the server asks
// Stripe for, and what the hospital is sent to.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { subscriptions } from '../../db/schema.js';
import { call, createTestApp, signedInHospital, type TestApp } from '../../test/helpers.js';
import { setStripeClientFactory } from './stripe.js';

interface Seen {
  method: string;
  path: string;
  authorization: string;
  form: URLSearchParams;
}

const seen: Seen[] = [];
let stripeApi: http.Server;
let t: TestApp;

beforeAll(async () => {
  stripeApi = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      seen.push({
        method: req.method ?? '',
        path: req.url ?? '',
        authorization: req.headers.authorization ?? '',
        form: new URLSearchParams(body),
      });
      res.setHeader('content-type', 'application/json');
      res.end(
        JSON.stringify({
          id: 'cs_test_1',
          object: 'checkout.session',
          url: 'https://checkout.stripe.test/c/pay/cs_test_1',
        }),
      );
    });
  });
  await new Promise<void>((resolve) => stripeApi.listen(0, '127.0.0.1', resolve));
  const { port } = stripeApi.address() as AddressInfo;
  setStripeClientFactory(
    (key) => new Stripe(key, { host: '127.0.0.1', port, protocol: 'http', maxNetworkRetries: 0 }),
  );
  t = await createTestApp({
    stripeSecretKey: 'sk_test_medledger',
    stripePriceId: 'price_monthly',
    publicUrl: 'http://medledger.test',
  });
});

afterAll(async () => {
  setStripeClientFactory((key) => new Stripe(key));
  await t?.close();
  await new Promise<void>((resolve) => stripeApi.close(() => resolve()));
});

describe('Stripe Checkout', () => {
  it("opens a subscription checkout for the signed-in hospital and answers Stripe's page", async () => {
    const h = await signedInHospital(t.app);
    const res = await call(t.app, 'POST', '/api/billing/checkout', h.cookie);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ url: 'https://checkout.stripe.test/c/pay/cs_test_1' });

    const request = seen.at(-1)!;
    expect(request.method).toBe('POST');
    expect(request.path).toBe('/v1/checkout/sessions');
    expect(request.authorization).toBe('Bearer sk_test_medledger');
    expect(request.form.get('mode')).toBe('subscription');
    expect(request.form.get('line_items[0][price]')).toBe('price_monthly');
    expect(request.form.get('client_reference_id')).toBe(h.userId);
    expect(request.form.get('customer_email')).toBe(h.email);
    expect(request.form.get('subscription_data[metadata][hospitalUserId]')).toBe(h.userId);
    expect(request.form.get('success_url')).toBe('http://medledger.test/hospital-dashboard?billing=success');
    expect(request.form.get('cancel_url')).toBe('http://medledger.test/hospital-dashboard?billing=cancelled');
  });

  it('reuses the Stripe customer of a hospital that has one, and refuses when already active', async () => {
    const h = await signedInHospital(t.app);
    await t.ctx.db
      .update(subscriptions)
      .set({ stripeCustomerId: 'cus_known' })
      .where(eq(subscriptions.userId, h.userId));
    const res = await call(t.app, 'POST', '/api/billing/checkout', h.cookie);
    expect(res.statusCode).toBe(200);
    expect(seen.at(-1)!.form.get('customer')).toBe('cus_known');
    expect(seen.at(-1)!.form.get('customer_email')).toBeNull();

    await t.ctx.db.update(subscriptions).set({ status: 'active' }).where(eq(subscriptions.userId, h.userId));
    const before = seen.length;
    const again = await call(t.app, 'POST', '/api/billing/checkout', h.cookie);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('Your subscription is already active.');
    expect(seen).toHaveLength(before);
  });

  it('tells the hospital when Stripe cannot be reached, without a 500', async () => {
    const h = await signedInHospital(t.app);
    setStripeClientFactory(
      (key) => new Stripe(key, { host: '127.0.0.1', port: 9, protocol: 'http', maxNetworkRetries: 0 }),
    );
    try {
      const res = await call(t.app, 'POST', '/api/billing/checkout', h.cookie);
      expect(res.statusCode).toBe(502);
      expect(res.json().message).toBe('The payment page could not be opened. Please try again.');
    } finally {
      const { port } = stripeApi.address() as AddressInfo;
      setStripeClientFactory(
        (key) => new Stripe(key, { host: '127.0.0.1', port, protocol: 'http', maxNetworkRetries: 0 }),
      );
    }
  });
});
