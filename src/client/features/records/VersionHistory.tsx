// A record's version history (docs/decisions.md#records): each version with its status, who made it
// and when, the one shown marked. Used by the record view and by the page a share link opens, so
// it stays apart from the amendment form that the record view also holds.
import { Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import type { RecordVersion } from '../../../shared/records';
import { ListRow } from '../../components/ListRow';
import { formatDateTime } from '../../format';
import { RecordStatusBadges } from './RecordStatusBadges';

type Version = Pick<RecordVersion, 'title' | 'createdAt' | 'providerName' | 'documentStatus'> &
  Partial<Pick<RecordVersion, 'enteredInError'>>;

interface Props {
  versions: Version[];
  /** The index of the version on screen. */
  shown: number;
  /** Shows another version (the record view); without it the list only tells. */
  onOpen?: (index: number) => void;
}

export function VersionHistory({ versions, shown, onOpen }: Props) {
  return (
    <Paper withBorder p="md">
      <Title order={3} size="h5" mb="xs">
        Version history
      </Title>
      <Stack gap={6}>
        {versions.map((v, i) => (
          <ListRow
            key={`${i}:${v.createdAt}`}
            actions={
              <Group gap={4} wrap="nowrap">
                <RecordStatusBadges record={{ documentStatus: v.documentStatus, supersedesId: null }} />
                {onOpen && i !== shown && (
                  <Button
                    size="xs"
                    variant="subtle"
                    aria-label={`Open version ${i + 1}`}
                    onClick={() => onOpen(i)}
                  >
                    Open
                  </Button>
                )}
              </Group>
            }
          >
            <Text size="sm">
              Version {i + 1}: {v.title}
              {i === shown ? ' (shown)' : ''}
            </Text>
            <Text size="xs" c="dimmed">
              {i === 0 ? 'Uploaded' : 'Amended'} {formatDateTime(v.createdAt)}
              {v.providerName ? ` by ${v.providerName}` : ''}
              {v.enteredInError ? ` · entered in error ${formatDateTime(v.enteredInError.at)}` : ''}
            </Text>
          </ListRow>
        ))}
      </Stack>
    </Paper>
  );
}
