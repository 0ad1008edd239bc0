// Family proxy access (docs/decisions.md#family-proxy-access): what a family member sees of the
// patients who granted them access, and what a patient sees of the family members holding it.
import { z } from 'zod';
import { strings } from './fields.js';
import { text } from './text.js';

export const acceptInvitationSchema = z.object({
  inviteToken: text({ error: 'inviteToken is required' })
    .trim()
    .min(1, 'inviteToken is required')
    .max(200, 'inviteToken is too long'),
});

/** GET /api/proxy/patients: one per patient whose grant is live now. */
/**
 * `id`: patients.id, for the proxy's record and appointment calls; `relationship`: how the patient
 * named this family member in their contacts.
 */
export const proxyPatientSchema = z.object(strings('id', 'name', 'mrn', 'relationship', 'since'));
export type ProxyPatient = z.infer<typeof proxyPatientSchema>;

/** GET /api/proxy/holders: a family member holding access to the signed-in patient's records now. */
/** `contactName`: the contact as the patient entered it; `email`, `accountName`: the family account's. */
export const accessHolderSchema = z.object(
  strings('contactId', 'contactName', 'relationship', 'email', 'accountName', 'since'),
);
export type AccessHolder = z.infer<typeof accessHolderSchema>;
