// Provider onboarding, password reset and billing: request schemas with the spec's messages
// (docs/spec.md#validation), shared by the forms and the routes so that both sides say the same thing.
import { z } from 'zod';
import { mailAddress, nullableStrings, strings, timeZoneSchema } from './fields.js';
import { text } from './text.js';
import { MESSAGES, accountEmailSchema, newPasswordSchema } from './auth.js';
import { MIN_NAME_LENGTH } from './constants.js';
import { phoneSchema } from './patient-profile.js';

export const PROVIDER_MESSAGES = {
  hospitalName: 'Hospital name must be at least 2 characters',
  website: 'Please enter a valid website URL',
  contactName: 'Contact name must be at least 2 characters',
  contactEmail: 'Please enter a valid email address',
  duplicatePending:
    'An application for this contact email is already waiting for review. We will email you once it has been reviewed.',
  tokenMissing: 'This registration link is invalid. Please use the link from your approval email.',
} as const;

const optionalText = (max: number) =>
  text()
    .trim()
    .max(max, `Must be at most ${max} characters`)
    .nullish()
    .transform((v) => (v ? v : null));

/** A non-empty website must be an http(s) address; "example.org" is read as https://example.org. */
export function normaliseWebsite(value: string): string | null {
  const candidate = /^[a-z][a-z0-9+.-]*:/i.test(value) ? value : `https://${value}`;
  try {
    const url = new URL(candidate);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    if (!url.hostname.includes('.') && url.hostname !== 'localhost') return null;
    if (/\s/.test(value)) return null;
    return url.toString();
  } catch {
    return null;
  }
}

const websiteSchema = text()
  .trim()
  .max(500, PROVIDER_MESSAGES.website)
  .nullish()
  .transform((value, ctx) => {
    if (!value) return null;
    const url = normaliseWebsite(value);
    if (!url) {
      ctx.addIssue({ code: 'custom', message: PROVIDER_MESSAGES.website });
      return z.NEVER;
    }
    return url;
  });

const nameOfAtLeast2 = (message: string) =>
  text({ error: message }).trim().min(MIN_NAME_LENGTH, message).max(200, 'Must be at most 200 characters');

export const providerApplicationSchema = z.object({
  hospitalName: nameOfAtLeast2(PROVIDER_MESSAGES.hospitalName),
  website: websiteSchema,
  address: optionalText(500),
  contactName: nameOfAtLeast2(PROVIDER_MESSAGES.contactName),
  contactEmail: text({ error: PROVIDER_MESSAGES.contactEmail })
    .trim()
    .toLowerCase()
    .pipe(mailAddress(PROVIDER_MESSAGES.contactEmail)),
  contactPhone: phoneSchema,
  npiNumber: optionalText(50),
  licenseNumber: optionalText(100),
});
export type ProviderApplicationInput = z.input<typeof providerApplicationSchema>;
export type ProviderApplicationData = z.output<typeof providerApplicationSchema>;

export const APPLICATION_STATUSES = ['pending', 'approved', 'rejected'] as const;
export type ApplicationStatus = (typeof APPLICATION_STATUSES)[number];

export const reviewSchema = z.object({
  status: z.enum(['approved', 'rejected'], { error: 'Status must be approved or rejected' }),
  notes: optionalText(2000),
});

/**
 * Once registered, `hospitalUserId` is the hospital account made from this application and
 * `subscriptionStatus` that account's subscription status (trialing, active, ...).
 */
export const applicationSchema = z.object({
  ...strings('id', 'hospitalName'),
  ...nullableStrings('website', 'address'),
  ...strings('contactName', 'contactEmail'),
  ...nullableStrings('contactPhone', 'npiNumber', 'licenseNumber'),
  status: z.enum(APPLICATION_STATUSES),
  ...nullableStrings('notes', 'reviewedBy', 'reviewedAt'),
  createdAt: z.string(),
  ...nullableStrings('hospitalUserId', 'subscriptionStatus'),
});
export type Application = z.infer<typeof applicationSchema>;

/**
 * POST /api/hospital/verification: a self-signed-up hospital asks MedLedger to verify it. The name
 * and the contact are the organization's and the signed-in admin's; what identifies the provider
 * (NPI, licence, website, address, phone) is what the public application asks for.
 */
export const verificationRequestSchema = providerApplicationSchema.pick({
  website: true,
  address: true,
  contactPhone: true,
  npiNumber: true,
  licenseNumber: true,
});
export type VerificationRequest = z.output<typeof verificationRequestSchema>;

/** GET /api/hospital/verification: whether the hospital is verified, and its latest request. */
export const verificationStatusSchema = z.object({
  verified: z.boolean(),
  verifiedAt: z.string().nullable(),
  request: applicationSchema.pick({ id: true, status: true, createdAt: true, reviewedAt: true }).nullable(),
});
export type VerificationStatus = z.infer<typeof verificationStatusSchema>;

export const VERIFICATION_MESSAGES = {
  alreadyVerified: 'Your hospital is already verified by MedLedger.',
  pending: 'Your request for verification is waiting for review: MedLedger will e-mail you.',
  submitted: 'Your request for verification was sent. MedLedger will review it and e-mail you.',
} as const;

/** One-time link tokens: `<selector>.<verifier>`, both base64url (16 and 32 random bytes). */
export const linkTokenSchema = text({ error: PROVIDER_MESSAGES.tokenMissing })
  .trim()
  .min(1, PROVIDER_MESSAGES.tokenMissing)
  .max(200, PROVIDER_MESSAGES.tokenMissing);

export const providerRegisterSchema = z.object({
  token: linkTokenSchema,
  password: newPasswordSchema,
  firstName: text({ error: MESSAGES.firstName }).trim().min(1, MESSAGES.firstName).max(100),
  lastName: text({ error: MESSAGES.lastName }).trim().min(1, MESSAGES.lastName).max(100),
  timeZone: timeZoneSchema.optional(),
});
export type ProviderRegisterInput = z.infer<typeof providerRegisterSchema>;

export const forgotPasswordSchema = z.object({ email: accountEmailSchema });
export const resetPasswordSchema = z.object({
  token: text({ error: 'This reset link is invalid. Please request a new one.' })
    .trim()
    .min(1, 'This reset link is invalid. Please request a new one.')
    .max(200),
  password: newPasswordSchema,
});

export const FORGOT_PASSWORD_ANSWER =
  'If an account exists for this email, we have sent a link to reset the password. It is valid for 1 hour.';

/**
 * A subscription as both the hospital and the administrator see it: `status` is inactive | trialing |
 * active | past_due | canceled; `writeAllowed` says whether the hospital may add and change records now.
 */
const subscriptionFields = {
  status: z.string(),
  ...nullableStrings('trialEndsAt', 'currentPeriodEnd'),
  writeAllowed: z.boolean(),
};

export const billingStatusSchema = z.object({
  ...subscriptionFields,
  /** Whole days left in the trial (0 once it has ended; null when not trialing). */
  trialDaysLeft: z.number().nullable(),
  /** Why writes are refused, to show in the banner. */
  message: z.string().nullable(),
  /** Whether the banner's button can start a Stripe Checkout session. */
  checkoutAvailable: z.boolean(),
  supportEmail: z.string(),
});
export type BillingStatus = z.infer<typeof billingStatusSchema>;

/** One hospital account as the administrator sees it (GET /api/billing/subscriptions). */
export const hospitalSubscriptionSchema = z.object({
  ...strings('hospitalUserId', 'email'),
  hospitalName: z.string().nullable(),
  ...subscriptionFields,
  createdAt: z.string(),
});
export type HospitalSubscription = z.infer<typeof hospitalSubscriptionSchema>;

export const hospitalSubscriptionListSchema = z.object({
  /** When Stripe is configured, subscriptions are managed there, not marked active by hand. */
  stripeManaged: z.boolean(),
  hospitals: z.array(hospitalSubscriptionSchema),
});
export type HospitalSubscriptionList = z.infer<typeof hospitalSubscriptionListSchema>;
