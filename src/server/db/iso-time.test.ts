// Timestamps read as ISO strings must be exactly what the Date they replace printed: checked against
// V8's own parsing and toISOString, on texts made here and on what the database (PGlite, or
// PostgreSQL under test:pg) prints, in UTC and in another zone.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inArray, sql } from 'drizzle-orm';
import type { Database, Db } from './connect.js';
import { users } from './schema.js';
import { isoFromTimestamptz, isoTime } from './iso-time.js';
import { createTestDatabase } from '../test/helpers.js';

const viaDate = (text: string) => new Date(text).toISOString();

describe('isoFromTimestamptz', () => {
  it('prints what a Date of the same text prints, for every length of fraction', () => {
    let checked = 0;
    for (let i = 0; i < 2_000; i++) {
      // Instants from 1901 to 2099, each printed as PostgreSQL does in UTC, with 0-6 fraction digits.
      const instant = new Date(
        -2_145_916_800_000 + ((i * 2_654_435_761) % 6_250_000_000) * 1_000 + (i % 1000),
      );
      const [day, time] = instant.toISOString().slice(0, 19).split('T');
      const digits = String((i * 7_919) % 1_000_000)
        .padStart(6, '0')
        .slice(0, i % 7);
      const text = `${day} ${time}${digits ? `.${digits}` : ''}+00`;
      expect(isoFromTimestamptz(text), text).toBe(viaDate(text));
      checked++;
    }
    expect(checked).toBe(2_000);
  });

  it('truncates microseconds as a Date does, and pads short fractions', () => {
    expect(isoFromTimestamptz('2026-11-28 00:04:36.999999+00')).toBe('2026-11-28T00:04:36.999Z');
    expect(isoFromTimestamptz('2026-11-28 00:04:36.5+00')).toBe('2026-11-28T00:04:36.500Z');
    expect(isoFromTimestamptz('2026-11-28 00:04:36+00')).toBe('2026-11-28T00:04:36.000Z');
  });

  it('takes another zone through a Date', () => {
    for (const text of [
      '2026-11-28 05:34:36.352+05:30',
      '2026-11-27 16:04:36.352-08',
      '2026-11-28 01:04:36+01',
    ]) {
      expect(isoFromTimestamptz(text)).toBe(viaDate(text));
    }
    expect(isoFromTimestamptz('2026-11-28 05:34:36.352+05:30')).toBe('2026-11-28T00:04:36.352Z');
  });
});

describe('isoTime on the database', () => {
  let database: Database;
  let db: Db;
  const stored = [
    '2026-01-02 03:04:05.678901+00',
    '2026-01-02 03:04:05+00',
    '2026-01-02 03:04:05.1+00',
    '1999-12-31 23:59:59.999999+00',
  ];
  const ids: string[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    db = database.db;
    for (const [i, at] of stored.entries()) {
      const [row] = await db
        .insert(users)
        .values({
          email: `t${i}@example.org`,
          password: 'x',
          createdAt: sql`${at}::timestamptz`,
          lastLoginAt: i % 2 ? null : sql`${at}::timestamptz`,
        })
        .returning({ id: users.id });
      ids.push(row.id);
    }
  });
  afterAll(() => database.close());

  const read = (q: Db) =>
    q
      .select({
        created: users.createdAt,
        createdIso: isoTime(users.createdAt),
        lastLogin: users.lastLoginAt,
        lastLoginIso: isoTime(users.lastLoginAt),
      })
      .from(users)
      .where(inArray(users.id, ids))
      .orderBy(users.email);

  const expectSameAsDates = (rows: Awaited<ReturnType<typeof read>>) => {
    expect(rows).toHaveLength(stored.length);
    for (const row of rows) {
      expect(row.createdIso).toBe(row.created.toISOString());
      expect(row.lastLoginIso).toBe(row.lastLogin ? row.lastLogin.toISOString() : null);
    }
  };

  it('gives the ISO string of each stored instant, and null for null', async () => {
    const rows = await read(db);
    expectSameAsDates(rows);
    expect(rows.map((r) => r.createdIso)).toEqual([
      '2026-01-02T03:04:05.678Z',
      '2026-01-02T03:04:05.000Z',
      '2026-01-02T03:04:05.100Z',
      '1999-12-31T23:59:59.999Z',
    ]);
    expect(rows.map((r) => r.lastLoginIso)).toEqual([
      '2026-01-02T03:04:05.678Z',
      null,
      '2026-01-02T03:04:05.100Z',
      null,
    ]);
  });

  it('gives the same instants when the session prints another zone', async () => {
    const rows = await db.transaction(async (tx) => {
      await tx.execute(sql`set local time zone 'Asia/Kolkata'`);
      const printed = await tx.execute(sql`select ${stored[0]}::timestamptz::text as text`);
      const [{ text }] = (printed as { rows: { text: string }[] }).rows;
      expect(text).toBe('2026-01-02 08:34:05.678901+05:30');
      return read(tx);
    });
    expectSameAsDates(rows);
    expect(rows[0].createdIso).toBe('2026-01-02T03:04:05.678Z');
  });
});
