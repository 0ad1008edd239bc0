// Environment -> typed configuration, with defaults for the embedded (PGlite) mode.
// Every variable here is listed in the README's configuration table.
import { isIP } from 'node:net';
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
  /** FILE_ENCRYPTION_PREVIOUS_KEYS (comma-separated): keys that may still open older attachments. */
  previousFileEncryptionKeys: string[];
  /**
   * ACCOUNT_SECRETS_KEY (64 hex): what two-factor secrets and activation codes are keyed from; the
   * file key when unset. Set it to the old file key when rotating (files/keys.ts).
   */
  accountSecretsKey?: string;
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
  /**
   * Which `X-Forwarded-*` hops to believe (TRUST_PROXY): false (none, the default), the number of
   * proxies in front of the app, or the proxies' addresses and CIDR ranges. Never "every hop": a
   * client could then pose as any address by sending its own X-Forwarded-For.
   */
  trustProxy: TrustProxy;
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

export type TrustProxy = false | number | string[];

/** proxy-addr's names for ranges, accepted in TRUST_PROXY beside addresses and CIDRs. */
const RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isAddressOrRange(entry: string): boolean {
  if (RANGE_NAMES.has(entry)) return true;
  const [address, bits, ...rest] = entry.split('/');
  const family = isIP(address);
  if (!family || rest.length > 0) return false;
  if (bits === undefined) return true;
  const max = family === 4 ? 32 : 128;
  return /^\d{1,3}$/.test(bits) && Number(bits) <= max;
}

/**
 * TRUST_PROXY: empty or `false` trusts no proxy; a whole number N trusts the N hops nearest the app
 * (the client address is the one N hops back in X-Forwarded-For); otherwise a comma-separated list
 * of the proxies' addresses or CIDR ranges. `true` is refused: it trusted every hop.
 */
export function parseTrustProxy(value: string | undefined): TrustProxy {
  const raw = (value ?? '').trim();
  if (raw === '' || raw === 'false' || raw === '0') return false;
  if (/^\d+$/.test(raw)) return Number(raw);
  if (raw === 'true') {
    throw new Error(
      'TRUST_PROXY=true would believe every X-Forwarded-For hop; give the number of proxies in front of the app (e.g. 1) or their addresses (e.g. 10.0.0.5,10.0.1.0/24)',
    );
  }
  const entries = raw.split(',').map((entry) => entry.trim());
  const bad = entries.filter((entry) => !isAddressOrRange(entry));
  if (bad.length > 0) {
    throw new Error(
      `TRUST_PROXY: not an address, a CIDR range or a number of proxies: ${bad.map((b) => JSON.stringify(b)).join(', ')}`,
    );
  }
  return entries;
}

/**
 * The option Fastify takes. Fastify itself trusts no hop for a bare number (it cannot tell the
 * proxy from a client that reached the app directly), so a hop count is given as proxy-addr's hop
 * function: the N hops nearest the app are believed. Safe only when the app cannot be reached but
 * through those proxies (the README says so); a list of addresses is checked hop by hop.
 */
export function fastifyTrustProxy(
  trustProxy: TrustProxy,
): false | string[] | ((address: string, hop: number) => boolean) {
  if (typeof trustProxy !== 'number') return trustProxy;
  const hops = trustProxy;
  return (_address, hop) => hop < hops;
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
    previousFileEncryptionKeys: (env.FILE_ENCRYPTION_PREVIOUS_KEYS ?? '')
      .split(',')
      .map((key) => key.trim())
      .filter((key) => key !== ''),
    accountSecretsKey: env.ACCOUNT_SECRETS_KEY || undefined,
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
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
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
