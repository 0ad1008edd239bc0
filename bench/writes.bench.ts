// npm run bench (writes part; issue 14, item 4) — record create at the database's pace? A throw-away
// PostgreSQL with fsync on (bench/support.ts), the real server on it, autocannon at 16 connections posting a
// record with a small PDF (multipart), with ledger appends, then with the same server
// started with BENCH_SKIP_LEDGER=1 (NODE_ENV=bench; the switch is refused anywhere else, see
// ledger/service.ts) as the baseline. Prints both rates and their ratio (goal >= 0.8), and from
// pg_stat_statements the time spent waiting for the ledger's advisory lock per request (the
// statement medledger_ledger_head, which takes the lock and reads the head; the read itself is a
// fraction of a millisecond): when that wait approaches the request's latency, the lock held
// across the commit is the limit. Then how long the lock is held per append, against what the
// database executes while it is held.
// BENCH_SECONDS (default 10) sets each run's length, BENCH_ROUNDS (default 3) how many times the two
// runs alternate; the ratio printed is the median of the rounds'.
import os from 'node:os';
import pg from 'pg';
import {
  load,
  loadAverage,
  ratio,
  recordUploadBody,
  resetStatements,
  startServer,
  withBenchServer,
  type Figures,
} from './support.js';

const SECONDS = Number(process.env.BENCH_SECONDS || 10);
const CONNECTIONS = 16;
const ROUNDS = Number(process.env.BENCH_ROUNDS || 3);

/** What pg_stat_statements says of the ledger lock over one run (totals in ms). */
interface LockFigures {
  /** Appends: calls of medledger_ledger_head, which takes the lock and reads the head. */
  calls: number;
  /** Time in medledger_ledger_head: the wait for the lock, and the read once it is granted. */
  waitMs: number;
  /**
   * What the database executes while the lock is held: the head read and the entry's statement
   * (a commit's WAL flush is not in pg_stat_statements' times).
   */
  headReadMs: number;
  entryMs: number;
}

async function lockFigures(client: pg.Client): Promise<LockFigures> {
  // The head read is the query inside medledger_ledger_head (migration 0022), tracked as nested.
  const { rows } = await client.query<Record<keyof LockFigures, string>>(
    `select coalesce(sum(calls) filter (where toplevel and query like '%medledger_ledger_head%'), 0) as calls,
            coalesce(sum(total_exec_time) filter (where toplevel and query like '%medledger_ledger_head%'), 0) as "waitMs",
            coalesce(sum(total_exec_time) filter (where not toplevel and query like 'WITH last AS%'), 0) as "headReadMs",
            coalesce(sum(total_exec_time) filter (where toplevel and query like 'with "ledger_entry" as%'), 0) as "entryMs"
     from pg_stat_statements`,
  );
  const row = rows[0];
  return {
    calls: Number(row.calls),
    waitMs: Number(row.waitMs),
    headReadMs: Number(row.headReadMs),
    entryMs: Number(row.entryMs),
  };
}

async function main() {
  await withBenchServer(
    'Writes',
    async (setup) => {
      const { cluster, dataDir, client, cookie, hospitalId } = setup;
      const { rows } = await client.query<{ id: string }>(
        `insert into patients (patient_id, created_by_hospital_id, first_name, last_name)
         values ('BWRITES1', $1, 'Write', 'Bench') returning id`,
        [hospitalId],
      );
      const { payload, headers } = recordUploadBody(rows[0].id, 'Bench write');
      const post = async (label: string, url: string) => {
        const options = {
          connections: CONNECTIONS,
          cookie,
          method: 'POST' as const,
          headers: { ...headers, origin: url },
          body: payload,
        };
        await load(label, `${url}/api/medical-records`, { ...options, seconds: 2 });
        await resetStatements(client);
        const figures = await load(label, `${url}/api/medical-records`, { ...options, seconds: SECONDS });
        if (figures.non2xx > 0 || figures.errors > 0)
          throw new Error(`${label}: ${figures.non2xx} non-2xx answers and ${figures.errors} errors`);
        return figures;
      };

      console.log(
        `autocannon: ${CONNECTIONS} connections, ${SECONDS} s each (after a 2 s warm-up), POST /api/medical-records, ` +
          `${ROUNDS} rounds of: with the ledger, then without (the two sides alternate, so drift on the machine ` +
          `falls on both)`,
      );
      const restart = async (skipLedger: boolean) => {
        await setup.server.stop();
        setup.server = await startServer({
          databaseUrl: cluster.url,
          dataDir,
          env: skipLedger ? { BENCH_SKIP_LEDGER: '1', NODE_ENV: 'bench' } : {},
        });
      };
      const runs: Figures[] = [];
      const ratios: number[] = [];
      const lock: LockFigures = { calls: 0, waitMs: 0, headReadMs: 0, entryMs: 0 };
      for (let round = 1; round <= ROUNDS; round++) {
        if (round > 1) await restart(false);
        const withLedger = await post(`round ${round}: with the ledger`, setup.server.url);
        const figures = await lockFigures(client);
        for (const key of Object.keys(lock) as Array<keyof LockFigures>) lock[key] += figures[key];
        await restart(true);
        const without = await post(`round ${round}: ledger appends skipped (baseline)`, setup.server.url);
        runs.push(withLedger, without);
        ratios.push(withLedger.rate / without.rate);
      }

      const row = (f: Figures) => ({
        run: f.label,
        'req/s': Math.round(f.rate),
        'p50 ms': f.p50,
        'p99 ms': f.p99,
        requests: f.requests,
      });
      console.table(runs.map(row));
      const sorted = [...ratios].sort((a, b) => a - b);
      const median = sorted[Math.floor(sorted.length / 2)];
      console.log(
        `Ratio with / without the ledger: ${median.toFixed(2)} (median of ${ROUNDS} rounds: ` +
          `${ratios.map((r) => r.toFixed(2)).join(', ')}; goal >= 0.8)`,
      );
      const withP50 = runs.filter((_, i) => i % 2 === 0).map((f) => f.p50);
      const p50 = withP50.reduce((a, b) => a + b, 0) / withP50.length;
      const perAppend = (ms: number) => (lock.calls > 0 ? ms / lock.calls : 0);
      const waiting = perAppend(lock.waitMs);
      console.log(
        `Ledger lock: ${lock.calls} appends, ${waiting.toFixed(1)} ms waiting for the ledger lock per append ` +
          `(mean p50 of the request ${p50.toFixed(0)} ms; the lock is held from the append to the commit, so ` +
          `${CONNECTIONS} writers queue on it: ${ratio(waiting, p50)} of the median request is that wait)`,
      );
      // While writers wait on it the lock is never free, so the appends of a run divide its length.
      const held = lock.calls > 0 ? (ROUNDS * SECONDS * 1000) / lock.calls : 0;
      const executing = perAppend(lock.headReadMs) + perAppend(lock.entryMs);
      console.log(
        `Held for about ${held.toFixed(1)} ms per append (${ROUNDS * SECONDS} s of runs / ${lock.calls} appends), ` +
          `of which the database executes ${executing.toFixed(2)} ms (head read ${perAppend(lock.headReadMs).toFixed(2)}, ` +
          `entry statement ${perAppend(lock.entryMs).toFixed(2)}; the commit's WAL flush is not counted): the rest is mostly ` +
          'the two round trips under the lock (head to entry statement, entry statement to commit), each waiting ' +
          'for the busy event loop of the app and for a core.',
      );
      console.log(
        `Load average: ${loadAverage()} on ${os.cpus().length} cores (figures are noisy, the ratio less).`,
      );
      // Commits wait for the disk as in production (the throw-away cluster otherwise skips fsync).
    },
    ['fsync=on', 'synchronous_commit=on'],
  );
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
