// Drizzle's prepared array reads on PostgreSQL (array-rows-query.ts): the same rows as pg's own
// Query, described once per connection, and every failure answered without leaving the connection
// out of step. PostgreSQL only (npm run test:pg); PGlite has no pg driver.
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../test/helpers.js';
import type { Database } from './connect.js';
import { ArrayRowsClient } from './array-rows-query.js';

const onPostgres = Boolean(process.env.TEST_DATABASE_URL);

describe.skipIf(!onPostgres)('prepared array reads on PostgreSQL', () => {
  let database: Database;
  let url: string;
  let pool: pg.Pool;
  let plain: pg.Client;

  beforeAll(async () => {
    database = await createTestDatabase();
    const result: unknown = await database.db.execute(sql`select current_database() as name`);
    const { name } = (result as { rows: Array<{ name: string }> }).rows[0];
    const address = new URL(process.env.TEST_DATABASE_URL!);
    address.pathname = `/${name}`;
    url = address.toString();
    // One connection, so that every query below meets the statements the earlier ones prepared.
    pool = new pg.Pool({ connectionString: url, max: 1, Client: ArrayRowsClient });
    plain = new pg.Client({ connectionString: url });
    await plain.connect();
    await plain.query(`create table kinds (
      id int primary key, label text, at timestamptz, flag boolean, doc jsonb, big int8, amount numeric, tags text[])`);
    await plain.query(`insert into kinds values
      (1, 'Ada', '2026-11-28T10:00:00Z', true, '{"a":[1,2]}', 9007199254740993, 12.50, '{x,"y z"}'),
      (2, null, null, null, null, null, null, null),
      (3, 'Zoë ✓', '1999-01-01T00:00:00.5Z', false, '"s"', -1, 0, '{}')`);
  });

  afterAll(async () => {
    await plain?.end();
    await pool?.end();
    await database?.close();
  });

  const read = (minId: number) => ({
    name: 'kinds_from',
    text: 'select id, label, at, flag, doc, big, amount, tags from kinds where id >= $1 order by id',
    rowMode: 'array' as const,
    values: [minId],
  });

  /** Counts the Describe messages the pool's one connection sends from now on. */
  async function countDescribes(): Promise<{ count: () => number; restore: () => void }> {
    const client = await pool.connect();
    const connection = (client as unknown as { connection: { describe: (m: unknown) => void } }).connection;
    client.release();
    const original = connection.describe;
    let count = 0;
    connection.describe = function (this: unknown, message: unknown) {
      count++;
      return original.call(this, message);
    };
    return { count: () => count, restore: () => (connection.describe = original) };
  }

  it('returns what pg returns, asking PostgreSQL to describe the columns once per connection', async () => {
    const expected = await Promise.all([1, 2, 3].map((minId) => plain.query(read(minId))));
    expect(expected[0].rows).toHaveLength(3);
    const describes = await countDescribes();
    try {
      for (let round = 0; round < 2; round++) {
        for (const [i, minId] of [1, 2, 3].entries()) {
          const answer = await pool.query(read(minId));
          expect(answer.rows).toEqual(expected[i].rows);
          expect(answer.rowCount).toBe(expected[i].rowCount);
          expect(answer.command).toBe('SELECT');
        }
      }
      expect(describes.count()).toBe(1);
    } finally {
      describes.restore();
    }
    // Parsed as pg parses them: numbers, booleans, JSON, arrays; int8 and numeric stay exact text.
    expect(expected[0].rows[0]).toEqual([
      1,
      'Ada',
      expect.any(Date),
      true,
      { a: [1, 2] },
      '9007199254740993',
      '12.50',
      ['x', 'y z'],
    ]);
    expect(expected[0].rows[1]).toEqual([2, null, null, null, null, null, null, null]);
  });

  it('uses the caller’s type parsers (Drizzle keeps timestamps as PostgreSQL wrote them)', async () => {
    const types = {
      getTypeParser: (oid: number, format?: string) =>
        oid === Number(pg.types.builtins.TIMESTAMPTZ)
          ? (value: string) => value
          : pg.types.getTypeParser(oid, format as 'text'),
    };
    const client = await pool.connect();
    try {
      for (let round = 0; round < 2; round++) {
        const answer = await client.query({ ...read(3), name: 'kinds_text_time', types });
        expect(answer.rows).toEqual([[3, 'Zoë ✓', '1999-01-01 00:00:00.5+00', false, 's', '-1', '0', []]]);
      }
    } finally {
      client.release();
    }
  });

  it('answers PostgreSQL’s errors as errors, before and after the statement is described', async () => {
    const byUuid = (value: string) => ({
      name: 'by_uuid',
      text: 'select $1::uuid as id',
      rowMode: 'array' as const,
      values: [value],
    });
    await expect(pool.query(byUuid('not-a-uuid'))).rejects.toMatchObject({ code: '22P02' });
    const id = '0b7a6f7e-4c1e-4a59-9a0e-2f6f9c1d8e11';
    expect((await pool.query(byUuid(id))).rows).toEqual([[id]]);
    await expect(pool.query(byUuid('still-not'))).rejects.toMatchObject({ code: '22P02' });
    expect((await pool.query(byUuid(id))).rows).toEqual([[id]]);
  });

  it('refuses a value it cannot send, and the connection answers the next query', async () => {
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    const withJson = (value: unknown) => ({
      name: 'echo_json',
      text: 'select $1::jsonb as doc',
      rowMode: 'array' as const,
      values: [value],
    });
    await expect(pool.query(withJson(circular))).rejects.toThrow(/circular/i);
    expect((await pool.query(withJson({ ok: true }))).rows).toEqual([[{ ok: true }]]);
    expect((await pool.query(read(3))).rows[0][0]).toBe(3);
  });

  it('refuses a statement name already prepared for other SQL', async () => {
    await pool.query(read(1));
    await expect(pool.query({ ...read(1), text: 'select 1' })).rejects.toThrow(/must be unique/);
    expect((await pool.query(read(2))).rows.map((row) => row[0])).toEqual([2, 3]);
  });

  it('leaves every other query to pg: unnamed, object rows, plain text', async () => {
    const unnamed = await pool.query({ text: 'select $1::int as n', values: [7], rowMode: 'array' as const });
    expect(unnamed.rows).toEqual([[7]]);
    expect(unnamed.fields.map((field) => field.name)).toEqual(['n']);
    const objects = await pool.query({ name: 'objects', text: 'select $1::int as n', values: [8] });
    expect(objects.rows).toEqual([{ n: 8 }]);
    expect((await pool.query('select 9 as n')).rows).toEqual([{ n: 9 }]);
  });
});
