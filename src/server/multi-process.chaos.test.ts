// Several app processes on one PostgreSQL behave as one (docs/decisions.md, "Several app
// processes"): two real server processes, each with a DATA_DIR of its own (nothing shared on disk),
// attachments in the database. An upload through one downloads byte for byte (and by range)
// through the other; failed sign-ins through one count in the other; two admins demoting each other
// through the two at once keep one admin. And WORKERS=2: one port, a
// worker that dies is replaced, SIGTERM stops every worker. On a throw-away PostgreSQL
// (TEST_DATABASE_URL under test:pg, else a cluster of its own).
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { WORKER_INDEX_ENV } from './cluster.js';
import { STRONG_PASSWORD } from './test/helpers.js';
import { headerOf, linkTo, outboxMessages } from './mail/read-message.js';
import {
  callProcess,
  hospitalWithPatient,
  processDatabase,
  PROCESS_ORIGIN,
  randomPdf,
  startServerProcess,
  uploadThrough,
  type ServerProcess,
} from './test/server-process.js';

let database: Awaited<ReturnType<typeof processDatabase>>;
let env: Record<string, string>;
const running: ServerProcess[] = [];
const dirs: string[] = [];
const dataDirOf = new Map<ServerProcess, string>();

async function start(args: string[] = []) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'medledger-process-'));
  dirs.push(dataDir);
  const p = await startServerProcess({ ...env, DATA_DIR: dataDir }, args);
  running.push(p);
  dataDirOf.set(p, dataDir);
  return p;
}

beforeAll(async () => {
  database = await processDatabase();
  env = {
    DATABASE_URL: database.url,
    FILE_ENCRYPTION_KEY: crypto.randomBytes(32).toString('hex'),
    LEDGER_SIGNING_KEY: crypto.randomBytes(32).toString('hex'),
    PUBLIC_URL: PROCESS_ORIGIN,
    LOGIN_MAX_FAILURES: '3',
  };
}, 120_000);

afterAll(async () => {
  await Promise.all(running.map((p) => p.stop('SIGKILL').catch(() => {})));
  await database?.close();
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

describe('two app processes on one database, no DATA_DIR shared', () => {
  let a: ServerProcess;
  let b: ServerProcess;
  beforeAll(async () => {
    [a, b] = await Promise.all([start(), start()]);
  }, 120_000);
  afterAll(async () => Promise.all([a?.stop(), b?.stop()]), 60_000);

  it('uploads through one and downloads the same bytes through the other, whole and by range', async () => {
    const { cookie, patientId } = await hospitalWithPatient(a.url);
    const bytes = randomPdf(300 * 1024); // several chunks
    const url = await uploadThrough(a.url, cookie, patientId, bytes);
    const whole = await callProcess(b.url, 'GET', url, cookie);
    expect(whole.status).toBe(200);
    expect(Buffer.from(await whole.arrayBuffer()).equals(bytes)).toBe(true);
    const part = await fetch(b.url + url, { headers: { cookie, range: 'bytes=70000-200009' } });
    expect(part.status).toBe(206);
    expect(Buffer.from(await part.arrayBuffer()).equals(bytes.subarray(70000, 200010))).toBe(true);
    // And the other way round.
    const back = randomPdf();
    const backUrl = await uploadThrough(b.url, cookie, patientId, back);
    const res = await callProcess(a.url, 'GET', backUrl, cookie);
    expect(Buffer.from(await res.arrayBuffer()).equals(back)).toBe(true);
  });

  it('counts failed sign-ins through one process in the other', async () => {
    const { email } = await hospitalWithPatient(a.url);
    const signIn = (base: string, password: string) =>
      callProcess(base, 'POST', '/api/auth/login', undefined, { email, password });
    // LOGIN_MAX_FAILURES=3: one failure through b, two through a...
    expect((await signIn(b.url, 'wrong-password')).status).toBe(401);
    expect((await signIn(a.url, 'wrong-password')).status).toBe(401);
    expect((await signIn(a.url, 'wrong-password')).status).toBe(401);
    // ...and b refuses even the right password from this address, as a would.
    const blocked = await signIn(b.url, STRONG_PASSWORD);
    expect(blocked.status).toBe(429);
    expect(((await blocked.json()) as { message: string }).message).toMatch(
      /Too many failed sign-in attempts/,
    );
    expect((await signIn(a.url, STRONG_PASSWORD)).status).toBe(429);
  });

  it('two admins demoting each other through the two processes at once always keep one admin', async () => {
    const { cookie: first } = await hospitalWithPatient(a.url);
    const me = async (base: string, cookie: string) =>
      ((await (await callProcess(base, 'GET', '/api/auth/me', cookie)).json()) as { user: { id: string } })
        .user.id;
    const firstId = await me(a.url, first);
    // The second admin: invited through a (its outbox), joins and signs in through b.
    const email = `second.${crypto.randomUUID()}@example.test`;
    const invited = await callProcess(a.url, 'POST', '/api/hospital/staff', first, {
      email,
      firstName: 'Second',
      lastName: 'Admin',
      staffRole: 'hospital_admin',
    });
    expect(invited.status).toBe(201);
    const link = await vi.waitFor(
      () => {
        const mail = outboxMessages(path.join(dataDirOf.get(a)!, 'outbox')).find(
          (m) => headerOf(m, 'To') === email,
        );
        const found = mail && linkTo(mail, '/join-staff');
        if (!found) throw new Error('no invitation mailed yet');
        return found;
      },
      { timeout: 15_000, interval: 100 },
    );
    const inviteToken = new URL(link).searchParams.get('token');
    const joined = await callProcess(b.url, 'POST', '/api/auth/register', undefined, {
      role: 'hospital',
      inviteToken,
      email,
      password: STRONG_PASSWORD,
      firstName: 'Second',
      lastName: 'Admin',
    });
    expect(joined.status).toBe(201);
    const signedIn = await callProcess(b.url, 'POST', '/api/auth/login', undefined, {
      email,
      password: STRONG_PASSWORD,
    });
    const second = signedIn.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
    const secondId = await me(b.url, second);

    const adminCount = async (cookie: string) => {
      const staff = (await (await callProcess(a.url, 'GET', '/api/hospital/staff', cookie)).json()) as {
        items: { staffRole: string }[];
      };
      return staff.items.filter((m) => m.staffRole === 'hospital_admin').length;
    };

    for (let round = 0; round < 8; round++) {
      const [demotedSecond, demotedFirst] = await Promise.all([
        callProcess(a.url, 'PATCH', `/api/hospital/staff/${secondId}`, first, { staffRole: 'clinician' }),
        callProcess(b.url, 'PATCH', `/api/hospital/staff/${firstId}`, second, { staffRole: 'clinician' }),
      ]);
      // One wins; the other is refused: 409 when it overlapped (the organization's row is locked,
      // so it sees the first one's change), 403 when it came after (its sender is no admin then).
      const statuses = [demotedSecond.status, demotedFirst.status].sort();
      expect(statuses[0]).toBe(200);
      expect([403, 409]).toContain(statuses[1]);
      // Whoever is still an admin counts one admin and puts the other back (through either process).
      const [stillAdmin, demotedId] = demotedSecond.status === 200 ? [first, secondId] : [second, firstId];
      expect(await adminCount(stillAdmin)).toBe(1);
      const restored = await callProcess(b.url, 'PATCH', `/api/hospital/staff/${demotedId}`, stillAdmin, {
        staffRole: 'hospital_admin',
      });
      expect(restored.status).toBe(200);
    }
    expect(await adminCount(first)).toBe(2);
  });
});

/** Processes below `root` started as cluster workers (they carry the worker index). */
function workerPids(root: number): number[] {
  const parents = new Map<number, number>();
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
      parents.set(Number(name), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // gone meanwhile
    }
  }
  const below = (pid: number): boolean => {
    for (let p = parents.get(pid); p !== undefined && p > 1; p = parents.get(p)) if (p === root) return true;
    return false;
  };
  return [...parents.keys()].filter((pid) => {
    if (!below(pid)) return false;
    try {
      return fs.readFileSync(`/proc/${pid}/environ`, 'utf8').includes(`${WORKER_INDEX_ENV}=`);
    } catch {
      return false;
    }
  });
}

/** Still running: a zombie (exited, not yet reaped by its new parent) has stopped. */
const stillRunning = (pid: number) => {
  try {
    const state = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.[0];
    return state !== undefined && state !== 'Z' && state !== 'X';
  } catch {
    return false;
  }
};

describe('WORKERS=2 (npm start -- --workers 2)', () => {
  it('serves on one port from two processes, replaces a worker that dies, stops all on SIGTERM', async () => {
    const server = await start(['--workers', '2']);
    const first = workerPids(server.pid);
    expect(first).toHaveLength(2);
    expect((await callProcess(server.url, 'GET', '/api/health/ready')).status).toBe(200);

    process.kill(first[0], 'SIGKILL');
    // The other worker answers meanwhile; the primary starts a new one. A connection handed to the
    // dying worker in that moment is lost with it (Node's cluster), so a client tries again.
    await vi.waitFor(
      async () =>
        expect(
          (await callProcess(server.url, 'GET', '/api/health/live', undefined, undefined, 5_000)).status,
        ).toBe(200),
      { timeout: 60_000, interval: 200 },
    );
    await vi.waitFor(
      () => {
        const now = workerPids(server.pid);
        expect(now).toHaveLength(2);
        expect(now).not.toContain(first[0]);
      },
      { timeout: 60_000, interval: 200 },
    );
    const { cookie } = await hospitalWithPatient(server.url);
    expect((await callProcess(server.url, 'GET', '/api/auth/me', cookie)).status).toBe(200);

    const workers = workerPids(server.pid);
    await server.stop('SIGTERM');
    expect(server.output()).toContain('SIGTERM received, stopping 2 processes');
    // Under load the last exit can take the kernel a moment after the primary is gone.
    await vi.waitFor(() => expect(workers.filter(stillRunning)).toEqual([]), {
      timeout: 5_000,
      interval: 100,
    });
  }, 300_000);
});
