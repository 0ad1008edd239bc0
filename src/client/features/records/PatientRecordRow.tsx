// One record in a patient's list on the hospital dashboard (the patient's details dialog): title,
// state, type, department, date and files, then View and Download. For front-desk staff
// (`contents` false) the row only says the record exists: the server leaves its contents out and
// refuses to open or download it, so neither is offered and no file count is shown.
import { Badge, Group, Paper, Text } from '@mantine/core';
import { IconEye } from '@tabler/icons-react';
import type { MedicalRecord } from '../../../shared/records';
import { ListRow } from '../../components/ListRow';
import { DownloadButton, SmallButton } from '../../components/SmallButton';
import { departmentLabel, formatDate, recordTypeLabel } from '../../format';
import { RecordStatusBadges } from './RecordStatusBadges';

export function PatientRecordRow({
  record: r,
  contents,
  onView,
  onDownload,
}: {
  record: MedicalRecord;
  /** Whether the signed-in staff member may open and download it. */
  contents: boolean;
  onView: () => void;
  onDownload: () => void;
}) {
  return (
    <Paper withBorder p="sm" data-testid="patient-record-row">
      <ListRow
        actions={
          contents ? (
            <Group gap="xs">
              <SmallButton icon={IconEye} aria-label={`View ${r.title}`} onClick={onView}>
                View
              </SmallButton>
              <DownloadButton name={r.title} variant="default" onClick={onDownload} />
            </Group>
          ) : undefined
        }
      >
        <Group gap="xs">
          <Text fw={500}>{r.title}</Text>
          {r.status === 'draft' ? (
            <Badge color="gray">Draft</Badge>
          ) : r.isBlockchainVerified ? (
            <Badge color="teal">Blockchain Verified</Badge>
          ) : (
            <Badge color="red">Not verified</Badge>
          )}
          <RecordStatusBadges record={r} />
        </Group>
        <Text size="xs" c="dimmed">
          {recordTypeLabel(r.recordType)} · {departmentLabel(r.department)} ·{' '}
          {formatDate(r.serviceDate ?? r.createdAt)}
          {contents && ` · ${r.attachments.length} file${r.attachments.length === 1 ? '' : 's'}`}
        </Text>
      </ListRow>
    </Paper>
  );
}
