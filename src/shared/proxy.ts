// Family proxy access (docs/decisions.md#family-proxy-access): what a family member sees of the
// patients who granted them access, and what a patient sees of the family members holding it.
import { z } from 'zod';
import { text } from './text.js';

export const acceptInvitationSchema = z.object({
  inviteToken: text({ error: 'inviteToken is required' })
    .trim()
    .min(1, 'inviteToken is required')
    .max(200, 'inviteToken is too long'),
});

/** GET /api/proxy/patients: one per patient whose grant is live now. */
export const proxyPatientSchema = z.object({
  /** patients.id, for the proxy's record and appointment calls. */
  id: z.string(),
  name: z.string(),
  mrn: z.string(),
  /** How the patient named this family member in their contacts. */
  relationship: z.string(),
  since: z.string(),
});
export type ProxyPatient = z.infer<typeof proxyPatientSchema>;

/** GET /api/proxy/holders: a family member holding access to the signed-in patient's records now. */
export const accessHolderSchema = z.object({
  contactId: z.string(),
  /** The contact as the patient entered it. */
  contactName: z.string(),
  relationship: z.string(),
  /** The family account's e-mail and name. */
  email: z.string(),
  accountName: z.string(),
  since: z.string(),
});
export type AccessHolder = z.infer<typeof accessHolderSchema>;
