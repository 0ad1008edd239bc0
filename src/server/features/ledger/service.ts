// Appending to the ledger. An entry is written inside the caller's transaction (with the record,
// consent or profile change it records and the audit entry), under a transaction-scoped advisory
// lock, so appends from any number of requests and server processes on one PostgreSQL get a
// gap-free sequence and an unbroken chain. Ledger rows are never updated or deleted.
// New entries are format 2: the ledger row holds salted commitments to the content, and the salt
// and content go to ledger_contents (deletable: erasure), so the ledger itself holds no health data.
import crypto from 'node:crypto';
import type { WithSubquery } from 'drizzle-orm';
import type { TypedQueryBuilder } from 'drizzle-orm/query-builders/query-builder';
import { PgTransaction } from 'drizzle-orm/pg-core';
import {
  committedEntryCanonical,
  contentCommitments,
  entryCanonical,
  GENESIS_CHAIN_HASH,
  LEDGER_SALT_BYTES,
  LEDGER_KINDS,
  type LedgerKind,
} from '../../../shared/ledger/entry.js';
import type { Db } from '../../db/connect.js';
import { ledgerContents, ledgerEntries, ledgerNodes } from '../../db/schema.js';
import { storedContent } from './commitments.js';
import { chainHashOf, leafOf, sha256, sha256Hex } from './hashing.js';
import { leafNodeRows, lockLedgerHead } from './tree.js';

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
    alongside?: (hash: string) => AlongsideWrite[];
  } = {},
): Promise<LedgerAppendResult> {
  if (!isTransaction(tx)) {
    throw new Error('appendLedgerEntry must be called with a transaction handle');
  }
  if (!LEDGER_KINDS.includes(input.kind)) throw new Error(`unknown ledger entry kind: ${String(input.kind)}`);
  if (SKIP_LEDGER) {
    const hash = sha256Hex(`${storedContent(input.content)}${crypto.randomBytes(16).toString('hex')}`);
    for (const write of options.alongside?.(hash) ?? []) await tx.execute(write.getSQL());
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

  const { last, siblings } = await lockLedgerHead(tx);
  const seq = last ? last.seq + 1 : 0;
  const header = { seq, createdAt, kind: input.kind, recordId, patientId, userId };
  const canonical = commitments
    ? committedEntryCanonical({ ...header, commitments })
    : entryCanonical({ ...header, content });
  const hash = sha256Hex(canonical);
  const chainHash = chainHashOf(last?.chainHash ?? GENESIS_CHAIN_HASH, hash);
  const nodes = leafNodeRows(seq, leafOf(Buffer.from(hash, 'hex')), siblings);

  // The entry, its content, the writes alongside it (the change's audit row, its stamp) and the
  // tree nodes in one statement (data-modifying WITH parts run exactly once whether or not the
  // main statement reads them).
  const entry = tx
    .$with('ledger_entry')
    .as(
      tx
        .insert(ledgerEntries)
        .values({ seq, kind: input.kind, recordId, patientId, userId, canonical, hash, chainHash, createdAt })
        .returning({ seq: ledgerEntries.seq }),
    );
  const parts: WithSubquery[] = [entry];
  if (commitments)
    parts.push(
      tx
        .$with('ledger_content')
        .as(
          tx
            .insert(ledgerContents)
            .values({ seq, salt, content: storedText, createdAt })
            .returning({ seq: ledgerContents.seq }),
        ),
    );
  for (const [i, write] of (options.alongside?.(hash) ?? []).entries())
    parts.push(tx.$with(`ledger_alongside_${i}`).as(write));
  await tx
    .with(...parts)
    .insert(ledgerNodes)
    .values(nodes);
  return { seq, hash, chainHash, createdAt };
}
