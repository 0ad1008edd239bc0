// npm run bench:ledger — ledger benchmark. Prints:
//  1. append rate (one transaction per entry, sequential and 16 at a time);
//  2. full verification throughput (the `npm run ledger -- verify` audit over records with
//     attachments: chain, tree, every record's fields and attachment bytes decrypted and hashed),
//     as a ratio to raw SHA-256 over the same bytes measured in the same run (goal >= 0.5);
//  3. inclusion-proof time at 10^4, 10^5 and 10^6 entries (goal: grows like log n).
// Uses embedded PGlite in a temporary folder, or PostgreSQL with BENCH_DATABASE_URL (a database
// that may be emptied). BENCH_MAX_ENTRIES lowers the largest tree (default 1000000); BENCH_PARTS
// runs only some parts (e.g. "3"; default all).
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { connect, type Database } from '../src/server/db/connect.js';
import { attachments, ledgerEntries, medicalRecords, patients, users } from '../src/server/db/schema.js';
import { DirectoryStore } from '../src/server/files/backends/directory.js';
import { HashPool } from '../src/server/features/ledger/hash-pool.js';
import { auditLedger, type AuditReport } from '../src/server/features/ledger/integrity.js';
import { recordLedgerContent } from '../src/server/features/ledger/content.js';
import { entryProofByHash, treeHead } from '../src/server/features/ledger/lookup.js';
import { appendLedgerEntry } from '../src/server/features/ledger/service.js';
import { leafHash, verifyInclusion } from '../src/shared/ledger/merkle.js';
import { fromHex } from '../src/shared/ledger/sha256.js';

const APPENDS = 1000;
const RECORDS = 120;
const ATTACHMENT_BYTES = 512 * 1024;
const PROOF_SAMPLES = 2000;
/** Proofs run before the timed ones at each size: JIT compilation and first reads are not the proof's cost. */
const PROOF_WARM_UP = 100;
/** Part 2: passes over the measurements, and rounds of each per pass; each figure is its best round. */
const VERIFY_PASSES = 3;
const VERIFY_ROUNDS_PER_PASS = 5;
const MAX_ENTRIES = Number(process.env.BENCH_MAX_ENTRIES || 1_000_000);
const PARTS = process.env.BENCH_PARTS ?? '123';

const sha = (data: Uint8Array) => crypto.hash('sha256', data, 'buffer');
const ms = (start: bigint) => Number(process.hrtime.bigint() - start) / 1e6;
const fmt = (n: number, digits = 0) =>
  n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

async function freshDatabase(dataDir: string): Promise<Database> {
  const url = process.env.BENCH_DATABASE_URL;
  if (!url)
    return connect({ pgliteDir: path.join(dataDir, `pglite-${crypto.randomBytes(4).toString('hex')}`) });
  const database = await connect({ databaseUrl: url });
  // The ledger tables refuse truncation (append-only triggers); a benchmark database is reset
  // with triggers off, which needs a superuser connection, so the counts those triggers keep are
  // emptied by name.
  await database.db.transaction(async (tx) => {
    await tx.execute(sql`set local session_replication_role = replica`);
    await tx.execute(
      sql`truncate ledger_nodes, ledger_entries, attachments, medical_records, patients, subscriptions, sessions, audit_logs, users, hospital_patient_counts, hospital_audit_counts cascade`,
    );
  });
  return database;
}

async function benchAppends(database: Database) {
  const { db } = database;
  let start = process.hrtime.bigint();
  for (let i = 0; i < APPENDS; i++) {
    await db.transaction((tx) =>
      appendLedgerEntry(tx, { kind: 'profile_change', userId: null, content: { n: i, field: 'phone' } }),
    );
  }
  const sequential = APPENDS / (ms(start) / 1000);
  start = process.hrtime.bigint();
  const workers = 16;
  await Promise.all(
    Array.from({ length: workers }, async (_, w) => {
      for (let i = w; i < APPENDS; i += workers) {
        await db.transaction((tx) => appendLedgerEntry(tx, { kind: 'consent_change', content: { n: i } }));
      }
    }),
  );
  const parallel = APPENDS / (ms(start) / 1000);
  console.log(
    `1. Append rate (${database.kind}): ${fmt(sequential)} entries/s one at a time, ${fmt(parallel)} entries/s with ${workers} concurrent requests`,
  );
}

async function benchVerification(database: Database, files: DirectoryStore) {
  const { db } = database;
  const [hospital] = await db
    .insert(users)
    .values({
      email: `bench-${Date.now()}@example.test`,
      password: 'x',
      role: 'hospital',
      hospitalName: 'Bench',
    })
    .returning();
  const [patient] = await db
    .insert(patients)
    .values({ patientId: `MRNBENCH${Date.now()}`, createdByHospitalId: hospital.id })
    .returning();
  const plaintexts: Buffer[] = [];
  for (let i = 0; i < RECORDS; i++) {
    const bytes = crypto.randomBytes(ATTACHMENT_BYTES);
    plaintexts.push(bytes);
    const file = await files.write(Readable.from([bytes]), 25 * 1024 * 1024);
    await file.commit();
    await db.transaction(async (tx) => {
      const [record] = await tx
        .insert(medicalRecords)
        .values({
          patientId: patient.id,
          hospitalId: hospital.id,
          title: `Scan ${i}`,
          recordType: 'imaging',
          doctorName: 'Dr. Bench',
        })
        .returning();
      const rows = await tx
        .insert(attachments)
        .values({
          recordId: record.id,
          storageKey: file.storageKey,
          fileName: `scan-${i}.png`,
          mimeType: 'image/png',
          size: file.size,
          sha256: file.sha256,
          format: file.format,
          iv: file.iv,
          authTag: file.authTag,
        })
        .returning();
      const entry = await appendLedgerEntry(tx, {
        kind: 'record_upload',
        recordId: record.id,
        patientId: patient.id,
        userId: hospital.id,
        content: recordLedgerContent(record, rows),
      });
      await tx
        .update(medicalRecords)
        .set({ blockchainHash: entry.hash, isBlockchainVerified: true })
        .where(sql`${medicalRecords.id} = ${record.id}`);
    });
  }
  const canonicals = (await db.select({ canonical: ledgerEntries.canonical }).from(ledgerEntries)).map((r) =>
    Buffer.from(r.canonical),
  );

  const stored = await db.select().from(attachments);

  // Each measurement runs in a block of rounds, the blocks in turn (PASSES times, so that a noisy
  // neighbour hurts them alike), and each keeps its best round. Not one round of each in turn: an
  // audit timed straight after the one-thread audit and the asynchronous read-back collected their
  // garbage and shared the cores with their threads, which the command's audit, alone in its process,
  // never does (docs/decisions.md, "Performance measurements").
  const pool = new HashPool({ dataDir: path.dirname(files.dir) });
  let report: AuditReport | undefined;
  const measurements = {
    audit: async () => {
      report = await auditLedger(db, files, { hasher: pool });
    },
    oneThread: () => auditLedger(db, files),
    raw: async () => {
      for (const bytes of plaintexts) sha(bytes);
      for (const bytes of canonicals) sha(bytes);
    },
    readBack: async () => {
      for (const row of stored) await files.hashStored(row);
    },
    poolAlone: () => Promise.all(stored.map((row) => pool.hashStored(row))),
  };
  const names = Object.keys(measurements) as Array<keyof typeof measurements>;
  const best = Object.fromEntries(names.map((name) => [name, Infinity])) as Record<
    (typeof names)[number],
    number
  >;
  for (let pass = 0; pass < VERIFY_PASSES; pass++) {
    for (const name of names) {
      for (let round = 0; round < VERIFY_ROUNDS_PER_PASS; round++) {
        const start = process.hrtime.bigint();
        await measurements[name]();
        best[name] = Math.min(best[name], ms(start));
      }
    }
  }
  await pool.close();
  if (!report || report.problemCount > 0)
    throw new Error(`audit found problems: ${report?.problems.join('; ')}`);
  const mb = (report.attachmentBytes + report.canonicalBytes) / 1024 / 1024;
  const rate = (t: number) => `${fmt(mb / (t / 1000), 1)} MB/s`;
  console.log(
    `2. Full verification (the audit: ${report.entries} entries, ${report.records} records with attachments, ${fmt(mb, 1)} MB), ` +
      `attachments hashed on ${pool.threads} worker threads: ${fmt(best.audit)} ms = ${rate(best.audit)}\n` +
      `   (the same audit on one thread: ${fmt(best.oneThread)} ms = ${rate(best.oneThread)}; ratio ${fmt(best.raw / best.oneThread, 2)})\n` +
      `   raw SHA-256 of the same bytes in memory: ${fmt(best.raw)} ms = ${rate(best.raw)}; ratio ${fmt(best.raw / best.audit, 2)} (goal >= 0.5)\n` +
      `   (reading the attachments back alone, FileStore.hashStored = read + AES-256-GCM decrypt + SHA-256: ${fmt(best.readBack)} ms = ${rate(best.readBack)};` +
      ` the audit reaches ${fmt(best.readBack / best.audit, 2)} of that; the same on the pool's threads alone: ` +
      `${fmt(best.poolAlone)} ms = ${rate(best.poolAlone)})`,
  );
}

/** A Postgres array literal, one parameter instead of one per element. */
const arrayLiteral = (items: readonly (string | number)[]) =>
  `{${items.map((v) => (typeof v === 'number' ? String(v) : `"${v.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`)).join(',')}}`;

const syntheticCanonical = (seq: number) =>
  `{"content":{"n":${seq}},"kind":"profile_change","seq":${seq},"v":1}`;

/** Bulk-extends a ledger of synthetic entries (valid chain and tree) to `target` entries. */
class BulkLedger {
  size = 0;
  private chain = Buffer.alloc(32);
  /** Right frontier of the tree: pending complete subtrees (level, hash). */
  private stack: Array<{ level: number; hash: Buffer }> = [];
  constructor(private readonly database: Database) {}

  async extendTo(target: number) {
    const { db } = this.database;
    const chunk = 20_000;
    const createdAt = new Date().toISOString();
    while (this.size < target) {
      const seqs: number[] = [];
      const canonicals: string[] = [];
      const hashes: string[] = [];
      const chains: string[] = [];
      const levels: number[] = [];
      const idxs: number[] = [];
      const nodeHashes: string[] = [];
      const end = Math.min(target, this.size + chunk);
      for (let seq = this.size; seq < end; seq++) {
        const canonical = syntheticCanonical(seq);
        const hash = sha(Buffer.from(canonical));
        this.chain = sha(Buffer.concat([this.chain, hash]));
        seqs.push(seq);
        canonicals.push(canonical);
        hashes.push(hash.toString('hex'));
        chains.push(this.chain.toString('hex'));
        let node = { level: 0, hash: Buffer.from(leafHash(hash, sha)) };
        levels.push(0);
        idxs.push(seq);
        nodeHashes.push(node.hash.toString('hex'));
        while (this.stack.length > 0 && this.stack[this.stack.length - 1].level === node.level) {
          const left = this.stack.pop()!;
          node = {
            level: node.level + 1,
            hash: sha(Buffer.concat([Buffer.from([1]), left.hash, node.hash])),
          };
          levels.push(node.level);
          idxs.push(Math.floor(seq / 2 ** node.level));
          nodeHashes.push(node.hash.toString('hex'));
        }
        this.stack.push(node);
      }
      // Two statements per chunk: unnest() over array parameters is a bulk insert on both drivers.
      await db.transaction(async (tx) => {
        await tx.execute(sql`
          insert into ledger_entries (seq, kind, canonical, hash, chain_hash, created_at)
          select s, 'profile_change', c, h, ch, ${createdAt}::timestamptz
          from unnest(${arrayLiteral(seqs)}::bigint[], ${arrayLiteral(canonicals)}::text[],
                      ${arrayLiteral(hashes)}::text[], ${arrayLiteral(chains)}::text[]) as u(s, c, h, ch)`);
        await tx.execute(sql`
          insert into ledger_nodes (level, idx, hash)
          select * from unnest(${arrayLiteral(levels)}::integer[], ${arrayLiteral(idxs)}::bigint[],
                               ${arrayLiteral(nodeHashes)}::text[])`);
      });
      this.size = end;
    }
  }
}

async function benchProofs(database: Database, files: DirectoryStore) {
  const bulk = new BulkLedger(database);
  const rows: string[] = [];
  let base: number | null = null;
  for (const size of [10_000, 100_000, 1_000_000].filter((n) => n <= MAX_ENTRIES)) {
    const started = process.hrtime.bigint();
    await bulk.extendTo(size);
    const buildMs = ms(started);
    // A bulk load leaves every row as a first reader finds it (no hint bits, no statistics); a
    // ledger that has served reads and been vacuumed has neither cost, and neither is a proof's.
    const vacuumStart = process.hrtime.bigint();
    await database.db.execute(sql`vacuum (analyze) ledger_entries, ledger_nodes`);
    const vacuumMs = ms(vacuumStart);
    const head = await treeHead(database.db);
    const randomHash = () => sha(Buffer.from(syntheticCanonical(crypto.randomInt(size)))).toString('hex');
    for (let i = 0; i < PROOF_WARM_UP; i++) await entryProofByHash(database.db, randomHash());
    const hashes = Array.from({ length: PROOF_SAMPLES }, randomHash);
    const start = process.hrtime.bigint();
    let checked = 0;
    for (const hash of hashes) {
      const proof = await entryProofByHash(database.db, hash);
      if (!proof) throw new Error('entry not found');
      if (checked++ < 20) {
        const ok = verifyInclusion(
          proof.leafIndex,
          proof.treeSize,
          leafHash(fromHex(proof.hash)),
          proof.auditPath.map(fromHex),
          fromHex(head.rootHash),
        );
        if (!ok) throw new Error(`proof for ${proof.leafIndex} does not verify`);
      }
    }
    const perProof = ms(start) / PROOF_SAMPLES;
    base ??= perProof / Math.log2(size);
    rows.push(
      `   n = ${fmt(size).padStart(9)}: ${perProof.toFixed(2)} ms per proof (${Math.ceil(Math.log2(size))} hashes; ` +
        `log2 n predicts ${(base * Math.log2(size)).toFixed(2)} ms); tree built in ${fmt(buildMs / 1000, 1)} s, vacuumed in ${fmt(vacuumMs / 1000, 1)} s`,
    );
    console.log(rows[rows.length - 1]);
    if (size === 100_000) {
      const auditStart = process.hrtime.bigint();
      const report = await auditLedger(database.db, files, { records: false });
      if (report.problemCount > 0) throw new Error(report.problems.join('; '));
      console.log(
        `   (ledger-only audit of these ${fmt(size)} entries, chain and every Merkle node: ${fmt(size / (ms(auditStart) / 1000))} entries/s)`,
      );
    }
  }
}

async function main() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'medledger-bench-'));
  console.log(`Ledger benchmark (${os.cpus().length} cores, Node ${process.version}), data in ${dataDir}`);
  try {
    const files = new DirectoryStore(dataDir);
    const parts: [string, (database: Database) => Promise<void>][] = [
      ['1', (database) => benchAppends(database)],
      ['2', (database) => benchVerification(database, files)],
      [
        '3',
        async (database) => {
          console.log(
            '3. Inclusion proof (lookup by hash + proof from stored subtrees), average of random leaves:',
          );
          await benchProofs(database, files);
        },
      ],
    ];
    for (const [, run] of parts.filter(([part]) => PARTS.includes(part))) {
      const database = await freshDatabase(dataDir);
      try {
        await run(database);
      } finally {
        await database.close();
      }
    }
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
