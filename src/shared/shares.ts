// Specialist share links (docs/decisions.md#specialist-share-links): the "Share with a specialist"
// form, the list of a record's links and the public answer behind /shared/{token}. Used by the
// routes and the forms.
import { z } from 'zod';
import { emailSchema } from './auth.js';
import { recordVerificationSchema } from './ledger/api.js';
import { attachmentSchema, recordSchema, recordVersionSchema } from './records.js';
import { blankToNull, nullableStrings, only, strings } from './fields.js';
import { text } from './text.js';

export const SHARE_MAX_HOURS = 720;
export const SHARE_DEFAULT_HOURS = 72;
export const SHARE_HOURS_MESSAGE = `The link must last between 1 and ${SHARE_MAX_HOURS} hours (30 days)`;
/** The one answer for a link that does not work, whatever the reason (never says which). */
export const SHARE_UNAVAILABLE = 'This link is not available. It may have expired or been withdrawn.';

export const shareInputSchema = z.object({
  recipientEmail: emailSchema,
  expiresInHours: z
    .number({ error: SHARE_HOURS_MESSAGE })
    .int(SHARE_HOURS_MESSAGE)
    .min(1, SHARE_HOURS_MESSAGE)
    .max(SHARE_MAX_HOURS, SHARE_HOURS_MESSAGE),
  note: z.preprocess(
    blankToNull,
    text().trim().max(1000, 'The note is too long (1000 characters at most)').nullish(),
  ),
});
export type ShareInput = z.infer<typeof shareInputSchema>;

export const shareSchema = z.object({
  ...strings('id', 'recordId', 'recordTitle', 'recipientEmail'),
  note: z.string().nullable(),
  ...strings('createdAt', 'expiresAt'),
  timesOpened: z.number().int(),
  ...nullableStrings('lastOpenedAt', 'revokedAt'),
  /** Opens now: not revoked, not expired, and consent, the record's switch and its status allow it. */
  active: z.boolean(),
});
export type Share = z.infer<typeof shareSchema>;

/**
 * What the recipient of a link sees: the latest version of the record (a link follows its
 * amendments), its files, its verification and its versions, nothing else.
 */
export const sharedRecordSchema = z.object({
  record: recordSchema.pick(
    only(
      'title',
      'recordType',
      'description',
      'doctorName',
      'department',
      'serviceDate',
      'createdAt',
      'providerName',
      'providerVerified',
      'documentStatus',
    ),
  ),
  /** `url` is `/api/shares/{token}/attachments/{attachment id}`. */
  attachments: z.array(attachmentSchema.omit({ position: true })),
  verification: recordVerificationSchema,
  /** Every version of the record, oldest first; the last is the one shown. */
  versions: z.array(
    recordVersionSchema.pick(only('title', 'createdAt', 'providerName', 'documentStatus', 'blockchainHash')),
  ),
  /** The record was amended after the link was made: the link now opens the corrected version. */
  amendedSinceShared: z.boolean(),
  expiresAt: z.string(),
  note: z.string().nullable(),
});
export type SharedRecord = z.infer<typeof sharedRecordSchema>;
