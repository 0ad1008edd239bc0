// Statements run on every request are prepared once per database handle: the query builder runs
// once, and PostgreSQL parses and plans a named statement once per connection. Keyed by the handle
// so that a transaction's handle gets statements of its own that run inside the transaction.
import type { Db } from './connect.js';

export function preparedPerDb<Statement>(prepare: (db: Db) => Statement): (db: Db) => Statement {
  const prepared = new WeakMap<Db, Statement>();
  return (db) => {
    let statement = prepared.get(db);
    if (!statement) {
      statement = prepare(db);
      prepared.set(db, statement);
    }
    return statement;
  };
}
