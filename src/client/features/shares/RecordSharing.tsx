// The record dialog's specialist links (docs/decisions.md#specialist-share-links): "Share with a
// Specialist" for the current version of an uploaded record, and the record's links with "Revoke".
import { Paper, Stack, Text, Title } from '@mantine/core';
import { IconShare } from '@tabler/icons-react';
import { useState } from 'react';
import type { MedicalRecord } from '../../../shared/records';
import { ShareDialog } from './ShareDialog';
import { RecordShareList } from './ShareList';
import { SmallButton } from '../../components/SmallButton';

export function RecordSharing({ record }: { record: MedicalRecord }) {
  const [sharing, setSharing] = useState(false);
  if (record.status !== 'final') return null;
  return (
    <Paper withBorder p="md">
      <Title order={3} size="h5" mb="xs">
        Specialist Links
      </Title>
      <Stack gap="xs">
        {record.documentStatus === 'current' && (
          // With the record's own Specialists switch off the server refuses the link (issue 57):
          // the button is off and says why.
          <SmallButton
            icon={IconShare}
            disabled={!record.shareWithSpecialists}
            aria-describedby={record.shareWithSpecialists ? undefined : `share-off-${record.id}`}
            onClick={() => setSharing(true)}
          >
            Share with a Specialist
          </SmallButton>
        )}
        {record.documentStatus === 'current' && !record.shareWithSpecialists && (
          <Text size="xs" c="dimmed" id={`share-off-${record.id}`}>
            Turn on this record&apos;s “Share with specialists” switch first.
          </Text>
        )}
        <RecordShareList recordId={record.id} />
      </Stack>
      {sharing && (
        <ShareDialog
          recordId={record.id}
          recordTitle={record.title}
          opened
          onClose={() => setSharing(false)}
        />
      )}
    </Paper>
  );
}
