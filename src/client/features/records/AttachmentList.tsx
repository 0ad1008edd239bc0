// A record's attachments with Preview and Download: the record dialog's, and the shared record's
// page (docs/decisions.md#specialist-share-links), whose files come through the link's own URLs.
import { Group, Paper, Stack, Text, Title } from '@mantine/core';
import type { Attachment } from '../../../shared/records';
import { formatSize } from '../../format';
import { PreviewButton } from './AttachmentPreview';
import { downloadAttachment } from './download';
import { DownloadButton } from '../../components/SmallButton';
import { ListRow } from '../../components/ListRow';

type Listed = Pick<Attachment, 'id' | 'url' | 'fileName' | 'mimeType' | 'size'>;

export function AttachmentList({ attachments }: { attachments: Listed[] }) {
  return (
    <Paper withBorder p="md">
      <Title order={3} size="h5" mb="xs">
        Attachments
      </Title>
      {attachments.length === 0 ? (
        <Text size="sm" c="dimmed">
          No Attachment - This record doesn&apos;t have an associated file attachment.
        </Text>
      ) : (
        <Stack gap="xs">
          {attachments.map((a) => (
            <ListRow
              key={a.id}
              textWidth="10rem"
              actions={
                <Group gap="xs" wrap="nowrap">
                  <PreviewButton attachment={a} />
                  <DownloadButton name={a.fileName} onClick={() => void downloadAttachment(a)} />
                </Group>
              }
            >
              {/* A file name has no spaces to break at: it breaks anywhere, over two lines at most. */}
              <Text size="sm" lineClamp={2} style={{ overflowWrap: 'anywhere' }}>
                {a.fileName}
              </Text>
              <Text size="xs" c="dimmed">
                {formatSize(a.size)}
              </Text>
            </ListRow>
          ))}
        </Stack>
      )}
    </Paper>
  );
}
