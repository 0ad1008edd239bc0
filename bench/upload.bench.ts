// npm run bench (first part) — upload benchmark. Starts the real server in a child process (embedded
// PGlite in a temporary folder), uploads a 25 MB PDF over HTTP several times and prints:
//  1. the server's peak memory growth during an upload (peak RSS minus RSS just before; goal < 64 MB);
//  2. upload throughput as a ratio to writing the same bytes to disk with SHA-256 (read, hash,
//     write, fsync) in the same run.
// BENCH_UPLOAD_RUNS sets the number of measured uploads (default 5).
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Transform } from 'node:stream';
import { MAX_UPLOAD_BYTES } from '../src/shared/constants.js';
import { json, signUpHospital, startServer } from './support.js';

const RUNS = Number(process.env.BENCH_UPLOAD_RUNS || 5);
const MB = 1024 * 1024;

const ms = (start: bigint) => Number(process.hrtime.bigint() - start) / 1e6;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fmt = (n: number, digits = 1) => n.toFixed(digits);

function procStatus(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const text = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(text)?.[1]);
  return kb * 1024;
}

/** Resets the kernel's peak-RSS counter of a process (Linux); false when not allowed. */
function resetPeak(pid: number): boolean {
  try {
    fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

async function signIn(url: string): Promise<{ cookie: string; patientId: string }> {
  const { cookie } = await signUpHospital(url, 'Upload');
  const patient = await json<{ id: string }>(
    await fetch(`${url}/api/patients`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie, origin: url },
      body: JSON.stringify({ firstName: 'Bench' }),
    }),
  );
  return { cookie, patientId: patient.id };
}

/** A 25 MB file that passes the PDF signature check; random bytes so nothing compresses. */
function makeFile(dir: string): string {
  const file = path.join(dir, 'scan.pdf');
  const fd = fs.openSync(file, 'w');
  fs.writeSync(fd, Buffer.from('%PDF-1.7\n'));
  let written = 9;
  while (written < MAX_UPLOAD_BYTES) {
    const chunk = crypto.randomBytes(Math.min(MB, MAX_UPLOAD_BYTES - written));
    fs.writeSync(fd, chunk);
    written += chunk.length;
  }
  fs.closeSync(fd);
  return file;
}

async function upload(url: string, cookie: string, patientId: string, file: string): Promise<number> {
  const form = new FormData();
  form.append('patientId', patientId);
  form.append('recordType', 'imaging');
  form.append('title', 'Benchmark scan');
  form.append('files', await fs.openAsBlob(file, { type: 'application/pdf' }), 'scan.pdf');
  const start = process.hrtime.bigint();
  // As a browser on the app's own page sends it: state-changing requests need a same-site Origin.
  const res = await fetch(`${url}/api/medical-records`, {
    method: 'POST',
    headers: { cookie, origin: url },
    body: form,
  });
  await json(res);
  return ms(start);
}

/** Baseline: the same bytes read, hashed with SHA-256 and written to disk with fsync. */
async function writeWithHash(file: string, dir: string): Promise<number> {
  const target = path.join(dir, `baseline-${crypto.randomBytes(4).toString('hex')}`);
  const start = process.hrtime.bigint();
  const hash = crypto.createHash('sha256');
  const hasher = new Transform({
    transform(chunk: Buffer, _enc, done) {
      hash.update(chunk);
      done(null, chunk);
    },
  });
  await pipeline(fs.createReadStream(file), hasher, fs.createWriteStream(target, { flush: true }));
  hash.digest('hex');
  const took = ms(start);
  fs.rmSync(target);
  return took;
}

export async function runUploadBench(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'medledger-upload-bench-'));
  // The server as its own process (PGlite), so that its memory is measured alone.
  const server = await startServer({ databaseUrl: '', dataDir: path.join(dir, 'data') });
  const { url } = server;
  const pid = server.child.pid!;
  try {
    const file = makeFile(dir);
    const { cookie, patientId } = await signIn(url);
    // The first upload also pays for warming up (JIT, first transaction, buffers): reported apart.
    const peakReset = resetPeak(pid);
    const coldBefore = procStatus(pid, 'VmRSS');
    await upload(url, cookie, patientId, file);
    const coldGrowth = (peakReset ? procStatus(pid, 'VmHWM') : procStatus(pid, 'VmRSS')) - coldBefore;

    const uploads: number[] = [];
    const growth: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      resetPeak(pid);
      const before = procStatus(pid, 'VmRSS');
      let sampledPeak = before;
      const sampler = setInterval(() => {
        sampledPeak = Math.max(sampledPeak, procStatus(pid, 'VmRSS'));
      }, 2);
      uploads.push(await upload(url, cookie, patientId, file));
      clearInterval(sampler);
      const peak = Math.max(sampledPeak, peakReset ? procStatus(pid, 'VmHWM') : 0);
      growth.push(peak - before);
    }
    const baseline: number[] = [];
    for (let i = 0; i < RUNS; i++) baseline.push(await writeWithHash(file, dir));

    const uploadMs = median(uploads);
    const baselineMs = median(baseline);
    const mbps = (t: number) => MAX_UPLOAD_BYTES / MB / (t / 1000);
    const worstGrowth = Math.max(...growth) / MB;
    console.log('\nUpload benchmark: one 25 MB PDF per request, server in its own process (PGlite)');
    console.log(`  runs                          ${RUNS} (after one warm-up upload)`);
    console.log(`  first (cold) upload growth    ${fmt(coldGrowth / MB)} MB`);
    console.log(
      `  peak server memory growth     ${fmt(worstGrowth)} MB worst, ${fmt(median(growth) / MB)} MB median ` +
        `(peak RSS minus RSS before; ${peakReset ? 'kernel peak counter + ' : ''}2 ms sampling) — goal < 64 MB: ` +
        `${worstGrowth < 64 ? 'met' : 'NOT met'}`,
    );
    console.log(`  upload                        ${fmt(uploadMs, 0)} ms median, ${fmt(mbps(uploadMs))} MB/s`);
    console.log(
      `  disk write + SHA-256 baseline ${fmt(baselineMs, 0)} ms median, ${fmt(mbps(baselineMs))} MB/s`,
    );
    console.log(`  throughput ratio              ${fmt(baselineMs / uploadMs, 2)} (upload / baseline)`);
  } finally {
    await server.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  runUploadBench().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
