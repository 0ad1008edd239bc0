// A patient's own profile changes (docs/spec.md#validation: "Profile update accepts only phone,
// insuranceProvider, insurancePolicy, primaryCarePhysician"; decisions.md adds the address, preferred
// language and emergency contact, issue 57). Used by the Edit Profile modal and by
// the patient branch of PUT /api/patients/{id}.
import { z } from 'zod';
import { blankToNull, optionalLabelledText } from './fields.js';
import { text } from './text.js';

export const PROFILE_FIELDS = [
  'phone',
  'insuranceProvider',
  'insurancePolicy',
  'primaryCarePhysician',
  'address',
  'preferredLanguage',
  'emergencyContactName',
  'emergencyContactPhone',
] as const;
export type ProfileField = (typeof PROFILE_FIELDS)[number];

export const PROFILE_FIELD_LABELS: Record<ProfileField, string> = {
  phone: 'Phone',
  insuranceProvider: 'Insurance provider',
  insurancePolicy: 'Insurance policy number',
  primaryCarePhysician: 'Primary care physician',
  address: 'Address',
  preferredLanguage: 'Preferred language',
  emergencyContactName: 'Emergency contact name',
  emergencyContactPhone: 'Emergency contact phone',
};

export const ONLY_PROFILE_FIELDS =
  'Only phone, insurance provider, insurance policy number, primary care physician, address, preferred language and emergency contact can be changed.';
export const PHONE_MESSAGE = 'Please enter a valid phone number';

export const phoneSchema = z.preprocess(
  blankToNull,
  text({ error: PHONE_MESSAGE })
    .trim()
    .max(40, PHONE_MESSAGE)
    // Digits with the usual separators, an optional leading + and an extension ("x123", "ext. 4").
    .regex(/^\+?[0-9()./\s-]*[0-9][0-9()./\s-]*((x|ext\.?)\s*[0-9]{1,6})?$/i, PHONE_MESSAGE)
    .nullish(),
);

export const LANGUAGE_MESSAGE = 'Preferred language must be a language tag such as "en", "es" or "pt-BR"';

/** A BCP 47 language tag, canonicalised ("PT-br" -> "pt-BR"); blank means none. */
export const languageTagSchema = z.preprocess(
  blankToNull,
  text({ error: LANGUAGE_MESSAGE })
    .trim()
    .max(35, LANGUAGE_MESSAGE)
    .transform((tag, ctx) => {
      try {
        const [canonical] = Intl.getCanonicalLocales(tag);
        if (canonical) return canonical;
      } catch {
        // not a well-formed tag
      }
      ctx.addIssue({ code: 'custom', message: LANGUAGE_MESSAGE });
      return z.NEVER;
    })
    .nullish(),
);

/** The patient file's address, preferred language and emergency contact (issue 57). */
export const contactDetailsShape = {
  address: optionalLabelledText('Address', 500),
  preferredLanguage: languageTagSchema,
  emergencyContactName: optionalLabelledText('Emergency contact name', 200),
  emergencyContactPhone: phoneSchema,
};

export const profileUpdateSchema = z.strictObject(
  {
    phone: phoneSchema,
    insuranceProvider: optionalLabelledText('Insurance provider', 200),
    insurancePolicy: optionalLabelledText('Insurance policy number', 100),
    primaryCarePhysician: optionalLabelledText('Primary care physician', 200),
    ...contactDetailsShape,
  },
  { error: (issue) => (issue.code === 'unrecognized_keys' ? ONLY_PROFILE_FIELDS : undefined) },
);
export type ProfileUpdate = z.infer<typeof profileUpdateSchema>;
