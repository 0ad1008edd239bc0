// /shared/:token (docs/decisions.md#specialist-share-links): what a specialist sees through a share
// link, without an account: the record's current version (a link follows its amendments, and the
// page says so, with the version history), its attachments (preview and download under the link)
// and its ledger verification, nothing else. A link that does not open shows one message, never why.
import { Alert, Badge, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { IconHistory, IconLinkOff } from '@tabler/icons-react';
import { useParams } from 'react-router';
import { SHARE_UNAVAILABLE, type SharedRecord } from '../../../shared/shares';
import { useSharedRecord } from './api';
import { errorStatus } from '../../api/request';
import { Logo } from '../../components/Logo';
import { PublicLayout } from '../../components/layout/PublicLayout';
import { formatDate, formatDateTime } from '../../format';
import { VerificationAlert } from '../ledger/VerificationBanner';
import { AttachmentList } from '../records/AttachmentList';
import { RecordDetails } from '../records/RecordDetails';
import { VersionHistory } from '../records/VersionHistory';

const STATUS_LABELS: Record<SharedRecord['record']['documentStatus'], string> = {
  current: 'Current version',
  superseded: 'Superseded by a later version',
  'entered-in-error': 'Entered in error',
};

function failure(status: number | undefined): string {
  if (status === 404) return `${SHARE_UNAVAILABLE} Ask the person who shared it for a new link.`;
  if (status === 429) return 'Too many requests from your network. Please wait a minute and try again.';
  return 'The record could not be loaded just now. Please try again.';
}

export default function SharedRecordPage() {
  const { token = '' } = useParams();
  const query = useSharedRecord(token);
  return (
    <PublicLayout size="md">
      <Group mb="md">
        <Logo />
      </Group>
      {query.isPending && <Loader role="status" aria-label="Loading the shared record" />}
      {query.isError && (
        <Alert color="orange" icon={<IconLinkOff aria-hidden />} title="Link not available">
          {failure(errorStatus(query.error))}
        </Alert>
      )}
      {query.data && <SharedRecordView shared={query.data} />}
    </PublicLayout>
  );
}

function SharedRecordView({ shared }: { shared: SharedRecord }) {
  const { record } = shared;
  // The link follows its record: it shows the latest version, and says when there are others.
  const amended = shared.versions.length > 1;
  return (
    <Stack>
      <Paper withBorder p="md" shadow="sm">
        <Stack gap="xs">
          <Text size="sm" c="dimmed">
            Shared medical record · the link works until {formatDateTime(shared.expiresAt)}
          </Text>
          <Title order={1} fz={24}>
            {record.title}
          </Title>
          <Group gap="xs">
            <Text size="sm" c="dimmed">
              {formatDate(record.createdAt)}
              {record.doctorName ? ` · ${record.doctorName}` : ''}
            </Text>
            <Badge variant="light" color={record.documentStatus === 'current' ? 'teal' : 'orange'}>
              {STATUS_LABELS[record.documentStatus]}
            </Badge>
          </Group>
          {shared.note && (
            <Alert variant="light" title="Note from the sender" role="note">
              <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
                {shared.note}
              </Text>
            </Alert>
          )}
        </Stack>
      </Paper>
      {amended && (
        <Alert
          color="blue"
          icon={<IconHistory size={18} aria-hidden />}
          title="This record was amended"
          role="note"
        >
          {shared.amendedSinceShared
            ? 'It was corrected after this link was sent. You see the current version; the earlier ones are listed under Version history.'
            : 'It was corrected before it was shared. You see the current version; the earlier ones are listed under Version history.'}
        </Alert>
      )}
      <VerificationAlert result={shared.verification} />
      <RecordDetails record={record} headingOrder={2} />
      <AttachmentList attachments={shared.attachments} />
      {amended && <VersionHistory versions={shared.versions} shown={shared.versions.length - 1} />}
    </Stack>
  );
}
