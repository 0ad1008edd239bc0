// The signed-in user's own security (issue 9), every role: two-factor set-up, enable, disable and
// status; password change; the sessions list and ending one session.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  passwordChangeSchema,
  recoveryCodesResponseSchema,
  sessionListSchema,
  twoFactorCodeBodySchema,
  twoFactorDisableSchema,
  twoFactorSetupResponseSchema,
  twoFactorStatusSchema,
} from '../../../shared/account.js';
import { messageSchema } from '../../../shared/auth.js';
import { text } from '../../../shared/text.js';
import type { AppContext } from '../../context.js';
import { currentUser } from '../../plugins/session.js';
import { EVERY_ROLE } from '../../plugins/policy.js';
import { changePassword } from './service.js';
import { endSession, listSessions } from './sessions.js';
import { disableTwoFactor, enableTwoFactor, startSetup, twoFactorStatus } from './two-factor.js';

const tags = ['auth'];

export async function accountRoutes(app: FastifyInstance, ctx: AppContext) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  // Every role's own sign-in security, family members' included (docs/decisions.md#family-proxy-access).
  const deps = () => ({
    db: ctx.db,
    secretKey: ctx.files.deriveKey('totp-secret'),
    loginMaxFailures: ctx.config.loginMaxFailures,
  });
  const actor = (request: FastifyRequest) => {
    const user = currentUser(request);
    return { id: user.id, email: user.email, role: user.role, ip: request.ip, sessionId: user.sessionId };
  };

  r.get(
    '/api/auth/2fa',
    {
      config: { policy: { roles: EVERY_ROLE, writeAccess: false, healthData: false } },
      schema: { tags, summary: 'Whether two-factor sign-in is on', response: { 200: twoFactorStatusSchema } },
    },
    async (request) => twoFactorStatus(ctx.db, currentUser(request).id),
  );

  r.post(
    '/api/auth/2fa/setup',
    {
      config: { policy: { roles: EVERY_ROLE, writeAccess: false, healthData: false } },
      schema: {
        tags,
        summary: 'A new TOTP secret (base32) and its otpauth:// URI, pending until enabled',
        response: { 200: twoFactorSetupResponseSchema },
      },
    },
    async (request) => startSetup(deps(), actor(request), ctx.now()),
  );

  r.post(
    '/api/auth/2fa/enable',
    {
      config: { policy: { roles: EVERY_ROLE, writeAccess: false, healthData: false } },
      schema: {
        tags,
        summary:
          'Turn two-factor sign-in on with a code from the pending secret; 10 recovery codes, shown once',
        body: twoFactorCodeBodySchema,
        response: { 200: recoveryCodesResponseSchema },
      },
    },
    async (request) => ({
      recoveryCodes: await enableTwoFactor(deps(), actor(request), request.body.code, ctx.now()),
    }),
  );

  r.post(
    '/api/auth/2fa/disable',
    {
      config: { policy: { roles: EVERY_ROLE, writeAccess: false, healthData: false } },
      schema: {
        tags,
        summary: 'Turn two-factor sign-in off (the password is asked again)',
        body: twoFactorDisableSchema,
        response: { 200: messageSchema },
      },
    },
    async (request) => {
      await disableTwoFactor(deps(), actor(request), request.body.password, ctx.now());
      return { message: 'Two-factor sign-in is off.' };
    },
  );

  r.post(
    '/api/auth/password',
    {
      config: { policy: { roles: EVERY_ROLE, writeAccess: false, healthData: false } },
      schema: {
        tags,
        summary: 'Change the password; every other session of the account ends',
        body: passwordChangeSchema,
        response: { 200: messageSchema.extend({ endedSessions: z.number().int() }) },
      },
    },
    async (request) => {
      const ended = await changePassword(
        ctx.db,
        actor(request),
        request.body,
        ctx.config.loginMaxFailures,
        ctx.now(),
      );
      return {
        message:
          ended > 0
            ? `Your password was changed and ${ended} other session${ended === 1 ? ' was' : 's were'} signed out.`
            : 'Your password was changed.',
        endedSessions: ended,
      };
    },
  );

  r.get(
    '/api/auth/sessions',
    {
      config: { policy: { roles: EVERY_ROLE, writeAccess: false, healthData: false } },
      schema: {
        tags,
        summary: 'The live sessions of the signed-in user, the current one first',
        response: { 200: sessionListSchema },
      },
    },
    async (request) => {
      const user = currentUser(request);
      // Real time, as the session plugin checks expiry with (not the app's test clock).
      return listSessions(ctx.db, user.id, user.sessionPublicId, new Date());
    },
  );

  r.delete(
    '/api/auth/sessions/:id',
    {
      config: { policy: { roles: EVERY_ROLE, writeAccess: false, healthData: false } },
      schema: {
        tags,
        summary: "Sign out one of the user's sessions (another user's id is a 404)",
        params: z.object({ id: text().max(100) }),
        response: { 200: messageSchema },
      },
    },
    async (request) => {
      const a = actor(request);
      await endSession(ctx.db, a, request.params.id);
      return { message: 'The session was signed out.' };
    },
  );
}
