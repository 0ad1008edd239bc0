// Counters of the rate limits on public writes, kept in the database so that every server process
// on one database shares them (an attacker cannot multiply a limit by the number of processes).
// `@fastify/rate-limit` asks its `store` for `incr(key, cb, timeWindow, max)` and `child(route)`;
// this store answers from one atomic upsert per request (like the sign-in throttle in
// features/auth/throttle.ts), so parallel requests cannot all slip under a limit.
import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import { lte, sql } from 'drizzle-orm';
import type { Db } from '../db/connect.js';
import { rateLimitCounters } from '../db/schema.js';

/** Rows whose window started longer ago than this are removed (no limit has a longer window). */
export const COUNTER_RETENTION_MS = 24 * 60 * 60_000;
const SWEEP_EVERY_MS = 10 * 60_000;

export interface Hit {
  /** Requests counted in the current window, this one included. */
  hits: number;
  /** Milliseconds until the current window ends. */
  ttlMs: number;
}

/**
 * Counts one request under `key` in a fixed window of `windowMs`: a new window (count 1) when the
 * old one has ended, else one more. One statement, so concurrent counts never get lost.
 */
export async function countHit(db: Db, key: string, windowMs: number, now: Date): Promise<Hit> {
  const nowIso = now.toISOString();
  const endedBefore = new Date(now.getTime() - windowMs).toISOString();
  const ended = sql`${rateLimitCounters.windowStart} <= ${endedBefore}::timestamptz`;
  const [row] = await db
    .insert(rateLimitCounters)
    .values({ key, hits: 1, windowStart: now })
    .onConflictDoUpdate({
      target: rateLimitCounters.key,
      set: {
        hits: sql`case when ${ended} then 1 else ${rateLimitCounters.hits} + 1 end`,
        windowStart: sql`case when ${ended} then ${nowIso}::timestamptz else ${rateLimitCounters.windowStart} end`,
      },
    })
    .returning({ hits: rateLimitCounters.hits, windowStart: rateLimitCounters.windowStart });
  return {
    hits: row.hits,
    ttlMs: Math.max(0, row.windowStart.getTime() + windowMs - now.getTime()),
  };
}

/**
 * The store class `@fastify/rate-limit` instantiates (it passes only its own options, so the
 * database and the clock come in through this closure). Keys are prefixed with the route, as the
 * plugin's Redis store does, so each route keeps its own counts.
 */
export function databaseRateLimitStore(db: Db, now: () => Date): FastifyRateLimitStoreCtor {
  let lastSweep = 0;
  /** Now and then (per process), drop counters whose windows ended long ago. */
  async function sweep(at: Date) {
    if (at.getTime() - lastSweep < SWEEP_EVERY_MS) return;
    lastSweep = at.getTime();
    await db
      .delete(rateLimitCounters)
      .where(lte(rateLimitCounters.windowStart, new Date(at.getTime() - COUNTER_RETENTION_MS)));
  }

  class DatabaseRateLimitStore implements FastifyRateLimitStore {
    constructor(
      _options?: unknown,
      private readonly prefix = 'rl:',
    ) {}

    incr(
      key: string,
      callback: (error: Error | null, result?: { current: number; ttl: number }) => void,
      timeWindow: number,
    ): void {
      const at = now();
      sweep(at)
        .then(() => countHit(db, `${this.prefix}${key}`, timeWindow, at))
        .then(
          ({ hits, ttlMs }) => callback(null, { current: hits, ttl: ttlMs }),
          (err: unknown) => callback(err instanceof Error ? err : new Error(String(err))),
        );
    }

    child(routeOptions: unknown): FastifyRateLimitStore {
      // The plugin passes the route's merged options with `routeInfo` (its method and url).
      const route = (routeOptions as { routeInfo?: { method?: string | string[]; url?: string } }).routeInfo;
      const method = Array.isArray(route?.method) ? route.method.join(',') : (route?.method ?? '');
      return new DatabaseRateLimitStore(undefined, `${this.prefix}${method} ${route?.url ?? ''}|`);
    }
  }
  return DatabaseRateLimitStore;
}
