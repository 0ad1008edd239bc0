-- The verify page's lookup in one statement (ledger/lookup.ts, entryProofByHash): the entry with a
-- hash, the tree size, and the stored subtrees its inclusion proof at a size (the one asked for, or
-- the current one) can take. A PL/pgSQL function because its query is planned once per connection:
-- PGlite parses and plans every statement it is sent, and this one's plan cost as much as running it.
--
-- A proof's ranges are complete siblings of the leaf's subtrees, and tails of the size's split into
-- complete subtrees (one per set bit of the size), which whole gives the root. So per level L up to
-- the size's highest bit, the keys are the sibling (leaf >> L) xor 1 and, when bit L of the size is
-- set, (size >> L) - 1, each if it ends within the size: about two per level, of which the server
-- folds those the proof takes (ledger/tree.ts, inclusionProof). The nodes come back as a JSON array
-- of [level, idx, hash]; each is read by its own index lookup (LIMIT 1), not a bitmap scan.
CREATE FUNCTION medledger_entry_proof(entry_hash text, requested_size bigint)
RETURNS TABLE (seq bigint, hash text, created_at timestamptz, kind text, current_size bigint, nodes json)
LANGUAGE plpgsql STABLE AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY
    SELECT e.seq, e.hash, e.created_at, e.kind, s.size, (
      SELECT coalesce(json_agg(json_build_array(n.level, n.idx, n.hash)), '[]'::json)
      FROM (SELECT coalesce(requested_size, s.size) AS size) tree
      CROSS JOIN generate_series(0, 62) AS l(level)
      CROSS JOIN LATERAL (VALUES
        ((e.seq >> l.level) # 1, true),
        ((tree.size >> l.level) - 1, ((tree.size >> l.level) & 1) = 1)
      ) AS wanted(idx, kept)
      JOIN LATERAL (
        SELECT n.level, n.idx, n.hash FROM ledger_nodes n
        WHERE n.level = l.level AND n.idx = wanted.idx LIMIT 1
      ) n ON true
      WHERE (1::bigint << l.level) <= tree.size AND wanted.kept
        AND ((wanted.idx + 1) << l.level) <= tree.size
    )
    FROM ledger_entries e
    CROSS JOIN (SELECT coalesce(max(x.seq) + 1, 0) AS size FROM ledger_entries x) s
    WHERE e.hash = entry_hash;
END $$;
