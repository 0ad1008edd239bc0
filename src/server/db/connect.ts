// Opens the database: PGlite under DATA_DIR (embedded default) or PostgreSQL at DATABASE_URL.
// Both are driven through the same Drizzle schema and the same migrations.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PGliteOptions } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import * as schema from './schema.js';
import { DrizzlePGlite } from './pglite-client.js';
import { QueryTiming, timedPgClient, type QueryListener } from './query-timing.js';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
/** A transaction handle; every service function accepts either. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  close(): Promise<void>;
  /** Sends errors of pooled connections, idle or in use, to `listener` from now on (PostgreSQL only). */
  onPoolError?(listener: PoolErrorListener): void;
  /** Tells `listener` the seconds each query takes from now on (the metrics). */
  observeQueries(listener: QueryListener): void;
  /** The pool's connections now (PostgreSQL); PGlite is one connection in this process. */
  poolStats(): PoolStats;
}

/** What the metrics report of the connection pool. */
export interface PoolStats {
  max: number;
  total: number;
  idle: number;
  /** Requests waiting for a connection. */
  waiting: number;
}

const migrationsFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

export class DataFolderInUseError extends Error {
  constructor(folder: string, pid: number) {
    super(
      `The embedded database in ${folder} is in use by another process (pid ${pid}). ` +
        'Stop the MedLedger server (or the other command) first, then try again.',
    );
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The extensions the migrations create (0020: pg_trgm for the patient search), bundled with PGlite. */
export const pgliteOptions: PGliteOptions = { extensions: { pg_trgm } };

/** PGlite lets one process open a data folder at a time; a pid lock file makes that explicit. */
export function lockFolder(folder: string): () => void {
  fs.mkdirSync(folder, { recursive: true });
  const lockFile = path.join(folder, 'medledger.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(lockFile, String(process.pid), { flag: 'wx' });
      return () => fs.rmSync(lockFile, { force: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const pid = Number(fs.readFileSync(lockFile, 'utf8'));
      if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && isAlive(pid)) {
        throw new DataFolderInUseError(folder, pid);
      }
      fs.rmSync(lockFile, { force: true }); // stale lock from a process that died
    }
  }
  throw new Error(`Could not lock ${folder}`);
}

/** Receives errors of pooled connections, idle or in use (a restart or a terminated backend): never fatal. */
export type PoolErrorListener = (err: Error) => void;

export interface ConnectOptions {
  /** postgres://... for a real server; otherwise PGlite. */
  databaseUrl?: string;
  /** PGlite folder; omitted means an in-memory database (tests). */
  pgliteDir?: string;
  /** Apply migrations before returning (default true). */
  migrate?: boolean;
  /** Where errors of pooled connections go (default: one line on stderr). */
  onPoolError?: PoolErrorListener;
}

/**
 * Pool settings: a query may run 30 s at most and a transaction may sit idle 15 s at most, so a
 * stuck request can never hold the ledger's lock for long; connecting gives up after 5 s, so a
 * request during an outage fails fast (503) instead of hanging.
 */
export const POOL_SETTINGS = {
  max: 10,
  connectionTimeoutMillis: 5_000,
  idleTimeoutMillis: 30_000,
  statement_timeout: 30_000,
  idle_in_transaction_session_timeout: 15_000,
} as const;

/**
 * An 'error' listener on every client the pool makes, for the time the app holds it (a
 * transaction, the migration lock). pg-pool listens only while a client is idle in the pool, but
 * a client emits 'error' whenever its connection ends (a restart, a terminated backend), even
 * while one of its queries runs: unheard, that event killed the process. The lost client's
 * queries fail on their own (outage errors: the request answers 503). Here it is also handed back
 * to the pool to be destroyed at once, and its holder's own release later does nothing: a holder
 * that never releases it (Drizzle's transaction() when its `begin` fails) cannot keep a pool slot.
 */
function handleLostCheckedOutClients(pool: pg.Pool, report: PoolErrorListener): void {
  const held = new WeakSet<pg.PoolClient>();
  pool.on('acquire', (client) => held.add(client));
  pool.on('release', (_err, client) => held.delete(client));
  pool.on('connect', (client) => {
    client.on('error', (err) => {
      if (!held.has(client)) return; // idle in the pool: the pool's own listener removes and reports it
      held.delete(client);
      const release = client.release;
      client.release = () => {};
      release(err);
      report(err);
    });
  });
}

/** The advisory lock that serialises migrations between processes (any constant of our own). */
const MIGRATION_LOCK = 0x6d6c6467; // "mldg"

/**
 * Migrations under a session advisory lock: several processes starting at once on a new database
 * (WORKERS=N, or machines behind a load balancer) would otherwise create the same tables at once
 * and all but one fail. The others wait, then find every migration applied.
 */
async function migrateLocked(pool: pg.Pool): Promise<void> {
  const lock = await pool.connect();
  try {
    await lock.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
    await migratePg(drizzlePg(pool), { migrationsFolder });
  } finally {
    await lock.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => {});
    lock.release();
  }
}

export async function connect(options: ConnectOptions): Promise<Database> {
  const runMigrations = options.migrate ?? true;
  const timing = new QueryTiming();
  const observeQueries = (listener: QueryListener) => {
    timing.listener = listener;
  };
  if (options.databaseUrl) {
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      ...POOL_SETTINGS,
      Client: timedPgClient(timing),
    });
    // Without a listener, an idle connection ended by the server (restart, failover,
    // pg_terminate_backend) is an unhandled 'error' event that kills the process.
    let onPoolError: PoolErrorListener =
      options.onPoolError ??
      ((err) =>
        console.error(`Database connection lost (${(err as { code?: string }).code ?? err.message}).`));
    pool.on('error', (err) => onPoolError(err));
    handleLostCheckedOutClients(pool, (err) => onPoolError(err));
    const db = drizzlePg(pool, { schema }) as unknown as Db;
    if (runMigrations) await migrateLocked(pool);
    return {
      db,
      kind: 'postgres',
      close: () => pool.end(),
      onPoolError: (listener) => {
        onPoolError = listener;
      },
      observeQueries,
      poolStats: () => ({
        max: POOL_SETTINGS.max,
        total: pool.totalCount,
        idle: pool.idleCount,
        waiting: pool.waitingCount,
      }),
    };
  }
  const unlock = options.pgliteDir ? lockFolder(options.pgliteDir) : () => {};
  try {
    const client = await DrizzlePGlite.open({ dataDir: options.pgliteDir, ...pgliteOptions }, timing);
    const db = drizzlePglite(client, { schema }) as unknown as Db;
    if (runMigrations) await migratePglite(drizzlePglite(client), { migrationsFolder });
    return {
      db,
      kind: 'pglite',
      close: async () => {
        await client.close();
        unlock();
      },
      observeQueries,
      // One connection: a statement or transaction holds it, the others wait for PGlite's lock.
      poolStats: () => ({
        max: 1,
        total: 1,
        idle: client.inFlight === 0 ? 1 : 0,
        waiting: Math.max(client.inFlight - 1, 0),
      }),
    };
  } catch (err) {
    unlock();
    throw err;
  }
}

/** How many migrations this build ships (the journal drizzle-kit writes beside them). */
function shippedMigrationCount(): number {
  const journal = JSON.parse(
    fs.readFileSync(path.join(migrationsFolder, 'meta', '_journal.json'), 'utf8'),
  ) as {
    entries: unknown[];
  };
  return journal.entries.length;
}

/** True when the database answers and every migration of this build has been applied to it. */
export async function migrationsApplied(db: Db): Promise<boolean> {
  const result = await db.execute<{ applied: number }>(
    sql`select count(*)::int as applied from drizzle.__drizzle_migrations`,
  );
  const rows = (result as { rows: { applied: number }[] }).rows;
  return (rows[0]?.applied ?? 0) >= shippedMigrationCount();
}
