// Uploads, ledgered writes and reads run in loops against a real server process while a chaos test
// disturbs its database (a restart, a failover), and the checks made afterwards: every
// acknowledged record downloads byte for byte and verifies, and failed uploads left nothing behind.
import pg from 'pg';
import { expect } from 'vitest';
import { multipartBody } from '../features/records/testing.js';
import { callProcess, PROCESS_ORIGIN, randomPdf } from './server-process.js';

/** A record whose 201 arrived: its file's bytes and download address (none for a note). */
export interface Acknowledged {
  id: string;
  bytes: Buffer | null;
  url: string | null;
  /** When the 201 arrived (Date.now()). */
  at: number;
}

/**
 * Every answer the load got: 2xx and 503 with Retry-After (the database is away) are expected;
 * anything else, a 503 without Retry-After included, is kept with its body.
 */
export class Tally {
  readonly counts = new Map<string, number>();
  readonly unexpected: string[] = [];
  note(what: string, status: number, body: string, retryAfter: string | null) {
    this.counts.set(`${what} ${status}`, (this.counts.get(`${what} ${status}`) ?? 0) + 1);
    if (status === 503 && !retryAfter)
      this.unexpected.push(`${what} 503 without Retry-After: ${body.slice(0, 300)}`);
    else if (!(status < 300 || status === 503))
      this.unexpected.push(`${what} ${status}: ${body.slice(0, 300)}`);
  }
  failed(what: string, err: unknown) {
    // fetch's own message is "fetch failed"; the socket's reason is its cause.
    const cause = (err as { cause?: { message?: string } }).cause?.message ?? '';
    this.unexpected.push(`${what}: ${(err as Error).message} ${cause}`);
  }
  /** Whether any request was answered 503 (the disturbance reached requests). */
  disturbed() {
    return [...this.counts.keys()].some((key) => key.endsWith(' 503'));
  }
  summary() {
    return JSON.stringify(Object.fromEntries(this.counts));
  }
}

/** A record with `bytes` as its one file (or none): real multipart over HTTP. */
export async function postRecord(base: string, cookie: string, patientId: string, bytes: Buffer | null) {
  const { payload, headers } = multipartBody([
    { name: 'patientId', value: patientId },
    { name: 'recordType', value: 'lab-results' },
    { name: 'title', value: bytes ? 'Scan' : 'Note' },
    ...(bytes ? [{ name: 'files', fileName: 'scan.pdf', bytes }] : []),
  ]);
  const res = await fetch(`${base}/api/medical-records`, {
    method: 'POST',
    headers: { ...headers, cookie, origin: PROCESS_ORIGIN },
    body: new Uint8Array(payload),
    signal: AbortSignal.timeout(30_000),
  });
  return { status: res.status, text: await res.text(), retryAfter: res.headers.get('retry-after') };
}

export interface Load {
  tally: Tally;
  acknowledged: Acknowledged[];
  /** When the first request of each kind sent at or after `since` succeeded (undefined: none yet). */
  firstSuccessSince(since: number): { read?: number; write?: number };
  /** Stops the loops once their requests in flight are answered. */
  stop(): Promise<void>;
}

/** Four uploaders (300 KiB files), two ledgered writers and two readers, each looping until stopped. */
export function startLoad(base: string, cookie: string, patientId: string): Load {
  const tally = new Tally();
  const acknowledged: Acknowledged[] = [];
  /** Successful requests: when each was sent and answered. */
  const successes: { kind: 'read' | 'write'; sent: number; answered: number }[] = [];
  let loading = true;

  const writer = (withFile: boolean) => async () => {
    const what = withFile ? 'upload' : 'ledgered write';
    while (loading) {
      const bytes = withFile ? randomPdf(300 * 1024) : null;
      const sent = Date.now();
      try {
        const { status, text, retryAfter } = await postRecord(base, cookie, patientId, bytes);
        tally.note(what, status, text, retryAfter);
        if (status === 201) {
          const body = JSON.parse(text) as { id: string; attachments: { url: string }[] };
          const at = Date.now();
          acknowledged.push({ id: body.id, bytes, url: body.attachments[0]?.url ?? null, at });
          successes.push({ kind: 'write', sent, answered: at });
        }
      } catch (err) {
        tally.failed(what, err);
      }
    }
  };
  const reader = (url: string) => async () => {
    while (loading) {
      const sent = Date.now();
      try {
        const res = await callProcess(base, 'GET', url, cookie, undefined, 30_000);
        tally.note(`GET ${url}`, res.status, await res.text(), res.headers.get('retry-after'));
        if (res.status === 200) successes.push({ kind: 'read', sent, answered: Date.now() });
      } catch (err) {
        tally.failed(`GET ${url}`, err);
      }
    }
  };
  const loops = [
    ...Array.from({ length: 4 }, () => writer(true)),
    ...Array.from({ length: 2 }, () => writer(false)),
    reader('/api/patients'),
    reader('/api/ledger/head'),
  ].map((loop) => loop());

  return {
    tally,
    acknowledged,
    firstSuccessSince: (since) => {
      // A request sent since then (an answer to one sent before may arrive late).
      const first = (kind: 'read' | 'write') =>
        successes
          .filter((s) => s.kind === kind && s.sent >= since)
          .reduce<number | undefined>((min, s) => Math.min(min ?? Infinity, s.answered), undefined);
      return { read: first('read'), write: first('write') };
    },
    stop: async () => {
      loading = false;
      await Promise.all(loops);
    },
  };
}

/** What an upload that did not commit may leave: a reservation, or rows no attachment claims. */
export async function leftovers(databaseUrl: string) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ reserved: number; unclaimed: number }>(
      `select (select count(*)::int from pending_uploads) as reserved,
              (select count(distinct storage_key)::int from attachment_chunks c
                where not exists (select 1 from attachments a where a.storage_key = c.storage_key)) as unclaimed`,
    );
    return rows[0];
  } finally {
    await client.end();
  }
}

/** The ids of every record the database holds. */
export async function recordIds(databaseUrl: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return (await client.query<{ id: string }>('select id from medical_records')).rows.map((r) => r.id);
  } finally {
    await client.end();
  }
}

/** Each record downloads byte for byte (when its bytes are known) and verifies against the ledger. */
export async function expectIntactAndVerified(
  base: string,
  cookie: string,
  records: Pick<Acknowledged, 'id' | 'bytes' | 'url'>[],
) {
  for (const record of records) {
    if (record.url && record.bytes) {
      const file = await callProcess(base, 'GET', record.url, cookie);
      expect(file.status).toBe(200);
      expect(Buffer.from(await file.arrayBuffer()).equals(record.bytes)).toBe(true);
    }
    const verification = await callProcess(
      base,
      'GET',
      `/api/medical-records/${record.id}/verification`,
      cookie,
    );
    expect(verification.status).toBe(200);
    expect(await verification.json()).toMatchObject({ verified: true });
  }
}
