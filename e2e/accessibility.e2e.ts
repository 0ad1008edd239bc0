// Every main screen, as a visitor, a hospital, a patient and an administrator, on a desktop and on
// a 390 px phone: axe-core finds no serious or critical WCAG 2.1 A/AA violation, nothing makes the
// page scroll sideways on the phone, and a screenshot of each is saved under
// test-results/screenshots/ for a reviewer to look through after every change.
import fs from 'node:fs';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { addPatient, signedInHospital, signedInPatient, uniqueEmail } from './auth-helpers';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from './harness';
import { startJourney } from './journey';

const journey = startJourney();

const SCREENSHOTS = path.resolve('test-results/screenshots');

const VIEWPORTS = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 390, height: 844 },
];

/** Serious and critical violations on the page as it is now, one line each. */
async function seriousViolations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/** What scrolls sideways: the page itself, or a box inside it (a table hiding its Actions). */
const sidewaysScrolling = (page: Page) =>
  page.evaluate(() => {
    const found: string[] = [];
    const root = document.documentElement;
    if (root.scrollWidth > root.clientWidth)
      found.push(`the page by ${root.scrollWidth - root.clientWidth} px`);
    for (const element of Array.from(document.body.querySelectorAll<HTMLElement>('*'))) {
      const { overflowX } = getComputedStyle(element);
      if ((overflowX === 'auto' || overflowX === 'scroll') && element.scrollWidth > element.clientWidth + 1) {
        const label = element.getAttribute('aria-label') ?? element.className.toString().slice(0, 40);
        found.push(
          `<${element.tagName.toLowerCase()} ${label}> by ${element.scrollWidth - element.clientWidth} px`,
        );
      }
    }
    return found;
  });

const screenshotName = (role: string, pagePath: string, viewport: string) =>
  `${role}${pagePath.replace(/[^a-z0-9]+/gi, '-').replace(/-$/, '')}-${viewport}.png`;

/**
 * Opens each path (waiting for `ready` text) at both widths; collects what axe finds and any
 * sideways overflow, and saves a screenshot.
 */
async function check(
  role: string,
  context: BrowserContext,
  paths: { path: string; ready: string }[],
): Promise<string[]> {
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  const found: string[] = [];
  for (const viewport of VIEWPORTS) {
    const page = await context.newPage();
    await page.setViewportSize({ width: viewport.width, height: viewport.height });
    for (const { path: pagePath, ready } of paths) {
      await page.goto(`${journey.app.url}${pagePath}`);
      await page.getByText(ready, { exact: false }).first().waitFor();
      for (const line of await seriousViolations(page)) found.push(`${viewport.name} ${pagePath}: ${line}`);
      for (const what of await sidewaysScrolling(page))
        found.push(`${viewport.name} ${pagePath}: scrolls sideways: ${what}`);
      await page.screenshot({
        path: path.join(SCREENSHOTS, screenshotName(role, pagePath, viewport.name)),
        fullPage: true,
      });
    }
    await page.close();
  }
  return found;
}

describe('accessibility (axe-core)', () => {
  it('finds nothing serious on the public pages', async () => {
    const context = await journey.browser.newContext();
    const found = await check('visitor', context, [
      { path: '/', ready: 'Healthcare Provider Login' },
      { path: '/hospital-login', ready: 'Remember me' },
      { path: '/patient-login', ready: 'Remember me' },
      { path: '/medledger-login', ready: 'Remember me' },
      { path: '/family-login', ready: 'Remember me' },
      { path: '/shared/no-such-link', ready: 'Link not available' },
      { path: '/signup', ready: 'Create' },
      { path: '/provider-apply', ready: 'Join MedLedger as a Healthcare Provider' },
      { path: '/verify', ready: 'Drop a file here' },
      { path: '/no-such-page', ready: '404' },
    ]);
    expect(found).toEqual([]);
    await context.close();
  });

  it('finds nothing serious on every tab of the hospital dashboard', async () => {
    const context = await journey.browser.newContext();
    await signedInHospital(context, journey.app.url);
    await addPatient(context, journey.app.url, { firstName: 'Ada', lastName: 'Lovelace' });
    const found = await check('hospital', context, [
      { path: '/hospital-dashboard', ready: 'Lovelace' },
      { path: '/hospital-dashboard?tab=upload', ready: 'Upload' },
      { path: '/hospital-dashboard?tab=appointments', ready: 'Appointments' },
      { path: '/hospital-dashboard?tab=audit', ready: 'Audit' },
      { path: '/hospital-dashboard?tab=settings', ready: 'Settings' },
      { path: '/profile/edit', ready: 'Profile' },
    ]);
    expect(found).toEqual([]);
    await context.close();
  });

  it('finds nothing serious on the patient dashboard and profile', async () => {
    const hospital = await journey.browser.newContext();
    await signedInHospital(hospital, journey.app.url);
    const email = uniqueEmail('a11y-patient');
    const mrn = await addPatient(hospital, journey.app.url, { firstName: 'Ada', lastName: 'Lovelace', email });
    const context = await journey.browser.newContext();
    await signedInPatient(context, journey.app.url, mrn, email);
    const found = await check('patient', context, [
      { path: '/patient-dashboard', ready: 'Ada' },
      { path: '/profile/edit', ready: 'Profile' },
    ]);
    expect(found).toEqual([]);
    await Promise.all([context.close(), hospital.close()]);
  });

  it('finds nothing serious on the administrator pages', async () => {
    const context = await journey.browser.newContext();
    const res = await context.request.post(`${journey.app.url}/api/auth/login`, {
      data: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD },
    });
    expect(res.ok()).toBe(true);
    const found = await check('admin', context, [{ path: '/medledger/applications', ready: 'Applications' }]);
    expect(found).toEqual([]);
    await context.close();
  });
});
