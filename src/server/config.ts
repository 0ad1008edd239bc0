// Environment -> typed configuration, with defaults for the embedded (PGlite) mode.
// Every variable here is listed in the README's configuration table.
import path from 'node:path';
import { SWEEP_GRACE_MS } from './files/store.js';

export interface Config {
  port: number;
  host: string;
  /** Where PGlite, attachments, the mail outbox and the file key live. */
  dataDir: string;
  /** postgres://... to use a real PostgreSQL server instead of PGlite. */
  databaseUrl?: string;
  /** The address users reach the app at: used in e-mailed links and the Origin check. */
  publicUrl: string;
  sessionTtlHours: number;
  /** 64 hex characters; when absent a key is made once and kept in DATA_DIR/secrets/file.key. */
  fileEncryptionKey?: string;
  /** Ed25519 seed, 64 hex characters; when absent a key is made once in DATA_DIR/secrets/ledger.key. */
  ledgerSigningKey?: string;
  /** A new ledger checkpoint is signed at most this often (seconds); in between the last one is served. */
  ledgerCheckpointSeconds: number;
  smtpUrl?: string;
  mailFrom: string;
  adminEmail?: string;
  adminPassword?: string;
  supportEmail: string;
  socialProfileUrl: string;
  socialPageUrl: string;
  stripeSecretKey?: string;
  stripeWebhookSecret?: string;
  stripePriceId?: string;
  logLevel: string;
  trustProxy: boolean;
  /**
   * PEM files of the certificate (chain) and its private key (TLS_CERT_FILE, TLS_KEY_FILE): with
   * both the server speaks HTTPS itself, HTTP/2 to browsers and HTTP/1.1 to other clients.
   */
  tls?: { certFile: string; keyFile: string };
  /** Failed sign-ins allowed per e-mail and per IP address in a 15-minute window. */
  loginMaxFailures: number;
  /** Sign-ups one address may try in 15 minutes (MRN guessing, and each try costs an argon2 hash). */
  registerMaxPerIp: number;
  /** Patient sign-ups one MRN may see from one address in an hour (REGISTER_MAX_PER_MRN). */
  registerMaxPerMrn: number;
  /** Days a patient's activation code stays valid (ACTIVATION_CODE_DAYS). */
  activationCodeDays: number;
  /**
   * How old a stored file nobody claims must be before the start-up sweep removes it. Uploads in
   * flight are claimed by their reservation row, so this is only a second guard.
   */
  uploadSweepGraceMs: number;
  /** How often the running server sweeps upload leftovers (UPLOAD_SWEEP_INTERVAL_MS; files/sweep.ts). */
  uploadSweepIntervalMs: number;
  /**
   * Where attachments are kept (ATTACHMENT_STORE): 'database' (rows of `attachment_chunks`,
   * shared by every process; the default with DATABASE_URL) or 'directory' (DATA_DIR/attachments,
   * the default with the embedded database).
   */
  attachmentStore: 'directory' | 'database';
  /** App processes `npm start` runs on one port (WORKERS, or --workers N); 1 runs no cluster. */
  workers: number;
  /**
   * The bearer token GET /metrics asks for (METRICS_TOKEN, at least 16 characters); without it
   * there are no metrics and /metrics is a 404.
   */
  metricsToken?: string;
  /** Serve the built client from dist/client (off in API tests). */
  serveClient: boolean;
  /**
   * Every response is also checked against its schema with zod and compared with what the compiled
   * serializer wrote (plugins/serializer.ts): CHECK_RESPONSES=1, which the test apps, the browser
   * journeys and the process tests set.
   */
  checkResponses: boolean;
}

function attachmentStore(env: NodeJS.ProcessEnv): Config['attachmentStore'] {
  const value = env.ATTACHMENT_STORE || (env.DATABASE_URL ? 'database' : 'directory');
  if (value !== 'database' && value !== 'directory')
    throw new Error('ATTACHMENT_STORE must be "database" or "directory"');
  return value;
}

function tls(env: NodeJS.ProcessEnv): Config['tls'] {
  const certFile = env.TLS_CERT_FILE || undefined;
  const keyFile = env.TLS_KEY_FILE || undefined;
  if (!certFile && !keyFile) return undefined;
  if (!certFile || !keyFile)
    throw new Error('HTTPS needs both TLS_CERT_FILE and TLS_KEY_FILE (or neither for plain HTTP)');
  return { certFile: path.resolve(certFile), keyFile: path.resolve(keyFile) };
}

/** Long enough that guessing it is hopeless (the route answers every wrong token at once). */
export const METRICS_TOKEN_MIN_LENGTH = 16;

function metricsToken(env: NodeJS.ProcessEnv): string | undefined {
  const token = env.METRICS_TOKEN || undefined;
  if (token !== undefined && token.length < METRICS_TOKEN_MIN_LENGTH)
    throw new Error(`METRICS_TOKEN must be at least ${METRICS_TOKEN_MIN_LENGTH} characters long`);
  return token;
}

function num(value: string | undefined, fallback: number): number {
  const n = value === undefined || value === '' ? NaN : Number(value);
  return Number.isFinite(n) ? n : fallback;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = num(env.PORT, 3000);
  const host = env.HOST || '127.0.0.1';
  const https = tls(env);
  return {
    port,
    host,
    dataDir: path.resolve(env.DATA_DIR || './data'),
    databaseUrl: env.DATABASE_URL || undefined,
    publicUrl: (env.PUBLIC_URL || `${https ? 'https' : 'http'}://localhost:${port}`).replace(/\/+$/, ''),
    sessionTtlHours: num(env.SESSION_TTL_HOURS, 24),
    fileEncryptionKey: env.FILE_ENCRYPTION_KEY || undefined,
    ledgerSigningKey: env.LEDGER_SIGNING_KEY || undefined,
    ledgerCheckpointSeconds: num(env.LEDGER_CHECKPOINT_SECONDS, 5),
    smtpUrl: env.SMTP_URL || undefined,
    mailFrom: env.MAIL_FROM || 'MedLedger <no-reply@medledger.example>',
    adminEmail: env.ADMIN_EMAIL || undefined,
    adminPassword: env.ADMIN_PASSWORD || undefined,
    supportEmail: env.SUPPORT_EMAIL || 'support@medledger.example',
    socialProfileUrl: env.SOCIAL_PROFILE_URL || 'https://social.example/medledger',
    socialPageUrl: env.SOCIAL_PAGE_URL || 'https://network.example/medledger',
    stripeSecretKey: env.STRIPE_SECRET_KEY || undefined,
    stripeWebhookSecret: env.STRIPE_WEBHOOK_SECRET || undefined,
    stripePriceId: env.STRIPE_PRICE_ID || undefined,
    logLevel: env.LOG_LEVEL || 'info',
    trustProxy: env.TRUST_PROXY === 'true' || env.TRUST_PROXY === '1',
    tls: https,
    loginMaxFailures: num(env.LOGIN_MAX_FAILURES, 5),
    registerMaxPerIp: num(env.REGISTER_MAX_PER_IP, 20),
    registerMaxPerMrn: num(env.REGISTER_MAX_PER_MRN, 10),
    activationCodeDays: num(env.ACTIVATION_CODE_DAYS, 30),
    uploadSweepGraceMs: num(env.UPLOAD_SWEEP_GRACE_MS, SWEEP_GRACE_MS),
    uploadSweepIntervalMs: num(env.UPLOAD_SWEEP_INTERVAL_MS, 15 * 60_000),
    attachmentStore: attachmentStore(env),
    workers: Math.max(1, Math.floor(num(env.WORKERS, 1))),
    metricsToken: metricsToken(env),
    serveClient: env.SERVE_CLIENT !== 'false',
    checkResponses: env.CHECK_RESPONSES === '1',
  };
}
