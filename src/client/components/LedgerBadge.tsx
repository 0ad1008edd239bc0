// The audit-entry badge of docs/spec.md#hospital-dashboard: "Blockchain Verified" when the entry
// carries a ledger hash the server found in the ledger, else "Logged Only". Used by both audit
// trails.
import { Badge } from '@mantine/core';

export function LedgerBadge({ verified }: { verified: boolean }) {
  return verified ? (
    <Badge color="teal" variant="light">
      Blockchain Verified
    </Badge>
  ) : (
    <Badge color="gray" variant="light">
      Logged Only
    </Badge>
  );
}
