// The account's own security calls (issue 9): two-factor sign-in (TOTP, RFC 6238, and recovery
// codes), password change, and the list of signed-in sessions. Used by the routes and the forms.
import { z } from 'zod';
import { strings } from './fields.js';
import { MESSAGES, newPasswordSchema, publicUserSchema } from './auth.js';
import { MAX_PASSWORD_LENGTH } from './constants.js';
import { text } from './text.js';

export const TOTP_ISSUER = 'MedLedger';
export const TOTP_DIGITS = 6;
export const TOTP_PERIOD_SECONDS = 30;
export const RECOVERY_CODE_COUNT = 10;
/** How long the second sign-in step may wait after the password. */
export const PENDING_LOGIN_MINUTES = 5;

export const TWO_FACTOR_MESSAGES = {
  codeRequired: 'Enter the 6-digit code from your authenticator app or a recovery code',
  enableCode: 'Enter the 6-digit code your app shows',
  codeInvalid: 'The code is not valid. Check your authenticator app and try again.',
  noPendingLogin: 'Your sign-in has expired. Please sign in with your password again.',
  adminSetupRequired:
    'Administrators must turn on two-factor sign-in before using the administrator pages. Set it up on your profile page.',
} as const;

/** A 6-digit code or a recovery code; spaces and dashes are ignored, letters lower-cased. */
export const twoFactorCodeSchema = text({ error: TWO_FACTOR_MESSAGES.codeRequired })
  .max(40, TWO_FACTOR_MESSAGES.codeInvalid)
  .transform((s) => s.replace(/[\s-]/g, '').toLowerCase())
  .pipe(
    z
      .string()
      .min(1, TWO_FACTOR_MESSAGES.codeRequired)
      .regex(/^[0-9a-z]+$/, TWO_FACTOR_MESSAGES.codeInvalid),
  );

export const twoFactorCodeBodySchema = z.object({ code: twoFactorCodeSchema });
export type TwoFactorCodeInput = z.infer<typeof twoFactorCodeBodySchema>;

const passwordSchema = text({ error: MESSAGES.passwordRequired })
  .min(1, MESSAGES.passwordRequired)
  .max(MAX_PASSWORD_LENGTH, MESSAGES.passwordTooLong);

export const twoFactorDisableSchema = z.object({ password: passwordSchema });

export const twoFactorSetupResponseSchema = z.object({ secret: z.string(), otpauthUri: z.string() });
export type TwoFactorSetup = z.infer<typeof twoFactorSetupResponseSchema>;
export const recoveryCodesResponseSchema = z.object({ recoveryCodes: z.array(z.string()) });
export const twoFactorStatusSchema = z.object({
  enabled: z.boolean(),
  recoveryCodesLeft: z.number().int(),
});
export type TwoFactorStatus = z.infer<typeof twoFactorStatusSchema>;

/** POST /api/auth/login: the user, or (two-factor on) a request for the second step. */
export const loginResponseSchema = z.union([
  z.object({ user: publicUserSchema }),
  z.object({ twoFactorRequired: z.literal(true), message: z.string() }),
]);
export type LoginResponse = z.infer<typeof loginResponseSchema>;

export const passwordChangeSchema = z.object({
  currentPassword: passwordSchema,
  newPassword: newPasswordSchema,
});
export type PasswordChangeInput = z.infer<typeof passwordChangeSchema>;
/** The profile page's form: the call's fields and the new password typed twice. */
export const passwordChangeFormSchema = passwordChangeSchema
  .extend({ confirm: z.string() })
  .refine((v) => v.newPassword === v.confirm, { path: ['confirm'], message: MESSAGES.passwordMismatch });

/** Turning two-factor sign-in on takes an app code, never a recovery code. */
export const twoFactorEnableFormSchema = z.object({
  code: text({ error: TWO_FACTOR_MESSAGES.enableCode })
    .transform((s) => s.replace(/\s/g, ''))
    .pipe(z.string().regex(/^\d{6}$/, TWO_FACTOR_MESSAGES.enableCode)),
});

export const sessionSchema = z.object({
  ...strings('id', 'device'),
  ip: z.string().nullable(),
  ...strings('createdAt', 'lastSeenAt'),
  current: z.boolean(),
});
export type SessionInfo = z.infer<typeof sessionSchema>;
export const sessionListSchema = z.array(sessionSchema);

/**
 * A short label for a User-Agent header ("Chrome on Linux"), from a few well-known tokens. The
 * order matters: Edge and Opera also say "Chrome", Chrome also says "Safari".
 */
export function deviceLabel(userAgent: string | null | undefined): string {
  const ua = userAgent ?? '';
  if (!ua) return 'Unknown device';
  const browser = /Edg(e|A|iOS)?\//.test(ua)
    ? 'Edge'
    : /OPR\/|Opera/.test(ua)
      ? 'Opera'
      : /Firefox\/|FxiOS\//.test(ua)
        ? 'Firefox'
        : /Chrome\/|CriOS\/|Chromium\//.test(ua)
          ? 'Chrome'
          : /Safari\//.test(ua) && /Version\//.test(ua)
            ? 'Safari'
            : /curl\//i.test(ua)
              ? 'curl'
              : null;
  const os = /Windows/.test(ua)
    ? 'Windows'
    : /iPhone|iPad|iPod/.test(ua)
      ? 'iOS'
      : /Android/.test(ua)
        ? 'Android'
        : /Mac OS X|Macintosh/.test(ua)
          ? 'macOS'
          : /CrOS/.test(ua)
            ? 'ChromeOS'
            : /Linux/.test(ua)
              ? 'Linux'
              : null;
  if (browser && os) return `${browser} on ${os}`;
  if (browser) return browser;
  if (os) return `Browser on ${os}`;
  return ua.slice(0, 40);
}
