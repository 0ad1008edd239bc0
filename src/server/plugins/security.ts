// Security headers (helmet), the Origin check on state-changing requests, and the rate limiter
// that routes opt into with `config: { rateLimit: {...} }`.
import helmet from '@fastify/helmet';
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.js';
import { forbidden } from '../errors.js';

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** Called by other servers (no browser Origin), authenticated by signature instead. */
const ORIGIN_EXEMPT = new Set(['/api/billing/webhook']);

export function isSameOrigin(origin: string, host: string | undefined, publicUrl: string): boolean {
  try {
    const url = new URL(origin);
    return url.host === host || url.origin === new URL(publicUrl).origin;
  } catch {
    return false;
  }
}

export async function registerSecurity(app: FastifyInstance, config: Config) {
  await app.register(helmet, {
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
        frameAncestors: ["'none'"],
        upgradeInsecureRequests: null,
      },
    },
    // The app is often tried over plain http on localhost.
    strictTransportSecurity: config.publicUrl.startsWith('https://'),
  });
  await app.register(rateLimit, { global: false });

  app.addHook('onRequest', async (request) => {
    if (!STATE_CHANGING.has(request.method) || ORIGIN_EXEMPT.has(request.url.split('?')[0])) return;
    const origin = request.headers.origin;
    // Browsers send Origin on cross-site requests; a mismatch is a forged request.
    if (origin && !isSameOrigin(origin, request.headers.host, config.publicUrl)) {
      throw forbidden('Cross-site request refused.');
    }
  });
}
