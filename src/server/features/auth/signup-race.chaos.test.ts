// Two signups with one address at once, through two server processes on one PostgreSQL
// (docs/decisions.md#accounts-and-signup, issue 56 item 11). A table lock held by the test lets
// both pass their "is the address taken?" look-up before either inserts, so the loser meets the
// unique index: both must still get the same answer, one account is made, and its owner is mailed
// once for the welcome and once for the other attempt. Run with each process first in turn.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SIGNUP_ANSWER } from '../../../shared/auth.js';
import { headerOf, outboxMessages } from '../../mail/read-message.js';
import { STRONG_PASSWORD } from '../../test/helpers.js';
import {
  callProcess,
  processDatabase,
  PROCESS_ORIGIN,
  startServerProcess,
  type ServerProcess,
} from '../../test/server-process.js';

let database: Awaited<ReturnType<typeof processDatabase>>;
let sql: pg.Client;
const running: ServerProcess[] = [];
const dataDirs: string[] = [];

beforeAll(async () => {
  database = await processDatabase();
  const env = {
    DATABASE_URL: database.url,
    FILE_ENCRYPTION_KEY: crypto.randomBytes(32).toString('hex'),
    LEDGER_SIGNING_KEY: crypto.randomBytes(32).toString('hex'),
    PUBLIC_URL: PROCESS_ORIGIN,
  };
  await Promise.all(
    [0, 1].map(async () => {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'medledger-signup-race-'));
      dataDirs.push(dataDir);
      running.push(await startServerProcess({ ...env, DATA_DIR: dataDir }));
    }),
  );
  sql = new pg.Client({ connectionString: database.url });
  await sql.connect();
}, 180_000);

afterAll(async () => {
  await sql?.end();
  await Promise.all(running.map((p) => p.stop().catch(() => {})));
  await database?.close();
  for (const dir of dataDirs) fs.rmSync(dir, { recursive: true, force: true });
}, 60_000);

/** The subjects of every mail either process has sent to `to`, sorted. */
const subjectsTo = (to: string) =>
  dataDirs
    .flatMap((dir) => outboxMessages(path.join(dir, 'outbox')))
    .filter((m) => headerOf(m, 'To') === to)
    .map((m) => headerOf(m, 'Subject') ?? '')
    .sort();

async function until(what: string, done: () => Promise<boolean> | boolean) {
  for (let i = 0; i < 300; i++) {
    if (await done()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('two signups with one address at once, through two processes', () => {
  for (const [name, first, second] of [
    ['the first process, then the second', 0, 1],
    ['the second process, then the first', 1, 0],
  ] as const) {
    it(`answer alike and make one account (${name})`, async () => {
      const email = `race.${crypto.randomUUID()}@example.test`;
      const signup = (p: number, firstName: string) =>
        callProcess(running[p].url, 'POST', '/api/auth/register', undefined, {
          email,
          password: STRONG_PASSWORD,
          firstName,
          lastName: 'Ward',
          role: 'hospital',
          hospitalName: 'Race Hospital',
        });
      // Reads of users go on; inserts wait until the lock is let go.
      await sql.query('begin');
      await sql.query('lock table users in exclusive mode');
      const answers = [signup(first, 'First')];
      const waitingInserts = async () =>
        Number(
          (
            await sql.query<{ n: string }>(
              "select count(*) as n from pg_locks where relation = 'users'::regclass and not granted",
            )
          ).rows[0].n,
        );
      await until('the first insert to wait', async () => (await waitingInserts()) >= 1);
      answers.push(signup(second, 'Second'));
      await until('both inserts to wait', async () => (await waitingInserts()) >= 2);
      await sql.query('commit');

      const results = await Promise.all(
        answers.map(async (a) => {
          const res = await a;
          return `${res.status} ${await res.text()}`;
        }),
      );
      expect(results).toEqual([
        `201 ${JSON.stringify({ message: SIGNUP_ANSWER })}`,
        `201 ${JSON.stringify({ message: SIGNUP_ANSWER })}`,
      ]);
      const accounts = await sql.query('select first_name from users where email = $1', [email]);
      expect(accounts.rows).toHaveLength(1);
      await until('both mails', () => subjectsTo(email).length >= 2);
      expect(subjectsTo(email)).toEqual(['Welcome to MedLedger', 'Your MedLedger account already exists']);
    }, 60_000);
  }
});
