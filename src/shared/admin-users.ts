// The administrator's Users table and account control (issue 9, items 6 and 7): every account of
// every role, searched, filtered and paged; suspension, reactivation and provider verification.
import { z } from 'zod';
import { userIdentityShape } from './auth.js';
import { ROLES } from './constants.js';
import { pagedSchema, pagingQuerySchema } from './patients.js';
import { text } from './text.js';

/** The answer to a sign-in (or a session) of a suspended account. */
export const ACCOUNT_SUSPENDED = 'This account is suspended. Contact support.';

export { PROVIDER_NOT_VERIFIED_LABEL, PROVIDER_VERIFIED_LABEL } from './constants.js';

export const USER_ROLE_FILTERS = ['all', ...ROLES] as const;
/** `verified` / `unverified` concern hospitals only (other roles are never "verified"). */
export const USER_STATUS_FILTERS = ['all', 'active', 'suspended', 'verified', 'unverified'] as const;
export type UserStatusFilter = (typeof USER_STATUS_FILTERS)[number];

export const ROLE_LABELS: Record<(typeof ROLES)[number], string> = {
  patient: 'Patient',
  hospital: 'Hospital',
  medledger_admin: 'Administrator',
  family: 'Family member',
};

export const adminUserListQuerySchema = pagingQuerySchema.extend({
  search: text().trim().max(100, 'search must be at most 100 characters').optional(),
  role: z
    .enum(USER_ROLE_FILTERS, { error: `role must be one of ${USER_ROLE_FILTERS.join(', ')}` })
    .default('all'),
  status: z
    .enum(USER_STATUS_FILTERS, { error: `status must be one of ${USER_STATUS_FILTERS.join(', ')}` })
    .default('all'),
});
export type AdminUserListQuery = z.infer<typeof adminUserListQuerySchema>;

export const adminUserSchema = z.object({
  ...userIdentityShape,
  status: z.enum(['active', 'suspended']),
  suspendedAt: z.string().nullable(),
  /** Hospitals: verified provider or not; null for other roles. */
  verified: z.boolean().nullable(),
  verifiedAt: z.string().nullable(),
  twoFactorEnabled: z.boolean(),
  lastLoginAt: z.string().nullable(),
  createdAt: z.string(),
});
export type AdminUser = z.infer<typeof adminUserSchema>;

export const adminUserPageSchema = pagedSchema(adminUserSchema);
export type AdminUserPage = z.infer<typeof adminUserPageSchema>;

/**
 * POST /api/admin/users/{id}/reactivate: whether the share links and family grants the suspension
 * stopped come back (default no: they end for good). No body means no.
 */
export const adminReactivateSchema = z.preprocess(
  (body) => body ?? {},
  z.object({
    restoreSharing: z.boolean({ error: 'restoreSharing must be true or false' }).default(false),
  }),
);
export type AdminReactivateInput = z.input<typeof adminReactivateSchema>;

export const adminUserActionAnswerSchema = z.object({ user: adminUserSchema, message: z.string() });
