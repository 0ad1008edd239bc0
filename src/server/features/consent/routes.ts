// GET and PUT /api/consent/{userId} (docs/spec.md#calls; docs/decisions.md#consent: saves are persisted,
// ledgered and audited).
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { text } from '../../../shared/text.js';
import { consentInputSchema, consentSchema } from '../../../shared/consent.js';
import type { AppContext } from '../../context.js';
import { actorOf } from '../../access.js';
import { inviteAllDue, inviteDeps } from '../proxy/invitations.js';
import { getConsent, saveConsent } from './service.js';
import { CLINICAL_STAFF } from '../../plugins/policy.js';

const tags = ['consent'];
const params = z.object({ userId: text().max(100) });

export async function consentRoutes(app: FastifyInstance, ctx: AppContext) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/consent/:userId',
    {
      config: {
        policy: {
          roles: ['patient', 'hospital'],
          writeAccess: false,
          healthData: true,
          staffRoles: CLINICAL_STAFF,
        },
      },
      schema: {
        tags,
        summary:
          "A patient's consent settings by their user id (both on until the patient saves a choice): " +
          'the patient themself, or the hospital that created the patient',
        params,
        response: { 200: consentSchema },
      },
    },
    async (request) => getConsent(ctx.db, actorOf(request), request.params.userId),
  );

  r.put(
    '/api/consent/:userId',
    {
      config: { policy: { roles: ['patient'], writeAccess: false, healthData: true } },
      schema: {
        tags,
        summary: 'Save the signed-in patient’s own consent settings (ledgered as consent_change, audited)',
        params,
        body: consentInputSchema,
        response: { 200: consentSchema },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      const consent = await saveConsent(ctx.db, actor, request.params.userId, request.body, ctx.now());
      // docs/decisions.md#family-proxy-access: family sharing on invites the contacts given access.
      if (consent.shareWithFamily) await inviteAllDue(inviteDeps(ctx, request.log), actor, ctx.now());
      return consent;
    },
  );
}
