// Outgoing e-mail through nodemailer (docs/decisions.md#e-mail): by SMTP when SMTP_URL is set;
// otherwise each message is written as an .eml file under DATA_DIR/outbox and its links are
// logged, so that someone trying the app locally can follow them.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import nodemailer from 'nodemailer';
import type { Config } from '../config.js';

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** The links the message carries (logged in outbox mode). */
  links: string[];
  /** A short word for file names and logs: registration, rejection, password-reset. */
  kind: string;
  /** Files sent along (an appointment's .ics invitation). */
  attachments?: { filename: string; content: string; contentType: string }[];
}

export interface Mailer {
  readonly mode: 'smtp' | 'outbox';
  /** The folder .eml files go to in outbox mode. */
  readonly outboxDir: string;
  /** Sends now; rejects when the message could not be handed over. */
  send(mail: OutgoingMail): Promise<void>;
  /** Runs work that sends mail after the answer has gone out; failures are logged. */
  later(work: () => Promise<void>): void;
  /** Resolves when all background work has finished (tests, shutdown). */
  idle(): Promise<void>;
  close(): void;
}

export function createMailer(config: Config, log: FastifyBaseLogger): Mailer {
  const outboxDir = path.join(config.dataDir, 'outbox');
  const transport = config.smtpUrl
    ? nodemailer.createTransport(config.smtpUrl)
    : nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  const pending = new Set<Promise<void>>();

  async function send(mail: OutgoingMail): Promise<void> {
    const info = (await transport.sendMail({
      from: config.mailFrom,
      to: mail.to,
      subject: mail.subject,
      text: mail.text,
      html: mail.html,
      ...(mail.attachments ? { attachments: mail.attachments } : {}),
    })) as { message?: unknown; messageId?: string };
    if (config.smtpUrl) {
      // Links are secrets: with real mail they are never written to the log.
      log.info({ to: mail.to, kind: mail.kind, messageId: info.messageId }, 'mail sent');
      return;
    }
    const message = info.message;
    if (!Buffer.isBuffer(message)) throw new Error('outbox transport returned no message buffer');
    fs.mkdirSync(outboxDir, { recursive: true, mode: 0o700 });
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    const file = path.join(outboxDir, `${stamp}-${mail.kind}-${crypto.randomBytes(4).toString('hex')}.eml`);
    fs.writeFileSync(file, message, { mode: 0o600 });
    log.info(
      { to: mail.to, kind: mail.kind, file, links: mail.links },
      `mail written to the outbox (no SMTP_URL set): ${mail.subject} -> ${mail.to}${mail.links.map((l) => `\n  link: ${l}`).join('')}`,
    );
  }

  return {
    mode: config.smtpUrl ? 'smtp' : 'outbox',
    outboxDir,
    send,
    later(work) {
      const p = work()
        .catch((err: unknown) => log.error({ err }, 'background mail failed'))
        .finally(() => pending.delete(p));
      pending.add(p);
    },
    async idle() {
      while (pending.size > 0) await Promise.all([...pending]);
    },
    close() {
      transport.close();
    },
  };
}
