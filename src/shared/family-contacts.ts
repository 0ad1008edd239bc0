// Family contacts (docs/spec.md#screens-and-routes, #entities and #validation): first name, last
// name and relationship required; relationship one of the options in docs/spec.md#constants; e-mail
// valid when given. Used by the Family Contacts tab's form and by POST/PUT /api/family-contacts.
import { z } from 'zod';
import { blankToNull, booleans, mailAddress, nullableStrings, strings } from './fields.js';
import { text } from './text.js';
import { RELATIONSHIPS } from './constants.js';
import { phoneSchema } from './patient-profile.js';

export const RELATIONSHIP_LABELS: Record<(typeof RELATIONSHIPS)[number], string> = {
  spouse: 'Spouse',
  parent: 'Parent',
  child: 'Child',
  sibling: 'Sibling',
  guardian: 'Guardian',
  other: 'Other',
};

export const FAMILY_MESSAGES = {
  firstName: 'First name is required',
  lastName: 'Last name is required',
  relationship: 'Relationship is required',
  relationshipOption: `Relationship must be one of ${RELATIONSHIPS.join(', ')}`,
  email: 'Please enter a valid email address',
} as const;

export const MAX_FAMILY_CONTACTS = 50;

const requiredName = (message: string) =>
  text({ error: message }).trim().min(1, message).max(100, 'Names must be at most 100 characters');

export const familyContactInputSchema = z.object({
  firstName: requiredName(FAMILY_MESSAGES.firstName),
  lastName: requiredName(FAMILY_MESSAGES.lastName),
  relationship: z.enum(RELATIONSHIPS, {
    error: (issue) =>
      issue.input === undefined || issue.input === '' || issue.input === null
        ? FAMILY_MESSAGES.relationship
        : FAMILY_MESSAGES.relationshipOption,
  }),
  phone: phoneSchema,
  email: z.preprocess(
    blankToNull,
    text({ error: FAMILY_MESSAGES.email })
      .trim()
      .toLowerCase()
      .pipe(mailAddress(FAMILY_MESSAGES.email))
      .nullish(),
  ),
  address: z.preprocess(
    blankToNull,
    text({ error: 'Address must be text' })
      .trim()
      .max(500, 'Address must be at most 500 characters')
      .nullish(),
  ),
  isPrimary: z.boolean({ error: 'isPrimary must be true or false' }).default(false),
  canAccessRecords: z.boolean({ error: 'canAccessRecords must be true or false' }).default(false),
  emergencyContact: z.boolean({ error: 'emergencyContact must be true or false' }).default(false),
  /**
   * With access: every current and future record is shared with this relative, not only those
   * whose own Family switch is on (issue 57). Ignored (stored off) without canAccessRecords.
   */
  shareAllRecords: z.boolean({ error: 'shareAllRecords must be true or false' }).default(false),
});
export type FamilyContactInput = z.infer<typeof familyContactInputSchema>;

/** `patientId`: patients.id of the patient the contact belongs to. */
export const familyContactSchema = z.object({
  ...strings('id', 'patientId', 'firstName', 'lastName', 'relationship'),
  ...nullableStrings('phone', 'email', 'address'),
  ...booleans('isPrimary', 'canAccessRecords', 'emergencyContact', 'shareAllRecords'),
  ...strings('createdAt', 'updatedAt'),
});
export type FamilyContact = z.infer<typeof familyContactSchema>;
