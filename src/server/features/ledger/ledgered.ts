// A ledgered change in the caller's transaction (docs/architecture.md#the-life-of-a-request):
// append the entry with the audit entry carrying its hash, then stamp the changed row with it.
// Whatever the change writes without the hash goes before this call, because the ledger lock is
// held from the append to the commit (ledger/service.ts).
import type { SQL } from 'drizzle-orm';
import type { Actor } from '../../access.js';
import type { Db } from '../../db/connect.js';
import { auditInsert, recordAudit, type AuditRecord } from '../audit/service.js';
import { appendLedgerEntry, type AlongsideWrite, type LedgerAppendInput } from './service.js';

export interface LedgeredChange<T> {
  /** The ledger entry (its user is the actor), or null for a change that is audited only. */
  entry: Omit<LedgerAppendInput, 'userId'> | null;
  /** Writes the row(s) that carry the entry's hash (null when there is no entry); short statements. */
  stamp?: (hash: string | null) => Promise<T>;
  /**
   * Or: the one statement (with a RETURNING) that writes the entry's hash, made within the entry's
   * own statement, one statement fewer under the ledger lock. Not called without an entry.
   */
  stampWith?: (hash: SQL) => AlongsideWrite;
  audit: AuditRecord;
}

/** Appends, stamps and audits in `tx`; answers the entry's hash and what `stamp` returned. */
export async function appendLedgered<T = undefined>(
  tx: Db,
  actor: Actor,
  change: LedgeredChange<T>,
  now: Date,
): Promise<{ hash: string | null; stamped: T | undefined }> {
  // With an entry, the audit row (and a one-statement stamp) go into the entry's own statement,
  // fewer statements under the ledger lock; a change without one is audited alone.
  const stampWith = change.stampWith;
  const entry = change.entry
    ? await appendLedgerEntry(
        tx,
        { ...change.entry, userId: actor.id },
        {
          now,
          alongside: (hash) => [
            auditInsert(tx, actor, change.audit, hash),
            ...(stampWith ? [stampWith(hash)] : []),
          ],
        },
      )
    : null;
  const hash = entry?.hash ?? null;
  const stamped = await change.stamp?.(hash);
  if (!entry) await recordAudit(tx, actor, change.audit);
  return { hash, stamped };
}
