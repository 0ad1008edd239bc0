-- A ledger append in one statement under the lock (ledger/service.ts, appendLedgerEntry). The lock
-- is held to the commit, and each round trip back to a busy app while it is held delays every other
-- writer: migration 0022 made the lock and the head one statement, and the entry then needed a
-- second one, because its hash depends on its seq. Here the database takes the lock, reads the
-- head, places the seq in the canonical text the app prepared around it, and hashes with the rules
-- of src/shared/ledger (entry SHA-256(canonical), chain SHA-256(previous chain || entry), leaf
-- SHA-256(0x00 || entry), node SHA-256(0x01 || left || right)); the audit and the tests recompute
-- every one of them in JavaScript. VOLATILE for the reason 0022 gives: each query here takes a fresh
-- snapshot once the lock is granted, so it sees the entry the previous holder committed.
CREATE FUNCTION medledger_append(
  lock_key bigint,
  canonical_before_seq text,
  canonical_after_seq text,
  entry_kind text,
  entry_record_id uuid,
  entry_patient_id uuid,
  entry_user_id uuid,
  entry_created_at timestamptz,
  content_salt text,
  content_text text
)
RETURNS TABLE (seq bigint, hash text, chain_hash text)
LANGUAGE plpgsql VOLATILE AS $$
#variable_conflict use_column
DECLARE
  last_seq bigint;
  last_chain text;
  new_seq bigint;
  canonical text;
  entry_hash bytea;
  chain bytea;
  node bytea;
  sibling text;
  node_level integer := 0;
  node_idx bigint;
BEGIN
  PERFORM pg_advisory_xact_lock(lock_key);
  SELECT e.seq, e.chain_hash INTO last_seq, last_chain FROM ledger_entries e ORDER BY e.seq DESC LIMIT 1;
  new_seq := coalesce(last_seq + 1, 0);
  canonical := canonical_before_seq || new_seq::text || canonical_after_seq;
  entry_hash := sha256(convert_to(canonical, 'UTF8'));
  chain := sha256(decode(coalesce(last_chain, repeat('0', 64)), 'hex') || entry_hash);
  INSERT INTO ledger_entries (seq, kind, record_id, patient_id, user_id, canonical, hash, chain_hash, created_at)
  VALUES (new_seq, entry_kind, entry_record_id, entry_patient_id, entry_user_id, canonical,
          encode(entry_hash, 'hex'), encode(chain, 'hex'), entry_created_at);
  IF content_salt IS NOT NULL THEN
    INSERT INTO ledger_contents (seq, salt, content, created_at)
    VALUES (new_seq, content_salt, content_text, entry_created_at);
  END IF;
  -- The leaf, then every subtree it completes, from its stored left siblings.
  node := sha256('\x00'::bytea || entry_hash);
  node_idx := new_seq;
  INSERT INTO ledger_nodes (level, idx, hash) VALUES (0, new_seq, encode(node, 'hex'));
  WHILE node_idx % 2 = 1 LOOP
    SELECT n.hash INTO sibling FROM ledger_nodes n WHERE n.level = node_level AND n.idx = node_idx - 1;
    IF sibling IS NULL THEN
      RAISE EXCEPTION USING ERRCODE = 'MLTRE', MESSAGE =
        format('The ledger''s Merkle node %s/%s is missing.', node_level, node_idx - 1);
    END IF;
    node := sha256('\x01'::bytea || decode(sibling, 'hex') || node);
    node_level := node_level + 1;
    node_idx := node_idx / 2;
    INSERT INTO ledger_nodes (level, idx, hash) VALUES (node_level, node_idx, encode(node, 'hex'));
  END LOOP;
  RETURN QUERY SELECT new_seq, encode(entry_hash, 'hex'), encode(chain, 'hex');
END $$;
--> statement-breakpoint
-- Its predecessor, which took the lock and read the head for an entry written by a second statement.
DROP FUNCTION medledger_ledger_head(bigint);
