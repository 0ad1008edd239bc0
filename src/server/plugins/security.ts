// Security headers (helmet), the Origin check on state-changing requests, and the rate limiter
// that routes opt into with `config: { rateLimit: {...} }` (counted in the database, so every
// server process shares the counts: rate-limit-store.ts).
import helmet, { type HelmetOptions } from 'helmet';
import rateLimit from '@fastify/rate-limit';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.js';
import type { Db } from '../db/connect.js';
import { forbidden } from '../errors.js';
import { databaseRateLimitStore } from './rate-limit-store.js';

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** Called by other servers (no browser Origin), authenticated by signature instead. */
const ORIGIN_EXEMPT = new Set(['/api/billing/webhook']);

/**
 * A state-changing request is ours only when its Origin is PUBLIC_URL's scheme, host and port, or,
 * without Origin, when the browser says Sec-Fetch-Site: same-origin. The request's own Host header
 * proves nothing (an attacker's server sets it), and a missing Origin is not a pass.
 */
export function isSameOrigin(
  headers: { origin?: string; 'sec-fetch-site'?: string | string[] },
  publicUrl: string,
): boolean {
  const { origin } = headers;
  if (origin === undefined) return headers['sec-fetch-site'] === 'same-origin';
  try {
    return new URL(origin).origin === new URL(publicUrl).origin;
  } catch {
    return false;
  }
}

/**
 * Content-hashed client files (scripts, styles) are not documents: the document policies (CSP,
 * framing, referrer, opener, agent cluster...) do nothing on them, and at some 700 bytes per answer,
 * over the 20-30 chunks a page loads, they were about a tenth of a page's JavaScript transfer over
 * HTTP/1.1 (bench:web). They keep what applies to a script: nosniff, CORP and HSTS.
 */
/** Where the build's content-hashed files are served (app.ts answers a missing one with 404). */
export const ASSETS_PATH = '/assets/';
/**
 * Every API answer is `no-store`: most carry personal or health data, and a shared or browser cache
 * must keep none of it. A route whose answer is public and may be kept says so in its config
 * (`config: { cacheControl: 'public, max-age=300' }`); nothing else can loosen it. A route outside
 * /api/ (the metrics) gets a Cache-Control only by declaring one.
 */
const API_PATH = '/api/';
const API_CACHE_CONTROL = 'no-store';
declare module 'fastify' {
  interface FastifyContextConfig {
    /** The Cache-Control of a public API answer that may be cached; every other one is no-store. */
    cacheControl?: string;
  }
}
const ASSET_HEADERS = new Set([
  'x-content-type-options',
  'cross-origin-resource-policy',
  'strict-transport-security',
]);

/**
 * The headers helmet sets, worked out once: they depend on the options only (no nonces, no
 * per-request directives). @fastify/helmet built helmet's middleware anew on every request, parsing
 * the CSP directives each time (about 2% of a short request's CPU).
 */
export function securityHeaders(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const collect = {
    setHeader: (name: string, value: string) => void (headers[name.toLowerCase()] = value),
    removeHeader: (name: string) => void delete headers[name.toLowerCase()],
  };
  // Helmet 8 throws on bad options; its callback is left over from Express middleware.
  helmet(options)({} as IncomingMessage, collect as unknown as ServerResponse, () => undefined);
  return headers;
}

export async function registerSecurity(
  app: FastifyInstance,
  config: Config,
  deps: { db: Db; now: () => Date },
) {
  const headers = securityHeaders({
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        // Mantine sets inline style attributes and CSS variables.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        connectSrc: ["'self'"],
        fontSrc: ["'self'", 'data:'],
        objectSrc: ["'none'"],
        // Attachment previews: a PDF fetched through the download route, shown from a blob: URL.
        frameSrc: ["'self'", 'blob:'],
        frameAncestors: ["'none'"],
        upgradeInsecureRequests: null,
      },
    },
    // The app is often tried over plain http on localhost.
    strictTransportSecurity: config.publicUrl.startsWith('https://'),
  });
  const assetHeaders = Object.fromEntries(
    Object.entries(headers).filter(([name]) => ASSET_HEADERS.has(name)),
  );
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(request.url.startsWith(ASSETS_PATH) ? assetHeaders : headers);
    const declared = request.routeOptions.config.cacheControl;
    if (declared !== undefined || request.url.startsWith(API_PATH)) {
      reply.header('cache-control', declared ?? API_CACHE_CONTROL);
    }
    done();
  });
  await app.register(rateLimit, { global: false, store: databaseRateLimitStore(deps.db, deps.now) });

  app.addHook('onRequest', async (request) => {
    if (!STATE_CHANGING.has(request.method) || ORIGIN_EXEMPT.has(request.url.split('?')[0])) return;
    if (!isSameOrigin(request.headers, config.publicUrl)) {
      throw forbidden('Cross-site request refused.');
    }
  });
}
