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
import { clearSessionCookie, destroySession, deviceOf, setSessionCookie } from '../../plugins/session.js';
import { ACTIVATION_KEY_PURPOSE } from '../patients/activation.js';
import { accountRoutes } from './account-routes.js';
import { DEVICE_COOKIE, DEVICE_COOKIE_DAYS } from './devices.js';
import {
  mailSignupOutcome,
  registerUser,
  signIn,
  type SignInBrowser,
  type SignInCookies,
  type SignInResult,
} from './service.js';

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

  const signInSettings = () => ({
    db: ctx.db,
    loginMaxFailures: ctx.config.loginMaxFailures,
    sessionTtlHours: ctx.config.sessionTtlHours,
    totpKey: ctx.files.deriveKey('totp-secret'),
    links: { mail: ctx.mail, publicUrl: ctx.config.publicUrl },
  });

  /** What the browser brings to a sign-in. */
  const browserOf = (request: FastifyRequest): SignInBrowser => ({
    ip: request.ip,
    device: deviceOf(request),
    sessionId: request.cookies.medledger_sid,
    pendingToken: request.cookies[PENDING_COOKIE],
    deviceToken: request.cookies[DEVICE_COOKIE],
  });

  r.post(
    '/api/auth/login',
    {
      config: { policy: { public: true, healthData: false } },
      schema: { tags: ['auth'], body: loginSchema, response: { 200: loginResponseSchema } },
    },
    async (request, reply) => {
      const now = ctx.now();
      const proof = { kind: 'password' as const, input: request.body };
      return answer(request, reply, await signIn(signInSettings(), proof, browserOf(request), now), now);
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
      const now = ctx.now();
      const proof = { kind: 'second-factor' as const, code: request.body.code };
      return answer(request, reply, await signIn(signInSettings(), proof, browserOf(request), now), now);
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
      const now = ctx.now();
      const proof = { kind: 'link' as const, token: request.body.token };
      return answer(request, reply, await signIn(signInSettings(), proof, browserOf(request), now), now);
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

/** Writes the cookies a sign-in answered and gives its answer. */
function answer<R extends SignInResult>(
  request: FastifyRequest,
  reply: FastifyReply,
  result: R,
  now: Date,
): R['answer'] {
  writeSignInCookies(request, reply, result.cookies, now);
  return result.answer;
}

/** The cookies a sign-in sets or ends: the session, the device, the pending second step. */
function writeSignInCookies(request: FastifyRequest, reply: FastifyReply, cookies: SignInCookies, now: Date) {
  const secure = request.protocol === 'https';
  if (cookies.clearSession) clearSessionCookie(request, reply);
  if (cookies.clearPending) reply.clearCookie(PENDING_COOKIE, { path: '/api/auth/2fa' });
  if (cookies.pending) {
    reply.setCookie(PENDING_COOKIE, cookies.pending.token, {
      path: '/api/auth/2fa',
      httpOnly: true,
      sameSite: 'strict',
      secure,
      maxAge: PENDING_LOGIN_MINUTES * 60,
      expires: cookies.pending.expire,
    });
  }
  if (cookies.session) {
    const { sid, expire, remember } = cookies.session;
    setSessionCookie(request, reply, sid, expire, remember);
  }
  if (cookies.device) {
    reply.setCookie(DEVICE_COOKIE, cookies.device, {
      path: '/api/auth',
      httpOnly: true,
      sameSite: 'lax',
      secure,
      expires: new Date(now.getTime() + DEVICE_COOKIE_DAYS * 24 * 3600_000),
    });
  }
}
