// Runs the API test suite against a real PostgreSQL server: makes a throw-away cluster on a free
// loopback port (as the postgres user when run as root), runs Vitest with TEST_DATABASE_URL, and
// stops and removes the cluster afterwards, whatever happened.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './free-port.js';

function findBinDir(): string | null {
  if (process.env.PG_BIN_DIR) return process.env.PG_BIN_DIR;
  const root = '/usr/lib/postgresql';
  if (fs.existsSync(root)) {
    const versions = fs
      .readdirSync(root)
      .filter((v) => fs.existsSync(path.join(root, v, 'bin', 'initdb')))
      .sort((a, b) => Number(b) - Number(a));
    if (versions.length) return path.join(root, versions[0], 'bin');
  }
  try {
    return execFileSync('pg_config', ['--bindir'], { encoding: 'utf8' }).trim();
  } catch {
    return null;
  }
}


const binDir = findBinDir();
if (!binDir) {
  console.error(
    'PostgreSQL is not installed, so the API tests cannot run against a real server.\n' +
      'Install it (Debian: apt-get install -y postgresql) or run .ci/run, which does.',
  );
  process.exit(1);
}

const asRoot = process.getuid?.() === 0;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'medledger-pg-'));
const dataDir = path.join(dir, 'data');
if (asRoot) execFileSync('chown', ['postgres:postgres', dir]);

/** initdb and pg_ctl refuse to run as root: run them as the postgres user then. */
function pg(cmd: string, args: string[]) {
  const bin = path.join(binDir!, cmd);
  const result = asRoot
    ? spawnSync('runuser', ['-u', 'postgres', '--', bin, ...args], { stdio: 'inherit' })
    : spawnSync(bin, args, { stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`${cmd} failed with ${result.status}`);
}

let started = false;
function cleanup() {
  if (started) {
    try {
      pg('pg_ctl', ['-D', dataDir, '-m', 'fast', '-w', 'stop']);
    } catch (err) {
      console.error(err);
    }
    started = false;
  }
  fs.rmSync(dir, { recursive: true, force: true });
}
process.on('SIGINT', () => {
  cleanup();
  process.exit(130);
});

let status: number;
try {
  const port = await freePort();
  pg('initdb', ['-D', dataDir, '-U', 'postgres', '--auth=trust', '--encoding=UTF8', '--no-sync']);
  pg('pg_ctl', [
    '-D',
    dataDir,
    '-l',
    path.join(dir, 'server.log'),
    '-o',
    `-c listen_addresses=127.0.0.1 -p ${port} -k ${dir} -c fsync=off -c max_connections=200`,
    '-w',
    'start',
  ]);
  started = true;
  console.log(`PostgreSQL (${binDir}) listening on 127.0.0.1:${port}`);
  const vitest = spawnSync(
    path.resolve('node_modules/.bin/vitest'),
    ['run', 'src/server', ...process.argv.slice(2)],
    {
      stdio: 'inherit',
      env: { ...process.env, TEST_DATABASE_URL: `postgres://postgres@127.0.0.1:${port}/postgres` },
    },
  );
  status = vitest.status ?? 1;
} catch (err) {
  console.error(err);
  status = 1;
} finally {
  cleanup();
}
process.exit(status);
