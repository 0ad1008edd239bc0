// Browser-journey harness: starts the real server (built client, fresh PGlite data folder, free
// port) as a child process, and launches Debian's Chromium through playwright-core.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext } from 'playwright-core';
import { freePort } from '../scripts/free-port.js';
import { SERVER_NODE_ARGS } from '../src/server/start-command.js';

export interface RunningApp {
  url: string;
  dataDir: string;
  /** Everything the server printed so far (stdout and stderr). */
  output(): string;
  stop(): Promise<void>;
}

export const ADMIN_EMAIL = 'admin@medledger.test';
export const ADMIN_PASSWORD = 'Adm1n!Passw0rd';

/** Starts the app with a first administrator (ADMIN_EMAIL/ADMIN_PASSWORD) on a fresh data folder. */
export async function startApp(env: Record<string, string> = {}): Promise<RunningApp> {
  if (!fs.existsSync(path.resolve('dist/client/index.html'))) {
    throw new Error('dist/client is missing: run `npm run build` before the browser journeys');
  }
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'medledger-e2e-'));
  // With a certificate (TLS_CERT_FILE, TLS_KEY_FILE) the server speaks HTTPS, and HTTP/2 to Chromium.
  const url = `${env.TLS_CERT_FILE ? 'https' : 'http'}://localhost:${port}`;
  // The compiled server itself, as `npm start` runs it (SERVER_NODE_ARGS; built by the journeys'
  // global set-up): npm would put a process of its own in between, which a SIGKILL on timeout
  // would leave the server running behind.
  const child: ChildProcess = spawn(process.execPath, SERVER_NODE_ARGS, {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      PUBLIC_URL: url,
      DATABASE_URL: '',
      LOG_LEVEL: 'warn',
      CHECK_RESPONSES: '1',
      ADMIN_EMAIL,
      ADMIN_PASSWORD,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start in 60 s:\n${output}`)), 60_000);
    const check = () => {
      if (output.includes('MedLedger is running at')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on('data', check);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${output}`));
    });
  });
  return {
    url,
    dataDir,
    output: () => output,
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        const timeout = setTimeout(() => child.kill('SIGKILL'), 10_000);
        await exited;
        clearTimeout(timeout);
      }
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Debian's Chromium, headless, as root, on a machine with no outside network. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
  '--no-first-run',
];

export async function launchBrowser(): Promise<Browser> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: CHROMIUM_ARGS,
  });
  return watchPageErrors(watchPolicyViolations(withPageOrigin(browser)));
}

/** Runs `setup` on every new context of `browser` before the caller gets it. */
function onEveryContext(browser: Browser, setup: (context: BrowserContext) => void | Promise<void>): Browser {
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (...args) => {
    const context = await newContext(...args);
    await setup(context);
    return context;
  };
  return browser;
}

const violations = new WeakMap<Browser, string[]>();
const pageErrors = new WeakMap<Browser, string[]>();

/** Uncaught exceptions and unhandled rejections of any page of this browser, with the page's URL. */
export const uncaughtPageErrors = (browser: Browser): readonly string[] => pageErrors.get(browser) ?? [];

/**
 * An exception nobody catches in the page is a bug even when the screen looks right (a handler that
 * throws, a promise nobody awaits): every journey collects them for its browser, to check at the end.
 */
function watchPageErrors(browser: Browser): Browser {
  const found: string[] = [];
  pageErrors.set(browser, found);
  return onEveryContext(browser, (context) => {
    context.on('weberror', (webError) =>
      found.push(`${webError.page()?.url() ?? '?'}: ${String(webError.error().stack ?? webError.error())}`),
    );
  });
}

/** What Chromium reported as refused by the Content-Security-Policy on any page of this browser. */
export const policyViolations = (browser: Browser): readonly string[] => violations.get(browser) ?? [];

/**
 * The app's CSP allows no eval and no inline script: a page that tries either (a library probing
 * `new Function`, say) is refused quietly, but Lighthouse and DevTools list it on every visit. The
 * page's `securitypolicyviolation` events are passed to the console (an init script, which the CSP
 * does not govern) and collected for every journey to check.
 */
function watchPolicyViolations(browser: Browser): Browser {
  const found: string[] = [];
  violations.set(browser, found);
  return onEveryContext(browser, async (context) => {
    await context.addInitScript(() =>
      document.addEventListener('securitypolicyviolation', (event) =>
        console.error(`Content Security Policy violation: ${event.violatedDirective} ${event.blockedURI}`),
      ),
    );
    context.on('console', (message) => {
      if (message.type() === 'error' && message.text().startsWith('Content Security Policy violation'))
        found.push(`${message.page()?.url() ?? '?'}: ${message.text()}`);
    });
  });
}

type RequestOptions = { headers?: Record<string, string> } & Record<string, unknown>;
const WRITES = ['post', 'put', 'patch', 'delete', 'fetch'] as const;

/**
 * The server refuses state-changing requests without the page's Origin, which Chromium sends from
 * a page but Playwright's `context.request` does not. Journeys that call the API through
 * `context.request` stand for the app's own page, so those calls carry the Origin of their URL.
 */
function withPageOrigin(browser: Browser): Browser {
  return onEveryContext(browser, (context) => {
    const request = context.request as unknown as Record<
      string,
      (url: string, options?: RequestOptions) => unknown
    >;
    for (const method of WRITES) {
      const send = request[method].bind(context.request);
      request[method] = (url, options = {}) =>
        send(url, { ...options, headers: { origin: new URL(url).origin, ...options.headers } });
    }
  });
}
