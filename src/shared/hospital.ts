// Hospital settings and the audit trail (docs/spec.md#hospital-dashboard "Audit Trail tab" and
// "Settings tab").
import { z } from 'zod';
import { isoInstant, isUuid, mailAddress, nullableStrings, strings, timeZoneSchema } from './fields.js';
import { text } from './text.js';
import { MIN_NAME_LENGTH } from './constants.js';
import { pagedSchema, pagingQuerySchema } from './patients.js';

// The labels live with the events they name (audit-events.ts); re-exported for the trail's readers.
export { AUDIT_ACTION_LABELS } from './audit-events.js';

/** "record_upload" -> "record upload" (spec: underscores replaced by spaces). */
export const actionName = (action: string) => action.replace(/_/g, ' ');

// ISO 8601 strictly, as the appointment ranges take it: Date.parse read '0' as 2000-01-01 and
// '2026-02-30' as 2 March, a period nobody asked for.
const instant = (name: string) =>
  text()
    .trim()
    .pipe(isoInstant(name, `${name} must be a date and time (ISO 8601)`))
    .transform((v) => new Date(v))
    .optional();

export const auditQuerySchema = pagingQuerySchema.extend({
  /** One action (e.g. record_upload), or "all". */
  action: text()
    .trim()
    .regex(/^(all|[a-z_]{1,40})$/, 'action must be an action name such as record_upload, or all')
    .optional(),
  /** One user's entries (their id), or "all". */
  userId: text()
    .trim()
    // The UUID's own shape: 36 dashes would pass a looser pattern and fail in the database.
    .refine((v) => v === 'all' || isUuid(v), 'userId must be a user id or all')
    .optional(),
  /** The start (inclusive) and end (exclusive) of the period, e.g. the local day's bounds. */
  from: instant('from'),
  to: instant('to'),
  /**
   * "hide" leaves out routine reads (a records list opened): a patient's trail hides them unless
   * asked, and says how many it hid. Views and downloads of one record always stay.
   */
  routine: z.enum(['show', 'hide'], { error: 'routine must be show or hide' }).optional(),
});
export type AuditQuery = z.infer<typeof auditQuerySchema>;

/**
 * `userName`: the acting user's display name (first and last name, else e-mail);
 * `blockchainVerified`: blockchainHash is the hash of an entry in the ledger (checked by the server).
 */
export const auditEntrySchema = z.object({
  ...strings('id', 'action'),
  ...nullableStrings('details', 'userId', 'userName', 'entityType', 'entityId', 'ipAddress', 'createdAt'),
  blockchainHash: z.string().nullable(),
  blockchainVerified: z.boolean(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;
export const auditPageSchema = pagedSchema(auditEntrySchema).extend({
  /** With routine=hide: how many routine reads matched the other filters and were left out. */
  routineHidden: z.number().optional(),
});
export type AuditPage = z.infer<typeof auditPageSchema>;

export const auditUserSchema = z.object({ id: z.string(), name: z.string(), role: z.string() });
export type AuditUser = z.infer<typeof auditUserSchema>;

export const hospitalSettingsSchema = z.object({
  hospitalName: text({ error: 'Hospital name is required' })
    .trim()
    .min(MIN_NAME_LENGTH, 'Hospital name must be at least 2 characters')
    .max(200, 'Hospital name must be at most 200 characters'),
  adminEmail: text({ error: 'Please enter a valid email address' })
    .trim()
    .toLowerCase()
    .pipe(mailAddress('Please enter a valid email address')),
  /** Left out by older clients: the zone stays as it is. */
  timeZone: timeZoneSchema.optional(),
  /** Every staff member must sign in with two-factor (docs/decisions.md#staff-accounts); left out: unchanged. */
  staffTwoFactorRequired: z.boolean({ error: 'staffTwoFactorRequired must be true or false' }).optional(),
});
export type HospitalSettingsInput = z.infer<typeof hospitalSettingsSchema>;

export const hospitalSettingsResponseSchema = z.object({
  hospitalName: z.string().nullable(),
  adminEmail: z.string().nullable(),
  twoFactorEnabled: z.boolean(),
  blockchainVerificationEnabled: z.boolean(),
  timeZone: z.string(),
  staffTwoFactorRequired: z.boolean(),
});
export type HospitalSettings = z.infer<typeof hospitalSettingsResponseSchema>;
