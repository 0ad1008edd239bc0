// What every feature's routes get (docs/architecture.md#layout). Its own module so that route
// files do not import app.ts, which imports them.
import type { Config } from './config.js';
import type { Database, Db } from './db/connect.js';
import type { FileStore } from './files/store.js';
import type { Mailer } from './mail/mailer.js';
import type { AppMetrics } from './features/metrics/metrics.js';

/** What every feature's routes get: the database, the configuration and a clock tests can move. */
export interface AppContext {
  db: Db;
  database: Database;
  config: Config;
  /** Encrypted attachment storage: DATA_DIR/attachments or the database (config.attachmentStore). */
  files: FileStore;
  now: () => Date;
  /** Outgoing e-mail: SMTP when SMTP_URL is set, else .eml files under DATA_DIR/outbox. */
  mail: Mailer;
  /** Prometheus metrics (GET /metrics), made only when METRICS_TOKEN is set. */
  metrics?: AppMetrics;
}
