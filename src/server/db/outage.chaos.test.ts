// The app survives its database, on a real PostgreSQL server of this test's own (so restarting it
// disturbs no other test): backends terminated under concurrent requests, and the server stopped
// and started again. While the database is away requests get 503 with Retry-After, never 500, the
// process stays up, and once the database is back the app serves again by itself.
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findPgBinDir, startPgCluster, type PgCluster } from '../../../scripts/pg-cluster.js';
import { createTestAppOn, type TestApp } from '../test/helpers.js';
import { connect } from './connect.js';
import { isDatabaseOutage } from './outage.js';

let cluster: PgCluster;
let t: TestApp;
const logged: string[] = [];

beforeAll(async () => {
  const binDir = findPgBinDir();
  if (!binDir) throw new Error('The chaos tests need PostgreSQL installed (apt-get install -y postgresql).');
  cluster = await startPgCluster(binDir, { quiet: true });
  const database = await connect({ databaseUrl: cluster.url });
  t = await createTestAppOn(database);
  // What the app would log instead of dying: collected to show the pool errors were handled.
  database.onPoolError?.((err) => logged.push((err as { code?: string }).code ?? err.message));
}, 120_000);

afterAll(async () => {
  await t?.close().catch(() => {});
  cluster?.destroy();
});

const readHead = () => t.app.inject({ method: 'GET', url: '/api/ledger/head' });

/** Every answer is 200, or 503 with Retry-After and a plain message: never a 500. */
function expectServedOrUnavailable(res: Awaited<ReturnType<typeof readHead>>) {
  expect([200, 503]).toContain(res.statusCode);
  if (res.statusCode === 503) {
    expect(res.headers['retry-after']).toBe('5');
    expect(res.json().message).toMatch(/briefly unavailable/);
  }
}

async function terminateAppBackends() {
  const admin = new pg.Client({ connectionString: cluster.url });
  await admin.connect();
  const { rowCount } = await admin.query(
    `select pg_terminate_backend(pid) from pg_stat_activity
      where backend_type = 'client backend' and pid <> pg_backend_pid()`,
  );
  await admin.end();
  return rowCount ?? 0;
}

describe('database faults', () => {
  it('stays up when its connections are terminated mid-request, then serves again', async () => {
    // Several pooled connections, idle now: ending them used to be an unhandled 'error' event that
    // killed the process. They reach the pool's error listener instead.
    for (const res of await Promise.all(Array.from({ length: 10 }, () => readHead()))) {
      expect(res.statusCode).toBe(200);
    }
    expect(await terminateAppBackends()).toBeGreaterThan(0);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(logged).toContain('57P01');

    // And connections ended while requests use them: those requests get 503, never 500.
    const inFlight = Array.from({ length: 20 }, () => readHead());
    await terminateAppBackends();
    for (const res of await Promise.all(inFlight)) expectServedOrUnavailable(res);
    let last = await readHead();
    for (let i = 0; i < 10 && last.statusCode !== 200; i++) last = await readHead();
    expect(last.statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/api/health/ready' })).json().status).toBe('ready');
  });

  it('fails only the transaction whose connection is lost between its statements, and stays up', async () => {
    // A checked-out client waiting between two statements (an upload streaming inside a
    // transaction): its connection ending used to be an 'error' event nobody listened to.
    const lost = t.ctx.db.transaction(async (tx) => {
      await tx.execute(sql`select 1`);
      await terminateAppBackends();
      await new Promise((resolve) => setTimeout(resolve, 200));
      await tx.execute(sql`select 1`);
    });
    const err = await lost.then(
      () => null,
      (e: unknown) => e,
    );
    expect(isDatabaseOutage(err)).toBe(true);
    let after = await readHead();
    for (let i = 0; i < 10 && after.statusCode !== 200; i++) after = await readHead();
    expect(after.statusCode).toBe(200);
  });

  it('answers 503 with Retry-After while the server is down and recovers by itself after it starts', async () => {
    expect((await readHead()).statusCode).toBe(200);
    cluster.stop();
    const whileDown = await Promise.all(Array.from({ length: 5 }, () => readHead()));
    for (const res of whileDown) {
      expect(res.statusCode).toBe(503);
      expectServedOrUnavailable(res);
    }
    const ready = await t.app.inject({ method: 'GET', url: '/api/health/ready' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json().checks.database).toBe('failed');
    expect((await t.app.inject({ method: 'GET', url: '/api/health/live' })).statusCode).toBe(200);

    cluster.start();
    let after = await readHead();
    for (let i = 0; i < 20 && after.statusCode !== 200; i++) {
      expectServedOrUnavailable(after);
      await new Promise((resolve) => setTimeout(resolve, 100));
      after = await readHead();
    }
    expect(after.statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/api/health/ready' })).statusCode).toBe(200);
  });

  it('keeps serving through a restart during a bounded load loop', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 60; i++) {
      if (i === 20) cluster.restart();
      const res = await readHead();
      expectServedOrUnavailable(res);
      statuses.push(res.statusCode);
    }
    expect(statuses.slice(-10)).toEqual(Array(10).fill(200));
  });
});
