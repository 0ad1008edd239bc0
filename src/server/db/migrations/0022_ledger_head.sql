-- The ledger's append lock and its head in one statement (ledger/tree.ts, lockLedgerHead): one round
-- trip fewer while the lock is held, which every other writer waits out. The function takes the
-- lock, then reads the last entry and the stored subtrees the next leaf completes (level l when
-- bits 0..l of last + 1 are all set). It must be VOLATILE: a volatile function's query takes a fresh
-- snapshot once the lock is granted, so it sees the entry the previous holder committed, which the
-- calling statement (its snapshot taken before the wait) would not.
CREATE FUNCTION medledger_ledger_head(lock_key bigint)
RETURNS TABLE (seq bigint, chain_hash text, level integer, idx bigint, hash text)
LANGUAGE plpgsql VOLATILE AS $$
#variable_conflict use_column
BEGIN
  PERFORM pg_advisory_xact_lock(lock_key);
  RETURN QUERY
    WITH last AS (
      SELECT e.seq, e.chain_hash FROM ledger_entries e ORDER BY e.seq DESC LIMIT 1
    )
    SELECT last.seq, last.chain_hash, sibling.level, sibling.idx, sibling.hash
    FROM last LEFT JOIN LATERAL (
      SELECT n.level, n.idx, n.hash
      FROM generate_series(0, 61) AS l(level)
      JOIN ledger_nodes n ON n.level = l.level AND n.idx = ((last.seq + 1) >> l.level) - 1
      WHERE ((last.seq + 2) & ((2::bigint << l.level) - 1)) = 0
    ) sibling ON true;
END $$;
