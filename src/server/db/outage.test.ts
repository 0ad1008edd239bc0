// Telling an unreachable database from a bug, and logging failures without their data.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '../test/helpers.js';
import { onDisk } from '../files/testing.js';
import { users } from './schema.js';
import {
  driverError,
  isDatabaseOutage,
  isUniqueViolation,
  loggableError,
  nowOrOnceDatabaseIsBack,
} from './outage.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const withCode = (code: string, message = 'x') => Object.assign(new Error(message), { code });

describe('database outages', () => {
  it('are recognised by SQLSTATE, socket error or pool message, also when wrapped', () => {
    expect(isDatabaseOutage(withCode('57P01'))).toBe(true);
    expect(isDatabaseOutage(withCode('08006'))).toBe(true);
    expect(isDatabaseOutage(withCode('ECONNREFUSED'))).toBe(true);
    // A write on a server that turned read-only (a demoted primary during a failover).
    expect(isDatabaseOutage(withCode('25006'))).toBe(true);
    expect(isDatabaseOutage(new Error('timeout exceeded when trying to connect'))).toBe(true);
    expect(
      isDatabaseOutage(new Error('Failed query', { cause: new Error('Connection terminated unexpectedly') })),
    ).toBe(true);
  });

  it('are not confused with bad queries or constraint violations', () => {
    expect(isDatabaseOutage(withCode('23505'))).toBe(false);
    expect(isDatabaseOutage(withCode('22P02'))).toBe(false);
    expect(isDatabaseOutage(new Error('boom'))).toBe(false);
  });
});

describe('clean-ups that must happen', () => {
  it('are tried again in the background while the database is away, and not after another failure', async () => {
    vi.useFakeTimers();
    try {
      let tries = 0;
      const refusedTwice = async () => {
        if (++tries <= 2) throw withCode('ECONNREFUSED');
      };
      await nowOrOnceDatabaseIsBack(refusedTwice); // resolves at once: the caller answers 503 now
      expect(tries).toBe(1);
      await vi.advanceTimersByTimeAsync(500);
      expect(tries).toBe(2);
      await vi.advanceTimersByTimeAsync(1_000);
      expect(tries).toBe(3);
      await vi.advanceTimersByTimeAsync(60_000);
      expect(tries).toBe(3); // done: no more tries

      const bug = withCode('42601');
      await expect(nowOrOnceDatabaseIsBack(() => Promise.reject(bug))).rejects.toBe(bug);
      let down = 0;
      await nowOrOnceDatabaseIsBack(async () => {
        down++;
        throw withCode('57P03');
      });
      await vi.advanceTimersByTimeAsync(10 * 60_000);
      expect(down).toBe(7); // the first try and six more, then it is the sweep's
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('unique violations', () => {
  it('are told apart by their constraint, as the database raised them through Drizzle', async () => {
    const email = `twice-${Date.now()}@example.test`;
    const insert = () => t.ctx.db.insert(users).values({ email, password: 'x', role: 'patient' });
    await insert();
    const err = await insert().then(
      () => null,
      (e: unknown) => e,
    );
    expect(driverError(err)?.code).toBe('23505');
    expect(isUniqueViolation(err)).toBe(true);
    expect(isUniqueViolation(err, 'users_email_unique')).toBe(true);
    expect(isUniqueViolation(err, 'patients_patient_id_unique')).toBe(false);
    // Another failure of the same statement is not one.
    const invalid = await t.ctx.db.execute(sql`select 'x'::uuid`).catch((e: unknown) => e);
    expect(isUniqueViolation(invalid)).toBe(false);
    expect(isUniqueViolation(new Error('duplicate key'))).toBe(false);
  });
});

describe('failed queries in the log', () => {
  it('keep the SQL and the driver message but never the parameters', async () => {
    const secret = 'Ada Lovelace 1815-12-10';
    const err = await t.ctx.db.execute(sql`select ${secret}::int`).catch((e: unknown) => e);
    expect(String((err as Error).message)).toContain(secret); // Drizzle's own message would leak it
    const logged = JSON.stringify(loggableError(err));
    expect(logged).not.toContain(secret);
    expect(logged).toContain('select $1::int');
    expect(logged).toMatch(/invalid input syntax/);
  });
});

describe('health endpoints', () => {
  it('answer live and ready with every check passing', async () => {
    const live = await t.app.inject({ method: 'GET', url: '/api/health/live' });
    expect([live.statusCode, live.json()]).toEqual([200, { status: 'live' }]);
    const ready = await t.app.inject({ method: 'GET', url: '/api/health/ready' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({
      status: 'ready',
      checks: { database: 'ok', migrations: 'ok', storage: 'ok' },
    });
  });

  it('say not ready, with Retry-After, when storage cannot be written', async () => {
    const original = onDisk(t.ctx.files).tmpDir;
    Object.assign(t.ctx.files, { tmpDir: `${original}/missing/deeper` });
    try {
      const ready = await t.app.inject({ method: 'GET', url: '/api/health/ready' });
      expect(ready.statusCode).toBe(503);
      expect(ready.headers['retry-after']).toBe('5');
      expect(ready.json().checks).toEqual({ database: 'ok', migrations: 'ok', storage: 'failed' });
    } finally {
      Object.assign(t.ctx.files, { tmpDir: original });
    }
  });

  it('carry a request id in every answer', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health/live' });
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});
