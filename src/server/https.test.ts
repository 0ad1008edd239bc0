// The server speaking HTTPS itself (TLS_CERT_FILE, TLS_KEY_FILE) over a real socket: HTTP/2 to a
// client that offers it and HTTP/1.1 to one that does not, a Secure session cookie, an attachment
// that goes in and comes out whole over HTTP/2, and a changed one broken off there as it is over
// HTTP/1.1 (download.test.ts). The certificate is a throw-away one that the clients trust by name.
import crypto from 'node:crypto';
import fs from 'node:fs';
import http2 from 'node:http2';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import tls from 'node:tls';
import zlib from 'node:zlib';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../scripts/free-port.js';
import { makeTestCertificate, type TestCertificate } from '../../scripts/test-certificate.js';
import { buildApp, reloadCertificate } from './app.js';
import { loadConfig } from './config.js';
import { MAX_UPLOAD_BYTES } from '../shared/constants.js';
import { attachments } from './db/schema.js';
import { CHUNK_SIZE, readSealed, sealedChunk, writeSealed } from './files/testing.js';
import { multipartBody, samplePdf } from './features/records/testing.js';
import {
  addPatient,
  createTestApp,
  registerHospital,
  STRONG_PASSWORD,
  type TestApp,
} from './test/helpers.js';

let dir: string;
let certificate: TestCertificate;
let t: TestApp;
let port: number;
let origin: string;
let session: http2.ClientHttp2Session;

interface Answer {
  status: number;
  headers: http2.IncomingHttpHeaders;
  body: Buffer;
  /** Whether the stream ended normally (false when the server reset it). */
  complete: boolean;
}

/** One request on the shared HTTP/2 session. */
function h2(headers: http2.OutgoingHttpHeaders, body?: Buffer | string): Promise<Answer> {
  return new Promise((resolve) => {
    const stream = session.request({ origin, ...headers });
    let answer: http2.IncomingHttpHeaders = {};
    let complete = false;
    const parts: Buffer[] = [];
    stream.on('response', (h) => (answer = h));
    stream.on('data', (part: Buffer) => parts.push(part));
    stream.on('end', () => (complete = true));
    stream.on('error', () => {}); // a reset: seen through `complete`
    stream.on('close', () =>
      resolve({
        status: Number(answer[':status'] ?? 0),
        headers: answer,
        body: Buffer.concat(parts),
        complete,
      }),
    );
    stream.end(body);
  });
}

const postJson = (url: string, payload: unknown, cookie?: string) =>
  h2(
    {
      ':method': 'POST',
      ':path': url,
      'content-type': 'application/json',
      ...(cookie ? { cookie } : {}),
    },
    JSON.stringify(payload),
  );

/** The Set-Cookie line that opens the session (not one that clears a cookie). */
function sessionSetCookie(res: Answer): string | undefined {
  return ([] as string[])
    .concat(res.headers['set-cookie'] ?? [])
    .find((c) => !c.includes('Max-Age=0') && /=[^;]+/.test(c));
}

/** A record with one PDF attachment, uploaded as multipart over HTTP/2. */
function uploadOverH2(cookie: string, patientId: string, title: string, fileName: string, bytes: Buffer) {
  const { payload, headers } = multipartBody([
    { name: 'patientId', value: patientId },
    { name: 'recordType', value: 'lab-results' },
    { name: 'title', value: title },
    { name: 'files', fileName, bytes, contentType: 'application/pdf' },
  ]);
  return h2({ ':method': 'POST', ':path': '/api/medical-records', cookie, ...headers }, payload);
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'medledger-https-'));
  certificate = makeTestCertificate(dir);
  port = await freePort();
  origin = `https://localhost:${port}`;
  t = await createTestApp({
    tls: { certFile: certificate.certFile, keyFile: certificate.keyFile },
    publicUrl: origin,
  });
  await t.app.listen({ port, host: '127.0.0.1' });
  session = http2.connect(`https://127.0.0.1:${port}`, { ca: certificate.cert, servername: 'localhost' });
  session.on('error', () => {});
});

afterAll(async () => {
  session?.close();
  await t?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('the server over HTTPS', () => {
  it('speaks HTTP/2 to a client that offers it and HTTP/1.1 to one that does not', async () => {
    const res = await h2({ ':path': '/api/auth/me' });
    expect(session.alpnProtocol).toBe('h2');
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body.toString())).toEqual({ user: null });

    const http1 = await new Promise<{ version: string; status: number; body: string }>((resolve, reject) => {
      https
        .get(
          { host: '127.0.0.1', port, path: '/api/auth/me', ca: certificate.cert, servername: 'localhost' },
          (r) => {
            let body = '';
            r.on('data', (d: Buffer) => (body += d.toString()));
            r.on('end', () => resolve({ version: r.httpVersion, status: r.statusCode ?? 0, body }));
          },
        )
        .on('error', reject);
    });
    expect(http1).toEqual({ version: '1.1', status: 200, body: '{"user":null}' });
  });

  it('compresses a large JSON answer over HTTP/2 as over HTTP/1.1', async () => {
    const res = await h2({ ':path': '/api/docs/json', 'accept-encoding': 'br' });
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(JSON.parse(zlib.brotliDecompressSync(res.body).toString()).openapi).toMatch(/^3\./);
  });

  it('signs in with a session cookie marked Secure, which then reaches the session', async () => {
    const { email } = await registerHospital(t.app);
    const res = await postJson('/api/auth/login', { email, password: STRONG_PASSWORD });
    expect(res.status).toBe(200);
    const session = sessionSetCookie(res);
    expect(session).toMatch(/; Secure/);
    expect(session).toMatch(/; HttpOnly/);
    const me = await h2({ ':path': '/api/auth/me', cookie: session!.split(';')[0] });
    expect(JSON.parse(me.body.toString()).user).toMatchObject({ email, role: 'hospital' });
  });

  describe('an attachment over HTTP/2', () => {
    let cookie: string;
    let plain: Buffer;
    let url: string;
    let storageKey: string;
    let patientId: string;

    beforeAll(async () => {
      const { email } = await registerHospital(t.app);
      const login = await postJson('/api/auth/login', { email, password: STRONG_PASSWORD });
      cookie = sessionSetCookie(login)!.split(';')[0];
      const patient = await addPatient(t.app, cookie, { firstName: 'Ada', lastName: 'Byron' });
      patientId = patient.id;
      // Three chunks of the stored format, and several times HTTP/2's first flow-control window.
      const head = samplePdf('over HTTP/2');
      plain = Buffer.concat([head, crypto.randomBytes(3 * CHUNK_SIZE - head.length)]);
      const res = await uploadOverH2(cookie, patientId, 'Blood panel', 'panel.pdf', plain);
      expect(res.status).toBe(201);
      const record = JSON.parse(res.body.toString());
      url = record.attachments[0].url;
      const [row] = await t.ctx.db.select().from(attachments).where(eq(attachments.recordId, record.id));
      storageKey = row.storageKey;
    });

    it('over 25 MB, is answered 413 while the client is still sending, and the connection lives on', async () => {
      const over = Buffer.alloc(MAX_UPLOAD_BYTES + 1024 * 1024, 2);
      samplePdf().copy(over);
      const res = await uploadOverH2(cookie, patientId, 'Too big', 'huge.pdf', over);
      expect(res.status).toBe(413);
      expect(JSON.parse(res.body.toString()).message).toMatch(/25 MB/);
      expect((await h2({ ':path': '/api/auth/me', cookie })).status).toBe(200);
    });

    it('comes out with the bytes that went in', async () => {
      const res = await h2({ ':path': url, cookie });
      expect(res.status).toBe(200);
      expect(res.complete).toBe(true);
      expect(res.headers['content-length']).toBe(String(plain.length));
      expect(res.body.equals(plain)).toBe(true);
    });

    it('once changed, is broken off before the changed chunk: the stream is reset, not ended', async () => {
      const sealed = await readSealed(t.ctx.files, storageKey);
      const changed = Buffer.from(sealed);
      changed[sealedChunk(1, changed.length).start + 1000] ^= 0x01;
      await writeSealed(t.ctx.files, storageKey, changed);
      try {
        const res = await h2({ ':path': url, cookie });
        expect(res.status).toBe(200);
        expect(res.complete).toBe(false);
        expect(res.body.length).toBeLessThanOrEqual(CHUNK_SIZE);
        expect(res.body.equals(plain.subarray(0, res.body.length))).toBe(true);
        // The connection lives on for the next request.
        expect((await h2({ ':path': '/api/auth/me' })).status).toBe(200);
      } finally {
        await writeSealed(t.ctx.files, storageKey, sealed);
      }
    });
  });
});

describe('TLS_CERT_FILE and TLS_KEY_FILE', () => {
  it('serve https:// by default with both, plain HTTP with neither, and refuse one alone', () => {
    const both = loadConfig({ PORT: '4000', TLS_CERT_FILE: 'c.pem', TLS_KEY_FILE: 'k.pem' });
    expect(both.tls).toEqual({ certFile: path.resolve('c.pem'), keyFile: path.resolve('k.pem') });
    expect(both.publicUrl).toBe('https://localhost:4000');
    expect(loadConfig({ PORT: '4000' })).toMatchObject({
      tls: undefined,
      publicUrl: 'http://localhost:4000',
    });
    expect(() => loadConfig({ TLS_CERT_FILE: 'c.pem' })).toThrow(
      'HTTPS needs both TLS_CERT_FILE and TLS_KEY_FILE (or neither for plain HTTP)',
    );
  });

  it('name the file that cannot be read', async () => {
    const missing = path.join(dir, 'missing.pem');
    await expect(
      buildApp({ ...t.config, tls: { certFile: missing, keyFile: certificate.keyFile } }, t.ctx.database),
    ).rejects.toThrow(`TLS_CERT_FILE (${missing}) cannot be read: ENOENT`);
  });
});

// Last in the file: it replaces the certificate the tests above trust.
describe('a renewed certificate (SIGHUP)', () => {
  /** The certificate a new connection is shown, and the protocol ALPN chose. */
  const handshake = () =>
    new Promise<{ fingerprint: string; protocol: string | false | null }>((resolve, reject) => {
      const socket = tls.connect(
        {
          host: '127.0.0.1',
          port,
          servername: 'localhost',
          ALPNProtocols: ['h2'],
          rejectUnauthorized: false,
        },
        () => {
          resolve({ fingerprint: socket.getPeerCertificate().fingerprint256, protocol: socket.alpnProtocol });
          socket.end();
        },
      );
      socket.on('error', reject);
    });
  const fingerprintOf = (pem: Buffer) => new crypto.X509Certificate(pem).fingerprint256;

  it('reaches new connections after reloadCertificate; files that do not fit keep the one in use', async () => {
    expect(await handshake()).toEqual({ fingerprint: fingerprintOf(certificate.cert), protocol: 'h2' });
    const renewed = makeTestCertificate(fs.mkdtempSync(path.join(dir, 'renewed-')));

    // A new certificate with the old key does not fit: refused, the old one stays.
    fs.copyFileSync(renewed.certFile, certificate.certFile);
    expect(() => reloadCertificate(t.app, t.config)).toThrow();
    expect((await handshake()).fingerprint).toBe(fingerprintOf(certificate.cert));

    fs.copyFileSync(renewed.keyFile, certificate.keyFile);
    reloadCertificate(t.app, t.config);
    expect(await handshake()).toEqual({ fingerprint: fingerprintOf(renewed.cert), protocol: 'h2' });
    // The connection opened before goes on with the certificate it was given.
    expect((await h2({ ':path': '/api/auth/me' })).status).toBe(200);
  });
});
