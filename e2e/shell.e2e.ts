// Browser journeys of the client shell: route guards and redirects, the 404 page, the session
// check at start, the shared header and footer, the profile page, keyboard access.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { startJourney } from './journey';
import { addPatient, signedInHospital, signedInPatient, toast, uniqueEmail } from './auth-helpers';

const journey = startJourney();

const pathOf = (url: string) => new URL(url).pathname;

describe('signed-out visitors', () => {
  it('see the 404 page on an unknown path, and its Back button leads to /', async () => {
    const context = await journey.browser.newContext();
    const page = await context.newPage();
    await page.goto(`${journey.app.url}/no/such/page`);
    await page.getByText('Did you forget to add the page to the router?').waitFor();
    await page.getByRole('link', { name: 'Back' }).click();
    await page.getByText('Healthcare Provider Login').waitFor();
    expect(pathOf(page.url())).toBe('/');
    await context.close();
  });

  it('get an answer with a Reload button when the code of a page cannot be loaded, not a blank page', async () => {
    const context = await journey.browser.newContext();
    const page = await context.newPage();
    // The verification page's own chunk fails (a dropped connection, or an old chunk after a deploy).
    const verifyChunk = /\/assets\/VerifyPage-[^/]*\.js$/;
    await page.route(verifyChunk, (route) => route.abort());
    await page.goto(`${journey.app.url}/verify`);
    const alert = page.getByRole('alert').filter({ hasText: 'This part of MedLedger could not be loaded' });
    await alert.waitFor();
    expect(await alert.textContent()).toContain('Check your connection and reload the page');
    await page.unroute(verifyChunk);
    // The page comes back; now only its receipt section fails, and the rest of the page stays.
    const receiptChunk = /\/assets\/ReceiptCheck-[^/]*\.js$/;
    await page.route(receiptChunk, (route) => route.abort());
    await alert.getByRole('button', { name: 'Reload' }).click();
    await page.getByRole('heading', { name: 'Verify a Record' }).waitFor();
    await alert.waitFor();
    await page.getByRole('button', { name: 'Check' }).waitFor();
    await context.close();
  });

  it('are sent from the dashboards and the profile page to /, and from the admin page to its login', async () => {
    const context = await journey.browser.newContext();
    const page = await context.newPage();
    for (const guarded of ['/hospital-dashboard', '/patient-dashboard', '/profile/edit']) {
      await page.goto(`${journey.app.url}${guarded}`);
      await page.getByText('Patient Login').first().waitFor();
      expect(pathOf(page.url())).toBe('/');
    }
    await page.goto(`${journey.app.url}/medledger/applications`);
    await page.waitForURL(`${journey.app.url}/medledger-login`);
    await context.close();
  });

  it('see "Loading..." while the session is checked, then the login options', async () => {
    const context = await journey.browser.newContext();
    const page = await context.newPage();
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/auth/me', async (route) => {
      await held;
      await route.continue();
    });
    await page.goto(`${journey.app.url}/hospital-dashboard`);
    await page.getByText('Loading...').waitFor();
    release();
    await page.getByText('Healthcare Provider Login').waitFor();
    expect(pathOf(page.url())).toBe('/');
    await context.close();
  });

  it('lose a stale stored user the server no longer knows', async () => {
    const context = await journey.browser.newContext();
    await context.addInitScript(() => {
      // Init scripts also run in the new page's about:blank, which has no storage.
      if (location.protocol === 'about:') return;
      if (!sessionStorage.getItem('seeded')) {
        sessionStorage.setItem('seeded', '1');
        localStorage.setItem(
          'medledger.user',
          JSON.stringify({
            id: '00000000-0000-4000-8000-000000000000',
            email: 'gone@example.com',
            role: 'patient',
            firstName: 'Gone',
            lastName: null,
            hospitalName: null,
            lastLoginAt: null,
          }),
        );
      }
    });
    const page = await context.newPage();
    await page.goto(`${journey.app.url}/patient-dashboard`);
    await page.getByText('Healthcare Provider Login').waitFor();
    expect(pathOf(page.url())).toBe('/');
    expect(await page.evaluate(() => localStorage.getItem('medledger.user'))).toBeNull();
    await context.close();
  });

  it('can reach the login choices by keyboard', async () => {
    const context = await journey.browser.newContext();
    const page = await context.newPage();
    await page.goto(`${journey.app.url}/`);
    await page.getByText('Healthcare Provider Login').waitFor();
    await page.screenshot({ path: '/tmp/medledger-landing.png', fullPage: true });
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to main content');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toContain(
      'Healthcare Provider Login',
    );
    await page.keyboard.press('Enter');
    await page.waitForURL(`${journey.app.url}/hospital-login`);
    await context.close();
  });

  it('see the MedLedger mark as the page icon: an SVG the browser draws, cached as a built asset', async () => {
    const context = await journey.browser.newContext();
    const page = await context.newPage();
    await page.goto(`${journey.app.url}/`);
    const href = await page.locator('link[rel="icon"]').getAttribute('href');
    expect(href).toMatch(/^\/assets\/favicon-[\w-]+\.svg$/);
    const res = await context.request.get(`${journey.app.url}${href}`);
    expect(res.status()).toBe(200);
    expect(res.headers()['content-type']).toBe('image/svg+xml');
    expect(res.headers()['cache-control']).toBe('public, max-age=31536000, immutable');
    const width = await page.evaluate(async (src) => {
      const icon = new Image();
      icon.src = src;
      await icon.decode();
      return icon.naturalWidth;
    }, href!);
    expect(width).toBeGreaterThan(0);
    await context.close();
  });

  it('find the support address and two social links in the footer', async () => {
    const context = await journey.browser.newContext();
    const page = await context.newPage();
    await page.goto(`${journey.app.url}/patient-login`);
    const mail = page.getByRole('link', { name: 'support@medledger.example' });
    expect(await mail.getAttribute('href')).toBe('mailto:support@medledger.example');
    expect(await page.locator('footer a[target="_blank"]').count()).toBe(2);
    await context.close();
  });
});

describe('signed-in users', () => {
  it('a hospital gets its dashboard at /, is kept off the patient dashboard, and sees the header', async () => {
    const context = await journey.browser.newContext({ viewport: { width: 1400, height: 900 } });
    await signedInHospital(context, journey.app.url, 'Lakeside Hospital');
    const page = await context.newPage();
    await page.goto(`${journey.app.url}/`);
    await page.getByText('Healthcare Portal').waitFor();
    await page.getByTestId('header-hospital-name').filter({ hasText: 'Lakeside Hospital' }).waitFor();
    await page.screenshot({ path: '/tmp/medledger-hospital-home.png' });

    await page.goto(`${journey.app.url}/patient-dashboard`);
    await page.getByText('Healthcare Portal').waitFor();
    expect(pathOf(page.url())).toBe('/');

    // Name and avatar open the profile: read-only details for hospital users.
    await page.getByRole('link', { name: 'Profile of Grace Hopper' }).click();
    await page.waitForURL(`${journey.app.url}/profile/edit`);
    await page.getByText('Healthcare Administration').waitFor();
    await page.getByText('Full Hospital Access').waitFor();
    await page.getByText('Hospital details are managed by a system administrator.').waitFor();
    expect(await page.getByRole('button', { name: 'Contact Administrator' }).isDisabled()).toBe(true);
    await page.screenshot({ path: '/tmp/medledger-profile.png', fullPage: true });

    // Back follows the browser history.
    await page.getByRole('button', { name: 'Back', exact: true }).click();
    await page.waitForURL(`${journey.app.url}/`);
    await page.goto(`${journey.app.url}/profile/edit`);
    await page.getByRole('link', { name: 'Back to Dashboard' }).click();
    await page.waitForURL(`${journey.app.url}/hospital-dashboard`);
    await context.close();
  });

  it('the session check starts with the page, and the app takes its answer without asking again', async () => {
    // index.html preloads GET /api/auth/me with the session cookie: a second request (the app's
    // own fetch) would mean the preload was not used; an answer without the cookie would show
    // the login options instead of the dashboard.
    const context = await journey.browser.newContext();
    await signedInHospital(context, journey.app.url, 'Preload Hospital');
    const page = await context.newPage();
    const sessionChecks: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/api/auth/me') sessionChecks.push(request.resourceType());
    });
    await page.goto(`${journey.app.url}/`);
    await page.getByText('Healthcare Portal').waitFor();
    await page.getByTestId('header-hospital-name').filter({ hasText: 'Preload Hospital' }).waitFor();
    expect(sessionChecks).toEqual(['other']); // the link's request; the app's fetch would be 'fetch'
    await context.close();
  });

  it('see "Loading..." while the scripts are still on their way, not a blank page', async () => {
    const context = await journey.browser.newContext();
    const page = await context.newPage();
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/assets\/[^/]*\.js$/, async (route) => {
      await held;
      await route.continue();
    });
    await page.goto(`${journey.app.url}/signup`, { waitUntil: 'commit' });
    const placeholder = page.getByRole('status').filter({ hasText: 'Loading...' });
    await placeholder.waitFor({ timeout: 10_000 });
    release();
    await page.getByRole('heading', { name: 'Create Account' }).waitFor();
    expect(await placeholder.count()).toBe(0);
    await context.close();
  });

  it("a public page's code is named in the page the server sends, and each script is fetched once", async () => {
    // The build writes a copy of index.html per public path that names the page's chunks
    // (vite.config.ts, routePages); a chunk missing from it would be fetched only after the entry
    // has run, one round trip later.
    const context = await journey.browser.newContext();
    const page = await context.newPage();
    for (const [url, heading] of [
      ['/signup', 'Create Account'],
      ['/hospital-login', 'Hospital Login'],
    ]) {
      const scripts: string[] = [];
      const onRequest = (request: { url(): string; resourceType(): string }) => {
        if (request.resourceType() === 'script') scripts.push(pathOf(request.url()));
      };
      page.on('request', onRequest);
      const response = await page.goto(`${journey.app.url}${url}`);
      await page.getByRole('heading', { name: heading }).waitFor();
      await page.waitForLoadState('networkidle');
      page.off('request', onRequest);
      const html = await response!.text();
      expect(scripts.length, url).toBeGreaterThan(5);
      expect(new Set(scripts).size, url).toBe(scripts.length);
      for (const script of scripts) expect(html, `${url} ${script}`).toContain(`"${script}"`);
    }
    await context.close();
  });

  it('a public page is the first thing React shows on its path: no spinner first, no second mount', async () => {
    // main.tsx loads the page of the first path before rendering (lazyPage); without that, React
    // commits its loading screen (a Mantine Loader), then mounts the page when the chunk is in.
    const context = await journey.browser.newContext();
    await context.addInitScript(() => {
      const spinners: string[] = [];
      Object.assign(window, { spinners });
      new MutationObserver((changes) => {
        for (const change of changes)
          for (const node of change.addedNodes)
            if (node instanceof Element && node.matches('.mantine-Loader-root, :has(.mantine-Loader-root)'))
              spinners.push(window.location.pathname);
      }).observe(document, { childList: true, subtree: true });
    });
    const page = await context.newPage();
    const spinnersSeen = () => page.evaluate(() => (window as unknown as { spinners: string[] }).spinners);
    for (const [url, heading] of [
      ['/signup', 'Create Account'],
      ['/hospital-login', 'Hospital Login'],
    ]) {
      await page.goto(`${journey.app.url}${url}`);
      await page.getByRole('heading', { name: heading }).waitFor();
      await page.waitForLoadState('networkidle');
      expect(await spinnersSeen(), url).toEqual([]);
    }
    // The observer does see a spinner: / shows the loading screen while it asks who is signed in.
    await page.route('**/api/auth/me', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 500));
      await route.continue();
    });
    await page.goto(`${journey.app.url}/`);
    await page.getByText('Healthcare Provider Login').waitFor();
    expect(await spinnersSeen()).toEqual(['/']);
    await context.close();
  });

  it('a hospital on a phone opens the sidebar from the header menu toggle', async () => {
    const context = await journey.browser.newContext({ viewport: { width: 390, height: 800 } });
    await signedInHospital(context, journey.app.url);
    const page = await context.newPage();
    await page.goto(`${journey.app.url}/hospital-dashboard`);
    const toggle = page.getByRole('button', { name: 'Open navigation menu' });
    await toggle.waitFor();
    // Collapsed, the slide-in sits off-screen to the left.
    const navbar = page.locator('#app-navbar');
    const right = async () => {
      const box = await navbar.boundingBox();
      return box ? box.x + box.width : 0;
    };
    expect(await right()).toBeLessThanOrEqual(0);
    await toggle.click();
    await page.getByRole('button', { name: 'Close navigation menu' }).waitFor();
    await expect.poll(right).toBeGreaterThan(100);
    await navbar.getByText('Patients').waitFor();
    await page.screenshot({ path: '/tmp/medledger-hospital-mobile.png' });
    await context.close();
  });

  it('a patient gets the patient dashboard at / and is kept off the hospital dashboard', async () => {
    const hospital = await journey.browser.newContext();
    await signedInHospital(hospital, journey.app.url);
    const mrn = await addPatient(hospital, journey.app.url, { firstName: 'Ada', lastName: 'Lovelace' });
    await hospital.close();

    const context = await journey.browser.newContext();
    await signedInPatient(context, journey.app.url, mrn, uniqueEmail('shell-patient'));
    const page = await context.newPage();
    await page.goto(`${journey.app.url}/hospital-dashboard`);
    await page.getByRole('heading', { name: 'Welcome back, Ada!' }).waitFor();
    expect(pathOf(page.url())).toBe('/');
    await page.getByText('Patient Portal').waitFor();
    // No menu toggle for patients, on any screen size.
    expect(await page.getByRole('button', { name: /navigation menu/ }).count()).toBe(0);

    await page.goto(`${journey.app.url}/medledger/applications`);
    await page.getByRole('heading', { name: 'Welcome back, Ada!' }).waitFor();
    expect(pathOf(page.url())).toBe('/');

    await page.goto(`${journey.app.url}/profile/edit`);
    await page.getByRole('button', { name: 'Edit Profile' }).waitFor();
    await page.getByRole('link', { name: 'Back to Dashboard' }).click();
    await page.waitForURL(`${journey.app.url}/patient-dashboard`);
    await context.close();
  });

  it('F8 moves the focus to the notification area', async () => {
    const context = await journey.browser.newContext();
    const page = await context.newPage();
    await page.goto(`${journey.app.url}/signup?role=hospital`);
    await page.getByLabel(/^Password/).fill('short');
    await page.getByLabel(/^Confirm Password/).fill('other');
    await page.getByLabel('First Name').fill('A');
    await page.getByLabel('Last Name').fill('B');
    await page.getByLabel('Hospital/Clinic Name').fill('C');
    await page.getByLabel('Email Address').fill(uniqueEmail('f8'));
    await page.getByRole('button', { name: 'Create Account' }).click();
    await toast(page, 'Password Mismatch').waitFor();
    await page.getByLabel('First Name').focus();
    await page.keyboard.press('F8');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe(
      'Notifications (F8)',
    );
    await context.close();
  });
});

describe('the built client', () => {
  it("carries React Router's production build, without its development warnings", () => {
    // vite.config.ts points the build at it: the package's exports give the development build in
    // every mode. One of its development warnings stands for all of them.
    const assets = path.resolve('dist/client/assets');
    const scripts = fs.readdirSync(assets).filter((name) => name.endsWith('.js'));
    expect(scripts.length).toBeGreaterThan(0);
    const withWarnings = scripts.filter((name) =>
      fs.readFileSync(path.join(assets, name), 'utf8').includes('You rendered descendant <Routes>'),
    );
    expect(withWarnings).toEqual([]);
  });
});
