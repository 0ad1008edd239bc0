// POST /api/auth/register, /login, /logout and GET /api/auth/me (docs/spec.md#calls), and the
// second sign-in step POST /api/auth/2fa/verify (issue 9). The account's own security calls are in
// account-routes.ts.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  loginResponseSchema,
  PENDING_LOGIN_MINUTES,
  twoFactorCodeBodySchema,
} from '../../../shared/account.js';
import {
  loginSchema,
  meResponseSchema,
  messageSchema,
  registerSchema,
  signInLinkBodySchema,
  SIGNUP_ANSWER,
  userResponseSchema,
} from '../../../shared/auth.js';
import type { AppContext } from '../../context.js';
import {
  clearSessionCookie,
  createSession,
  destroySession,
  deviceOf,
  setSessionCookie,
} from '../../plugins/session.js';
import { ACTIVATION_KEY_PURPOSE } from '../patients/activation.js';
import { accountRoutes } from './account-routes.js';
import { DEVICE_COOKIE, recordSignInDevice, setDeviceCookie } from './devices.js';
import { checkPassword, completeSignIn, mailSignupOutcome, registerUser } from './service.js';
import { useSignInLink } from './sign-in-links.js';
import { createPendingLogin, dropPendingLogin, verifyPendingLogin } from './two-factor.js';

export const PENDING_COOKIE = 'medledger_2fa';

export async function authRoutes(app: FastifyInstance, ctx: AppContext) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  await accountRoutes(app, ctx);

  r.post(
    '/api/auth/register',
    {
      // Public and costly (an argon2 hash per try), and the way an MRN would be guessed. Counted in
      // the database (every process shares the counts); patients are also limited per MRN and address.
      config: {
        policy: { public: true, healthData: false },
        rateLimit: { max: ctx.config.registerMaxPerIp, timeWindow: '15 minutes' },
      },
      schema: {
        tags: ['auth'],
        body: registerSchema,
        response: { 201: messageSchema },
      },
    },
    async (request, reply) => {
      const outcome = await registerUser(ctx.db, request.body, ctx.now(), {
        activationKey: ctx.files.deriveKey(ACTIVATION_KEY_PURPOSE),
        maxPerMrn: ctx.config.registerMaxPerMrn,
        address: request.ip,
      });
      // After the answer, which is the same whether or not the address had an account.
      ctx.mail.later(() => mailSignupOutcome(ctx.mail, ctx.config.publicUrl, outcome));
      return reply.status(201).send({ message: SIGNUP_ANSWER });
    },
  );

  const twoFactorDeps = () => ({
    db: ctx.db,
    secretKey: ctx.files.deriveKey('totp-secret'),
    loginMaxFailures: ctx.config.loginMaxFailures,
  });

  /** Every step passed: audit, device (and its mail when new), a fresh session and its cookie. */
  async function finishSignIn(
    request: FastifyRequest,
    reply: FastifyReply,
    user: Parameters<typeof completeSignIn>[1],
    remember: boolean,
    how: string | null,
  ) {
    const now = ctx.now();
    const device = deviceOf(request);
    let deviceToken = '';
    const result = await completeSignIn(ctx.db, user, request.ip, now, how, async (tx) => {
      deviceToken = await recordSignInDevice(tx, user.id, request.cookies[DEVICE_COOKIE], device, now);
    });
    const { sid, expire } = await createSession(
      ctx.db,
      { userId: result.userId, previousLoginAt: result.previousLoginAt },
      ctx.config.sessionTtlHours,
      remember,
      device,
    );
    setSessionCookie(request, reply, sid, expire, remember);
    setDeviceCookie(request, reply, deviceToken, now);
    return { user: result.user };
  }

  r.post(
    '/api/auth/login',
    {
      config: { policy: { public: true, healthData: false } },
      schema: { tags: ['auth'], body: loginSchema, response: { 200: loginResponseSchema } },
    },
    async (request, reply) => {
      const user = await checkPassword(
        ctx.db,
        request.body,
        request.ip,
        ctx.config.loginMaxFailures,
        ctx.now(),
        { mail: ctx.mail, publicUrl: ctx.config.publicUrl },
      );
      // Rotate: whatever session the browser had before is ended, and a new id is issued.
      const oldSid = request.cookies.medledger_sid;
      if (oldSid) await destroySession(ctx.db, oldSid);
      const remember = request.body.remember ?? false;
      await dropPendingLogin(ctx.db, request.cookies[PENDING_COOKIE]);
      if (user.twoFactorEnabled) {
        // Nobody is signed in yet: this browser holds a pending sign-in for the second step.
        if (oldSid) clearSessionCookie(request, reply);
        const { token, expire } = await createPendingLogin(ctx.db, user.id, remember, ctx.now());
        reply.setCookie(PENDING_COOKIE, token, {
          path: '/api/auth/2fa',
          httpOnly: true,
          sameSite: 'strict',
          secure: request.protocol === 'https',
          maxAge: PENDING_LOGIN_MINUTES * 60,
          expires: expire,
        });
        return {
          twoFactorRequired: true as const,
          message: 'Enter the 6-digit code from your authenticator app, or a recovery code.',
        };
      }
      return finishSignIn(request, reply, user, remember, null);
    },
  );

  r.post(
    '/api/auth/2fa/verify',
    {
      // Public (the browser is not signed in yet); codes are also counted by the sign-in throttle.
      config: {
        policy: { public: true, healthData: false },
        rateLimit: { max: 60, timeWindow: '15 minutes' },
      },
      schema: {
        tags: ['auth'],
        summary: 'The second sign-in step: a TOTP code or a recovery code, each usable once',
        body: twoFactorCodeBodySchema,
        response: { 200: userResponseSchema },
      },
    },
    async (request, reply) => {
      const { user, remember, method } = await verifyPendingLogin(
        twoFactorDeps(),
        request.cookies[PENDING_COOKIE],
        request.body.code,
        request.ip,
        ctx.now(),
      );
      reply.clearCookie(PENDING_COOKIE, { path: '/api/auth/2fa' });
      return finishSignIn(
        request,
        reply,
        user,
        remember,
        method === 'recovery' ? 'with a recovery code' : 'with two-factor',
      );
    },
  );

  r.post(
    '/api/auth/sign-in-link',
    {
      // Public (the browser is not signed in yet): the link's 32 random bytes are the credential.
      config: {
        policy: { public: true, healthData: false },
        rateLimit: { max: 20, timeWindow: '15 minutes' },
      },
      schema: {
        tags: ['auth'],
        summary:
          'Finish a sign-in with the one-time link mailed when the account was under attack (too many failed sign-ins)',
        body: signInLinkBodySchema,
        response: { 200: userResponseSchema },
      },
    },
    async (request, reply) => {
      const { user, remember } = await useSignInLink(ctx.db, request.body.token, ctx.now());
      return finishSignIn(request, reply, user, remember, 'with an e-mailed sign-in link');
    },
  );

  r.post(
    '/api/auth/logout',
    {
      config: { policy: { public: true, healthData: false } },
      schema: { tags: ['auth'], response: { 200: messageSchema } },
    },
    async (request, reply) => {
      const sid = request.cookies.medledger_sid;
      if (sid) await destroySession(ctx.db, sid);
      clearSessionCookie(request, reply);
      return { message: 'Signed out' };
    },
  );

  r.get(
    '/api/auth/me',
    {
      config: { policy: { public: true, healthData: false } },
      schema: { tags: ['auth'], response: { 200: meResponseSchema } },
    },
    async (request) => {
      if (!request.user) return { user: null };
      const { sessionId: _sid, sessionPublicId: _pid, ...user } = request.user;
      return { user };
    },
  );
}
