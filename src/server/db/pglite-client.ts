// The PGlite client Drizzle drives. Drizzle's PGlite driver passes type parsers with every query:
// timestamps, dates, intervals and a few of their arrays are to stay text, which Drizzle maps
// itself. PGlite merges a query's parsers into its own table on every query, and that table holds
// one parser per type and array type of the database (over 300): a 0.11 ms object copy per
// statement, a tenth of a ledger proof. Here those parsers are installed in the table once, and a
// query whose parsers are only those runs without them; the rows are the same
// (pglite-client.test.ts compares them with Drizzle's own path).
import {
  PGlite,
  types,
  type PGliteOptions,
  type QueryOptions,
  type Results,
  type Transaction,
} from '@electric-sql/pglite';
import { QueryTiming } from './query-timing.js';

/** The types Drizzle's PGlite driver keeps as text (drizzle-orm/pglite/session.js). */
const TEXT_TYPES = new Set<number>([
  types.TIMESTAMP,
  types.TIMESTAMPTZ,
  types.INTERVAL,
  types.DATE,
  1231, // numeric[]
  1115, // timestamp[]
  1185, // timestamptz[]
  1187, // interval[]
  1182, // date[]
]);

const asText = (value: string) => value;

/** The options without their parsers when every one of them is already installed as text. */
function withoutTextParsers(options: QueryOptions | undefined): QueryOptions | undefined {
  if (!options?.parsers) return options;
  for (const oid in options.parsers) if (!TEXT_TYPES.has(Number(oid))) return options;
  const { parsers: _installed, ...rest } = options;
  return rest;
}

export class DrizzlePGlite extends PGlite {
  /** Statements and transactions asked for and not yet settled (the metrics' "pool"). */
  inFlight = 0;
  private timing = new QueryTiming();

  static async open(options: PGliteOptions, timing?: QueryTiming): Promise<DrizzlePGlite> {
    const client = new DrizzlePGlite(options);
    if (timing) client.timing = timing;
    await client.waitReady;
    // After waitReady: PGlite fills in the array types' parsers while it starts.
    for (const oid of TEXT_TYPES) client.parsers[oid] = asText;
    return client;
  }

  override query<T>(query: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>> {
    return this.counted(
      this.timing.timePromise(
        process.hrtime.bigint(),
        super.query<T>(query, params, withoutTextParsers(options)),
      ),
    );
  }

  override transaction<T>(callback: (tx: Transaction) => Promise<T>): Promise<T> {
    return this.counted(
      super.transaction((tx) => {
        const query = tx.query.bind(tx);
        tx.query = <R>(text: string, params?: unknown[], options?: QueryOptions) =>
          this.timing.timePromise(
            process.hrtime.bigint(),
            query<R>(text, params, withoutTextParsers(options)),
          );
        return callback(tx);
      }),
    );
  }

  private counted<T>(work: Promise<T>): Promise<T> {
    this.inFlight++;
    return work.finally(() => this.inFlight--);
  }
}
