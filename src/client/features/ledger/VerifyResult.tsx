// The answer of the /verify page: when and as what the file or hash was entered in the ledger,
// and whether its inclusion proof checked out in this browser.
import { Alert, Code, List, Stack, Text } from '@mantine/core';
import { IconAlertTriangle, IconCircleCheck, IconSearchOff } from '@tabler/icons-react';
import { ProviderVerification } from '../../components/ProviderVerification';
import type { LookupResult } from './lookup';
import { kindLabel, plural, shortHash } from './proof';
import { formatDateTime } from '../../format';

export function VerifyResult({ result, subject }: { result: LookupResult; subject: string }) {
  if (!result.found) {
    return (
      <Alert color="gray" icon={<IconSearchOff aria-hidden />} title="Not found in the ledger" role="status">
        <Text size="sm">
          Nothing in the MedLedger ledger matches this {subject}. A file must be byte-for-byte the one that
          was uploaded; a changed or re-saved copy has a different fingerprint.
        </Text>
      </Alert>
    );
  }
  const { proof, head, check, matchedBy } = result;
  const when = formatDateTime(proof.createdAt);
  return (
    <Alert
      color={check.ok ? 'teal' : 'red'}
      icon={check.ok ? <IconCircleCheck aria-hidden /> : <IconAlertTriangle aria-hidden />}
      title={check.ok ? `Found in the ledger: entered ${when}` : 'Found, but the proof did not check out'}
      role="status"
    >
      <Stack gap="xs">
        <Text size="sm">
          {matchedBy === 'file' ? 'This file is part of a ' : 'This hash is a '}
          <strong>{kindLabel(proof.kind).toLowerCase()}</strong> entered as entry #{proof.leafIndex} on {when}
          .
        </Text>
        <Text size="sm">{check.ok ? `Checked in your browser: ${check.detail}` : check.detail}</Text>
        {result.providerVerified !== null && (
          <Stack gap={2}>
            <ProviderVerification verified={result.providerVerified} size="sm" />
            <Text size="xs" c="dimmed">
              {result.providerVerified
                ? 'The provider that entered this record was vetted by MedLedger.'
                : 'The provider that entered this record signed up by itself and has not been vetted by MedLedger.'}
            </Text>
          </Stack>
        )}
        {result.fate?.documentStatus === 'superseded' && result.fate.supersededBy && (
          <Text size="sm" fw={500}>
            This record was later amended: a corrected version was entered on{' '}
            {formatDateTime(result.fate.supersededBy.createdAt)} (entry{' '}
            <Code>{shortHash(result.fate.supersededBy.hash)}</Code>). Ask the provider for the current
            version.
          </Text>
        )}
        {result.fate?.documentStatus === 'entered-in-error' && (
          <Text size="sm" fw={500} c="red.8">
            This record was later marked as entered in error
            {result.fate.enteredInError ? ` on ${formatDateTime(result.fate.enteredInError.createdAt)}` : ''}:
            it was kept in the ledger but should not be relied on.
          </Text>
        )}
        <List size="xs" spacing={4}>
          <List.Item>
            Entry hash: <Code style={{ wordBreak: 'break-all' }}>{proof.hash}</Code>
          </List.Item>
          <List.Item>
            Ledger root at {plural(head.treeSize, 'entry', 'entries')}:{' '}
            <Code style={{ wordBreak: 'break-all' }}>{head.rootHash}</Code>
          </List.Item>
          <List.Item>Proof length: {plural(proof.auditPath.length, 'hash', 'hashes')}</List.Item>
        </List>
      </Stack>
    </Alert>
  );
}
