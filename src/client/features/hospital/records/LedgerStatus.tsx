// The record's ledger status: whether the server found its ledger entry intact and matching, and
// the entry's hash (copyable). The full check (attachment bytes, inclusion proof) is the ledger's
// verification banner.
import { Alert, Button, Code, Group, Text } from '@mantine/core';
import { IconAlertTriangle, IconClock, IconShieldCheck } from '@tabler/icons-react';
import type { MedicalRecord } from '../../../../shared/records';
import { notifyError, notifySuccess } from '../../../notify';

async function copyHash(hash: string | null) {
  if (!hash) {
    notifyError('No Blockchain Hash', 'This transaction was not blockchain verified.');
    return;
  }
  try {
    await navigator.clipboard.writeText(hash);
    notifySuccess('Blockchain Hash Copied', 'The ledger hash is on your clipboard.');
  } catch {
    notifyError('Copy Failed', 'Could not copy the hash. Please select and copy it manually.');
  }
}

export function LedgerStatus({ record }: { record: MedicalRecord }) {
  if (record.status === 'draft') {
    return (
      <Alert color="gray" icon={<IconClock aria-hidden />} title="Draft">
        This draft is not in the ledger yet. It is entered when it is uploaded.
      </Alert>
    );
  }
  const verified = record.isBlockchainVerified;
  return (
    <Alert
      color={verified ? 'teal' : 'red'}
      icon={verified ? <IconShieldCheck aria-hidden /> : <IconAlertTriangle aria-hidden />}
      title={verified ? 'Blockchain Verified' : 'Not verified'}
    >
      <Text size="sm">
        {verified
          ? 'The ledger entry of this record is intact and matches the record.'
          : 'The record no longer matches its ledger entry.'}
      </Text>
      {record.blockchainHash && (
        <Group gap="xs" mt="xs" wrap="nowrap">
          <Code style={{ wordBreak: 'break-all' }}>{record.blockchainHash}</Code>
          <Button
            size="compact-xs"
            variant="subtle"
            style={{ flexShrink: 0 }}
            onClick={() => void copyHash(record.blockchainHash)}
          >
            Copy
          </Button>
        </Group>
      )}
    </Alert>
  );
}
