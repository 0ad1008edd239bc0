// The family members holding access to the patient's records now, each with "Revoke" (which clears
// the contact's "Can Access Medical Records" flag and ends the grant, so access comes back only by a
// new invitation; docs/decisions.md#family-proxy-access). Its own
// component so the Manage Consent dialog can show other holders (share links) beside it.
import { Button, Loader, Stack, Text, Title } from '@mantine/core';
import { ListRow } from '../../components/ListRow';
import { notifyError, notifySuccess } from '../../notify';
import { errorMessage } from '../../api/request';
import { formatDate } from '../../format';
import { useAccessHolders, useRevokeHolder } from './api';

export function FamilyAccessHolders() {
  const holders = useAccessHolders();
  const revoke = useRevokeHolder();
  const list = holders.data?.holders ?? [];

  async function onRevoke(contactId: string, name: string) {
    try {
      await revoke.mutateAsync(contactId);
      notifySuccess(
        'Access Revoked',
        `${name} can no longer see your records. Giving access again sends a new invitation.`,
      );
    } catch (error) {
      notifyError('Revoke Failed', errorMessage(error, 'Could not revoke the access. Please try again.'));
    }
  }

  return (
    <Stack gap="xs" component="section" aria-labelledby="family-holders-title">
      <Title order={3} size="h6" id="family-holders-title">
        Family members with access now
      </Title>
      {holders.isLoading && <Loader size="sm" role="status" aria-label="Loading family access" />}
      {!holders.isLoading && list.length === 0 && (
        <Text size="sm" c="dimmed">
          Nobody in your family can see your records.
        </Text>
      )}
      {list.map((h) => (
        // The row wraps (the button below the text) where it is too narrow for both: the button
        // and the "since …" date are never cut (issue 57).
        <ListRow
          key={h.contactId}
          actions={
            <Button
              size="xs"
              color="red"
              variant="light"
              flex="none"
              aria-label={`Revoke access of ${h.accountName}`}
              loading={revoke.isPending && revoke.variables === h.contactId}
              onClick={() => void onRevoke(h.contactId, h.accountName)}
            >
              Revoke
            </Button>
          }
        >
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            {h.accountName} ({h.relationship})
          </Text>
          <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
            {h.email} · <span style={{ whiteSpace: 'nowrap' }}>since {formatDate(h.since)}</span>
          </Text>
        </ListRow>
      ))}
    </Stack>
  );
}
