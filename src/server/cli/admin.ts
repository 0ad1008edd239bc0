// npm run admin -- create --email E --password P
// Creates a MedLedger administrator; the only way to get one besides ADMIN_EMAIL/ADMIN_PASSWORD.
// npm run admin -- reset-two-factor --email E
// Turns two-factor sign-in off for an account locked out of it (lost phone and recovery codes).
import { parseArgs } from 'node:util';
import { emailSchema, newPasswordSchema } from '../../shared/auth.js';
import { loadConfig } from '../config.js';
import type { Db } from '../db/connect.js';
import { HttpError } from '../errors.js';
import { createAdmin } from '../features/auth/service.js';
import { resetTwoFactor } from '../features/auth/two-factor.js';
import { openDatabaseForCli } from './open-database.js';

const USAGE =
  'Usage: npm run admin -- create --email <email> --password <password>\n' +
  '       npm run admin -- reset-two-factor --email <email>';

async function main() {
  const { positionals, values } = parseArgs({
    args: process.argv.slice(2),
    allowPositionals: true,
    options: { email: { type: 'string' }, password: { type: 'string' } },
  });
  if (positionals[0] === 'reset-two-factor') return resetCommand(values.email);
  if (positionals[0] !== 'create') {
    console.error(USAGE);
    process.exit(2);
  }
  const email = emailSchema.safeParse(values.email);
  const password = newPasswordSchema.safeParse(values.password);
  if (!email.success || !password.success) {
    console.error((email.error ?? password.error)?.issues[0]?.message ?? USAGE);
    console.error(USAGE);
    process.exit(2);
  }
  await runOnDatabase(async (db) => {
    const { created, user } = await createAdmin(db, email.data, password.data);
    return created ? `Administrator ${user.email} created.` : `Administrator ${user.email} already exists.`;
  });
}

/** Runs a command on the configured database and prints its outcome; a refusal exits with 1. */
async function runOnDatabase(command: (db: Db) => Promise<string>) {
  const database = await openDatabaseForCli(loadConfig());
  try {
    console.log(await command(database.db));
  } catch (err) {
    if (err instanceof HttpError) {
      console.error(err.message);
      process.exitCode = 1;
    } else throw err;
  } finally {
    await database.close();
  }
}

async function resetCommand(rawEmail: string | undefined) {
  const email = emailSchema.safeParse(rawEmail);
  if (!email.success) {
    console.error(email.error.issues[0]?.message ?? USAGE);
    console.error(USAGE);
    process.exit(2);
  }
  await runOnDatabase(async (db) =>
    (await resetTwoFactor(db, email.data))
      ? `Two-factor sign-in of ${email.data} is off; they can sign in with the password and set it up again.`
      : `Two-factor sign-in of ${email.data} was not on.`,
  );
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
