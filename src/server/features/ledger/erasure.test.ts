// Erasure is an event (issue 56, item 4): through `npm run ledger` itself on a real PostgreSQL,
// an opening deleted with the app's own database access is not an erasure (the attack that posed
// as one printed "Result: OK"), a ledgered erasure verifies, and an erased record whose row
// changes afterwards fails.
import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { connect } from '../../db/connect.js';
import { createTestAppOn, signedInHospital, type TestApp } from '../../test/helpers.js';
import { processDatabase } from '../../test/server-process.js';
import { createLedgeredRecord } from './testing.js';

const KEY = crypto.randomBytes(32).toString('hex');
let database: Awaited<ReturnType<typeof processDatabase>>;
let t: TestApp;
let hospitalId: string;

// Each case on a ledger of its own (a forged entry would fail every later verify).
beforeEach(async () => {
  database = await processDatabase();
  t = await createTestAppOn(await connect({ databaseUrl: database.url }), {
    fileEncryptionKey: KEY,
    attachmentStore: 'database',
  });
  hospitalId = (await signedInHospital(t.app)).userId;
}, 120_000);
afterEach(async () => {
  await t?.close();
  await database?.close();
});

/** `npm run ledger -- <args>` as an operator runs it, on the app's database: exit code and output. */
async function ledgerCli(...args: string[]) {
  try {
    const { stdout, stderr } = await promisify(execFile)(
      path.resolve('node_modules/.bin/tsx'),
      ['src/server/cli/ledger.ts', ...args],
      {
        env: {
          ...process.env,
          DATABASE_URL: database.url,
          ATTACHMENT_STORE: 'database',
          DATA_DIR: t.config.dataDir,
          FILE_ENCRYPTION_KEY: KEY,
        },
      },
    );
    return { code: 0, out: stdout, err: stderr };
  } catch (err) {
    const failed = err as { code: number; stdout: string; stderr: string };
    return { code: failed.code, out: failed.stdout, err: failed.stderr };
  }
}

/** SQL as anyone holding the app's database credentials can send it (no trigger switched off). */
async function asTheAppsRole(...statements: [string, unknown[]][]) {
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    for (const [statement, values] of statements) await client.query(statement, values);
  } finally {
    await client.end();
  }
}

describe('npm run ledger -- verify against an erasure that is not one', () => {
  it('fails, naming the entry, when an opening is deleted and the record forged with the app role', async () => {
    const made = await createLedgeredRecord(t.ctx, hospitalId, { title: 'Biopsy result' });
    expect((await ledgerCli('verify')).code).toBe(0);

    await asTheAppsRole(
      ['delete from ledger_contents where seq = $1', [made.seq]],
      [
        "update medical_records set title = 'Forged title', description = 'forged diagnosis' where id = $1",
        [made.recordId],
      ],
    );
    const verify = await ledgerCli('verify');
    expect(verify.code, verify.out).toBe(1);
    expect(verify.out).toContain(
      `Entry ${made.seq} (record_upload): its content is missing and no erasure entry records its erasure`,
    );
    expect(verify.out).toMatch(/Result: FAILED/);
    expect(verify.out).not.toMatch(/Content erased/);

    // Nor can the erase command be used afterwards to bless the forgery.
    const launder = await ledgerCli('erase', String(made.seq), '--by', 'Mallory', '--reason', 'cover');
    expect(launder.code).toBe(1);
    expect(launder.err).toMatch(/no erasure entry records its erasure.*Nothing was changed/);
  }, 120_000);
});

describe('npm run ledger -- erase <entry> --by --reason', () => {
  it('is ledgered (which entry, who, when, why) and verifies; the record changed afterwards fails', async () => {
    const made = await createLedgeredRecord(t.ctx, hospitalId, { title: 'Allergy panel' });

    const usage = await ledgerCli('erase', String(made.seq));
    expect(usage.code).toBe(2);
    expect(usage.err).toMatch(/--by <who> and --reason <why>/);

    const erase = await ledgerCli('erase', made.hash, '--by', 'Privacy officer', '--reason', 'Request ER-7');
    expect(erase.code, erase.err).toBe(0);
    const erasureSeq = Number(/recorded as erasure entry (\d+)/.exec(erase.out)?.[1]);
    expect(erasureSeq).toBeGreaterThan(made.seq);

    const verify = await ledgerCli('verify');
    expect(verify.code, verify.out).toBe(0);
    expect(verify.out).toContain('Result: OK');
    expect(verify.out).toContain(`Content erased: 1 entry (${made.seq})`);
    expect(verify.out).toMatch(
      new RegExp(
        `entry ${made.seq}: erased \\S+ by Privacy officer \\(erasure entry ${erasureSeq}\\): Request ER-7`,
      ),
    );

    // The erased record's row changed after the erasure: verify fails, naming the record and entry.
    await asTheAppsRole([
      "update medical_records set description = 'forged diagnosis' where id = $1",
      [made.recordId],
    ]);
    const after = await ledgerCli('verify');
    expect(after.code).toBe(1);
    expect(after.out).toContain(
      `Record ${made.recordId} (entry ${made.seq}): The record changed after its entry's content was erased (erasure entry ${erasureSeq}).`,
    );
  }, 180_000);
});
