// The record detail dialog's verification banner: asks the server to check the record against the
// ledger (fields, attachment bytes, hash chain, inclusion proof), checks the returned inclusion
// proof again here, and shows verified or failed with the reason, the entry's number, the root it
// was checked against and the proof's length.
import { Alert, Button, Code, Group, Loader, Stack, Text } from '@mantine/core';
import { IconAlertTriangle, IconRefresh, IconShieldCheck } from '@tabler/icons-react';
import type { RecordVerification } from '../../../shared/ledger/api';
import { errorMessage } from '../../api/request';
import { copyHash } from '../../notify';
import type { ReactNode } from 'react';
import { checkEntryProof, plural, shortHash } from './proof';
import { formatDateTime } from '../../format';
import { useRecordVerification } from '../records/api';
import { SmallButton } from '../../components/SmallButton';

const CHECK_LABELS: Record<RecordVerification['checks'][number]['name'], string> = {
  entry: 'Ledger entry',
  content: 'Record content',
  attachments: 'Attachments',
  chain: 'Hash chain',
  inclusion: 'Merkle inclusion proof',
};

/** The server's answer, with the inclusion proof checked once more in the browser. */
function browserCheck(result: RecordVerification) {
  if (!result.verified || result.hash === null || result.leafIndex === null || result.rootHash === null)
    return null;
  return checkEntryProof(
    {
      hash: result.hash,
      leafIndex: result.leafIndex,
      treeSize: result.treeSize,
      rootHash: result.rootHash,
      auditPath: result.auditPath,
      createdAt: result.entryCreatedAt ?? '',
      kind: 'record_upload',
    },
    { treeSize: result.treeSize, rootHash: result.rootHash },
  );
}

export function VerificationBanner({ recordId }: { recordId: string }) {
  const query = useRecordVerification(recordId);
  const recheck = (
    <SmallButton
      icon={IconRefresh}
      size="compact-xs"
      variant="subtle"
      loading={query.isFetching}
      onClick={() => void query.refetch()}
    >
      Check again
    </SmallButton>
  );

  if (query.isPending) {
    return (
      <Alert color="gray" icon={<Loader size="xs" />} title="Checking the ledger…" role="status">
        Recomputing this record&apos;s hash and checking its ledger proof.
      </Alert>
    );
  }
  if (query.isError) {
    return (
      <Alert color="orange" icon={<IconAlertTriangle aria-hidden />} title="Verification unavailable">
        <Stack gap={4}>
          <Text size="sm">{errorMessage(query.error, 'The ledger could not be checked just now.')}</Text>
          <Group>{recheck}</Group>
        </Stack>
      </Alert>
    );
  }

  return <VerificationAlert result={query.data} actions={recheck} />;
}

/**
 * A verification result as the banner shows it (also on the shared record's page, which gets the
 * result with the record; docs/decisions.md#specialist-share-links).
 */
export function VerificationAlert({ result, actions }: { result: RecordVerification; actions?: ReactNode }) {
  const local = browserCheck(result);
  const verified = result.verified && local?.ok !== false;
  const failedCheck = result.checks.find((c) => !c.ok);
  // Erased content is not tampering: only the content could not be checked, everything else held.
  const erased =
    !verified && result.contentErased && result.checks.every((c) => c.ok || c.name === 'content');
  return (
    <Alert
      color={verified ? 'teal' : erased ? 'gray' : 'red'}
      icon={verified ? <IconShieldCheck aria-hidden /> : <IconAlertTriangle aria-hidden />}
      title={verified ? 'Blockchain Verified' : erased ? 'Ledger content erased' : 'Verification failed'}
      role="status"
    >
      <Stack gap={6}>
        <Text size="sm">
          {verified
            ? 'This record, its attachments and its place in the ledger were checked and match.'
            : erased
              ? `${failedCheck?.detail ?? ''} Its attachments, the hash chain and the inclusion proof were checked and hold.`
              : failedCheck
                ? `${CHECK_LABELS[failedCheck.name]}: ${failedCheck.detail}`
                : (local?.detail ?? result.reason)}
        </Text>
        {result.leafIndex !== null && (
          <Text size="xs" c="dimmed">
            Ledger entry #{result.leafIndex}
            {result.entryCreatedAt ? `, entered ${formatDateTime(result.entryCreatedAt)}` : ''}
            {result.rootHash
              ? ` · checked against root ${shortHash(result.rootHash)} of ${plural(result.treeSize, 'entry', 'entries')}` +
                ` · proof of ${plural(result.auditPath.length, 'hash', 'hashes')}`
              : ''}
            {local?.ok ? ' · proof re-checked in your browser' : ''}
          </Text>
        )}
        {/* Wraps on narrow screens so that "Check again" always stays visible. */}
        <Group gap="xs" wrap="wrap">
          {result.hash && (
            <>
              <Code style={{ wordBreak: 'break-all', flex: '1 1 16rem', minWidth: 0 }}>{result.hash}</Code>
              <Button
                size="compact-xs"
                variant="subtle"
                style={{ flexShrink: 0 }}
                onClick={() => void copyHash(result.hash!)}
              >
                Copy
              </Button>
            </>
          )}
          {actions}
        </Group>
      </Stack>
    </Alert>
  );
}
