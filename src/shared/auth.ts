// Request schemas of the auth calls (docs/spec.md#validation and #calls), used by the routes and the forms.
import { z } from 'zod';
import { mailAddress, nullableStrings, strings, timeZoneSchema } from './fields.js';
import { text } from './text.js';
import { LOGIN_PORTALS, MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH, ROLES, STAFF_ROLES } from './constants.js';

// The sign-in pages' constants live in constants.ts, so that the sign-in page loads no Zod.
export { LOGIN_PORTALS, PORTAL_DENIED, PORTAL_ROLE, type LoginPortal } from './constants.js';

export const MESSAGES = {
  email: 'Please enter a valid email address',
  passwordLength: 'Password must be at least 8 characters long.',
  passwordTooLong: `Password must be at most ${MAX_PASSWORD_LENGTH} characters long.`,
  passwordMismatch: 'Passwords do not match. Please try again.',
  firstName: 'First name is required',
  lastName: 'Last name is required',
  mrn: 'Medical Record Number is required',
  activationCode: 'Activation code is required',
  inviteToken: 'A family account is created from the invitation link the patient sent you',
  hospitalName: 'Hospital/Clinic name is required',
  emailRequired: 'Email is required',
  passwordRequired: 'Password is required',
} as const;

/** A string whose "missing" message is `message`; wrong types keep Zod's own wording. */
const requiredString = (message: string) =>
  text({ error: (issue) => (issue.input === undefined ? message : undefined) });

const trimmed = (max = 200) => text().trim().max(max, `Must be at most ${max} characters`);

/** A new address (sign-up, an invitation, a share): one mail servers take. */
export const emailSchema = requiredString(MESSAGES.emailRequired)
  .trim()
  .toLowerCase()
  .pipe(mailAddress(MESSAGES.email));

/**
 * The address of an existing account (sign-in, forgot password): the check it was made under
 * before mailAddress's RFC 5321 limits, so an account made then can still sign in.
 */
export const accountEmailSchema = requiredString(MESSAGES.emailRequired)
  .trim()
  .toLowerCase()
  .max(254, MESSAGES.email)
  .pipe(z.email({ error: MESSAGES.email }));

export const newPasswordSchema = requiredString(MESSAGES.passwordRequired)
  .min(MIN_PASSWORD_LENGTH, MESSAGES.passwordLength)
  .max(MAX_PASSWORD_LENGTH, MESSAGES.passwordTooLong);

/** MRNs are compared upper-cased (the signup field upper-cases while typing). */
export const mrnSchema = trimmed(40).toUpperCase();

export const registerSchema = z
  .object({
    email: emailSchema,
    password: newPasswordSchema,
    firstName: trimmed(100).min(1, MESSAGES.firstName),
    lastName: trimmed(100).min(1, MESSAGES.lastName),
    role: z.enum(ROLES, { error: 'Account type must be patient, hospital or family' }),
    mrn: mrnSchema.nullish(),
    /** The patient's one-time code from the hospital (`ABCDE-FGHJK`; any case, dash optional). */
    activationCode: trimmed(40).nullish(),
    hospitalName: trimmed(200).nullish(),
    /**
     * A family member's invitation (the token of the link the patient's invitation mail holds), or
     * a hospital staff member's (the link the hospital's admin sent: they join that hospital).
     */
    inviteToken: trimmed(200).nullish(),
    /** A hospital's time zone (the signup page sends the browser's); UTC when left out. */
    timeZone: timeZoneSchema.optional(),
  })
  .superRefine((value, ctx) => {
    if (value.role === 'patient' && !value.mrn) {
      ctx.addIssue({ code: 'custom', path: ['mrn'], message: MESSAGES.mrn });
    }
    if (value.role === 'patient' && !value.activationCode) {
      ctx.addIssue({ code: 'custom', path: ['activationCode'], message: MESSAGES.activationCode });
    }
    if (value.role === 'family' && !value.inviteToken) {
      ctx.addIssue({ code: 'custom', path: ['inviteToken'], message: MESSAGES.inviteToken });
    }
    // An invited staff member joins the inviting hospital: no name of their own.
    if (value.role === 'hospital' && !value.hospitalName && !value.inviteToken) {
      ctx.addIssue({ code: 'custom', path: ['hospitalName'], message: MESSAGES.hospitalName });
    }
  });
export type RegisterInput = z.infer<typeof registerSchema>;

/**
 * POST /api/auth/register's answer to every signup that passes its checks: a new account's
 * welcome mail, or the owner's mail when the address already has an account, is on its way. The
 * same for both, so that signup does not tell who has an account.
 */
export const SIGNUP_ANSWER =
  'Thank you for signing up. We have sent an email to the address you gave: follow it to sign in.';

export const loginSchema = z.object({
  email: accountEmailSchema,
  password: requiredString(MESSAGES.passwordRequired)
    .min(1, MESSAGES.passwordRequired)
    .max(MAX_PASSWORD_LENGTH),
  remember: z.boolean().optional(),
  /** The sign-in page used: a right password of another role is refused (403) before any sign-in. */
  portal: z.enum(LOGIN_PORTALS, { error: `portal must be one of ${LOGIN_PORTALS.join(', ')}` }).optional(),
});
export type LoginInput = z.infer<typeof loginSchema>;

/** POST /api/auth/sign-in-link: the token of the e-mailed link (an account under attack). */
export const signInLinkBodySchema = z.object({
  token: text({ error: 'This sign-in link is invalid. Please sign in with your password again.' })
    .trim()
    .min(1, 'This sign-in link is invalid. Please sign in with your password again.')
    .max(100, 'This sign-in link is invalid. Please sign in with your password again.'),
});

/** Who an account is: the fields every view of a user starts with. */
export const userIdentityShape = {
  ...strings('id', 'email'),
  role: z.enum(ROLES),
  ...nullableStrings('firstName', 'lastName', 'hospitalName'),
};

export const publicUserSchema = z.object({
  ...userIdentityShape,
  lastLoginAt: z.string().nullable(),
  twoFactorEnabled: z.boolean().optional(),
  /** A hospital's time zone; null for other roles (they see their own zone). */
  timeZone: z.string().nullable().optional(),
  /** A hospital member's organization (the id hospital APIs take) and staff role; null otherwise. */
  hospitalId: z.string().nullable().optional(),
  staffRole: z.enum(STAFF_ROLES).nullable().optional(),
  staffTwoFactorRequired: z.boolean().optional(),
  providerVerified: z.boolean().optional(),
});

export const userResponseSchema = z.object({ user: publicUserSchema });
/** GET /api/auth/me: the signed-in user, or null for a visitor (200 either way, so public pages log no error). */
export const meResponseSchema = z.object({ user: publicUserSchema.nullable() });
export const messageSchema = z.object({ message: z.string() });
