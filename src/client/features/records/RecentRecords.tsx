// Recent Medical Records (docs/spec.md#patient-dashboard): title, doctor and department, created date,
// the issuing hospital and whether it is a verified provider, badge "Blockchain Verified",
// "Accessible", Download and Share; a click opens the record detail view.
import { Badge, Button, Group, Paper, Stack, Switch, Text, Title } from '@mantine/core';
import { IconShare } from '@tabler/icons-react';
import type { Paged } from '../../../shared/paging';
import { shareSummary, type MedicalRecord } from '../../../shared/records';
import { ListPager } from '../../components/ListPager';
import { copyWithToast, notifyError, notifyInfo } from '../../notify';
import { departmentLabel, formatDate } from '../../format';
import { ProviderVerification } from '../../components/ProviderVerification';
import { downloadAttachment, recordDownload } from './download';
import { RecordStatusBadges } from './RecordStatusBadges';
import { DownloadButton, SmallButton } from '../../components/SmallButton';
import { OpenRecordButton } from './OpenRecordButton';
import { ListRow } from '../../components/ListRow';
import { readableText } from '../../theme';
import { LoadFailed } from '../../components/LoadFailed';

async function download(record: MedicalRecord) {
  const file = recordDownload(record);
  if (!file) {
    notifyError('Download Unavailable', 'File not available for download.');
    return;
  }
  await downloadAttachment(file);
}

const share = (record: MedicalRecord) =>
  copyWithToast(
    shareSummary(record),
    {
      title: 'Record Information Copied',
      message: 'The record summary is on your clipboard, ready to share.',
    },
    'Could not copy the record summary. Please try again.',
  );

interface Props {
  records: MedicalRecord[];
  /** The page the records are (total, page, page size), for "Showing a–b of N" and the pager. */
  paging: Omit<Paged<MedicalRecord>, 'items'> | undefined;
  onPage: (page: number) => void;
  isLoading: boolean;
  /** Set when the records could not be loaded: asks for them again. */
  retryLoad?: () => void;
  onOpen: (recordId: string) => void;
  showAllVersions: boolean;
  onShowAllVersionsChange: (all: boolean) => void;
}

export function RecentRecords({
  records,
  paging,
  onPage,
  isLoading,
  retryLoad,
  onOpen,
  showAllVersions,
  onShowAllVersionsChange,
}: Props) {
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="recent-records-title">
      <Group justify="space-between" mb="sm">
        <Title order={2} size="h4" id="recent-records-title">
          Recent Medical Records
        </Title>
        <Button
          variant="subtle"
          size="xs"
          onClick={() => notifyInfo('Medical Records', 'Showing all available medical records.')}
        >
          View All
        </Button>
      </Group>
      <Switch
        mb="sm"
        size="sm"
        label="Show earlier versions and records entered in error"
        checked={showAllVersions}
        onChange={(e) => onShowAllVersionsChange(e.currentTarget.checked)}
      />
      {isLoading && <Text c="dimmed">Loading medical records...</Text>}
      {retryLoad && <LoadFailed what="Your medical records" onRetry={retryLoad} />}
      {!isLoading && !retryLoad && records.length === 0 && (
        <Text c="dimmed">
          No medical records available yet. Your records will appear here once uploaded by your healthcare
          provider.
        </Text>
      )}
      <Stack gap="xs">
        {records.map((record) => (
          <Paper key={record.id} withBorder p="sm" radius="sm">
            <ListRow
              align="start"
              actions={
                <Stack gap={6} align="end">
                  <Group gap={6}>
                    <RecordStatusBadges record={record} />
                    {record.isBlockchainVerified && (
                      <Badge color="teal" variant="light">
                        Blockchain Verified
                      </Badge>
                    )}
                    <Text size="xs" c={readableText('green')}>
                      Accessible
                    </Text>
                  </Group>
                  <Group gap={6}>
                    <DownloadButton
                      name={record.title}
                      size="compact-sm"
                      onClick={() => void download(record)}
                    />
                    <SmallButton
                      icon={IconShare}
                      size="compact-sm"
                      variant="default"
                      aria-label={`Share ${record.title}`}
                      onClick={() => void share(record)}
                    >
                      Share
                    </SmallButton>
                  </Group>
                </Stack>
              }
            >
              <OpenRecordButton title={record.title} onOpen={() => onOpen(record.id)} large>
                <Text size="sm" c="dimmed">
                  {[record.doctorName, departmentLabel(record.department)]
                    .filter((v) => v && v !== '—')
                    .join(' · ') || 'Doctor not recorded'}
                </Text>
                <Text size="xs" c="dimmed">
                  {formatDate(record.serviceDate ?? record.createdAt)}
                  {record.providerName ? ` · ${record.providerName}` : ''}
                </Text>
                <ProviderVerification verified={record.providerVerified} />
              </OpenRecordButton>
            </ListRow>
          </Paper>
        ))}
      </Stack>
      <ListPager
        list={paging && { ...paging, items: records }}
        one="record"
        other="records"
        onPage={onPage}
        hideEmpty
      />
    </Paper>
  );
}
