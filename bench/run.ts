// npm run bench — runs each benchmark in turn, in its own process: the upload benchmark, then the
// ledger benchmark, then the record list under load (PostgreSQL), then one app process against two
// (WORKERS) on one PostgreSQL. Stops at the first one that fails.
import { spawnSync } from 'node:child_process';

const benches = [
  'bench/upload.bench.ts',
  'bench/ledger.bench.ts',
  'bench/records-list.bench.ts',
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
