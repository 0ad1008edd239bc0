// How the built client and the API answers travel: pre-compressed files chosen by Accept-Encoding,
// long-lived caching only for content-hashed assets, and JSON compressed above 1 KiB.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addPatient, createTestApp, signedInHospital, type TestApp } from './test/helpers.js';

const script = `export const hello = ${JSON.stringify('MedLedger '.repeat(600))};\n`;
let t: TestApp;
let clientDir: string;

beforeAll(async () => {
  clientDir = fs.mkdtempSync(path.join(os.tmpdir(), 'medledger-client-'));
  fs.mkdirSync(path.join(clientDir, 'assets'));
  fs.writeFileSync(
    path.join(clientDir, 'index.html'),
    '<!doctype html><title>MedLedger</title><div id="root"></div>',
  );
  // The build's copies of index.html for some paths (vite.config.ts, routePages).
  fs.mkdirSync(path.join(clientDir, 'routes', 'profile'), { recursive: true });
  for (const [file, page] of [
    ['verify.html', 'verify'],
    ['profile/edit.html', 'profile'],
  ]) {
    const html = `<!doctype html><title>MedLedger</title><link rel="modulepreload" href="/assets/${page}.js"><div id="root"></div>`;
    fs.writeFileSync(path.join(clientDir, 'routes', file), html);
    fs.writeFileSync(path.join(clientDir, 'routes', `${file}.br`), zlib.brotliCompressSync(html));
  }
  const asset = path.join(clientDir, 'assets', 'app-3f2a9c1b.js');
  fs.writeFileSync(asset, script);
  fs.writeFileSync(`${asset}.br`, zlib.brotliCompressSync(script));
  fs.writeFileSync(`${asset}.gz`, zlib.gzipSync(script));
  t = await createTestApp({ serveClient: true }, { clientDir });
});

afterAll(async () => {
  await t.close();
  fs.rmSync(clientDir, { recursive: true, force: true });
});

const get = (url: string, acceptEncoding?: string) =>
  t.app.inject({ method: 'GET', url, headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {} });

describe('the built client', () => {
  it('sends the brotli file to a browser that accepts it, cached for a year as immutable', async () => {
    const res = await get('/assets/app-3f2a9c1b.js', 'gzip, deflate, br');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(zlib.brotliDecompressSync(res.rawPayload).toString()).toBe(script);
    expect(res.rawPayload.length).toBeLessThan(script.length / 5);
  });

  it('sends gzip to a browser without brotli, and the plain file to one without either', async () => {
    const gz = await get('/assets/app-3f2a9c1b.js', 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gz.rawPayload).toString()).toBe(script);
    const plain = await get('/assets/app-3f2a9c1b.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(script);
  });

  it("weighs the browser's preferences: a refused encoding is never sent", async () => {
    const gz = await get('/assets/app-3f2a9c1b.js', 'br;q=0, gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gz.rawPayload).toString()).toBe(script);
    const plain = await get('/assets/app-3f2a9c1b.js', 'identity');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(script);
    expect(plain.headers['vary']).toBe('Accept-Encoding');
  });

  it("answers 304 without a body when the browser's copy of that encoding is current", async () => {
    const first = await get('/assets/app-3f2a9c1b.js', 'br');
    const etag = String(first.headers['etag']);
    expect(etag).toMatch(/^"[\w-]+"$/);
    const again = await t.app.inject({
      url: '/assets/app-3f2a9c1b.js',
      headers: { 'accept-encoding': 'br', 'if-none-match': etag },
    });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);
    expect(again.headers['etag']).toBe(etag);
    expect(again.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    // The gzip copy is other bytes, so the brotli copy's tag does not stand for it.
    const gz = await t.app.inject({
      url: '/assets/app-3f2a9c1b.js',
      headers: { 'accept-encoding': 'gzip', 'if-none-match': etag },
    });
    expect(gz.statusCode).toBe(200);
    expect(gz.headers['etag']).not.toBe(etag);
    // index.html is checked each time (no-cache): an unchanged one costs a 304.
    const page = await get('/hospital-dashboard', 'br');
    const pageAgain = await t.app.inject({
      url: '/hospital-dashboard',
      headers: { 'accept-encoding': 'br', 'if-none-match': String(page.headers['etag']) },
    });
    expect(pageAgain.statusCode).toBe(304);
  });

  it('answers HEAD with the headers and length of the GET, without the body', async () => {
    const res = await t.app.inject({ method: 'HEAD', url: '/assets/app-3f2a9c1b.js' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(res.headers['content-length']).toBe(String(Buffer.byteLength(script)));
    expect(res.rawPayload.length).toBe(0);
  });

  it('serves index.html for the app routes and asks the browser to check it each time', async () => {
    for (const url of ['/', '/hospital-dashboard', '/shared/abc?x=1']) {
      const res = await get(url, 'br');
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.headers['cache-control'], url).toBe('no-cache');
      expect(res.headers['content-security-policy'], url).toContain("script-src 'self'");
      expect(res.headers['x-frame-options'], url).toBe('SAMEORIGIN');
      expect(res.body).toContain('<div id="root">');
    }
  });

  it("sends a path the build wrote a copy of index.html for that copy, with the page's headers", async () => {
    for (const [url, page] of [
      ['/verify', 'verify'],
      ['/verify?hash=abc', 'verify'],
      ['/profile/edit', 'profile'],
    ]) {
      const res = await get(url, 'gzip, br');
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type'], url).toMatch(/^text\/html/);
      expect(res.headers['content-encoding'], url).toBe('br');
      expect(res.headers['cache-control'], url).toBe('no-cache');
      expect(res.headers['content-security-policy'], url).toContain("script-src 'self'");
      expect(zlib.brotliDecompressSync(res.rawPayload).toString(), url).toContain(`/assets/${page}.js`);
    }
    // Other paths get index.html.
    for (const url of ['/', '/verify/', '/profile', '/routes/verify', '/no/such']) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.body, url).not.toContain('modulepreload');
    }
  });

  it('sends a script with the headers that apply to it (nosniff, CORP), not the page policies', async () => {
    const res = await get('/assets/app-3f2a9c1b.js', 'br');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['cross-origin-resource-policy']).toBe('same-origin');
    expect(res.headers['content-security-policy']).toBeUndefined();
    expect(res.headers['x-frame-options']).toBeUndefined();
  });

  it('answers 404 for a missing asset instead of the app page (which would lack its policies)', async () => {
    const res = await get('/assets/app-00000000.js', 'br');
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.json()).toEqual({ message: 'Not found.' });
  });
});

describe('API answers', () => {
  it('compresses JSON above 1 KiB for a client that accepts it', async () => {
    const res = await get('/api/docs/json', 'br');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    const document = JSON.parse(zlib.brotliDecompressSync(res.rawPayload).toString());
    expect(document.openapi).toMatch(/^3\./);
  });

  it('compresses a page of a list in one piece, sent with its length rather than as a stream', async () => {
    const hospital = await signedInHospital(t.app);
    for (let i = 0; i < 40; i++) {
      await addPatient(t.app, hospital.cookie, { firstName: `Patient${i}`, lastName: 'Compressed' });
    }
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/patients?pageSize=50',
      headers: { cookie: hospital.cookie, 'accept-encoding': 'gzip, deflate, br, zstd' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    const body = zlib.brotliDecompressSync(res.rawPayload);
    // Larger than what the plugin streams by default on 2 cores (8 KiB), within the 64 KiB.
    expect(body.length).toBeGreaterThan(8192);
    expect(body.length).toBeLessThan(65536);
    expect(Number(res.headers['content-length'])).toBe(res.rawPayload.length);
    expect(JSON.parse(body.toString())).toMatchObject({ total: 40 });
  });

  it('leaves small answers and clients without Accept-Encoding alone', async () => {
    const small = await get('/api/auth/me', 'br');
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.json()).toEqual({ user: null });
    const plain = await get('/api/docs/json');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.json().openapi).toMatch(/^3\./);
  });

  it('refuses a compressed request body with a 4xx and a message (no API takes one)', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip', origin: t.config.publicUrl },
      payload: zlib.gzipSync(JSON.stringify({ email: 'a@example.test', password: 'x' })),
    });
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(res.statusCode).toBeLessThan(500);
    expect(res.json().message).toEqual(expect.any(String));
  });
});
