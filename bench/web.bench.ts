// npm run bench:web — the web budgets of issue 14, measured on the built client served by the real
// server: Lighthouse (mobile emulation, headless Debian Chromium) scores for performance,
// accessibility and best practices on the public pages and a seeded hospital dashboard, and the
// compressed JavaScript each page downloads against its budget (150 KB public, 350 KB dashboard).
// The budgets are the issue's goals; the scores are Lighthouse's own scale (its reference data is
// the baseline), so nothing here is a timed assertion. BENCH_WEB_PAGES (e.g. /signup,/verify)
// measures only the pages listed. On this shared 2-core machine one run of the same build gave
// /verify anywhere from 67 to 86, so each page is measured BENCH_WEB_RUNS times (default 5: Lighthouse's
// guide on variability, docs/variability.md, finds the median of 5 runs twice as stable as one run)
// and its median is reported, with every run.
// The server speaks HTTPS with a throw-away certificate, as a deployment does (TLS_CERT_FILE, or a
// proxy in front): browsers then fetch over HTTP/2, one connection for a page's many small chunks,
// where HTTP/1.1 costs a round trip per file on six connections. BENCH_WEB_PLAIN=1 measures plain
// HTTP/1.1 instead, for comparison. Lighthouse simulates a slow phone from an unthrottled load; the
// dashboard is then also loaded with Chromium's CPU really slowed down, and its long tasks reported.
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import lighthouse from 'lighthouse';
import { chromium, type Browser } from 'playwright-core';
import { freePort } from '../scripts/free-port.js';
import { makeTestCertificate } from '../scripts/test-certificate.js';
import { CHROMIUM_ARGS, CHROMIUM_PATH, startApp } from '../e2e/harness.js';

const GOAL_SCORE = 95;
const PASSWORD = 'Bench!Passw0rd42';

const RUNS = Math.max(1, Number(process.env.BENCH_WEB_RUNS || 5));
const PLAIN = process.env.BENCH_WEB_PLAIN === '1';
/** How many throttled loads of the dashboard (BENCH_WEB_THROTTLED_RUNS, 0 to skip). */
const THROTTLED_RUNS = Math.max(0, Number(process.env.BENCH_WEB_THROTTLED_RUNS ?? 5));
/** Lighthouse's mobile profile assumes a CPU 4x slower than the machine's. */
const CPU_SLOWDOWN = 4;
/** The seeded hospital's patients: Pat0 Bench to Pat29 Bench, one page of its list. */
const SEEDED_PATIENTS = 30;

/** Where a page's report of `kind` goes (bench/.out, not committed): / → lighthouse_.json. */
const outFile = (kind: string, page: string) => `bench/.out/${kind}${page.replaceAll('/', '_') || '_'}.json`;

interface PageResult {
  page: string;
  /** Every run's score, lowest first; the median decides. */
  performanceRuns: number[];
  performance: number;
  accessibility: number;
  bestPractices: number;
  /** Compressed JavaScript the page downloaded, in KB (1024 bytes), to one decimal. */
  jsKb: number;
  /** Lighthouse's simulated Largest Contentful Paint and Total Blocking Time, in ms: what the score is made of. */
  lcpMs: number;
  tbtMs: number;
  budgetKb: number;
  failedAudits: string[];
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** A JSON POST to the app (over HTTPS trusting `ca`, the bench's own certificate). */
function post(
  url: string,
  body: unknown,
  { cookie, ca }: { cookie?: string; ca?: Buffer },
): Promise<{ status: number; setCookie: string[]; text: string }> {
  const target = new URL(url);
  const send = target.protocol === 'https:' ? https.request : http.request;
  return new Promise((resolve, reject) => {
    const req = send(
      target,
      {
        method: 'POST',
        ca,
        headers: {
          'content-type': 'application/json',
          origin: target.origin,
          ...(cookie ? { cookie } : {}),
        },
      },
      (res) => {
        let text = '';
        res.on('data', (d: Buffer) => (text += d.toString()));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, setCookie: res.headers['set-cookie'] ?? [], text }),
        );
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

async function seedHospital(url: string, ca?: Buffer): Promise<string> {
  const email = `bench-${Date.now()}@hospital.test`;
  const res = await post(
    `${url}/api/auth/register`,
    {
      email,
      password: PASSWORD,
      role: 'hospital',
      hospitalName: 'St. Bench Hospital',
      firstName: 'Bea',
      lastName: 'Bench',
    },
    { ca },
  );
  if (res.status !== 201) throw new Error(`could not seed a hospital: ${res.status} ${res.text}`);
  const login = await post(`${url}/api/auth/login`, { email, password: PASSWORD }, { ca });
  const cookie = (login.setCookie[0] ?? '').split(';')[0];
  if (login.status !== 200 || !cookie) throw new Error(`could not sign the hospital in: ${login.status}`);
  for (let i = 0; i < SEEDED_PATIENTS; i++) {
    await post(
      `${url}/api/patients`,
      { firstName: `Pat${i}`, lastName: 'Bench', email: `p${i}-${Date.now()}@patient.test` },
      { cookie, ca },
    );
  }
  return cookie;
}

/** One Lighthouse run of `page`; its whole report goes to bench/.out (not committed). */
async function measurePage(
  url: string,
  port: number,
  page: string,
  budgetKb: number,
  cookie: string | undefined,
): Promise<Omit<PageResult, 'performanceRuns'>> {
  const run = () =>
    lighthouse(
      `${url}${page}`,
      {
        port,
        output: 'json',
        logLevel: 'error',
        onlyCategories: ['performance', 'accessibility', 'best-practices'],
        extraHeaders: cookie ? { Cookie: cookie } : undefined,
      },
      undefined,
    );
  let runner = await run();
  // A run Lighthouse could not finish (5 of about 230 on this machine; the two whose error was logged
  // were NO_NAVSTART, its trace missed the navigation) scores 0 and asks to be run again: it is, up
  // to twice, and said so.
  for (let retry = 1; retry <= 2 && runner?.lhr.runtimeError; retry++) {
    const { code, message } = runner.lhr.runtimeError;
    console.warn(`${page}: a Lighthouse run failed (${code}): ${message}; running it again`);
    runner = await run();
  }
  if (!runner) throw new Error(`Lighthouse gave no result for ${page}`);
  const { categories, audits } = runner.lhr;
  // The last run's report, for a closer look at what fell short.
  fs.mkdirSync('bench/.out', { recursive: true });
  fs.writeFileSync(outFile('lighthouse', page), JSON.stringify(runner.lhr));
  // BENCH_WEB_TRACE=1 keeps the run's Chromium trace too (DevTools' Performance panel opens it): the
  // score is simulated from it, so it shows which real tasks a long one was.
  if (process.env.BENCH_WEB_TRACE === '1') {
    fs.writeFileSync(outFile('trace', page), JSON.stringify(runner.artifacts.Trace));
  }
  const requests =
    (
      audits['network-requests']?.details as {
        items?: { resourceType?: string; transferSize?: number }[];
      }
    )?.items ?? [];
  const jsBytes = requests
    .filter((r) => r.resourceType === 'Script')
    .reduce((sum, r) => sum + (r.transferSize ?? 0), 0);
  const score = (id: string) => Math.round((categories[id]?.score ?? 0) * 100);
  const failedAudits = Object.values(audits)
    .filter((a) => a.score !== null && a.score < 0.9 && a.scoreDisplayMode === 'binary')
    .map((a) => a.id);
  return {
    page,
    performance: score('performance'),
    accessibility: score('accessibility'),
    bestPractices: score('best-practices'),
    jsKb: Math.round(jsBytes / 102.4) / 10,
    lcpMs: Math.round(audits['largest-contentful-paint']?.numericValue ?? 0),
    tbtMs: Math.round(audits['total-blocking-time']?.numericValue ?? 0),
    budgetKb,
    failedAudits,
  };
}

/**
 * The dashboard loaded with Chromium's CPU really slowed down (DevTools' throttling), each time in
 * a new browser context (nothing cached), its long tasks read with the Long Tasks API. Lighthouse
 * simulates the slow phone from an unthrottled load, in which the queries' answers are in before
 * the page's code; on a slow CPU they arrive while it builds, and what they then render shows here.
 * Blocking time is Total Blocking Time's sum: every task's time over 50 ms.
 */
async function throttledLoads(browser: Browser, url: string, page: string, cookie: string) {
  const loads: { blockingMs: number; longestMs: number }[] = [];
  for (let run = 0; run < THROTTLED_RUNS; run++) {
    const context = await browser.newContext({
      ignoreHTTPSErrors: true,
      viewport: { width: 412, height: 823 },
    });
    try {
      const [name, ...value] = cookie.split('=');
      await context.addCookies([{ name, value: value.join('='), url }]);
      // The list's last row is noticed from the page's own MutationObserver, not waited for with a
      // locator: Playwright polls a locator inside the page (accessible names, computed styles), and
      // on a 4x slower CPU those polls were long tasks of 40-80 ms counted as the app's.
      await context.addInitScript((lastRow: string) => {
        const tasks: number[] = [];
        Object.assign(window, { longTasks: tasks });
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries()) tasks.push(entry.duration);
        }).observe({ type: 'longtask', buffered: true });
        const rows = new MutationObserver((records) => {
          const added = records.flatMap((record) => [...record.addedNodes]);
          if (added.some((node) => node.textContent?.includes(lastRow))) {
            Object.assign(window, { listShown: true });
            rows.disconnect();
          }
        });
        rows.observe(document, { childList: true, subtree: true });
      }, `Pat0 Bench`);
      const tab = await context.newPage();
      const cdp = await context.newCDPSession(tab);
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
      await tab.goto(`${url}${page}`);
      // The seeded patients' list is the page's content (Pat0, the first added, is its last row);
      // then a second for what follows it.
      await tab.waitForFunction(() => 'listShown' in window, undefined, { timeout: 60_000, polling: 250 });
      await tab.waitForTimeout(1000);
      const tasks = await tab.evaluate(() => (window as unknown as { longTasks: number[] }).longTasks);
      loads.push({
        blockingMs: Math.round(tasks.reduce((sum, ms) => sum + Math.max(0, ms - 50), 0)),
        longestMs: Math.round(Math.max(0, ...tasks)),
      });
    } finally {
      await context.close();
    }
  }
  return loads;
}

async function main() {
  const certDir = fs.mkdtempSync(path.join(os.tmpdir(), 'medledger-bench-cert-'));
  const certificate = PLAIN ? undefined : makeTestCertificate(certDir);
  const port = await freePort();
  const browser = await chromium.launch({
    executablePath: process.env.CHROME_PATH || CHROMIUM_PATH,
    headless: true,
    args: [
      `--remote-debugging-port=${port}`,
      ...(certificate ? ['--ignore-certificate-errors'] : []),
      ...CHROMIUM_ARGS,
    ],
  });
  // The app after the browser: a browser that cannot start then leaves no server process behind.
  const app = await startApp(
    certificate ? { TLS_CERT_FILE: certificate.certFile, TLS_KEY_FILE: certificate.keyFile } : {},
  );
  const results: PageResult[] = [];
  let throttled: Awaited<ReturnType<typeof throttledLoads>> = [];
  try {
    const cookie = await seedHospital(app.url, certificate?.cert);
    const pages: { page: string; budgetKb: number; cookie?: string }[] = [
      { page: '/', budgetKb: 150 },
      { page: '/hospital-login', budgetKb: 150 },
      { page: '/signup', budgetKb: 150 },
      { page: '/verify', budgetKb: 150 },
      { page: '/hospital-dashboard', budgetKb: 350, cookie },
    ];
    const only = process.env.BENCH_WEB_PAGES?.split(',').filter(Boolean);
    const measured = only ? pages.filter((p) => only.includes(p.page)) : pages;
    for (const { page, budgetKb, cookie: pageCookie } of measured) {
      const runs: Omit<PageResult, 'performanceRuns'>[] = [];
      for (let run = 0; run < RUNS; run++) {
        runs.push(await measurePage(app.url, port, page, budgetKb, pageCookie));
      }
      const performanceRuns = runs.map((r) => r.performance).sort((a, b) => a - b);
      results.push({
        page,
        performanceRuns,
        performance: median(performanceRuns),
        accessibility: median(runs.map((r) => r.accessibility)),
        bestPractices: median(runs.map((r) => r.bestPractices)),
        jsKb: median(runs.map((r) => r.jsKb)),
        lcpMs: median(runs.map((r) => r.lcpMs)),
        tbtMs: median(runs.map((r) => r.tbtMs)),
        budgetKb,
        failedAudits: [...new Set(runs.flatMap((r) => r.failedAudits))],
      });
    }
    if (measured.some((p) => p.page === '/hospital-dashboard')) {
      throttled = await throttledLoads(browser, app.url, '/hospital-dashboard', cookie);
    }
  } finally {
    await browser.close();
    await app.stop();
    fs.rmSync(certDir, { recursive: true, force: true });
  }

  console.log(
    `${certificate ? 'HTTPS (HTTP/2)' : 'Plain HTTP/1.1'}; median of ${RUNS} Lighthouse run(s) per page (performance: every run, lowest first)\n` +
      'page                  perf (runs)        a11y  best  JS KB (budget)  LCP ms  TBT ms  failed audits',
  );
  for (const r of results) {
    console.log(
      `${r.page.padEnd(22)}${String(r.performance).padStart(4)} ${`(${r.performanceRuns.join(', ')})`.padEnd(14)}` +
        `${String(r.accessibility).padStart(6)}  ${String(r.bestPractices).padStart(4)}  ` +
        `${`${r.jsKb.toFixed(1)} (${r.budgetKb})`.padStart(14)}  ${String(r.lcpMs).padStart(6)}  ` +
        `${String(r.tbtMs).padStart(6)}  ${r.failedAudits.join(', ') || '-'}`,
    );
  }
  if (throttled.length) {
    const blocking = throttled.map((l) => l.blockingMs).sort((a, b) => a - b);
    const longest = throttled.map((l) => l.longestMs).sort((a, b) => a - b);
    console.log(
      `/hospital-dashboard on a ${CPU_SLOWDOWN}x slower CPU, ${throttled.length} uncached loads: ` +
        `blocking time ${median(blocking)} ms (${blocking.join(', ')}), ` +
        `longest task ${median(longest)} ms (${longest.join(', ')})`,
    );
  }
  const short = results.filter(
    (r) =>
      r.performance < GOAL_SCORE ||
      r.accessibility < GOAL_SCORE ||
      r.bestPractices < GOAL_SCORE ||
      r.jsKb > r.budgetKb,
  );
  console.log(
    short.length
      ? `Short of the goals (scores >= ${GOAL_SCORE}, JS within budget): ${short.map((r) => r.page).join(', ')}`
      : `Every page meets the goals (scores >= ${GOAL_SCORE}, JS within budget).`,
  );
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
