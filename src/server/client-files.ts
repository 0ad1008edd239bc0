// The built client (dist/client), read into memory once when the server starts and answered from
// there. The build never changes a file under its name while the server runs (assets are
// content-hashed, a deploy restarts the server), and the whole folder, with its .br and .gz copies,
// is about 3 MB. @fastify/static opened, statted, read and closed each file through a stream on
// every request: on HTTP/2 that cost the dashboard's forty chunks about 1 ms each of the server's
// one thread, and a page's chunks waited for each other.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { negotiate } from '@fastify/accept-negotiator';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** The build writes a brotli and a gzip copy beside each file worth compressing. */
const ENCODINGS = [
  { name: 'br', extension: '.br' },
  { name: 'gzip', extension: '.gz' },
] as const;
type Encoding = (typeof ENCODINGS)[number]['name'];
const ENCODING_NAMES: Encoding[] = ENCODINGS.map((e) => e.name);

const CONTENT_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.webmanifest': 'application/manifest+json',
  '.txt': 'text/plain; charset=utf-8',
  '.woff2': 'font/woff2',
};

interface Body {
  bytes: Buffer;
  /** Strong, from the bytes sent: a browser's copy is current exactly when its tag matches. */
  etag: string;
}

export interface ClientFile {
  contentType: string;
  cacheControl: string;
  plain: Body;
  encoded: Partial<Record<Encoding, Body>>;
}

const bodyOf = (bytes: Buffer): Body => ({
  bytes,
  etag: `"${crypto.createHash('sha256').update(bytes).digest('base64url').slice(0, 27)}"`,
});

/**
 * Every file under `dir` by its URL path ('/assets/app-1a2b.js'), with its compressed copies.
 * Dotfiles and the copies themselves get no path of their own.
 */
export function readClientFiles(
  dir: string,
  cacheControl: (file: string) => string,
): Map<string, ClientFile> {
  const files = new Map<string, ClientFile>();
  const names = fs.readdirSync(dir, { recursive: true, encoding: 'utf8' });
  const present = new Set(names);
  for (const name of names) {
    const full = path.join(dir, name);
    const isCopy = ENCODINGS.some(
      (e) => name.endsWith(e.extension) && present.has(name.slice(0, -e.extension.length)),
    );
    if (isCopy || name.split(path.sep).some((part) => part.startsWith('.')) || !fs.statSync(full).isFile())
      continue;
    const encoded: ClientFile['encoded'] = {};
    for (const { name: encoding, extension } of ENCODINGS) {
      if (present.has(name + extension)) encoded[encoding] = bodyOf(fs.readFileSync(full + extension));
    }
    files.set(`/${name.split(path.sep).join('/')}`, {
      contentType: CONTENT_TYPES[path.extname(name).toLowerCase()] ?? 'application/octet-stream',
      cacheControl: cacheControl(full),
      plain: bodyOf(fs.readFileSync(full)),
      encoded,
    });
  }
  return files;
}

/** Sends `file` in the best encoding the request accepts, or 304 when the browser's copy is current. */
export function sendClientFile(request: FastifyRequest, reply: FastifyReply, file: ClientFile) {
  const accepted = request.headers['accept-encoding'];
  const encoding = accepted ? negotiate<Encoding>(accepted, ENCODING_NAMES) : null;
  const body = (encoding && file.encoded[encoding]) || file.plain;
  reply
    .header('Content-Type', file.contentType)
    .header('Cache-Control', file.cacheControl)
    .header('ETag', body.etag);
  if (Object.keys(file.encoded).length > 0) reply.header('Vary', 'Accept-Encoding');
  if (request.headers['if-none-match']?.split(/\s*,\s*/).includes(body.etag)) {
    return reply.code(304).send();
  }
  if (body !== file.plain) reply.header('Content-Encoding', encoding);
  return reply.send(body.bytes);
}

/** A GET (and HEAD) route for each file; the files are already compressed, so no second pass. */
export function registerClientFiles(app: FastifyInstance, files: Map<string, ClientFile>) {
  for (const [url, file] of files) {
    app.get(url, { compress: false }, (request, reply) => sendClientFile(request, reply, file));
  }
}
