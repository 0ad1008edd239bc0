// Field shapes the API's answers share (docs/architecture.md, "Layout": src/shared). An answer is
// mostly a flat row of strings, nullable strings and booleans; naming the columns of each kind once
// keeps every schema a list of names instead of a column of `name: z.string()` lines. Each call
// builds fresh Zod schemas, so composing them changes neither validation nor the OpenAPI document.
import { z } from 'zod';
import { instantInRange, yearRangeMessage } from './dates.js';
import { text } from './text.js';
import { isTimeZone, TIME_ZONE_MESSAGE } from './time.js';

type Fields<K extends string, T> = { [P in K]: T };

function each<K extends string, T>(keys: readonly K[], make: () => T): Fields<K, T> {
  return Object.fromEntries(keys.map((key) => [key, make()])) as Fields<K, T>;
}

/** `name: z.string()` for each name. */
export const strings = <K extends string>(...keys: K[]) => each(keys, () => z.string());
/** `name: z.string().nullable()` for each name. */
export const nullableStrings = <K extends string>(...keys: K[]) => each(keys, () => z.string().nullable());
/** `name: z.boolean()` for each name. */
export const booleans = <K extends string>(...keys: K[]) => each(keys, () => z.boolean());

/** A picker's value, null until something is picked (a form's Select), checked by `schema`. */
export const picked = <S extends z.ZodType<unknown, string>>(schema: S) => z.string().nullable().pipe(schema);

/** Blank text (only spaces) is "not given": null, as the forms send an empty field. */
export const blankToNull = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? null : v);

/** Optional text: trimmed, and an empty value means "not given" (null), as the spec's form sends it. */
export const optionalText = (max: number) =>
  z.preprocess(blankToNull, text().trim().max(max, `Must be at most ${max} characters`).nullish());

/** Optional text whose messages name the field ("Notes must be at most 2000 characters"). */
export const optionalLabelledText = (label: string, max: number) =>
  z.preprocess(
    blankToNull,
    text({ error: `${label} must be text` })
      .trim()
      .max(max, `${label} must be at most ${max} characters`)
      .nullish(),
  );

/** The mask `schema.pick()` and `schema.omit()` take: `{ name: true }` for each name. */
export const only = <K extends string>(...keys: K[]) => each(keys, () => true as const);

/** An IANA time zone this runtime knows (here rather than in time.ts, which pages load without Zod). */
export const timeZoneSchema = z
  .string({ error: TIME_ZONE_MESSAGE })
  .trim()
  .refine(isTimeZone, TIME_ZONE_MESSAGE)
  // Stored in the runtime's own spelling ('europe/berlin' -> 'Europe/Berlin'), as the pickers list it.
  .transform((zone) => new Intl.DateTimeFormat('en-US', { timeZone: zone }).resolvedOptions().timeZone);

/**
 * An e-mail address a mail server takes (after trim and lower-casing): at most 254 characters,
 * Zod's address check, and RFC 5321's limits Zod leaves out: a local part of at most 64 and
 * domain labels of at most 63 characters (an invitation to a longer one could never be delivered).
 */
export const mailAddress = (error: string) =>
  z
    .string()
    .max(254, error)
    .pipe(z.email({ error }))
    .refine((address) => {
      const at = address.lastIndexOf('@');
      return (
        at <= 64 &&
        address
          .slice(at + 1)
          .split('.')
          .every((label) => label.length <= 63)
      );
    }, error);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** A UUID's own shape: ids reach SQL only when well-formed (anything else is "not found" or a 400). */
export const isUuid = (value: string) => UUID.test(value);

/**
 * An ISO 8601 date and time with its offset (`error` for any other text), in the years people can
 * mean (dates.ts): the appointment's date, and the periods of the calendar and the audit trail.
 */
export const isoInstant = (name: string, error: string) =>
  z.iso.datetime({ offset: true, error }).refine((v) => instantInRange(v) !== null, yearRangeMessage(name));
