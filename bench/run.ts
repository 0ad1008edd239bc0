// npm run bench — runs each benchmark in turn, in its own process: the server's cold start
// (compiled against tsx), the upload benchmark, the ledger benchmark, the record list under load,
// app vs database CPU per read, writes with and without the ledger, the lists at 10,000 and 100,000
// patients, and one app process against two (WORKERS) (the last five on PostgreSQL; their shared
// set-up is bench/support.ts). Stops at the first one that fails.
import { spawnSync } from 'node:child_process';

const benches = [
  'bench/cold-start.bench.ts',
  'bench/upload.bench.ts',
  'bench/ledger.bench.ts',
  'bench/records-list.bench.ts',
  'bench/api-cpu.bench.ts',
  'bench/writes.bench.ts',
  'bench/scale.bench.ts',
  'bench/workers.bench.ts',
];

for (const bench of benches) {
  console.log(`\n=== ${bench} ===`);
  const result = spawnSync(process.execPath, ['--import', 'tsx', bench], { stdio: 'inherit' });
  if (result.status !== 0) {
    console.error(`${bench} failed (exit ${result.status ?? result.signal})`);
    process.exit(result.status ?? 1);
  }
}
