// The start every browser-journey file shares: one app (fresh data folder) and one Chromium for the
// file, both stopped after its last test, and new pages in their own signed-out context.
import path from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import { linkTo, outboxMessages } from '../src/server/mail/read-message';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { launchBrowser, policyViolations, startApp, uncaughtPageErrors, type RunningApp } from './harness';

export interface Journey {
  /** The running app; available inside tests and hooks (set in beforeAll). */
  readonly app: RunningApp;
  readonly browser: Browser;
  /** A page in a new context (own cookies) of the given options. */
  newPage(options?: BrowserContextOptions): Promise<Page>;
}

/**
 * The server's log lines of level error or fatal (pino: 50, 60): an unhandled error (a 500) or a
 * response that broke its schema. A journey drives real use, so none is expected.
 */
function serverErrorLines(output: string): string[] {
  return output.split('\n').filter((line) => /^\{.*"level":(5|6)0[,}]/.test(line));
}

/** Registers the file's beforeAll/afterAll that start and stop the app and the browser. */
export function startJourney(
  env: Record<string, string> = {},
  /** Server errors this journey causes on purpose (say, an attachment altered on disk). */
  { expectedServerErrors = [] }: { expectedServerErrors?: RegExp[] } = {},
): Journey {
  let app: RunningApp | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    app = await startApp(env);
    browser = await launchBrowser();
  });
  afterAll(async () => {
    const refused = browser ? [...policyViolations(browser)] : [];
    const uncaught = browser ? [...uncaughtPageErrors(browser)] : [];
    const serverErrors = (app ? serverErrorLines(app.output()) : []).filter(
      (line) => !expectedServerErrors.some((expected) => expected.test(line)),
    );
    await browser?.close();
    await app?.stop();
    expect(refused, 'Content-Security-Policy violations on the pages of this journey').toEqual([]);
    expect(uncaught, 'uncaught errors in the pages of this journey').toEqual([]);
    expect(serverErrors, 'errors the server logged during this journey').toEqual([]);
  });
  const journey: Journey = {
    get app() {
      if (!app) throw new Error('the journey app is used before beforeAll started it');
      return app;
    },
    get browser() {
      if (!browser) throw new Error('the journey browser is used before beforeAll launched it');
      return browser;
    },
    async newPage(options) {
      return (await journey.browser.newContext(options)).newPage();
    },
  };
  return journey;
}

/** The newest link to `pathname` the app mailed to `email` (its outbox), waiting briefly for it. */
export async function mailedLink(app: RunningApp, email: string, pathname: string): Promise<string> {
  for (let i = 0; i < 50; i++) {
    // The latest mail to `email` with such a link (a signup's welcome, say, may come after it).
    const link = outboxMessages(path.join(app.dataDir, 'outbox'))
      .filter((m) => m.includes(`To: ${email}`))
      .map((m) => linkTo(m, pathname))
      .filter((l) => l !== undefined)
      .at(-1);
    if (link) return link;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no ${pathname} link was mailed to ${email}`);
}
