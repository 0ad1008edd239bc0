// GET /api/billing/status (the trial banner), POST /api/billing/checkout (Stripe Checkout),
// POST /api/billing/webhook (Stripe, signature-verified) and the administrator's "mark active".
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { text } from '../../../shared/text.js';
import { messageSchema } from '../../../shared/auth.js';
import { billingStatusSchema, hospitalSubscriptionListSchema } from '../../../shared/providers.js';
import { actorOf, isUuid, orgOf } from '../../access.js';
import type { AppContext } from '../../context.js';
import { conflict, notFound } from '../../errors.js';
import { currentUser } from '../../plugins/session.js';
import {
  STRIPE_MANAGED,
  billingStatus,
  listHospitalSubscriptions,
  markSubscriptionActive,
} from './service.js';
import { checkoutAvailable, handleStripeEvent, startCheckout, verifyWebhook } from './stripe.js';
import { ALL_STAFF, HOSPITAL_ADMINS } from '../../plugins/policy.js';

export async function billingRoutes(app: FastifyInstance, ctx: AppContext) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/billing/status',
    {
      config: {
        policy: { roles: ['hospital'], writeAccess: false, healthData: false, staffRoles: ALL_STAFF },
      },
      schema: {
        tags: ['billing'],
        summary: "The signed-in hospital's trial and subscription state",
        response: { 200: billingStatusSchema },
      },
    },
    async (request) =>
      billingStatus(ctx.db, orgOf(actorOf(request)), ctx.now(), {
        checkoutAvailable: checkoutAvailable(ctx.config),
        supportEmail: ctx.config.supportEmail,
      }),
  );

  r.post(
    '/api/billing/checkout',
    {
      config: {
        policy: { roles: ['hospital'], writeAccess: false, healthData: false, staffRoles: HOSPITAL_ADMINS },
        rateLimit: { max: 10, timeWindow: '15 minutes' },
      },
      schema: {
        tags: ['billing'],
        summary: 'Start a Stripe Checkout session for the subscription',
        response: { 200: z.object({ url: z.string() }) },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const logError = (err: unknown) => request.log.error({ err }, 'Stripe Checkout session failed');
      return {
        url: await startCheckout(
          ctx.db,
          ctx.config,
          { id: user.hospitalId ?? user.id, email: user.email },
          logError,
        ),
      };
    },
  );

  r.get(
    '/api/billing/subscriptions',
    {
      config: { policy: { roles: ['medledger_admin'], writeAccess: false, healthData: false } },
      schema: {
        tags: ['billing'],
        summary: 'Every hospital account with its trial or subscription state (administrator)',
        response: { 200: hospitalSubscriptionListSchema },
      },
    },
    async () => ({
      stripeManaged: checkoutAvailable(ctx.config),
      hospitals: await listHospitalSubscriptions(ctx.db, ctx.now()),
    }),
  );

  r.post(
    '/api/billing/subscriptions/:hospitalUserId/activate',
    {
      config: { policy: { roles: ['medledger_admin'], writeAccess: false, healthData: false } },
      schema: {
        tags: ['billing'],
        summary: "Mark a hospital's subscription active (administrator; only without Stripe)",
        params: z.object({ hospitalUserId: text().max(100) }),
        response: { 200: messageSchema },
      },
    },
    async (request) => {
      if (checkoutAvailable(ctx.config)) throw conflict(STRIPE_MANAGED);
      if (!isUuid(request.params.hospitalUserId)) throw notFound('Hospital not found.');
      await markSubscriptionActive(
        ctx.db,
        request.params.hospitalUserId,
        currentUser(request).id,
        request.ip,
        ctx.now(),
      );
      return { message: 'The subscription is now active.' };
    },
  );

  // The webhook needs the exact bytes Stripe signed, so this scope alone reads bodies raw.
  await app.register(async (raw) => {
    raw.removeAllContentTypeParsers();
    raw.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
    raw.withTypeProvider<ZodTypeProvider>().post(
      '/api/billing/webhook',
      {
        config: { policy: { public: true, healthData: false } },
        schema: {
          tags: ['billing'],
          summary: 'Stripe webhook (verified by the Stripe-Signature header)',
          response: { 200: z.object({ received: z.boolean() }) },
        },
      },
      async (request) => {
        const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        const signature = request.headers['stripe-signature'];
        const event = verifyWebhook(ctx.config, body, typeof signature === 'string' ? signature : undefined);
        await handleStripeEvent(ctx.db, event, ctx.now());
        return { received: true };
      },
    );
  });
}
