// A patient's own profile changes (docs/spec.md#validation: "Profile update accepts only phone,
// insuranceProvider, insurancePolicy, primaryCarePhysician"). Used by the Edit Profile modal and by
// the patient branch of PUT /api/patients/{id}.
import { z } from 'zod';
import { text } from './text.js';

export const PROFILE_FIELDS = [
  'phone',
  'insuranceProvider',
  'insurancePolicy',
  'primaryCarePhysician',
] as const;
export type ProfileField = (typeof PROFILE_FIELDS)[number];

export const PROFILE_FIELD_LABELS: Record<ProfileField, string> = {
  phone: 'Phone',
  insuranceProvider: 'Insurance provider',
  insurancePolicy: 'Insurance policy number',
  primaryCarePhysician: 'Primary care physician',
};

export const ONLY_PROFILE_FIELDS =
  'Only phone, insurance provider, insurance policy number and primary care physician can be changed.';
export const PHONE_MESSAGE = 'Please enter a valid phone number';

/** Empty or blank means "not given" (null), as the forms send it. */
const optionalText = (max: number, label: string) =>
  z.preprocess(
    (v) => (typeof v === 'string' && v.trim() === '' ? null : v),
    text({ error: `${label} must be text` })
      .trim()
      .max(max, `${label} must be at most ${max} characters`)
      .nullish(),
  );

export const phoneSchema = z.preprocess(
  (v) => (typeof v === 'string' && v.trim() === '' ? null : v),
  text({ error: PHONE_MESSAGE })
    .trim()
    .max(40, PHONE_MESSAGE)
    // Digits with the usual separators, an optional leading + and an extension ("x123", "ext. 4").
    .regex(/^\+?[0-9()./\s-]*[0-9][0-9()./\s-]*((x|ext\.?)\s*[0-9]{1,6})?$/i, PHONE_MESSAGE)
    .nullish(),
);

export const profileUpdateSchema = z.strictObject(
  {
    phone: phoneSchema,
    insuranceProvider: optionalText(200, 'Insurance provider'),
    insurancePolicy: optionalText(100, 'Insurance policy number'),
    primaryCarePhysician: optionalText(200, 'Primary care physician'),
  },
  { error: (issue) => (issue.code === 'unrecognized_keys' ? ONLY_PROFILE_FIELDS : undefined) },
);
export type ProfileUpdate = z.infer<typeof profileUpdateSchema>;
