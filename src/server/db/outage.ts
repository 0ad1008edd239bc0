// Which failures mean "the database is away" (a restart, a failover, a terminated backend, a
// network cut, a pool that cannot connect) rather than a bug: those are answered 503 with
// Retry-After, and the app serves again by itself once the database is back. Also what else a
// driver error says, wrapped by Drizzle or not: its SQLSTATE, a unique violation's constraint,
// whether storage (the disk or the database's) is full, and what of it may be logged.

/** SQLSTATE classes and codes of a database that is not reachable right now. */
const OUTAGE_SQLSTATES = new Set([
  '57P01', // admin_shutdown (pg_terminate_backend, fast shutdown)
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now (starting up, shutting down)
  '53300', // too_many_connections
  // read_only_sql_transaction: a write reached a server that is not (or no longer) the primary, a
  // demoted one or one a proxy still sends to while a failover settles (docs/failover.md); the
  // proxy moves over within seconds. The app never asks for read-only transactions itself.
  '25006',
]);
const OUTAGE_NODE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
const OUTAGE_MESSAGES = [
  /Connection terminated/i,
  /timeout exceeded when trying to connect/i,
  /Client has encountered a connection error/i,
  /Client was closed and is not queryable/i,
  /connection is closed/i,
];

interface ErrorLike {
  code?: unknown;
  message?: unknown;
  cause?: unknown;
  /** The constraint a violation names (node-postgres' DatabaseError). */
  constraint?: unknown;
}

/** The error itself and its causes (Drizzle wraps the driver's error in `cause`). */
function* chain(err: unknown): Generator<ErrorLike> {
  let current: unknown = err;
  for (let depth = 0; depth < 5 && current && typeof current === 'object'; depth++) {
    yield current;
    current = (current as ErrorLike).cause;
  }
}

/** The database's own error (its SQLSTATE and message), wrapped by Drizzle or not. */
export function driverError(err: unknown): { code: string; message: string } | undefined {
  for (const e of chain(err))
    if (typeof e.code === 'string') return { code: e.code, message: String(e.message) };
  return undefined;
}

/**
 * True when `err` is PostgreSQL's unique violation (23505) on `constraint`, or on any constraint
 * when none is named: the callers that retry or answer 409 on one.
 */
export function isUniqueViolation(err: unknown, constraint?: string): boolean {
  for (const e of chain(err)) if (e.code === '23505') return !constraint || e.constraint === constraint;
  return false;
}

/** Out of space: the disk (ENOSPC), a quota (EDQUOT), or PostgreSQL's disk (53100 disk_full). */
const OUT_OF_SPACE_CODES = new Set(['ENOSPC', 'EDQUOT', '53100']);

/** True when `err` (wrapped by Drizzle or not) says the storage it wrote to is full. */
export function isOutOfSpace(err: unknown): boolean {
  for (const e of chain(err)) if (typeof e.code === 'string' && OUT_OF_SPACE_CODES.has(e.code)) return true;
  return false;
}

export function isDatabaseOutage(err: unknown): boolean {
  for (const e of chain(err)) {
    const code = typeof e.code === 'string' ? e.code : '';
    if (OUTAGE_SQLSTATES.has(code) || code.startsWith('08') || OUTAGE_NODE_CODES.has(code)) return true;
    const message = typeof e.message === 'string' ? e.message : '';
    if (OUTAGE_MESSAGES.some((pattern) => pattern.test(message))) return true;
  }
  return false;
}

/** PostgreSQL quotes the offending value in some messages (invalid input syntax for ... "value"). */
const withoutQuotedValues = (message: unknown) =>
  typeof message === 'string' ? message.replace(/"[^"]*"/g, '"[redacted]"') : message;

/**
 * An error as it may be logged: its kind, code and the driver's message, the SQL text without its
 * parameters (names, e-mails, search terms and other health data never reach the log).
 */
export function loggableError(err: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const [outer, ...causes] = [...chain(err)];
  if (!outer) return { message: String(err) };
  out.type = (outer as { constructor?: { name?: string } }).constructor?.name;
  const query = (outer as { query?: unknown }).query;
  if (typeof query === 'string') {
    out.query = query;
    // DrizzleQueryError's own message repeats the parameters: take the driver's instead.
    const driver = causes[0];
    out.code = driver?.code;
    out.message = withoutQuotedValues(driver?.message);
  } else {
    out.code = outer.code;
    out.message = withoutQuotedValues(outer.message);
    if (causes[0]) out.cause = { code: causes[0].code, message: withoutQuotedValues(causes[0].message) };
  }
  // Only the call sites: a multi-line message (Drizzle's "params: ...") is part of `stack` too.
  const stack = (outer as { stack?: unknown }).stack;
  if (typeof stack === 'string') {
    out.stack = stack
      .split('\n')
      .filter((line) => /^\s+at /.test(line))
      .slice(0, 8)
      .join('\n');
  }
  return out;
}

/** Pauses between the tries of `nowOrOnceDatabaseIsBack` (about half a minute in all). */
const RETRY_DELAYS_MS = [500, 1_000, 2_000, 4_000, 8_000, 15_000];

/**
 * Runs a clean-up that has to happen (an upload given up: its stored rows and its reservation).
 * When it fails because the database is away (a restart, a failover: seconds), it is tried again
 * in the background until the database answers, so that the request fails at once (503) and still
 * leaves nothing behind. What a longer outage keeps is the sweep's (files/sweep.ts). Any other
 * failure rejects as usual.
 */
export async function nowOrOnceDatabaseIsBack(task: () => Promise<void>): Promise<void> {
  try {
    await task();
  } catch (err) {
    if (!isDatabaseOutage(err)) throw err;
    const retry = (attempt: number) => {
      const timer = setTimeout(() => {
        task().catch((again: unknown) => {
          if (isDatabaseOutage(again) && attempt + 1 < RETRY_DELAYS_MS.length) retry(attempt + 1);
        });
      }, RETRY_DELAYS_MS[attempt]);
      timer.unref(); // never what keeps a stopping process alive
    };
    retry(0);
  }
}
