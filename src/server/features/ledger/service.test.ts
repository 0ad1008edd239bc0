import crypto from 'node:crypto';
import { and, asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { committedEntryCanonical, contentCommitments } from '../../../shared/ledger/entry.js';
import { connect } from '../../db/connect.js';
import { ledgerContents, ledgerEntries, ledgerNodes, medicalRecords } from '../../db/schema.js';
import { createTestApp, signedInHospital, type TestApp } from '../../test/helpers.js';
import { recordLedgerContent } from './content.js';
import { chainHashOf } from './hashing.js';
import { appendLedgerEntry, benchSkipsLedger } from './service.js';
import { createLedgeredRecord } from './testing.js';
import { LedgerDamagedError, ledgerSize, rootAt } from './tree.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

const sha = (data: Buffer | string) => crypto.createHash('sha256').update(data).digest();

/** RFC 9162 MTH, written out naively, independent of the stored nodes. */
function naiveRoot(leaves: Buffer[]): Buffer {
  if (leaves.length === 0) return sha(Buffer.alloc(0));
  if (leaves.length === 1) return leaves[0];
  let k = 1;
  while (k * 2 < leaves.length) k *= 2;
  return sha(Buffer.concat([Buffer.from([1]), naiveRoot(leaves.slice(0, k)), naiveRoot(leaves.slice(k))]));
}

async function allEntries() {
  return t.ctx.db.select().from(ledgerEntries).orderBy(asc(ledgerEntries.seq));
}

/** Checks seq 0..n-1, every hash against its canonical text, and every chain link. */
function expectValidChain(entries: Awaited<ReturnType<typeof allEntries>>) {
  let previous = '0'.repeat(64);
  entries.forEach((entry, i) => {
    expect(Number(entry.seq)).toBe(i);
    expect(entry.hash).toBe(sha(entry.canonical).toString('hex'));
    expect(entry.chainHash).toBe(chainHashOf(previous, entry.hash));
    previous = entry.chainHash;
  });
}

describe('appendLedgerEntry', () => {
  it('refuses to run outside a transaction, because the lock would not be held', async () => {
    await expect(appendLedgerEntry(t.ctx.db, { kind: 'profile_change', content: { a: 1 } })).rejects.toThrow(
      /transaction/,
    );
    expect(await ledgerSize(t.ctx.db)).toBe(0);
  });

  it('stores the canonical text, its SHA-256 and the chain hash, starting at seq 0 (format 1)', async () => {
    const now = new Date('2025-03-01T10:00:00.000Z');
    const userId = crypto.randomUUID();
    const entry = await t.ctx.db.transaction((tx) =>
      appendLedgerEntry(
        tx,
        { kind: 'consent_change', userId, content: { shareWithFamily: true, b: [1, 'x'] } },
        { now, format: 1 },
      ),
    );
    expect(entry.seq).toBe(0);
    const [row] = await t.ctx.db.select().from(ledgerEntries).where(eq(ledgerEntries.seq, 0));
    expect(await t.ctx.db.select().from(ledgerContents).where(eq(ledgerContents.seq, 0))).toEqual([]);
    expect(row.canonical).toBe(
      `{"content":{"b":[1,"x"],"shareWithFamily":true},"createdAt":"2025-03-01T10:00:00.000Z","kind":"consent_change",` +
        `"patientId":null,"recordId":null,"seq":0,"userId":"${userId}","v":1}`,
    );
    expect(entry.hash).toBe(sha(row.canonical).toString('hex'));
    expect(entry.chainHash).toBe(
      sha(Buffer.concat([Buffer.alloc(32), Buffer.from(entry.hash, 'hex')])).toString('hex'),
    );
    expect(row.createdAt.toISOString()).toBe(now.toISOString());
  });

  it('places the seq in the envelope, not in content that looks like it, with non-ASCII text hashed as UTF-8', async () => {
    const now = new Date('2025-03-01T10:30:00.000Z');
    const content = { note: 'Zoë, 東京', seq: -1, userId: 'x' };
    const entry = await t.ctx.db.transaction((tx) =>
      appendLedgerEntry(tx, { kind: 'consent_change', content }, { now, format: 1 }),
    );
    const [row] = await t.ctx.db.select().from(ledgerEntries).where(eq(ledgerEntries.seq, entry.seq));
    expect(row.canonical).toBe(
      `{"content":{"note":"Zoë, 東京","seq":-1,"userId":"x"},"createdAt":"2025-03-01T10:30:00.000Z",` +
        `"kind":"consent_change","patientId":null,"recordId":null,"seq":${entry.seq},"userId":null,"v":1}`,
    );
    expect(entry.hash).toBe(sha(Buffer.from(row.canonical, 'utf8')).toString('hex'));
  });

  it('writes format 2 by default: salted commitments in the ledger, the salt and content beside it', async () => {
    const now = new Date('2025-03-01T11:00:00.000Z');
    const entry = await t.ctx.db.transaction((tx) =>
      appendLedgerEntry(tx, { kind: 'profile_change', content: { phone: '+15550199', when: now } }, { now }),
    );
    const [row] = await t.ctx.db.select().from(ledgerEntries).where(eq(ledgerEntries.seq, entry.seq));
    const [opening] = await t.ctx.db.select().from(ledgerContents).where(eq(ledgerContents.seq, entry.seq));
    expect(opening.salt).toMatch(/^[0-9a-f]{64}$/);
    expect(opening.content).toBe('{"phone":"+15550199","when":"2025-03-01T11:00:00.000Z"}');
    // Reference: SHA-256(salt bytes || UTF-8 JSON of [name, value]) per field, with node:crypto.
    const commit = (name: string, value: unknown) =>
      sha(
        Buffer.concat([Buffer.from(opening.salt, 'hex'), Buffer.from(JSON.stringify([name, value]))]),
      ).toString('hex');
    expect(row.canonical).toBe(
      `{"commitments":{"phone":"${commit('phone', '+15550199')}","when":"${commit('when', now.toISOString())}"},` +
        `"createdAt":"2025-03-01T11:00:00.000Z","kind":"profile_change","patientId":null,"recordId":null,` +
        `"seq":${entry.seq},"userId":null,"v":2}`,
    );
    expect(row.canonical).not.toContain('5550199');
    expect(entry.hash).toBe(sha(row.canonical).toString('hex'));
    // A fresh salt per entry: the same content commits differently.
    const again = await t.ctx.db.transaction((tx) =>
      appendLedgerEntry(tx, { kind: 'profile_change', content: { phone: '+15550199', when: now } }, { now }),
    );
    const [second] = await t.ctx.db.select().from(ledgerEntries).where(eq(ledgerEntries.seq, again.seq));
    expect(JSON.parse(second.canonical).commitments.phone).not.toBe(
      JSON.parse(row.canonical).commitments.phone,
    );
  });

  it('is rolled back with the transaction it belongs to', async () => {
    const before = await ledgerSize(t.ctx.db);
    await expect(
      t.ctx.db.transaction(async (tx) => {
        await appendLedgerEntry(tx, { kind: 'profile_change', content: { x: 1 } });
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    expect(await ledgerSize(t.ctx.db)).toBe(before);
  });

  it('gives 50 parallel appends a gap-free sequence, a valid chain and a matching Merkle tree', async () => {
    const before = await ledgerSize(t.ctx.db);
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        t.ctx.db.transaction((tx) => appendLedgerEntry(tx, { kind: 'profile_change', content: { n: i } })),
      ),
    );
    expect(results.map((r) => r.seq).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 50 }, (_, i) => before + i),
    );
    const entries = await allEntries();
    expect(entries).toHaveLength(before + 50);
    expectValidChain(entries);
    const leaves = entries.map((e) => sha(Buffer.concat([Buffer.from([0]), Buffer.from(e.hash, 'hex')])));
    for (const size of [1, 2, 3, 7, 8, 33, entries.length]) {
      expect(Buffer.from(await rootAt(t.ctx.db, size)).toString('hex')).toBe(
        naiveRoot(leaves.slice(0, size)).toString('hex'),
      );
    }
    // Every complete subtree is stored once: n leaves + (n - popcount(n)) inner nodes.
    const nodes = await t.ctx.db.select().from(ledgerNodes);
    const popcount = entries.length.toString(2).replace(/0/g, '').length;
    expect(nodes).toHaveLength(2 * entries.length - popcount);
  });
});

describe('an append over a damaged tree', () => {
  it('is refused with the missing node named, and writes nothing', async () => {
    // Its own database: the tree is damaged on purpose.
    const own = await createTestApp();
    try {
      const { db } = own.ctx;
      for (let i = 0; i < 3; i++)
        await db.transaction((tx) => appendLedgerEntry(tx, { kind: 'consent_change', content: { i } }));
      // Leaf 3 completes the subtrees 0/2 (leaf 2) and 1/0 (leaves 0-1); the second goes missing.
      await db.transaction(async (tx) => {
        await tx.execute(sql`set local session_replication_role = replica`); // past the append-only trigger
        await tx.delete(ledgerNodes).where(and(eq(ledgerNodes.level, 1), eq(ledgerNodes.idx, 0)));
      });
      const entriesBefore = await db.select().from(ledgerEntries);
      const nodesBefore = await db.select().from(ledgerNodes);
      const failure = await db
        .transaction((tx) => appendLedgerEntry(tx, { kind: 'consent_change', content: { i: 3 } }))
        .then(
          () => null,
          (err: unknown) => err,
        );
      expect(failure).toBeInstanceOf(LedgerDamagedError);
      expect((failure as Error).message).toBe("The ledger's Merkle node 1/0 is missing.");
      expect(await db.select().from(ledgerEntries)).toEqual(entriesBefore);
      expect(await db.select().from(ledgerContents)).toHaveLength(3);
      expect(await db.select().from(ledgerNodes)).toEqual(nodesBefore);
    } finally {
      await own.close();
    }
  });
});

describe('the database keeps the ledger append-only', () => {
  it('refuses to update, delete or truncate an entry or a Merkle node', async () => {
    await t.ctx.db.transaction(async (tx) =>
      appendLedgerEntry(tx, { kind: 'consent_change', content: { x: 1 } }),
    );
    const [first] = await allEntries();
    const attempts = [
      () => t.ctx.db.update(ledgerEntries).set({ kind: 'edited' }).where(eq(ledgerEntries.seq, first.seq)),
      () => t.ctx.db.delete(ledgerEntries).where(eq(ledgerEntries.seq, first.seq)),
      () => t.ctx.db.update(ledgerNodes).set({ hash: '00'.repeat(32) }),
      () => t.ctx.db.delete(ledgerNodes),
      () => t.ctx.db.execute(sql`truncate ledger_entries, ledger_nodes`),
    ];
    for (const attempt of attempts) {
      const error = await attempt().then(
        () => null,
        (err: unknown) => err as { message?: string; cause?: { message?: string } },
      );
      expect(error?.cause?.message ?? error?.message).toMatch(/The ledger is append-only/);
    }
    const [still] = await allEntries();
    expect(still).toEqual(first);
  });
});

describe('appends from several server processes', () => {
  it('stay gap-free and chained when two connection pools append at once', async () => {
    // On PostgreSQL the second handle is a separate pool, as a second server process would have.
    let second = t.ctx.db;
    let closeSecond = async () => {};
    if (process.env.TEST_DATABASE_URL) {
      const result: unknown = await t.ctx.db.execute(sql`select current_database() as name`);
      const { name } = (result as { rows: Array<{ name: string }> }).rows[0];
      const url = new URL(process.env.TEST_DATABASE_URL);
      url.pathname = `/${name}`;
      const other = await connect({ databaseUrl: url.toString(), migrate: false });
      second = other.db;
      closeSecond = other.close;
    }
    try {
      const before = await ledgerSize(t.ctx.db);
      await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          (i % 2 ? second : t.ctx.db).transaction((tx) =>
            appendLedgerEntry(tx, { kind: 'appointment_cancel', content: { n: i } }),
          ),
        ),
      );
      const entries = await allEntries();
      expect(entries).toHaveLength(before + 40);
      expectValidChain(entries);
    } finally {
      await closeSecond();
    }
  });
});

describe('recordLedgerContent', () => {
  const record = {
    id: crypto.randomUUID(),
    patientId: crypto.randomUUID(),
    hospitalId: crypto.randomUUID(),
    title: 'X-ray',
    description: null,
    recordType: 'imaging',
    doctorName: 'Dr. Who',
    department: null,
    createdAt: new Date('2025-01-02T03:04:05.678Z'),
  };
  const a = { fileName: 'a.png', mimeType: 'image/png', size: 10, sha256: 'aa'.repeat(32), position: 0 };
  const b = {
    fileName: 'b.pdf',
    mimeType: 'application/pdf',
    size: 20,
    sha256: 'BB'.repeat(32),
    position: 1,
  };

  it('gives the same content whatever the order of the attachment rows or the date form', () => {
    const one = recordLedgerContent(record, [a, b]);
    const two = recordLedgerContent({ ...record, createdAt: '2025-01-02T03:04:05.678Z' }, [b, a]);
    expect(one).toEqual(two);
    expect(one).toMatchObject({ createdAt: '2025-01-02T03:04:05.678Z', description: null, department: null });
    expect((one.attachments as Array<{ sha256: string }>).map((x) => x.sha256)).toEqual([
      'aa'.repeat(32),
      'bb'.repeat(32),
    ]);
  });

  it('changes when any covered field or attachment hash changes', () => {
    const base = JSON.stringify(recordLedgerContent(record, [a]));
    expect(JSON.stringify(recordLedgerContent({ ...record, title: 'X-ray ' }, [a]))).not.toBe(base);
    expect(JSON.stringify(recordLedgerContent(record, [{ ...a, sha256: 'ab'.repeat(32) }]))).not.toBe(base);
    expect(JSON.stringify(recordLedgerContent(record, []))).not.toBe(base);
  });

  it('is what a ledgered record upload hashes, so its entry can be recomputed from the rows', async () => {
    const { userId } = await signedInHospital(t.app);
    const made = await createLedgeredRecord(t.ctx, userId, { files: [] });
    const [entry] = await t.ctx.db.select().from(ledgerEntries).where(eq(ledgerEntries.hash, made.hash));
    const [row] = await t.ctx.db.select().from(medicalRecords).where(eq(medicalRecords.id, made.recordId));
    const [opening] = await t.ctx.db.select().from(ledgerContents).where(eq(ledgerContents.seq, made.seq));
    const content = JSON.parse(opening.content);
    expect(content.title).toBe(row.title);
    expect(content).toEqual(JSON.parse(JSON.stringify(recordLedgerContent(row, []))));
    expect(row.blockchainHash).toBe(entry.hash);
    expect(
      committedEntryCanonical({
        seq: made.seq,
        createdAt: entry.createdAt,
        kind: 'record_upload',
        recordId: row.id,
        patientId: row.patientId,
        userId,
        commitments: contentCommitments(opening.salt, recordLedgerContent(row, [])),
      }),
    ).toBe(entry.canonical);
  });
});

describe('the bench-only switch that skips ledger appends (BENCH_SKIP_LEDGER)', () => {
  it('is off unless set, on only with NODE_ENV=bench, and refused anywhere else', () => {
    expect(benchSkipsLedger({})).toBe(false);
    expect(benchSkipsLedger({ NODE_ENV: 'bench' })).toBe(false);
    expect(benchSkipsLedger({ BENCH_SKIP_LEDGER: '1', NODE_ENV: 'bench' })).toBe(true);
    for (const NODE_ENV of [undefined, 'production', 'development', 'test'])
      expect(() => benchSkipsLedger({ BENCH_SKIP_LEDGER: '1', NODE_ENV })).toThrow(/benchmarks only/);
    expect(() => benchSkipsLedger({ BENCH_SKIP_LEDGER: 'true', NODE_ENV: 'bench' })).toThrow(
      /benchmarks only/,
    );
  });
});
