// Rows of a prepared statement mapped by a function built once per statement. Drizzle's mapper
// (mapResultRow) works out every column's decoder again for every row, with `is()` checks and an
// iterator per cell: under load that was a sixth of the app's CPU on the patient list (perf). A
// compiled mapper was proposed upstream (drizzle-orm#5397) and not merged. This one gives the same
// objects as mapResultRow; row-mapper.test.ts compares the two on real statements.
import { Column, SQL, Subquery, getTableName, is } from 'drizzle-orm';
import type { SelectedFieldsOrdered } from 'drizzle-orm/pg-core';

interface Decoder {
  mapFromDriverValue(value: unknown): unknown;
}

/** What a column of the result becomes: where it goes, how it is decoded, which joined table it is of. */
interface CompiledColumn {
  parents: string[];
  key: string;
  decoder: Decoder;
  /** The table of a column of a joined table's object ({ user: users, ... }): for left-join nulls. */
  joinedTable: string | undefined;
}

/** An SQL fragment's decoder (`.mapWith()`), internal to drizzle's types. */
const sqlDecoder = (fragment: SQL): Decoder => (fragment as unknown as { decoder: Decoder }).decoder;

function decoderOf(field: SelectedFieldsOrdered[number]['field']): Decoder {
  if (is(field, Column)) return field;
  if (is(field, SQL)) return sqlDecoder(field);
  if (is(field, Subquery)) return sqlDecoder((field._ as unknown as { sql: SQL }).sql);
  return sqlDecoder(field.sql);
}

/**
 * The mapper of one statement's rows, as mapResultRow(fields, row, joinsNotNullableMap) for each
 * row: nested objects by path, null cells kept null, and a left-joined table's object null when
 * its first selected column is null (drizzle's rule, kept as it is).
 */
export function compileRowMapper(
  fields: SelectedFieldsOrdered,
  joinsNotNullableMap: Record<string, boolean> | undefined,
): (rows: unknown[][]) => Record<string, unknown>[] {
  const columns: CompiledColumn[] = fields.map(({ path, field }) => ({
    parents: path.slice(0, -1),
    key: path[path.length - 1],
    decoder: decoderOf(field),
    joinedTable: is(field, Column) && path.length === 2 ? getTableName(field.table) : undefined,
  }));
  const nullable = joinsNotNullableMap ?? null;
  const mapRow = (row: unknown[]): Record<string, unknown> => {
    const result: Record<string, unknown> = {};
    // Per joined object: its table when its first column was null, false when it was not.
    let nullify: Record<string, string | false> | null = null;
    for (let i = 0; i < columns.length; i++) {
      const { parents, key, decoder, joinedTable } = columns[i];
      let node = result;
      for (const parent of parents) {
        node = (node[parent] ??= {}) as Record<string, unknown>;
      }
      const raw = row[i];
      const value = raw === null ? null : decoder.mapFromDriverValue(raw);
      node[key] = value;
      if (nullable && joinedTable !== undefined) {
        nullify ??= {};
        const object = parents[0];
        const seen = nullify[object];
        if (seen === undefined) nullify[object] = value === null ? joinedTable : false;
        else if (seen !== false && seen !== joinedTable) nullify[object] = false;
      }
    }
    if (nullify) {
      for (const object in nullify) {
        const table = nullify[object];
        if (table !== false && !nullable![table]) result[object] = null;
      }
    }
    return result;
  };
  return (rows) => rows.map(mapRow);
}

/** The parts of drizzle's prepared query (node-postgres and PGlite alike) the mapper is set on. */
interface PreparedInternals {
  fields?: SelectedFieldsOrdered;
  joinsNotNullableMap?: Record<string, boolean>;
  customResultMapper?: (rows: unknown[][]) => unknown;
}

/**
 * Gives a prepared select its compiled row mapper (drizzle calls `customResultMapper` with the
 * rows when one is set). Statements without selected fields, or with a mapper of their own, are
 * left as they are.
 */
export function withCompiledRows<Statement>(statement: Statement): Statement {
  const internals = statement as PreparedInternals;
  if (internals.fields && !internals.customResultMapper) {
    internals.customResultMapper = compileRowMapper(internals.fields, internals.joinsNotNullableMap);
  }
  return statement;
}
