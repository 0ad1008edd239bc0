// Runs the API test suite against a real PostgreSQL server: makes a throw-away cluster on a free
// loopback port (as the postgres user when run as root), runs Vitest with TEST_DATABASE_URL, and
// stops and removes the cluster afterwards, whatever happened.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { findPgBinDir, startPgCluster, type PgCluster } from './pg-cluster.js';

const binDir = findPgBinDir();
if (!binDir) {
  console.error(
    'PostgreSQL is not installed, so the API tests cannot run against a real server.\n' +
      'Install it (Debian: apt-get install -y postgresql) or run .ci/run, which does.',
  );
  process.exit(1);
}

let cluster: PgCluster | undefined;
process.on('SIGINT', () => {
  cluster?.destroy();
  process.exit(130);
});

let status: number;
try {
  cluster = await startPgCluster(binDir);
  console.log(`PostgreSQL (${binDir}) at ${cluster.url}`);
  // Paths given on the command line narrow the run (e.g. `npm run test:pg -- src/server/features/ledger`);
  // without any, the whole server suite runs.
  const args = process.argv.slice(2);
  const paths = args.filter((arg) => !arg.startsWith('-'));
  const vitest = spawnSync(
    path.resolve('node_modules/.bin/vitest'),
    ['run', ...(paths.length > 0 ? [] : ['src/server']), '--exclude', '**/*.chaos.test.ts', ...args],
    {
      stdio: 'inherit',
      env: { ...process.env, TEST_DATABASE_URL: cluster.url },
    },
  );
  status = vitest.status ?? 1;
} catch (err) {
  console.error(err);
  status = 1;
} finally {
  cluster?.destroy();
}
process.exit(status);
