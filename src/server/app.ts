// buildApp(config): plugins, then each feature's routes. Used by main.ts and by every API test.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type tls from 'node:tls';
import zlib from 'node:zlib';
import compress from '@fastify/compress';
import cookie from '@fastify/cookie';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { LogController, type FastifyInstance, type RouteOptions } from 'fastify';
import { jsonSchemaTransform, validatorCompiler } from 'fastify-type-provider-zod';
import { fastifyTrustProxy, type Config } from './config.js';
import type { AppContext } from './context.js';
import type { Database } from './db/connect.js';
import { adminRoutes } from './features/admin/routes.js';
import { authRoutes } from './features/auth/routes.js';
import { billingRoutes } from './features/billing/routes.js';
import { ledgerRoutes } from './features/ledger/routes.js';
import { passwordResetRoutes } from './features/password-reset/routes.js';
import { providerRoutes } from './features/providers/routes.js';
import { patientRoutes } from './features/patients/routes.js';
import { recordRoutes } from './features/records/routes.js';
import { auditRoutes } from './features/audit/routes.js';
import { hospitalRoutes } from './features/hospital/routes.js';
import { consentRoutes } from './features/consent/routes.js';
import { familyContactRoutes } from './features/family-contacts/routes.js';
import { proxyRoutes } from './features/proxy/routes.js';
import { appointmentRoutes } from './features/appointments/routes.js';
import { healthRoutes } from './features/health/routes.js';
import { fhirRoutes } from './features/fhir/routes.js';
import { calendarRoutes } from './features/calendar/routes.js';
import { notificationRoutes } from './features/notifications/routes.js';
import { staffRoutes } from './features/staff/routes.js';
import { shareRoutes } from './features/shares/routes.js';
import { createMetrics, registerMetricHooks } from './features/metrics/metrics.js';
import { metricsRoutes } from './features/metrics/routes.js';
import { readClientFiles, registerClientFiles, sendClientFile, type ClientFile } from './client-files.js';
import { fileStoreFor } from './files/configured.js';
import { createMailer } from './mail/mailer.js';
import { loggableError } from './db/outage.js';
import { answerFrameworkError, registerErrorHandling } from './plugins/errors.js';
import { ASSETS_PATH, registerSecurity } from './plugins/security.js';
import { registerSessions } from './plugins/session.js';
import { registerPolicies } from './plugins/policy.js';
import { assertWriteAccess } from './features/billing/service.js';
import { responseSerializerCompiler } from './plugins/serializer.js';

export type { AppContext } from './context.js';

export interface BuildOptions {
  /** A fixed or movable clock for tests (token expiry, trials). */
  now?: () => Date;
  logger?: boolean;
  /** The built client's folder (default dist/client); tests point it at a folder of their own. */
  clientDir?: string;
  /** Told of every route as it is added (the route-wide guard tests list them this way). */
  onRoute?: (route: RouteOptions) => void;
}

const defaultClientDir = path.resolve('dist/client');

/** Content-hashed assets never change under their name; index.html must be asked for each time. */
export function clientCacheControl(filePath: string): string {
  return filePath.split(path.sep).includes('assets') ? 'public, max-age=31536000, immutable' : 'no-cache';
}

/**
 * With TLS_CERT_FILE and TLS_KEY_FILE the server speaks HTTPS itself: HTTP/2 to browsers, which
 * fetch a page's many small chunks over one connection instead of six (each one a round trip on
 * HTTP/1.1), and HTTP/1.1 to clients without it (ALPN chooses). The routes see the same requests
 * either way; the options are spread untyped because Fastify's HTTP/2 typings would change the
 * instance's type for every plugin and route, while request.raw and reply.raw are only used for
 * what both kinds of request have (streams, headers).
 */
function transportOptions(config: Config): object {
  if (!config.tls) return {};
  return { http2: true, https: { allowHTTP1: true, ...readCertificate(config.tls) } };
}

/** The PEM files of TLS_CERT_FILE and TLS_KEY_FILE, read now; an error names the one it could not read. */
function readCertificate(files: NonNullable<Config['tls']>): { cert: Buffer; key: Buffer } {
  const read = (file: string, variable: string) => {
    try {
      return fs.readFileSync(file);
    } catch (err) {
      throw new Error(`${variable} (${file}) cannot be read: ${(err as Error).message}`, { cause: err });
    }
  };
  return { cert: read(files.certFile, 'TLS_CERT_FILE'), key: read(files.keyFile, 'TLS_KEY_FILE') };
}

/**
 * Reads the certificate files again and gives them to new connections (main.ts does on SIGHUP), so
 * a renewed certificate (every 90 days with ACME) needs no restart. Open connections keep theirs;
 * files that cannot be read or do not match leave the one in use (it throws).
 */
export function reloadCertificate(app: FastifyInstance, config: Config) {
  if (!config.tls) return;
  (app.server as unknown as tls.Server).setSecureContext(readCertificate(config.tls));
}

/**
 * The copies of index.html the build wrote for the app's paths (vite.config.ts, routePages), each
 * naming its page's chunks for preloading: /signup → /routes/signup.html.
 */
function routePagesIn(files: Map<string, unknown>): Map<string, string> {
  const pages = [...files.keys()].filter((url) => url.startsWith('/routes/') && url.endsWith('.html'));
  return new Map(pages.map((url) => [url.slice('/routes'.length, -'.html'.length), url]));
}

export async function buildApp(
  config: Config,
  database: Database,
  options: BuildOptions = {},
): Promise<{ app: FastifyInstance; ctx: AppContext }> {
  const app = Fastify({
    ...transportOptions(config),
    logger:
      options.logger === false
        ? false
        : {
            level: config.logLevel,
            // Health data never reaches the log: no cookies, no bodies, no SQL parameters.
            redact: {
              paths: [
                'req.headers.cookie',
                'req.headers.authorization',
                'req.body',
                'err.params',
                '*.params',
              ],
              censor: '[redacted]',
            },
          },
    // Every log line carries the request id; 5xx answers and the X-Request-Id header show it.
    genReqId: () => crypto.randomUUID(),
    trustProxy: fastifyTrustProxy(config.trustProxy),
    // One line per request is noise for someone trying the app; LOG_LEVEL=debug brings it back.
    // Every access to patient data is in the audit trail regardless.
    logController: new LogController({
      disableRequestLogging: config.logLevel !== 'debug' && config.logLevel !== 'trace',
    }),
    bodyLimit: 1024 * 1024,
    // Never echo internals; the error handler shapes every answer, and answerFrameworkError the
    // router's own (an address it cannot decode or a path segment over its length limit).
    return503OnClosing: true,
    frameworkErrors: answerFrameworkError,
  });
  const now = options.now ?? (() => new Date());
  const metrics = config.metricsToken ? createMetrics(database, now) : undefined;
  const files = fileStoreFor(config, database.db);
  const ctx: AppContext = {
    db: database.db,
    database,
    config,
    files: metrics ? metrics.countingStore(files) : files,
    now,
    mail: createMailer(config, app.log),
    metrics,
  };

  if (options.onRoute) app.addHook('onRoute', options.onRoute);
  if (metrics) registerMetricHooks(app, metrics);
  app.addHook('onRequest', async (request, reply) => {
    reply.header('X-Request-Id', request.id);
  });
  database.onPoolError?.((err) => app.log.warn({ err: loggableError(err) }, 'database connection lost'));
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(responseSerializerCompiler(config.checkResponses));
  registerErrorHandling(app);
  await registerSecurity(app, config, { db: ctx.db, now: ctx.now });
  await app.register(cookie);
  // API answers (JSON, FHIR, calendars) are compressed above 1 KiB; attachments never are (they
  // stream with integrity checks and ranges), and the client's files come pre-compressed.
  await app.register(compress, {
    threshold: 1024,
    encodings: ['br', 'gzip'],
    customTypes: /^(application\/(json|fhir\+json)|text\/calendar)\b/,
    // Quality 1, brotli's one-pass compressor: on this app's list pages (20-32 KB of JSON) 35-37%
    // less CPU than quality 2 (records 49 against 75 µs, patients 35 against 56 µs; 2 was 23-27%
    // under 3, and 3 30-40% under 4) for answers 8-20% larger (records 4,818 bytes against 4,450,
    // patients 2,987 against 2,483), 0.5-1.2% larger than gzip's fastest level (4,792 and 2,953)
    // at three quarters of its CPU (66 and 44 µs). The app's CPU, not the wire, is what limits a
    // list read (bench/api-cpu: the patient list 0.550-0.563 -> 0.526-0.538 ms).
    brotliOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 1 } },
    // Answers up to 64 KiB (a page of any list) are compressed in one call, not through a zlib
    // stream handed to libuv's threads: the plugin's default for 2 cores is 8 KiB, and a stream's
    // setup cost more than the compression (bench/api-cpu, browser Accept-Encoding: the app's CPU
    // for a page of 50 patients 1.17-1.20 -> 0.75-0.81 ms). Larger answers still stream.
    syncThreshold: 65536,
    // No API takes a compressed request body: without this, every request ran a preParsing hook.
    globalDecompression: false,
  });
  registerSessions(app, ctx.db);
  // Before any route: each route's guards come from the policy it declares.
  registerPolicies(app, { assertMayWrite: (user) => assertWriteAccess(ctx.db, user, ctx.now()) });
  app.addHook('onClose', async () => {
    await ctx.mail.idle();
    ctx.mail.close();
  });

  await app.register(swagger, {
    openapi: {
      info: {
        title: 'MedLedger API',
        version: '0.1.0',
        description: 'Medical records with a verifiable ledger.',
      },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs' });

  await app.register(async (scope) => {
    await authRoutes(scope, ctx);
    await patientRoutes(scope, ctx);
    await recordRoutes(scope, ctx);
    await auditRoutes(scope, ctx);
    await hospitalRoutes(scope, ctx);
    await providerRoutes(scope, ctx);
    await adminRoutes(scope, ctx);
    await billingRoutes(scope, ctx);
    await passwordResetRoutes(scope, ctx);
    await ledgerRoutes(scope, ctx);
    await consentRoutes(scope, ctx);
    await familyContactRoutes(scope, ctx);
    await proxyRoutes(scope, ctx);
    await appointmentRoutes(scope, ctx);
    await healthRoutes(scope, ctx);
    await calendarRoutes(scope, ctx);
    await fhirRoutes(scope, ctx);
    await notificationRoutes(scope, ctx);
    await shareRoutes(scope, ctx);
    await staffRoutes(scope, ctx);
    await metricsRoutes(scope, ctx);
  });

  const clientDir = options.clientDir ?? defaultClientDir;
  const serveClient = config.serveClient && fs.existsSync(path.join(clientDir, 'index.html'));
  const clientFiles = serveClient
    ? readClientFiles(clientDir, clientCacheControl)
    : new Map<string, ClientFile>();
  const routePages = routePagesIn(clientFiles);
  registerClientFiles(app, clientFiles);
  app.setNotFoundHandler((request, reply) => {
    const url = request.url.split('?')[0];
    // A missing content-hashed file (an old chunk after a deploy) is a 404, never the app's page:
    // a script tag gets no HTML, and /assets/ answers carry no page policies (plugins/security.ts).
    const notThePage = url.startsWith('/api/') || url === '/api' || url.startsWith(ASSETS_PATH);
    const page = clientFiles.get(routePages.get(url) ?? '/index.html');
    if (notThePage || request.method !== 'GET' || !page) {
      return reply.status(404).send({ message: 'Not found.' });
    }
    // Every other path belongs to the React app's router (which shows its own 404 page).
    return sendClientFile(request, reply, page);
  });

  return { app, ctx };
}
