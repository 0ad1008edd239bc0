// docs/alerts.example.yml: valid Prometheus rules (promtool's check and the shape read with a
// YAML parser), covering latency, 5xx answers, the mail queue's age and the checkpoint's age, and
// naming only metrics GET /metrics serves.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { createTestApp, type TestApp } from '../../test/helpers.js';

const RULES_FILE = path.resolve('docs/alerts.example.yml');
const TOKEN = 'metrics-token-for-the-alerts-test';

interface Rule {
  alert: string;
  expr: string;
  for?: string;
  labels: { severity: string };
  annotations: { summary: string; description?: string };
}

const rules = (): Rule[] => {
  const file = parse(fs.readFileSync(RULES_FILE, 'utf8')) as { groups: { name: string; rules: Rule[] }[] };
  expect(Array.isArray(file.groups)).toBe(true);
  return file.groups.flatMap((group) => {
    expect(typeof group.name).toBe('string');
    return group.rules;
  });
};

describe('docs/alerts.example.yml', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ metricsToken: TOKEN });
  });
  afterAll(async () => t?.close());

  it('is a set of alert rules with a severity and a summary each', () => {
    const all = rules();
    expect(all.length).toBeGreaterThanOrEqual(4);
    for (const rule of all) {
      expect(rule.alert).toMatch(/^MedLedger[A-Za-z]+$/);
      expect(typeof rule.expr).toBe('string');
      expect(['warning', 'critical']).toContain(rule.labels.severity);
      expect(rule.annotations.summary.length).toBeGreaterThan(10);
    }
  });

  it('alerts on latency, 5xx answers, the mail queue and the checkpoint', () => {
    const exprs = rules().map((rule) => rule.expr);
    const some = (pattern: RegExp) => exprs.some((expr) => pattern.test(expr));
    expect(some(/histogram_quantile\(.*medledger_http_request_duration_seconds_bucket/s)).toBe(true);
    expect(some(/medledger_http_request_duration_seconds_count\{status_code=~"5\.\."\}/)).toBe(true);
    expect(some(/medledger_notification_oldest_waiting_seconds/)).toBe(true);
    expect(some(/medledger_ledger_checkpoint_age_seconds/)).toBe(true);
  });

  it('names only metrics the server serves', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    const served = new Set(parsePrometheusTextFormat(res.body).map((family) => family.name));
    const named = rules().flatMap((rule) => rule.expr.match(/\bmedledger_\w+/g) ?? []);
    expect(named.length).toBeGreaterThan(0);
    for (const name of named) expect(served, name).toContain(name.replace(/_(bucket|count|sum)$/, ''));
  });

  it("passes Prometheus's own check (promtool check rules)", () => {
    const check = spawnSync('promtool', ['check', 'rules', RULES_FILE], { encoding: 'utf8' });
    if (check.error)
      throw new Error(`promtool (Debian's prometheus package) is needed: ${check.error.message}`);
    expect(check.status, `${check.stdout}${check.stderr}`).toBe(0);
    expect(check.stdout).toMatch(/SUCCESS: \d+ rules found/);
  });
});
