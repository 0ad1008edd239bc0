// Tests of a data migration: an embedded database migrated up to just before it, filled the way
// that older schema allowed, then migrated the rest of the way.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import * as schema from './schema.js';
import { pgliteOptions } from './connect.js';

const migrations = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

/** A database with every migration before the one whose tag ends with `tag`; `finish()` applies the rest. */
export async function databaseBeforeMigration(tag: string) {
  const before = fs.mkdtempSync(path.join(os.tmpdir(), 'medledger-migrations-'));
  fs.cpSync(migrations, before, { recursive: true });
  const journalFile = path.join(before, 'meta', '_journal.json');
  const journal = JSON.parse(fs.readFileSync(journalFile, 'utf8')) as { entries: { tag: string }[] };
  const at = journal.entries.findIndex((e) => e.tag.endsWith(tag));
  if (at <= 0) throw new Error(`no migration before one tagged ${tag}`);
  journal.entries = journal.entries.slice(0, at);
  fs.writeFileSync(journalFile, JSON.stringify(journal));
  const client = await PGlite.create(pgliteOptions);
  const db = drizzle(client, { schema });
  await migrate(db, { migrationsFolder: before });
  fs.rmSync(before, { recursive: true, force: true });
  return {
    client,
    db,
    finish: () => migrate(db, { migrationsFolder: migrations }),
    /** A user written with plain SQL, in the columns every schema version has; its id. */
    user: async (email: string, role = 'hospital') =>
      (
        await client.query<{ id: string }>(
          `insert into users (email, password, role) values ($1, 'x', $2) returning id`,
          [email, role],
        )
      ).rows[0].id,
  };
}
