// A real SMTP server on loopback for end-to-end mail tests: the app under test sends to it, and
// every message it receives is kept (envelope and raw text) for the test to read back.
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll } from 'vitest';
import { createTestApp, type TestApp } from './helpers.js';

export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
}

export interface SmtpTestApp {
  t: TestApp;
  received: ReceivedMail[];
  close(): Promise<void>;
}

/** Starts the loopback SMTP server, then a test app whose SMTP_URL points at it. */
export async function createAppWithSmtp(): Promise<SmtpTestApp> {
  const received: ReceivedMail[] = [];
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const { port } = smtp.server.address() as AddressInfo;
  const t = await createTestApp({
    smtpUrl: `smtp://127.0.0.1:${port}`,
    mailFrom: 'MedLedger <no-reply@medledger.test>',
    publicUrl: 'http://medledger.test',
  });
  return {
    t,
    received,
    close: async () => {
      await t.close();
      await new Promise<void>((resolve) => smtp.close(resolve));
    },
  };
}

/** `createAppWithSmtp` for a whole test file: the app with the mails received, closed after it. */
export function useAppWithSmtp(): TestApp & { received: ReceivedMail[] } {
  const app = { received: [] } as unknown as TestApp & { received: ReceivedMail[] };
  let smtp: SmtpTestApp | undefined;
  beforeAll(async () => {
    smtp = await createAppWithSmtp();
    Object.assign(app, smtp.t, { received: smtp.received });
  });
  afterAll(async () => smtp?.close());
  return app;
}
