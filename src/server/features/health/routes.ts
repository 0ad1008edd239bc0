// GET /api/health/live and /api/health/ready, for load balancers and orchestrators: "the process
// is up" and "this process can serve requests" (database reachable, migrations applied, storage
// writable with room for an upload, else "full"). Public, answer nothing about data, and are
// cheap enough to poll every few seconds.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { migrationsApplied } from '../../db/connect.js';
import { isOutOfSpace } from '../../db/outage.js';
import { OUTAGE_RETRY_AFTER_SECONDS } from '../../plugins/errors.js';

const tags = ['health'];
const checkSchema = z.enum(['ok', 'failed']);
const readinessSchema = z.object({
  status: z.enum(['ready', 'not ready']),
  checks: z.object({
    database: checkSchema,
    migrations: checkSchema,
    // "full": no room for a file at the upload limit (or the database's disk is full).
    storage: z.enum(['ok', 'failed', 'full']),
  }),
  message: z.string().optional(),
});

async function passes(check: () => Promise<unknown>): Promise<'ok' | 'failed'> {
  try {
    return (await check()) === false ? 'failed' : 'ok';
  } catch {
    return 'failed';
  }
}

async function storageState(check: () => Promise<void>): Promise<'ok' | 'failed' | 'full'> {
  try {
    await check();
    return 'ok';
  } catch (err) {
    return isOutOfSpace(err) ? 'full' : 'failed';
  }
}

export async function healthRoutes(app: FastifyInstance, ctx: AppContext) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/health/live',
    {
      config: { policy: { public: true, healthData: false } },
      schema: {
        tags,
        summary: 'The process is up (liveness)',
        response: { 200: z.object({ status: z.literal('live') }) },
      },
    },
    async () => ({ status: 'live' as const }),
  );

  r.get(
    '/api/health/ready',
    {
      config: { policy: { public: true, healthData: false } },
      schema: {
        tags,
        summary: 'The process can serve: database reachable, migrations applied, storage writable',
        response: { 200: readinessSchema, 503: readinessSchema },
      },
    },
    async (_request, reply) => {
      const migrations = await passes(() => migrationsApplied(ctx.db));
      const checks = {
        // The migrations query needs the database, so its success proves both.
        database: migrations === 'ok' ? ('ok' as const) : await passes(() => ctx.db.execute(sql`select 1`)),
        migrations,
        storage: await storageState(() => ctx.files.checkWritable()),
      };
      if (Object.values(checks).every((c) => c === 'ok')) return { status: 'ready' as const, checks };
      reply.status(503).header('Retry-After', String(OUTAGE_RETRY_AFTER_SECONDS));
      return {
        status: 'not ready' as const,
        checks,
        message: 'MedLedger cannot serve requests right now.',
      };
    },
  );
}
