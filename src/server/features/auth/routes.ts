// POST /api/auth/register, /login, /logout and GET /api/auth/me (docs/spec.md#calls).
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { loginSchema, meResponseSchema, messageSchema, registerSchema, userResponseSchema } from '../../../shared/auth.js';
import type { AppContext } from '../../app.js';
import {
  clearSessionCookie,
  createSession,
  destroySession,
  setSessionCookie,
} from '../../plugins/session.js';
import { authenticate, registerUser } from './service.js';

export async function authRoutes(app: FastifyInstance, ctx: AppContext) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post(
    '/api/auth/register',
    {
      // Public and costly (an argon2 hash per try), and the way an MRN would be guessed.
      config: { rateLimit: { max: ctx.config.registerMaxPerIp, timeWindow: '15 minutes' } },
      schema: {
        tags: ['auth'],
        body: registerSchema,
        response: { 201: userResponseSchema.extend({ message: messageSchema.shape.message }) },
      },
    },
    async (request, reply) => {
      const user = await registerUser(ctx.db, request.body, ctx.now());
      return reply
        .status(201)
        .send({ user, message: 'Account created. You can now log in with your credentials.' });
    },
  );

  r.post(
    '/api/auth/login',
    { schema: { tags: ['auth'], body: loginSchema, response: { 200: userResponseSchema } } },
    async (request, reply) => {
      const result = await authenticate(
        ctx.db,
        request.body,
        request.ip,
        ctx.config.loginMaxFailures,
        ctx.now(),
      );
      // Rotate: whatever session the browser had before is ended, and a new id is issued.
      const oldSid = request.cookies.medledger_sid;
      if (oldSid) await destroySession(ctx.db, oldSid);
      const remember = request.body.remember ?? false;
      const { sid, expire } = await createSession(
        ctx.db,
        { userId: result.userId, previousLoginAt: result.previousLoginAt },
        ctx.config.sessionTtlHours,
        remember,
      );
      setSessionCookie(request, reply, sid, expire, remember);
      return { user: result.user };
    },
  );

  r.post(
    '/api/auth/logout',
    { schema: { tags: ['auth'], response: { 200: messageSchema } } },
    async (request, reply) => {
      const sid = request.cookies.medledger_sid;
      if (sid) await destroySession(ctx.db, sid);
      clearSessionCookie(request, reply);
      return { message: 'Signed out' };
    },
  );

  r.get(
    '/api/auth/me',
    { schema: { tags: ['auth'], response: { 200: meResponseSchema } } },
    async (request) => {
      if (!request.user) return { user: null };
      const { sessionId: _sid, ...user } = request.user;
      return { user };
    },
  );
}
