// Share links with "Revoke" (docs/decisions.md#specialist-share-links): a record's links in the
// record dialog, and the patient's links that open now in the Manage Consent dialog.
import { Badge, Button, Group, Loader, Stack, Text } from '@mantine/core';
import type { Share } from '../../../shared/shares';
import { errorMessage } from '../../api/request';
import { formatDateTime } from '../../format';
import { ListRow } from '../../components/ListRow';
import { notifyError, notifySuccess } from '../../notify';
import { useOpenShares, useRecordShares, useRevokeShare } from './api';
import { LoadFailed, retryIfFailed } from '../../components/LoadFailed';

function status(share: Share): { label: string; color: string } {
  if (share.revokedAt) return { label: 'Revoked', color: 'gray' };
  if (share.active) return { label: 'Active', color: 'teal' };
  return { label: new Date(share.expiresAt) <= new Date() ? 'Expired' : 'Not opening', color: 'orange' };
}

function ShareRow({ share, showRecord }: { share: Share; showRecord: boolean }) {
  const revoke = useRevokeShare();
  const state = status(share);
  async function run() {
    try {
      await revoke.mutateAsync(share);
      notifySuccess('Link Revoked', `${share.recipientEmail} can no longer open the record.`);
    } catch (error) {
      notifyError('Revoke Failed', errorMessage(error, 'The link could not be revoked. Please try again.'));
    }
  }
  return (
    // The row wraps (the button below the text) where it is too narrow for both: the button is
    // never cut (issue 57).
    <ListRow
      align="start"
      actions={
        !share.revokedAt && (
          <Button
            size="compact-xs"
            color="red"
            variant="light"
            flex="none"
            loading={revoke.isPending}
            aria-label={`Revoke the link to ${share.recipientEmail}`}
            onClick={() => void run()}
          >
            Revoke
          </Button>
        )
      }
    >
      <Group gap={6}>
        <Text size="sm" fw={500} style={{ overflowWrap: 'anywhere' }}>
          {share.recipientEmail}
        </Text>
        <Badge size="xs" color={state.color} variant="light">
          {state.label}
        </Badge>
      </Group>
      {showRecord && (
        <Text size="xs" c="dimmed">
          {share.recordTitle}
        </Text>
      )}
      <Text size="xs" c="dimmed">
        Sent {formatDateTime(share.createdAt)} · expires {formatDateTime(share.expiresAt)} · opened{' '}
        {share.timesOpened === 1 ? 'once' : `${share.timesOpened} times`}
      </Text>
    </ListRow>
  );
}

function Links({
  shares,
  empty,
  showRecord,
  retryLoad,
}: {
  shares: Share[] | undefined;
  empty: string;
  showRecord: boolean;
  /** Set when the links could not be loaded: asks for them again. */
  retryLoad?: () => void;
}) {
  if (retryLoad) return <LoadFailed what="The specialist links" onRetry={retryLoad} />;
  if (!shares) return <Loader size="xs" role="status" aria-label="Loading links" />;
  if (shares.length === 0)
    return (
      <Text size="xs" c="dimmed">
        {empty}
      </Text>
    );
  return (
    <Stack gap="xs">
      {shares.map((s) => (
        <ShareRow key={s.id} share={s} showRecord={showRecord} />
      ))}
    </Stack>
  );
}

/** The record dialog's list: every link of the record, revoked and expired ones included. */
export function RecordShareList({ recordId }: { recordId: string }) {
  const shares = useRecordShares(recordId);
  return (
    <Links
      shares={shares.data?.items}
      empty="No specialist links for this record yet."
      showRecord={false}
      retryLoad={retryIfFailed(shares)}
    />
  );
}

/** The Manage Consent dialog's list: the patient's links that open now, over all records. */
export function OpenShareList() {
  const shares = useOpenShares();
  return (
    <Stack gap={6}>
      <Text size="sm" fw={500}>
        Specialist links holding access now
      </Text>
      <Links
        shares={shares.data?.items}
        empty="No specialist link opens any of your records."
        showRecord
        retryLoad={retryIfFailed(shares)}
      />
    </Stack>
  );
}
