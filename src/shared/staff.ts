// A hospital's staff (docs/decisions.md#staff-accounts): the members of the organization, their
// invitations, and the practitioners uploads and appointments are attributed to.
import { z } from 'zod';
import { STAFF_ROLES } from './constants.js';
import { mailAddress, nullableStrings, optionalText, strings } from './fields.js';
import { pagedSchema, pagingQuerySchema } from './paging.js';
import { text } from './text.js';

export { STAFF_ROLE_LABELS, STAFF_ROLES, type StaffRole } from './constants.js';

export const staffRoleSchema = z.enum(STAFF_ROLES, {
  error: 'Staff role must be hospital_admin, clinician or front_desk',
});

const name = (label: string) =>
  text({ error: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .max(100, `${label} must be at most 100 characters`);

/** POST /api/hospital/staff: invite someone to join the hospital's staff. */
export const staffInviteSchema = z.object({
  email: text({ error: 'Email is required' })
    .trim()
    .toLowerCase()
    .pipe(mailAddress('Please enter a valid email address')),
  firstName: name('First name'),
  lastName: name('Last name'),
  staffRole: staffRoleSchema,
  department: optionalText(100),
});
export type StaffInviteInput = z.infer<typeof staffInviteSchema>;

/** PATCH /api/hospital/staff/{userId}. */
export const staffRoleChangeSchema = z.object({ staffRole: staffRoleSchema, department: optionalText(100) });
export type StaffRoleChange = z.infer<typeof staffRoleChangeSchema>;

export const staffListQuerySchema = pagingQuerySchema.extend({
  status: z
    .enum(['active', 'deactivated', 'all'], { error: 'status must be active, deactivated or all' })
    .optional(),
});
export type StaffListQuery = z.infer<typeof staffListQuerySchema>;

export const staffMemberSchema = z.object({
  ...strings('id', 'email', 'name'),
  ...nullableStrings('firstName', 'lastName', 'department', 'lastLoginAt', 'deactivatedAt'),
  staffRole: staffRoleSchema,
  status: z.enum(['active', 'deactivated']),
  twoFactorEnabled: z.boolean(),
});
export type StaffMember = z.infer<typeof staffMemberSchema>;
export const staffPageSchema = pagedSchema(staffMemberSchema);
export type StaffPage = z.infer<typeof staffPageSchema>;

export const staffInvitationSchema = z.object({
  ...strings('id', 'email', 'firstName', 'lastName', 'expiresAt', 'createdAt'),
  department: z.string().nullable(),
  staffRole: staffRoleSchema,
  /** Pending until accepted or cancelled; expired when its 72 hours have passed unused. */
  status: z.enum(['pending', 'expired']),
});
export type StaffInvitation = z.infer<typeof staffInvitationSchema>;
export const staffInvitationPageSchema = pagedSchema(staffInvitationSchema);

/** GET /api/hospital/practitioners: whom uploads and appointments can be attributed to. */
export const practitionerSchema = z.object({
  ...strings('id', 'name'),
  department: z.string().nullable(),
  staffRole: staffRoleSchema,
});
export type Practitioner = z.infer<typeof practitionerSchema>;

export { STAFF_MESSAGES } from './staff-messages.js';
