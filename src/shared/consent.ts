// A patient's consent settings (docs/spec.md#screens-and-routes, #entities and #calls):
// {shareWithSpecialists, shareWithFamily} per patient, stored in consent_settings as two rows
// (recordId null). The body is the same shape as a record's sharing switches, so it reuses that
// schema.
import { z } from 'zod';
import { sharingSchema } from './records.js';

export const consentInputSchema = sharingSchema;
export type ConsentInput = z.infer<typeof consentInputSchema>;

export const CONSENT_TYPES = {
  shareWithSpecialists: 'share_with_specialists',
  shareWithFamily: 'share_with_family',
} as const;

/** docs/spec.md#constants: "consent both on in the patient dashboard" until the patient saves a choice. */
export const DEFAULT_CONSENT: ConsentInput = { shareWithSpecialists: true, shareWithFamily: true };

export const consentSchema = consentInputSchema.extend({
  /** The ledger hash of the latest save; null while the defaults apply. */
  blockchainHash: z.string().nullable(),
  /** When the patient last saved; null while the defaults apply. */
  updatedAt: z.string().nullable(),
});
export type Consent = z.infer<typeof consentSchema>;
