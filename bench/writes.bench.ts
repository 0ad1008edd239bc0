// npm run bench (writes part; issue 14, item 4) — record create at the database's pace? A throw-away
// PostgreSQL with fsync on (bench/support.ts), the real server on it, autocannon at 16 connections posting a
// record with a small PDF (multipart), with ledger appends, then with the same server
// started with BENCH_SKIP_LEDGER=1 (NODE_ENV=bench; the switch is refused anywhere else, see
// ledger/service.ts) as the baseline. Prints both rates and their ratio (goal >= 0.8), and from
// pg_stat_statements the time spent waiting for the ledger's advisory lock per request (inside the
// append's one statement, medledger_append): when that wait approaches the request's latency, the
// lock held across the commit is the limit. Then how long the lock is held per append, against
// what the database executes while it is held.
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
  /** Appends: the statements that call medledger_append (migration 0024). */
  calls: number;
  /** Their time, from the wait for the lock to the end of the statement. */
  statementMs: number;
  /** Of that, the wait for the lock (the function's pg_advisory_xact_lock, tracked as nested). */
  waitMs: number;
}

async function lockFigures(client: pg.Client): Promise<LockFigures> {
  const { rows } = await client.query<Record<keyof LockFigures, string>>(
    `select coalesce(sum(calls) filter (where toplevel and query like '%medledger_append%'), 0) as calls,
            coalesce(sum(total_exec_time) filter (where toplevel and query like '%medledger_append%'), 0) as "statementMs",
            coalesce(sum(total_exec_time) filter (where not toplevel and query = 'SELECT pg_advisory_xact_lock(lock_key)'), 0) as "waitMs"
     from pg_stat_statements`,
  );
  const row = rows[0];
  return { calls: Number(row.calls), statementMs: Number(row.statementMs), waitMs: Number(row.waitMs) };
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
      const lock: LockFigures = { calls: 0, statementMs: 0, waitMs: 0 };
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
      // While writers queue on it the lock is hardly ever free: the run's length over its appends is
      // then about how long each held it (more than that when the lock was sometimes free).
      const held = perAppend(ROUNDS * SECONDS * 1000);
      const executing = perAppend(lock.statementMs - lock.waitMs);
      console.log(
        `Held for at most ${held.toFixed(1)} ms per append (${ROUNDS * SECONDS} s of runs / ${lock.calls} appends), ` +
          `of which the database executes ${executing.toFixed(2)} ms (the append's statement once the lock is ` +
          "granted; the commit's WAL flush is not counted): the rest is mostly the round trip under the lock " +
          '(the statement to the commit), waiting for the busy event loop of the app and for a core.',
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
