// Patients (docs/spec.md#entities, #validation and #calls): the Add / Edit Patient payload, the
// list query and the shapes the API answers with. Used by the routes and by the hospital
// dashboard's forms.
import { z } from 'zod';
import { text } from './text.js';
import { DEPARTMENTS, GENDER_OPTIONS } from './constants.js';
import { contactDetailsShape, phoneSchema } from './patient-profile.js';
import { pagedSchema, pagingQuerySchema } from './paging.js';
import { blankToNull, mailAddress, nullableStrings, only, optionalText, strings } from './fields.js';

// The paging schema and helpers moved to paging.ts; re-exported for the lists that import them here.
export { MAX_PAGE_SIZE, pagedSchema, pageRange, pagingQuerySchema, type Paged } from './paging.js';

/** YYYY-MM-DD (a datetime is cut to its date part); a real calendar date, not in the future. */
export const pastDateSchema = (name: string, earliest: string) =>
  z.preprocess(
    blankToNull,
    text()
      .trim()
      .regex(/^\d{4}-\d{2}-\d{2}(T.*)?$/, `${name} must be a date (YYYY-MM-DD)`)
      // A date-time must be a real one too (not 25:00) before its time is dropped.
      .refine((v) => v.length === 10 || !Number.isNaN(Date.parse(v)), `${name} must be a date (YYYY-MM-DD)`)
      .transform((v) => v.slice(0, 10))
      .refine((v) => {
        const d = new Date(`${v}T00:00:00Z`);
        return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === v;
      }, `${name} must be a real date`)
      .refine((v) => v >= earliest, `${name} is too far in the past`)
      // A day ahead of UTC: it is already tomorrow east of Greenwich.
      .refine(
        (v) => v <= new Date(Date.now() + 86_400_000).toISOString().slice(0, 10),
        `${name} cannot be in the future`,
      )
      .nullish(),
  );
export const dateOfBirthSchema = pastDateSchema('Date of birth', '1880-01-01');

const optionalEmail = z.preprocess(
  blankToNull,
  text().trim().toLowerCase().pipe(mailAddress('Please enter a valid email address')).nullish(),
);

/** One of GENDER_OPTIONS (any case), or nothing. */
const genderSchema = z.preprocess(
  blankToNull,
  text()
    .trim()
    .toLowerCase()
    .pipe(z.enum(GENDER_OPTIONS, { error: `Gender must be one of ${GENDER_OPTIONS.join(', ')}` }))
    .nullish(),
);

/** Add Patient: every field optional (docs/spec.md#validation); absent and empty both mean null. */
export const patientInputSchema = z.object({
  firstName: optionalText(100),
  lastName: optionalText(100),
  email: optionalEmail,
  dateOfBirth: dateOfBirthSchema,
  gender: genderSchema,
  phone: phoneSchema,
  insuranceProvider: optionalText(200),
  insurancePolicy: optionalText(100),
  primaryCarePhysician: optionalText(200),
  ...contactDetailsShape,
});
export type PatientInput = z.infer<typeof patientInputSchema>;
/** Add Patient's body: the fields, and the hospital's confirmation after a duplicate warning. */
export const patientCreateSchema = patientInputSchema.extend({
  confirmDuplicate: z.boolean().optional(),
});
export type PatientCreateInput = z.infer<typeof patientCreateSchema>;
export const PATIENT_FIELDS = Object.keys(patientInputSchema.shape) as (keyof PatientInput)[];

export { GENDER_OPTIONS } from './constants.js';
export { patientDisplayName } from './patient-name.js';

export const patientListQuerySchema = pagingQuerySchema.extend({
  search: text().trim().max(100, 'search must be at most 100 characters').optional(),
  department: z
    .enum(['all', ...DEPARTMENTS], { error: `department must be one of all, ${DEPARTMENTS.join(', ')}` })
    .optional(),
});
export type PatientListQuery = z.infer<typeof patientListQuerySchema>;

/** `patientId` is the MRN; `id` is the row's id. */
export const patientSchema = z.object({
  ...strings('id', 'patientId'),
  userId: z.string().nullable(),
  createdByHospitalId: z.string(),
  ...nullableStrings('firstName', 'lastName', 'email', 'dateOfBirth', 'gender', 'phone'),
  ...nullableStrings('insuranceProvider', 'insurancePolicy', 'primaryCarePhysician'),
  ...nullableStrings('address', 'preferredLanguage', 'emergencyContactName', 'emergencyContactPhone'),
  createdAt: z.string(),
  /** The patient's own account, once they signed up with the MRN. */
  user: z
    .object({ firstName: z.string().nullable(), lastName: z.string().nullable(), email: z.string() })
    .nullable(),
  /** The latest appointment at this hospital that has started (cancelled ones excluded). */
  lastVisit: z.string().nullable(),
});
export type Patient = z.infer<typeof patientSchema>;

export const patientPageSchema = pagedSchema(patientSchema);

/** A patient of the same hospital that a new one may duplicate (same name and birth date, or e-mail). */
export const possibleDuplicateSchema = patientSchema.pick(
  only('id', 'patientId', 'firstName', 'lastName', 'dateOfBirth', 'email'),
);
export type PossibleDuplicate = z.infer<typeof possibleDuplicateSchema>;
export const DUPLICATE_PATIENT_MESSAGE =
  'A patient with the same name and date of birth, or the same e-mail, already exists. Check that this is a different person, then confirm to add them anyway.';
