// Rows of a prepared statement mapped by a function generated once per statement. Drizzle's mapper
// (mapResultRow) works out every column's decoder again for every row, with `is()` checks and an
// iterator per cell: under load that was a sixth of the app's CPU on the patient list (perf). A
// compiled mapper was proposed upstream (drizzle-orm#5397) and not merged. This one gives the same
// objects as mapResultRow; row-mapper.test.ts compares the two on real statements.
import { Column, SQL, Subquery, getTableName, is } from 'drizzle-orm';
import type { SelectedFieldsOrdered } from 'drizzle-orm/pg-core';

interface Decoder {
  mapFromDriverValue(value: unknown): unknown;
}

/** A column of the result: where it goes, how it is decoded, which joined table it is of. */
interface CompiledColumn {
  path: string[];
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

/** The nested object literal of a row: a key holds a column's value or an object of more keys. */
type Shape = Map<string, number | Shape>;

function literal(shape: Shape): string {
  const parts: string[] = [];
  for (const [key, part] of shape) {
    parts.push(`${JSON.stringify(key)}: ${typeof part === 'number' ? `v${part}` : literal(part)}`);
  }
  return `{ ${parts.join(', ')} }`;
}

/**
 * The mapper of one statement's rows, as mapResultRow(fields, row, joinsNotNullableMap) for each
 * row: nested objects by path, null cells kept null, and a left-joined table's object null when
 * its first selected column is null and every column of the object is of that table (drizzle's
 * rule, kept as it is). The row is built by code generated once per statement, as one nested
 * object literal with fixed keys: a generic loop storing `node[key]` made every store and load
 * megamorphic and every object grow one property at a time (row-mapper.test.ts compares both
 * with drizzle). Keys come from the statement's own select, written as JSON string literals.
 */
export function compileRowMapper(
  fields: SelectedFieldsOrdered,
  joinsNotNullableMap: Record<string, boolean> | undefined,
): (rows: unknown[][]) => Record<string, unknown>[] {
  const columns: CompiledColumn[] = fields.map(({ path, field }) => ({
    path,
    decoder: decoderOf(field),
    joinedTable: is(field, Column) && path.length === 2 ? getTableName(field.table) : undefined,
  }));
  const shape: Shape = new Map();
  // Per object of a joined table: its first column's index and table, or false when another
  // table's column shares the object (then drizzle never nulls it).
  const joined = new Map<string, { first: number; table: string } | false>();
  columns.forEach(({ path, joinedTable }, i) => {
    let node = shape;
    for (const parent of path.slice(0, -1)) {
      let child = node.get(parent);
      if (typeof child === 'number') throw new Error(`compileRowMapper: ${parent} is a column and an object`);
      if (child === undefined) {
        child = new Map();
        node.set(parent, child);
      }
      node = child;
    }
    const key = path[path.length - 1];
    if (key === '__proto__' || path.includes('__proto__'))
      throw new Error('compileRowMapper: a selected key named __proto__');
    node.set(key, i);
    if (joinsNotNullableMap && joinedTable !== undefined) {
      const seen = joined.get(path[0]);
      if (seen === undefined) joined.set(path[0], { first: i, table: joinedTable });
      else if (seen !== false && seen.table !== joinedTable) joined.set(path[0], false);
    }
  });
  const body = [
    ...columns.map(
      (_, i) => `const v${i} = row[${i}] === null ? null : d[${i}].mapFromDriverValue(row[${i}]);`,
    ),
    `const result = ${literal(shape)};`,
    ...[...joined].flatMap(([object, rule]) =>
      rule && !joinsNotNullableMap![rule.table]
        ? [`if (v${rule.first} === null) result[${JSON.stringify(object)}] = null;`]
        : [],
    ),
    'return result;',
  ].join('\n');
  const decoders = columns.map((c) => c.decoder);
  // Generated from the select's own keys (above), never from input.
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- code generation, as fast-json-stringify does
  const build = new Function('d', `return function mapRow(row) {\n${body}\n};`) as (
    d: Decoder[],
  ) => (row: unknown[]) => Record<string, unknown>;
  const mapRow = build(decoders);
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
