// The record dialog's specialist links (docs/decisions.md#specialist-share-links): "Share with a
// Specialist" for the current version of an uploaded record, and the record's links with "Revoke".
import { Paper, Stack, Title } from '@mantine/core';
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
          <SmallButton icon={IconShare} onClick={() => setSharing(true)}>
            Share with a Specialist
          </SmallButton>
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
