// Cold start: the time from spawning a server process to its "MedLedger is running at" line (the
// database already migrated, so that the figure is the process's own start), on PGlite and on
// PostgreSQL. Baseline: the same server run from TypeScript through tsx's loader, as `npm start`
// did before the server was compiled (tsx's transform cache warm, as on every restart after the
// first); figures: the compiled server (`npm start` today) and tsx with its cache off (a first
// start). Each command runs BENCH_ROUNDS times (default 5), alternated; medians are printed.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../scripts/free-port.js';
import { buildParts } from '../scripts/build.js';
import { SERVER_NODE_ARGS } from '../src/server/start-command.js';
import { ratio, startNodeProcess, withPostgres } from './support.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS || 5);
const READY = 'MedLedger is running at';

/** The node flags of `npm start` without its entry, and the two ways of running the server. */
const flags = SERVER_NODE_ARGS.slice(0, -1);
const commands = {
  tsx: { args: [...flags, '--import', 'tsx', 'src/server/main.ts'], env: {} },
  'tsx, no cache': {
    args: [...flags, '--import', 'tsx', 'src/server/main.ts'],
    env: { TSX_DISABLE_CACHE: '1' },
  },
  compiled: { args: SERVER_NODE_ARGS, env: {} },
};
type Command = keyof typeof commands;

async function startMs(command: Command, env: Record<string, string>): Promise<number> {
  const port = await freePort();
  const started = process.hrtime.bigint();
  const server = await startNodeProcess(
    commands[command].args,
    {
      ...env,
      ...commands[command].env,
      PORT: String(port),
      HOST: '127.0.0.1',
      SERVE_CLIENT: 'false',
      LOG_LEVEL: 'warn',
    },
    READY,
  );
  const elapsed = Number(process.hrtime.bigint() - started) / 1e6;
  await server.stop();
  return elapsed;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function measure(label: string, env: Record<string, string>) {
  // The first start migrates the database; it is not a figure.
  await startMs('compiled', env);
  const times: Record<Command, number[]> = { tsx: [], 'tsx, no cache': [], compiled: [] };
  for (let round = 0; round < ROUNDS; round++)
    for (const command of Object.keys(commands) as Command[])
      times[command].push(await startMs(command, env));
  const baseline = median(times.tsx);
  console.log(`\n${label}: process start to ready, median of ${ROUNDS} (ratio to tsx with its cache)`);
  for (const command of Object.keys(commands) as Command[]) {
    const ms = median(times[command]);
    console.log(`  ${command.padEnd(14)} ${ms.toFixed(0).padStart(6)} ms   ${ratio(ms, baseline)}`);
  }
}

await buildParts({ ifStale: true, parts: ['server'] });
const pgliteDir = fs.mkdtempSync(path.join(os.tmpdir(), 'medledger-cold-start-'));
try {
  await measure('PGlite', { DATA_DIR: pgliteDir, DATABASE_URL: '', PUBLIC_URL: 'http://localhost' });
} finally {
  fs.rmSync(pgliteDir, { recursive: true, force: true });
}
await withPostgres((cluster, dataDir) =>
  measure('PostgreSQL', { DATA_DIR: dataDir, DATABASE_URL: cluster.url, PUBLIC_URL: 'http://localhost' }),
);
