// Statements run on every request are prepared once per database handle: the query builder runs
// once, PostgreSQL parses and plans a named statement once per connection, and the rows are mapped
// by a function compiled once (row-mapper.ts). Keyed by the handle so that a transaction's handle
// gets statements of its own that run inside the transaction.
import type { Db } from './connect.js';
import { withCompiledRows } from './row-mapper.js';

export function preparedPerDb<Statement>(prepare: (db: Db) => Statement): (db: Db) => Statement {
  const prepared = new WeakMap<Db, Statement>();
  return (db) => {
    let statement = prepared.get(db);
    if (!statement) {
      statement = withCompiledRows(prepare(db));
      prepared.set(db, statement);
    }
    return statement;
  };
}
