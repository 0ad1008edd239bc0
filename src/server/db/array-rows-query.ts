// The app's prepared reads on PostgreSQL, sent through node-postgres's documented extension point (a
// "submittable": an object with submit() and the protocol handlers, as pg-cursor is) instead of
// its general Query. Drizzle asks for rows as arrays under a statement name (db/prepared.ts);
// for those, pg's Query copied its config with property descriptors and built, for every
// execution, a row object keyed by column name that array rows never use (a profile of
// GET /api/auth/me: 7% of the app's CPU), and asked PostgreSQL to describe the result columns
// again each time. Here a named statement's columns are described once per connection: its result
// type cannot change while it stays prepared (PostgreSQL refuses with "cached plan must not
// change result type" instead), so the parsers are kept with the connection's prepared statements.
// Every other query (transactions' begin and commit, raw SQL, migrations) takes pg's own path.
import { createRequire } from 'node:module';
import pg from 'pg';

type Parser = (value: string) => unknown;
interface TypeParsers {
  getTypeParser(oid: number, format: 'text'): Parser;
}
interface FieldDescription {
  dataTypeID: number;
  format: string;
}
/** pg's Connection, the part a submittable drives (pg/lib/connection.js). */
interface Connection {
  parsedStatements: Record<string, string | undefined>;
  submittedNamedStatements: Record<string, string | undefined>;
  stream: { cork?(): void; uncork?(): void };
  parse(message: { text: string; name: string; types: unknown[] }): void;
  bind(message: {
    portal: string;
    statement: string;
    values: unknown[];
    valueMapper: (value: unknown) => unknown;
  }): void;
  describe(message: { type: 'P'; name: string }): void;
  execute(message: { portal: string }): void;
  sync(): void;
  sendCopyFail(message: string): void;
}
interface QueryConfig {
  name?: string;
  text: string;
  rowMode?: string;
  types?: TypeParsers;
  values?: unknown[];
}
type Callback = (err: Error | null, result?: ArrayRowsResult) => void;

interface ArrayRowsResult {
  command: string | null;
  rowCount: number | null;
  rows: unknown[][];
}

// pg turns parameters into wire values with this (dates, buffers, arrays, JSON); the same here.
const { prepareValue } = createRequire(import.meta.url)('pg/lib/utils.js') as {
  prepareValue: (value: unknown) => unknown;
};
const commandTag = /^([A-Za-z]+)(?: (\d+))?(?: (\d+))?/;

/** Per connection: a named statement's column parsers, once PostgreSQL has described it. */
const describedStatements = new WeakMap<Connection, Map<string, Parser[]>>();

function described(connection: Connection): Map<string, Parser[]> {
  let statements = describedStatements.get(connection);
  if (!statements) {
    statements = new Map();
    describedStatements.set(connection, statements);
  }
  return statements;
}

class ArrayRowsQuery {
  readonly name: string;
  readonly text: string;
  callback: Callback | undefined;
  private readonly values: unknown[];
  private readonly types: TypeParsers;
  private parsers: Parser[] | undefined;
  private statements: Map<string, Parser[]> | undefined;
  private readonly result: ArrayRowsResult = { command: null, rowCount: null, rows: [] };
  private failure: Error | undefined;

  constructor(config: QueryConfig & { name: string }, values: unknown[]) {
    this.name = config.name;
    this.text = config.text;
    this.values = values;
    this.types = config.types ?? pg.types;
  }

  submit(connection: Connection): Error | null {
    const previous = connection.parsedStatements[this.name] ?? connection.submittedNamedStatements[this.name];
    if (previous !== undefined && previous !== this.text)
      return new Error(
        `Prepared statements must be unique - '${this.name}' was used for a different statement`,
      );
    this.statements = described(connection);
    const parsed = connection.parsedStatements[this.name] !== undefined;
    // A statement prepared on this connection and described before needs no Describe.
    this.parsers = parsed ? this.statements.get(this.name) : undefined;
    connection.stream.cork?.();
    try {
      if (previous === undefined) {
        connection.parse({ text: this.text, name: this.name, types: [] });
        connection.submittedNamedStatements[this.name] = this.text;
      }
      try {
        connection.bind({
          portal: '',
          statement: this.name,
          values: this.values,
          valueMapper: prepareValue,
        });
      } catch (err) {
        // A value pg cannot turn into a parameter: nothing of the Bind was sent (pg clears its
        // writer), so Sync ends the exchange and ReadyForQuery answers with the error. The statement,
        // if Parse went out, stays prepared, as the connection's bookkeeping will say.
        connection.sync();
        this.failure = err as Error;
        return null;
      }
      if (!this.parsers) connection.describe({ type: 'P', name: '' });
      connection.execute({ portal: '' });
      connection.sync();
    } finally {
      connection.stream.uncork?.();
    }
    return null;
  }

  handleRowDescription(message: { fields: FieldDescription[] }): void {
    this.parsers = message.fields.map((field) =>
      this.types.getTypeParser(field.dataTypeID, (field.format || 'text') as 'text'),
    );
    this.statements?.set(this.name, this.parsers);
  }

  handleDataRow(message: { fields: Array<string | null> }): void {
    if (this.failure) return;
    const parsers = this.parsers;
    if (!parsers) {
      this.failure = new Error(`Rows of '${this.name}' arrived without a description.`);
      return;
    }
    const raw = message.fields;
    const row = new Array<unknown>(raw.length);
    try {
      for (let i = 0; i < raw.length; i++) {
        const value = raw[i];
        row[i] = value === null ? null : parsers[i](value);
      }
    } catch (err) {
      this.failure = err as Error;
      return;
    }
    this.result.rows.push(row);
  }

  handleCommandComplete(message: { text: string }): void {
    const match = commandTag.exec(message.text);
    if (!match) return;
    this.result.command = match[1];
    const count = match[3] ?? match[2];
    if (count !== undefined) this.result.rowCount = Number(count);
  }

  handleEmptyQuery(): void {}

  handlePortalSuspended(): void {}

  handleCopyInResponse(connection: Connection): void {
    connection.sendCopyFail('No source stream defined');
  }

  handleCopyData(): void {}

  handleError(err: Error): void {
    const callback = this.callback;
    this.callback = undefined;
    callback?.(this.failure ?? err);
  }

  handleReadyForQuery(): void {
    const callback = this.callback;
    this.callback = undefined;
    if (this.failure) callback?.(this.failure);
    else callback?.(null, this.result);
  }
}

function isPreparedArrayRead(config: unknown, values: unknown): config is QueryConfig & { name: string } {
  if (typeof config !== 'object' || config === null) return false;
  const query = config as QueryConfig & { submit?: unknown };
  return (
    query.rowMode === 'array' &&
    typeof query.name === 'string' &&
    query.name !== '' &&
    typeof query.text === 'string' &&
    query.submit === undefined &&
    (values === undefined || Array.isArray(values)) &&
    (query.values === undefined || Array.isArray(query.values))
  );
}

/** pg's Client, with Drizzle's prepared array reads sent as ArrayRowsQuery (for pg.Pool's `Client`). */
export class ArrayRowsClient extends pg.Client {
  // One signature for pg's overloads: (config, values?, callback?) as Pool and Drizzle call it.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  override query(config: any, values?: any, callback?: any): any {
    const general = super.query as (this: pg.Client, ...args: unknown[]) => unknown;
    if (!isPreparedArrayRead(config, values)) return general.call(this, config, values, callback);
    // Drizzle passes the values beside the config; pg also takes them inside it.
    const query = new ArrayRowsQuery(config, (values as unknown[] | undefined) ?? config.values ?? []);
    if (typeof callback === 'function') {
      query.callback = callback as Callback;
      super.query(query as unknown as pg.Submittable);
      return undefined;
    }
    return new Promise<ArrayRowsResult>((resolve, reject) => {
      query.callback = (err, result) => (err ? reject(err) : resolve(result!));
      super.query(query as unknown as pg.Submittable);
    });
  }
}
