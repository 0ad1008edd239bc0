// Appending to the ledger. An entry is written inside the caller's transaction (with the record,
// consent or profile change it records and the audit entry), under a transaction-scoped advisory
// lock, so appends from any number of requests and server processes on one PostgreSQL get a
// gap-free sequence and an unbroken chain. Ledger rows are never updated or deleted.
// New entries are format 2: the ledger row holds salted commitments to the content, and the salt
// and content go to ledger_contents (deletable: erasure), so the ledger itself holds no health data.
import crypto from 'node:crypto';
import { sql, type SQL, type WithSubquery } from 'drizzle-orm';
import type { TypedQueryBuilder } from 'drizzle-orm/query-builders/query-builder';
import { PgTransaction } from 'drizzle-orm/pg-core';
import {
  committedEntryCanonical,
  contentCommitments,
  entryCanonical,
  LEDGER_SALT_BYTES,
  LEDGER_KINDS,
  type LedgerKind,
} from '../../../shared/ledger/entry.js';
import type { Db } from '../../db/connect.js';
import { driverError } from '../../db/outage.js';
import { storedContent } from './commitments.js';
import { sha256, sha256Hex } from './hashing.js';
import { LEDGER_LOCK_KEY, LedgerDamagedError } from './tree.js';

export interface LedgerAppendInput {
  kind: LedgerKind;
  recordId?: string | null;
  patientId?: string | null;
  userId?: string | null;
  /** Plain JSON-like values (Dates allowed); attachments by their SHA-256, never their bytes. */
  content: Record<string, unknown>;
}

/** A data-modifying statement with a RETURNING clause, as a WITH part of the append's statement. */
export type AlongsideWrite = TypedQueryBuilder<Record<string, unknown>>;

export interface LedgerAppendResult {
  seq: number;
  hash: string;
  chainHash: string;
  createdAt: Date;
}

// Not a type guard on purpose: narrowing would turn the Db handle into an untyped transaction.
const isTransaction = (handle: unknown): boolean => handle instanceof PgTransaction;

/**
 * Bench-only switch (bench/writes.bench.ts; docs/decisions.md, "Writes bench without the ledger"):
 * BENCH_SKIP_LEDGER=1 turns appends into no-ops, so that the bench compares writes with and
 * without the ledger. Read here only; refused unless NODE_ENV=bench (the process does not start),
 * so it can never be on in production.
 */
export function benchSkipsLedger(env: Record<string, string | undefined>): boolean {
  if (!env.BENCH_SKIP_LEDGER) return false;
  if (env.BENCH_SKIP_LEDGER !== '1' || env.NODE_ENV !== 'bench')
    throw new Error('BENCH_SKIP_LEDGER=1 is for benchmarks only (with NODE_ENV=bench); unset it.');
  return true;
}
const SKIP_LEDGER = benchSkipsLedger(process.env);

/**
 * Appends an entry. `tx` must be a transaction (`db.transaction(async (tx) => ...)`), the one that
 * writes the change being recorded; call this last in it, because the ledger lock is held until
 * the transaction ends. Runs at READ COMMITTED (the default) so it sees the latest entry.
 */
export async function appendLedgerEntry(
  tx: Db,
  input: LedgerAppendInput,
  options: {
    now?: Date;
    /** 1 writes the old format (content inline); only for tests of old entries. Default 2. */
    format?: 1 | 2;
    /** Writes that carry the entry's hash (each with a RETURNING), made in the entry's statement. */
    alongside?: (hash: SQL) => AlongsideWrite[];
  } = {},
): Promise<LedgerAppendResult> {
  if (!isTransaction(tx)) {
    throw new Error('appendLedgerEntry must be called with a transaction handle');
  }
  if (!LEDGER_KINDS.includes(input.kind)) throw new Error(`unknown ledger entry kind: ${String(input.kind)}`);
  if (SKIP_LEDGER) {
    const hash = sha256Hex(`${storedContent(input.content)}${crypto.randomBytes(16).toString('hex')}`);
    for (const write of options.alongside?.(sql`${hash}`) ?? []) await tx.execute(write.getSQL());
    return { seq: -1, hash, chainHash: hash, createdAt: options.now ?? new Date() };
  }

  // What does not depend on the entry's place is prepared before the lock is taken: the lock is
  // held to the commit, so every statement and computation under it delays every other writer.
  const createdAt = options.now ?? new Date();
  const recordId = input.recordId ?? null;
  const patientId = input.patientId ?? null;
  const userId = input.userId ?? null;
  // The content as stored and committed to: canonical JSON read back, so Dates become strings.
  const storedText = storedContent(input.content);
  const content = JSON.parse(storedText) as Record<string, unknown>;
  const salt = crypto.randomBytes(LEDGER_SALT_BYTES).toString('hex');
  const commitments = options.format === 1 ? null : contentCommitments(salt, content, sha256);

  // The entry's canonical text around its seq, the one field that depends on its place: the
  // database takes the lock, places the seq and hashes (medledger_append, migration 0024), in the
  // same statement as the writes alongside, which read the hash from it. One statement and the
  // commit are all that is held under the lock.
  const header = { seq: SEQ_PLACEHOLDER, createdAt, kind: input.kind, recordId, patientId, userId };
  const [beforeSeq, afterSeq] = splitAtSeq(
    commitments
      ? committedEntryCanonical({ ...header, commitments })
      : entryCanonical({ ...header, content }),
  );
  const appended = tx
    .$with('ledger_entry', {
      seq: sql<string>`seq`.as('seq'),
      hash: sql<string>`hash`.as('hash'),
      chainHash: sql<string>`chain_hash`.as('chain_hash'),
    })
    .as(
      sql`select seq, hash, chain_hash from medledger_append(${LEDGER_LOCK_KEY}::bigint, ${beforeSeq}, ${afterSeq},
        ${input.kind}, ${recordId}::uuid, ${patientId}::uuid, ${userId}::uuid, ${createdAt.toISOString()}::timestamptz,
        ${commitments ? salt : null}, ${commitments ? storedText : null})`,
    );
  const hashOfEntry = sql`(select hash from ${appended})`;
  const parts: WithSubquery[] = [appended];
  for (const [i, write] of (options.alongside?.(hashOfEntry) ?? []).entries())
    parts.push(tx.$with(`ledger_alongside_${i}`).as(write));
  let row: { seq: string; hash: string; chainHash: string };
  try {
    [row] = await tx
      .with(...parts)
      .select()
      .from(appended);
  } catch (err) {
    const cause = driverError(err);
    if (cause?.code === MISSING_NODE) throw new LedgerDamagedError(cause.message);
    throw err;
  }
  return { seq: Number(row.seq), hash: row.hash, chainHash: row.chainHash, createdAt };
}

/** Where the canonical text's seq goes: a value no entry has (seqs count from 0). */
const SEQ_PLACEHOLDER = -1;
const SEQ_KEY = ',"seq":';
const SEQ_FIELD = `${SEQ_KEY}${SEQ_PLACEHOLDER},"userId":`;

/**
 * The canonical text before and after its seq's digits. The envelope's keys are sorted, so the seq
 * follows the record id and precedes the user id, after a v1 entry's inline content: the last
 * occurrence is the envelope's.
 */
function splitAtSeq(canonical: string): [string, string] {
  const at = canonical.lastIndexOf(SEQ_FIELD);
  if (at < 0) throw new Error('The ledger entry has no seq to place.');
  const digitsAt = at + SEQ_KEY.length;
  return [canonical.slice(0, digitsAt), canonical.slice(digitsAt + String(SEQ_PLACEHOLDER).length)];
}

/** The SQLSTATE medledger_append raises when a stored subtree the new leaf needs is missing. */
const MISSING_NODE = 'MLTRE';
