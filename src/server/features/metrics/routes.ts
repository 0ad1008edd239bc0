// GET /metrics for Prometheus (docs/decisions.md#metrics): 404 while METRICS_TOKEN is unset (as if
// there were no such page), 401 without the right bearer token, else the Prometheus text format.
// Outside /api/, where Prometheus looks by default.
import crypto from 'node:crypto';
import cluster from 'node:cluster';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.js';
import { sha256Hex } from '../../digest.js';
import { HttpError, notFound, unauthorized } from '../../errors.js';
import { clusterMetrics, shareWithPrimary } from './cluster.js';

export const METRICS_PATH = '/metrics';

/** Whether the Authorization header is `Bearer <token>`, compared in constant time. */
function bearerMatches(header: string | undefined, token: string): boolean {
  const match = /^Bearer (.+)$/i.exec(header?.trim() ?? '');
  if (!match) return false;
  // Digests of equal length, so that timingSafeEqual may compare them whatever was sent.
  return crypto.timingSafeEqual(Buffer.from(sha256Hex(match[1])), Buffer.from(sha256Hex(token)));
}

/** The cluster's metrics; a 503 (the scrape is retried) when the primary cannot gather them. */
async function fromPrimary(request: FastifyRequest): Promise<string> {
  try {
    return await clusterMetrics();
  } catch (err) {
    request.log.warn({ err }, 'cluster metrics not gathered');
    throw new HttpError(503, "The other processes' metrics could not be gathered. Try again.");
  }
}

export async function metricsRoutes(app: FastifyInstance, ctx: AppContext) {
  const metrics = ctx.metrics;
  if (metrics && cluster.isWorker) shareWithPrimary(metrics.registry);

  app.get(
    METRICS_PATH,
    {
      // Live figures of this moment: no cache keeps them (outside /api/, so declared here).
      config: { policy: { public: true, healthData: false }, cacheControl: 'no-store' },
      schema: {
        tags: ['metrics'],
        summary: 'Metrics in the Prometheus text format (Authorization: Bearer $METRICS_TOKEN)',
        description: '404 while METRICS_TOKEN is not set; 401 without the right token.',
      },
    },
    async (request, reply) => {
      const token = ctx.config.metricsToken;
      if (!metrics || !token) throw notFound('Not found.');
      if (!bearerMatches(request.headers.authorization, token)) {
        reply.header('WWW-Authenticate', 'Bearer realm="metrics"');
        throw unauthorized('The metrics need the bearer token set in METRICS_TOKEN.');
      }
      const text = cluster.isWorker ? await fromPrimary(request) : await metrics.registry.metrics();
      return reply.type(metrics.registry.contentType).send(text);
    },
  );
}
