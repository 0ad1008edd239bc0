// A throw-away PostgreSQL cluster on a free loopback port (initdb and pg_ctl as the postgres user
// when run as root): used by `npm run test:pg` and by the chaos tests, which restart their own.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './free-port.js';

export function findPgBinDir(): string | null {
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

export interface PgCluster {
  /** postgres://postgres@127.0.0.1:<port>/postgres */
  url: string;
  /** Stops (fast by default; immediate is a crash: no checkpoint, recovery at start) and starts. */
  restart(mode?: 'fast' | 'immediate'): void;
  stop(): void;
  start(): void;
  /** Stops the server and removes its folder. */
  destroy(): void;
  /** The cluster's data folder (its postmaster.pid names the server process). */
  dataDir: string;
}

export async function startPgCluster(
  binDir: string,
  /** settings: extra `-c name=value` server settings (e.g. shared_preload_libraries for a bench). */
  options: { quiet?: boolean; settings?: string[] } = {},
): Promise<PgCluster> {
  const asRoot = process.getuid?.() === 0;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'medledger-pg-'));
  const dataDir = path.join(dir, 'data');
  if (asRoot) execFileSync('chown', ['postgres:postgres', dir]);
  const stdio = options.quiet ? 'ignore' : 'inherit';
  const run = (cmd: string, args: string[]) => {
    const bin = path.join(binDir, cmd);
    const result = asRoot
      ? spawnSync('runuser', ['-u', 'postgres', '--', bin, ...args], { stdio })
      : spawnSync(bin, args, { stdio });
    if (result.status !== 0) throw new Error(`${cmd} ${args[args.length - 1]} failed with ${result.status}`);
  };
  let port = await freePort();
  run('initdb', ['-D', dataDir, '-U', 'postgres', '--auth=trust', '--encoding=UTF8', '--no-sync']);
  const start = () =>
    run('pg_ctl', [
      '-D',
      dataDir,
      '-l',
      path.join(dir, 'server.log'),
      '-o',
      [
        `-c listen_addresses=127.0.0.1 -p ${port} -k ${dir} -c fsync=off -c max_connections=200`,
        ...(options.settings ?? []).map((s) => `-c ${s}`),
      ].join(' '),
      '-w',
      // A loaded CI machine (two cores, many test files) can take longer than pg_ctl's 60 s.
      '-t',
      '180',
      'start',
    ]);
  const stop = (mode: 'fast' | 'immediate' = 'fast') =>
    run('pg_ctl', ['-D', dataDir, '-m', mode, '-w', 'stop']);
  // The free port can be taken by another test between freePort() and the server's bind: the first
  // start tries a fresh port (and says what the server logged) before giving up.
  for (let attempt = 1; ; attempt++) {
    try {
      start();
      break;
    } catch (error) {
      const logFile = path.join(dir, 'server.log');
      const log = fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8').slice(-2000) : '';
      if (attempt >= 3) throw new Error(`${(error as Error).message}; server log:\n${log}`, { cause: error });
      port = await freePort();
    }
  }
  let running = true;
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    dataDir,
    start: () => {
      start();
      running = true;
    },
    stop: () => {
      stop();
      running = false;
    },
    restart: (mode = 'fast') => {
      stop(mode);
      start();
    },
    destroy: () => {
      try {
        if (running) stop();
      } finally {
        running = false;
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
