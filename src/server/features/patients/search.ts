// The patient list's search: a fragment anywhere in the patient's name, e-mail or MRN, or in the
// name or e-mail of the account linked to the patient. Each side is one text per row, accent- and
// case-folded by medledger_fold() ("garcia" finds "María García"), matched with LIKE against the
// folded fragment and served by a trigram GIN index (migration 0035): the expressions below must
// stay identical to the indexes' for PostgreSQL to use them.
import { inArray, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import { alias, unionAll } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/connect.js';
import { patients, users } from '../../db/schema.js';

/** `%` and `_` typed by a user are literal characters, not wildcards. */
export const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

// Fields are joined by U+0001, which no stored text holds (src/shared/text.ts refuses control
// characters, the search box's too), so a fragment never matches across two fields; first and last
// name by a space, so that "Jane Doe" finds the full name.
type Named = { firstName: AnyColumn; lastName: AnyColumn; email: AnyColumn };
const patientText = (t: Named & { patientId: AnyColumn }) =>
  sql`medledger_fold(coalesce(${t.firstName}, '') || ' ' || coalesce(${t.lastName}, '') || E'\\x01' || coalesce(${t.email}, '') || E'\\x01' || coalesce(${t.patientId}, ''))`;
const userText = (t: Named) =>
  sql`medledger_fold(coalesce(${t.firstName}, '') || ' ' || coalesce(${t.lastName}, '') || E'\\x01' || coalesce(${t.email}, ''))`;

const matched = alias(patients, 'matched');
const linked = alias(patients, 'linked');

/**
 * Patients whose own fields, or whose linked account's, hold `search`. One semi-join on the union
 * of both matches (each an index scan) instead of an OR over the joined row, which would read every
 * patient of the hospital.
 */
export function patientSearchFilter(db: Db, search: string): SQL {
  const pattern = sql`medledger_fold(${likePattern(search)})`;
  const folded = (text: SQL) => sql`${text} like ${pattern}`;
  return inArray(
    patients.id,
    unionAll(
      db
        .select({ id: matched.id })
        .from(matched)
        .where(folded(patientText(matched))),
      db
        .select({ id: linked.id })
        .from(users)
        .innerJoin(linked, sql`${linked.userId} = ${users.id}`)
        .where(folded(userText(users))),
    ),
  );
}
