// `npm run ledger -- migrate-files` as a process on an embedded data folder: an attachment in the
// old single-GCM format is rewritten in the chunked format, the ledger still verifies, and a second
// run has nothing left to do.
import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { AppContext } from '../../app.js';
import { connect } from '../../db/connect.js';
import { attachments, users } from '../../db/schema.js';
import { newHospitalAccount } from '../../users.js';
import { CHUNK_SIZE, MAGIC } from '../../files/formats/chunked.js';
import { DirectoryStore } from '../../files/backends/directory.js';
import { writeLegacyFile } from '../../files/testing.js';
import { createLedgeredRecord } from '../ledger/testing.js';

const run = promisify(execFile);
const KEY = 'ef'.repeat(32);

describe('npm run ledger -- migrate-files (a process, embedded database)', () => {
  it('converts an old-format attachment byte for byte, prints its counts, and converts nothing the second time', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'medledger-migrate-cli-'));
    try {
      const database = await connect({ pgliteDir: path.join(dataDir, 'pglite') });
      const files = new DirectoryStore(dataDir, KEY);
      const ctx = { db: database.db, files } as unknown as AppContext;
      const [hospital] = await database.db
        .insert(users)
        .values({
          email: 'h@example.test',
          password: 'x',
          role: 'hospital',
          hospitalName: 'H',
          ...newHospitalAccount(),
        })
        .returning();
      const plain = Buffer.concat([Buffer.from('%PDF-1.4 '), crypto.randomBytes(2 * CHUNK_SIZE + 10)]);
      const made = await createLedgeredRecord(ctx, hospital.id, {
        files: [{ name: 'lab.pdf', bytes: plain }],
      });
      const [storageKey] = made.storageKeys;
      await database.db
        .update(attachments)
        .set(writeLegacyFile(files, KEY, storageKey, plain))
        .where(eq(attachments.storageKey, storageKey));
      await database.close();

      const cli = (command: string) =>
        run('npx', ['tsx', 'src/server/cli/ledger.ts', command], {
          env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', FILE_ENCRYPTION_KEY: KEY },
        }).then(
          (r) => ({ code: 0, out: r.stdout + r.stderr }),
          (e: { code: number; stdout: string; stderr: string }) => ({
            code: e.code,
            out: e.stdout + e.stderr,
          }),
        );

      const first = await cli('migrate-files');
      expect(first.code).toBe(0);
      expect(first.out).toContain('Attachments to reseal under it: 1 (in the old single-GCM format: 1)');
      expect(first.out).toContain('Resealed: 1');
      expect(first.out).toContain('Left: 0');
      expect(first.out).toContain('Failed: 0');
      expect(fs.readFileSync(files.pathFor(storageKey)).subarray(0, MAGIC.length).equals(MAGIC)).toBe(true);

      const verified = await cli('verify');
      expect(verified.code).toBe(0);
      expect(verified.out).toContain('Result: OK');

      const second = await cli('migrate-files');
      expect(second.code).toBe(0);
      expect(second.out).toContain('Attachments to reseal under it: 0 (in the old single-GCM format: 0)');

      const reopened = await connect({ pgliteDir: path.join(dataDir, 'pglite') });
      try {
        const [row] = await reopened.db
          .select()
          .from(attachments)
          .where(eq(attachments.storageKey, storageKey));
        expect(row.format).toBe('stream1');
        const parts: Buffer[] = [];
        for await (const part of files.openDecrypted(row)) parts.push(part as Buffer);
        expect(Buffer.concat(parts).equals(plain)).toBe(true);
      } finally {
        await reopened.close();
      }
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
