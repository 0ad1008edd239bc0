// DrizzlePGlite against PGlite as Drizzle drives it by default: two in-memory databases with the
// same rows must answer the same statements with the same values, in each way Drizzle queries
// (selected fields, db.execute, a prepared statement, a transaction and a savepoint inside it).
// PGlite in both runs, under test:pg too: the client is PGlite's.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { PGlite, types, type QueryOptions, type Transaction } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle, type PgliteDatabase } from 'drizzle-orm/pglite';
import { date, integer, interval, jsonb, numeric, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { DrizzlePGlite } from './pglite-client.js';

const samples = pgTable('samples', {
  id: integer('id').primaryKey(),
  at: timestamp('at', { withTimezone: true }),
  atText: timestamp('at_text', { withTimezone: true, mode: 'string' }),
  localAt: timestamp('local_at'),
  day: date('day'),
  dayAsDate: date('day_as_date', { mode: 'date' }),
  span: interval('span'),
  amount: numeric('amount'),
  ats: timestamp('ats', { withTimezone: true }).array(),
  localAts: timestamp('local_ats').array(),
  days: date('days').array(),
  spans: interval('spans').array(),
  amounts: numeric('amounts').array(),
  tags: text('tags').array(),
  doc: jsonb('doc'),
});

const rows = [
  {
    id: 1,
    at: new Date('2026-03-04T05:06:07.089Z'),
    atText: '2026-03-04 05:06:07.089+00',
    localAt: new Date('1999-12-31T23:59:59.999Z'),
    day: '1815-12-10',
    dayAsDate: new Date('2000-02-29T00:00:00.000Z'),
    span: '1 day 02:03:04',
    amount: '12345678901234567890.123',
    ats: [new Date('2026-01-01T00:00:00.000Z'), new Date('2026-06-30T12:00:00.500Z')],
    localAts: [new Date('2001-02-03T04:05:06.000Z')],
    days: ['2026-01-01', '1970-01-01'],
    spans: ['00:30:00', '3 mons'],
    amounts: ['0.1', '-2.50'],
    tags: ['a "quoted" tag', 'comma, inside', ''],
    doc: { nested: [1, 'two', null], at: '2026-01-01' },
  },
  { id: 2, at: null, atText: null, localAt: null, day: null, dayAsDate: null, span: null, amount: null },
];

const create = sql`create table samples (
  id integer primary key, at timestamptz, at_text timestamptz, local_at timestamp, day date,
  day_as_date date, span interval, amount numeric, ats timestamptz[], local_ats timestamp[],
  days date[], spans interval[], amounts numeric[], tags text[], doc jsonb)`;

let plainClient: PGlite;
let ourClient: DrizzlePGlite;
let plain: PgliteDatabase;
let ours: PgliteDatabase;

beforeAll(async () => {
  plainClient = await PGlite.create();
  ourClient = await DrizzlePGlite.open({});
  plain = drizzle(plainClient);
  ours = drizzle(ourClient);
  for (const db of [plain, ours]) {
    await db.execute(create);
    await db.insert(samples).values(rows);
  }
});

afterAll(async () => {
  await plainClient?.close();
  await ourClient?.close();
});

/** The same reads on either database. */
const reads: Record<string, (db: PgliteDatabase) => Promise<unknown>> = {
  'selected fields': (db) => db.select().from(samples).orderBy(samples.id),
  'db.execute': async (db) => (await db.execute(sql`select * from samples order by id`)).rows,
  'a prepared statement': (db) =>
    db
      .select({ id: samples.id, at: samples.at, days: samples.days })
      .from(samples)
      .where(sql`${samples.id} = ${sql.placeholder('id')}`)
      .prepare('sample_by_id')
      .execute({ id: 1 }),
  'a transaction and a savepoint': (db) =>
    db.transaction(async (tx) => [
      await tx.select().from(samples).orderBy(samples.id),
      await tx.transaction(
        async (inner) => (await inner.execute(sql`select * from samples order by id`)).rows,
      ),
    ]),
};

describe('DrizzlePGlite', () => {
  for (const [name, read] of Object.entries(reads)) {
    it(`gives the rows Drizzle gives on plain PGlite: ${name}`, async () => {
      const expected = await read(plain);
      expect(await read(ours)).toEqual(expected);
    });
  }

  it('maps the values as the schema says (not merely alike on both sides)', async () => {
    const [first] = await ours
      .select()
      .from(samples)
      .where(sql`${samples.id} = 1`);
    expect(first).toEqual(rows[0]);
    const [raw] = (await ours.execute(sql`select at, day, span from samples where id = 1`)).rows;
    expect(raw).toEqual({ at: '2026-03-04 05:06:07.089+00', day: '1815-12-10', span: '1 day 02:03:04' });
  });

  it("sends Drizzle's queries to PGlite without the per-query parsers, in a transaction too", async () => {
    const query = vi.spyOn(PGlite.prototype, 'query');
    // What reaches the transaction handle PGlite makes, under the wrapper DrizzlePGlite puts on it.
    const inTransaction: unknown[] = [];
    const begin = PGlite.prototype.transaction;
    const transaction = vi.spyOn(PGlite.prototype, 'transaction').mockImplementation(function (
      this: PGlite,
      callback: (tx: Transaction) => Promise<unknown>,
    ) {
      return begin.call(this, (tx) => {
        const send = tx.query.bind(tx);
        tx.query = (text: string, params?: unknown[], options?: QueryOptions) => {
          inTransaction.push(options);
          return send(text, params, options);
        };
        return callback(tx);
      });
    });
    let sent: unknown[];
    try {
      await ours.select().from(samples);
      await ours.transaction((tx) => tx.select().from(samples));
      sent = query.mock.calls.map(([, , options]) => options);
    } finally {
      query.mockRestore();
      transaction.mockRestore();
    }
    expect(sent).toEqual([{ rowMode: 'array' }]);
    expect(inTransaction).toHaveLength(1);
    expect(inTransaction[0]).toEqual({ rowMode: 'array' });
  });

  it('keeps a query parser of any other type', async () => {
    const { rows: answer } = await ourClient.query<{ n: unknown }>('select 41::int4 as n', [], {
      parsers: { [types.INT4]: (value: string) => Number(value) + 1 },
    });
    expect(answer).toEqual([{ n: 42 }]);
  });
});
