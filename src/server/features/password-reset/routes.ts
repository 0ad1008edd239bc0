// POST /api/password-reset (request a link) and POST /api/password-reset/confirm (set a password).
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { messageSchema } from '../../../shared/auth.js';
import {
  FORGOT_PASSWORD_ANSWER,
  forgotPasswordSchema,
  resetPasswordSchema,
} from '../../../shared/providers.js';
import type { AppContext } from '../../context.js';
import { RESET_DONE, requestPasswordReset, resetPassword } from './service.js';

export async function passwordResetRoutes(app: FastifyInstance, ctx: AppContext) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post(
    '/api/password-reset',
    {
      config: {
        policy: { public: true, healthData: false },
        rateLimit: { max: 5, timeWindow: '15 minutes' },
      },
      schema: {
        tags: ['password-reset'],
        summary:
          'E-mail a one-time password reset link (the answer is the same whether or not the account exists)',
        body: forgotPasswordSchema,
        response: { 200: messageSchema },
      },
    },
    async (request) => {
      const { email } = request.body;
      const now = ctx.now();
      // The work happens after the answer, so its timing does not tell whether the account exists.
      ctx.mail.later(() =>
        requestPasswordReset(ctx.db, { mail: ctx.mail, publicUrl: ctx.config.publicUrl }, email, now),
      );
      return { message: FORGOT_PASSWORD_ANSWER };
    },
  );

  r.post(
    '/api/password-reset/confirm',
    {
      config: {
        policy: { public: true, healthData: false },
        rateLimit: { max: 10, timeWindow: '15 minutes' },
      },
      schema: {
        tags: ['password-reset'],
        summary: 'Set a new password with a reset link; ends every session of the account',
        body: resetPasswordSchema,
        response: { 200: messageSchema },
      },
    },
    async (request) => {
      await resetPassword(ctx.db, request.body, request.ip, ctx.now());
      return { message: RESET_DONE };
    },
  );
}
