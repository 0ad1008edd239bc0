// Test helpers for uploads: a multipart body built by hand (so tests control the order of
// parts), small real files, and a one-call upload.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';

export type FormPart =
  { name: string; value: string } | { name: string; fileName: string; bytes: Buffer; contentType?: string };

export function multipartBody(parts: FormPart[]): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----medledger${crypto.randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    if ('value' in part) {
      chunks.push(
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"\r\n\r\n${part.value}\r\n`,
        ),
      );
    } else {
      chunks.push(
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"; filename="${part.fileName}"\r\n` +
            `Content-Type: ${part.contentType ?? 'application/octet-stream'}\r\n\r\n`,
        ),
        part.bytes,
        Buffer.from('\r\n'),
      );
    }
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(chunks),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

/** A minimal, valid one-page PDF. */
export function samplePdf(text = 'MedLedger test'): Buffer {
  const stream = `BT /F1 12 Tf 72 720 Td (${text}) Tj ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((obj, i) => {
    offsets.push(body.length);
    body += `${i + 1} 0 obj\n${obj}\nendobj\n`;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const off of offsets) body += `${String(off).padStart(10, '0')} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

/** A valid 1x1 PNG. */
export const samplePng = () =>
  Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
    'base64',
  );

export interface UploadOptions {
  fields?: Record<string, string>;
  files?: { fileName: string; bytes: Buffer }[];
}

/** POST /api/medical-records with fields first, then files. */
export function uploadRecord(
  app: FastifyInstance,
  cookie: string,
  patientId: string,
  options: UploadOptions = {},
) {
  const fields = { patientId, recordType: 'lab-results', title: 'Blood panel', ...options.fields };
  const files = options.files ?? [{ fileName: 'report.pdf', bytes: samplePdf() }];
  const { payload, headers } = multipartBody([
    ...Object.entries(fields).map(([name, value]) => ({ name, value })),
    ...files.map((f) => ({ name: 'files', fileName: f.fileName, bytes: f.bytes })),
  ]);
  return app.inject({
    method: 'POST',
    url: '/api/medical-records',
    headers: { ...headers, cookie },
    payload,
  });
}

/** Names of the files in the attachment store, temporary ones included. */
export function storedFiles(dataDir: string): string[] {
  const dir = path.join(dataDir, 'attachments');
  const tmp = path.join(dir, '.tmp');
  return [
    ...fs.readdirSync(dir).filter((n) => n !== '.tmp'),
    ...(fs.existsSync(tmp) ? fs.readdirSync(tmp).map((n) => `.tmp/${n}`) : []),
  ];
}
