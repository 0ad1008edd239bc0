// GET /metrics (docs/decisions.md#metrics): the token's three answers, and what the text says,
// read back by an independent parser of the Prometheus text format (not prom-client's own).
import { spawnSync } from 'node:child_process';
import parsePrometheusTextFormat, { type ParsedFamily } from 'parse-prometheus-text-format';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notificationJobs } from '../../db/schema.js';
import { ledgerSize } from '../ledger/tree.js';
import { samplePdf, uploadRecord } from '../records/testing.js';
import { runNotificationsOnce } from '../notifications/worker.js';
import {
  addPatient,
  createTestApp,
  expectStatus,
  signedInHospital,
  type TestApp,
} from '../../test/helpers.js';

const TOKEN = 'metrics-token-for-the-test-0123456789';

/** GET /metrics with this Authorization header (null: none). */
function scrape(t: TestApp, authorization: string | null = `Bearer ${TOKEN}`) {
  return t.app.inject({
    method: 'GET',
    url: '/metrics',
    headers: authorization === null ? {} : { authorization },
  });
}

async function metricsText(t: TestApp): Promise<string> {
  const res = await scrape(t);
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
  return res.body;
}

async function families(t: TestApp): Promise<Map<string, ParsedFamily>> {
  return new Map(parsePrometheusTextFormat(await metricsText(t)).map((f) => [f.name, f]));
}

/**
 * The series of one sample name (`..._count` of a histogram), each with its labels. The parser
 * folds a histogram's series into one set of buckets, so its count lines are read on their own.
 */
async function seriesOf(
  t: TestApp,
  sample: string,
): Promise<{ labels: Record<string, string>; value: number }[]> {
  const lines = (await metricsText(t)).split('\n').filter((line) => line.startsWith(`${sample}{`));
  const [family] = parsePrometheusTextFormat(lines.join('\n') + '\n');
  return (family?.metrics ?? []).map((m) => ({ labels: m.labels ?? {}, value: Number(m.value) }));
}

/** The one sample of a family without labels, as a number. */
function valueOf(all: Map<string, ParsedFamily>, name: string): number {
  const family = all.get(name);
  if (!family) throw new Error(`no ${name} in the metrics`);
  expect(family.metrics).toHaveLength(1);
  return Number(family.metrics[0].value);
}

describe('GET /metrics without METRICS_TOKEN', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t?.close());

  it('is a 404, with or without a token, and not the app page', async () => {
    for (const authorization of [null, `Bearer ${TOKEN}`]) {
      const res = await scrape(t, authorization);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ message: 'Not found.' });
    }
    expect(t.ctx.metrics).toBeUndefined();
  });
});

describe('GET /metrics with METRICS_TOKEN', () => {
  let t: TestApp;
  let hospital: Awaited<ReturnType<typeof signedInHospital>>;
  let patient: Awaited<ReturnType<typeof addPatient>>;
  const pdf = samplePdf('metrics test');

  beforeAll(async () => {
    t = await createTestApp({ metricsToken: TOKEN });
    hospital = await signedInHospital(t.app, 'Metrics Hospital');
    patient = await addPatient(t.app, hospital.cookie, { firstName: 'Zebulon', lastName: 'Quartermain' });
    expectStatus(
      await uploadRecord(t.app, hospital.cookie, patient.id, { files: [{ fileName: 'a.pdf', bytes: pdf }] }),
      201,
    );
    // A patient's id in the address, and one nobody has: each must count under the pattern only.
    expectStatus(
      await t.app.inject({
        method: 'GET',
        url: `/api/patients/${patient.id}`,
        headers: { cookie: hospital.cookie },
      }),
      200,
    );
    await t.app.inject({ method: 'GET', url: `/api/no-such-page/${hospital.email}` });
  });
  afterAll(async () => t?.close());

  it('refuses a missing or wrong token with 401 and a message', async () => {
    for (const authorization of [
      null,
      'Bearer wrong-token',
      `Basic ${TOKEN}`,
      `Bearer ${TOKEN}x`,
      'Bearer ',
    ]) {
      const res = await scrape(t, authorization);
      expect(res.statusCode, String(authorization)).toBe(401);
      expect(res.headers['www-authenticate']).toBe('Bearer realm="metrics"');
      expect(res.json().message).toMatch(/METRICS_TOKEN/);
    }
  });

  it('counts requests by route pattern, method and status, never by address', async () => {
    expect((await families(t)).get('medledger_http_request_duration_seconds')?.type).toBe('HISTOGRAM');
    const series = await seriesOf(t, 'medledger_http_request_duration_seconds_count');
    const count = (labels: Record<string, string>) =>
      series.find((s) => JSON.stringify(s.labels) === JSON.stringify(labels))?.value;
    expect(count({ method: 'GET', route: '/api/patients/:id', status_code: '200' })).toBe(1);
    expect(count({ method: 'POST', route: '/api/medical-records', status_code: '201' })).toBe(1);
    expect(count({ method: 'GET', route: '(unmatched)', status_code: '404' })).toBe(1);
    const sums = await seriesOf(t, 'medledger_http_request_duration_seconds_sum');
    expect(sums.every((s) => s.value > 0)).toBe(true);
  });

  it('carries no name, e-mail, MRN or id in any label', async () => {
    const all = await families(t);
    const secrets = [
      patient.id,
      patient.patientId,
      hospital.email,
      hospital.userId,
      'Zebulon',
      'Quartermain',
      'Metrics Hospital',
    ];
    const values: string[] = [];
    for (const family of all.values()) {
      // A histogram's labels are on its series, which the parser folds: read its count lines.
      const series = family.type === 'HISTOGRAM' ? await seriesOf(t, `${family.name}_count`) : family.metrics;
      for (const sample of series) values.push(...Object.values(sample.labels ?? {}));
    }
    expect(values).toContain('/api/patients/:id');
    for (const value of values) for (const secret of secrets) expect(value).not.toContain(secret);
  });

  it('reports the database: pool, query durations, ledger, checkpoint age', async () => {
    let all = await families(t);
    expect(valueOf(all, 'medledger_database_up')).toBe(1);
    expect(valueOf(all, 'medledger_ledger_entries')).toBe(await ledgerSize(t.ctx.db));
    expect(valueOf(all, 'medledger_ledger_checkpoint_age_seconds')).toBeNaN(); // none signed yet
    expect(valueOf(all, 'medledger_ledger_entries_unsigned')).toBe(await ledgerSize(t.ctx.db));
    const queries = all.get('medledger_db_query_duration_seconds')!;
    expect(queries.type).toBe('HISTOGRAM');
    expect(Number(queries.metrics[0].count)).toBeGreaterThan(10);
    expect(Number(queries.metrics[0].buckets!['+Inf'])).toBe(Number(queries.metrics[0].count));
    const pool = all.get('medledger_db_pool_connections')!;
    expect(pool.metrics.map((m) => m.labels!.state).sort()).toEqual(['idle', 'in_use']);
    const { max } = t.ctx.database.poolStats();
    expect(valueOf(all, 'medledger_db_pool_max_connections')).toBe(max);
    expect(valueOf(all, 'medledger_db_pool_waiting_requests')).toBeGreaterThanOrEqual(0);

    expect((await t.app.inject({ method: 'GET', url: '/api/ledger/checkpoint' })).statusCode).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 1_100)); // past the one-second snapshot
    all = await families(t);
    expect(valueOf(all, 'medledger_ledger_checkpoint_age_seconds')).toBeGreaterThanOrEqual(1);
    expect(valueOf(all, 'medledger_ledger_checkpoint_age_seconds')).toBeLessThan(60);
    expect(valueOf(all, 'medledger_ledger_entries_unsigned')).toBe(0);
  });

  it('reports the bytes of uploaded attachments', async () => {
    const all = await families(t);
    expect(valueOf(all, 'medledger_attachment_bytes_written_total')).toBe(pdf.length);
    expect(valueOf(all, 'medledger_attachments_written_total')).toBe(1);
  });

  it('reports the notification queue: waiting, its age, and what the worker did', async () => {
    const dueAt = new Date(Date.now() - 120_000);
    await t.ctx.db.insert(notificationJobs).values([
      { kind: 'test', recipientEmail: 'a@example.test', payload: {}, dueAt },
      {
        kind: 'test',
        recipientEmail: 'b@example.test',
        payload: {},
        dueAt: new Date(Date.now() + 3_600_000),
      },
    ]);
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    let all = await families(t);
    expect(valueOf(all, 'medledger_notification_jobs_waiting')).toBeGreaterThanOrEqual(1);
    expect(valueOf(all, 'medledger_notification_oldest_waiting_seconds')).toBeGreaterThanOrEqual(120);

    const result = await runNotificationsOnce(t.ctx);
    all = await families(t);
    const outcomes = Object.fromEntries(
      all.get('medledger_notification_sends_total')!.metrics.map((m) => [m.labels!.outcome, Number(m.value)]),
    );
    expect(outcomes).toEqual({ sent: result.sent, skipped: result.skipped, failed: result.failed });
    expect(result.sent + result.skipped + result.failed).toBeGreaterThan(0);
  });

  it("passes Prometheus's own parser and linter (promtool check metrics)", async () => {
    const text = await metricsText(t);
    const check = spawnSync('promtool', ['check', 'metrics'], { input: text, encoding: 'utf8' });
    if (check.error)
      throw new Error(`promtool (Debian's prometheus package) is needed: ${check.error.message}`);
    // Exit 1 is a text Prometheus cannot read; 3 only lint problems. prom-client's own default
    // metrics have some (nodejs_active_handles_total is a gauge); ours must have none.
    const problems = `${check.stdout}${check.stderr}`.split('\n').filter(Boolean);
    expect([0, 3], problems.join('\n')).toContain(check.status);
    expect(problems.filter((line) => !line.startsWith('nodejs_'))).toEqual([]);
  });

  it("has the process's own metrics", async () => {
    const all = await families(t);
    for (const name of [
      'process_cpu_user_seconds_total',
      'process_resident_memory_bytes',
      'nodejs_eventloop_lag_seconds',
      'nodejs_heap_size_used_bytes',
    ])
      expect(all.has(name), name).toBe(true);
  });
});

describe('GET /metrics while the database is down', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ metricsToken: TOKEN });
  });
  afterAll(async () => {
    t.ctx.database.close = async () => {}; // closed by the test itself
    await t?.close();
  });

  it('still answers, saying so, and counts the failed requests by kind', async () => {
    const { cookie } = await signedInHospital(t.app);
    const before = await families(t);
    expect(valueOf(before, 'medledger_database_up')).toBe(1);
    expect(before.get('medledger_http_errors_total')?.metrics ?? []).toEqual([]);
    await t.ctx.database.close();
    const res = await t.app.inject({ method: 'GET', url: '/api/patients', headers: { cookie } });
    expect(res.statusCode).toBeGreaterThanOrEqual(500);
    await new Promise((resolve) => setTimeout(resolve, 1_100)); // past the one-second snapshot
    const all = await families(t);
    expect(valueOf(all, 'medledger_database_up')).toBe(0);
    expect(valueOf(all, 'medledger_ledger_entries')).toBeNaN();
    const errors = all.get('medledger_http_errors_total')!.metrics;
    expect(errors.reduce((n, m) => n + Number(m.value), 0)).toBe(1);
    expect(['database_unavailable', 'internal']).toContain(errors[0].labels!.kind);
  });
});
