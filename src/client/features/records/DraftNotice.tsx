// A draft's place where an uploaded record shows the ledger's verification banner: drafts are not
// in the ledger until they are uploaded.
import { Alert } from '@mantine/core';
import { IconClock } from '@tabler/icons-react';

export function DraftNotice() {
  return (
    <Alert color="gray" icon={<IconClock aria-hidden />} title="Draft" role="note">
      This draft is not in the ledger yet. It is entered when it is uploaded.
    </Alert>
  );
}
