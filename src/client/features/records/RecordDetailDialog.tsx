// Record detail dialog (docs/spec.md#record-detail-dialog): title, date and doctor; the ledger
// verification; record details and attachments; a side panel with the sharing switches; Download
// Record, Download Receipt (the ledger receipt, checked on /verify), the specialist links (Share with a
// Specialist, docs/decisions.md#specialist-share-links) and Print Record. Every opening reads the record again, so every view
// is audited.
import { Badge, Button, Grid, Group, Loader, Paper, Stack, Switch, Text, Title } from '@mantine/core';
import { AppModal } from '../../components/AppModal';
import { IconDownload, IconPrinter, IconReceipt } from '@tabler/icons-react';
import { useState } from 'react';
import type { MedicalRecord } from '../../../shared/records';
import { notifyError, notifySuccess } from '../../notify';
import { useRecord, useUpdateSharing } from './api';
import { departmentLabel, formatDate, formatDateTime, recordTypeLabel } from '../../format';
import { downloadReceipt, downloadRecord } from './download';
import { RecordSharing } from '../shares/RecordSharing';
import { VerificationBanner } from '../ledger/VerificationBanner';
import { DraftNotice } from './DraftNotice';
import { printRecord } from './printRecord';
import { RecordStatusBadges } from './RecordStatusBadges';
import { RecordVersions } from './RecordVersions';
import { AttachmentList } from './AttachmentList';
import { Field, RecordDetails } from './RecordDetails';
import { LoadFailed } from '../../components/LoadFailed';

interface Props {
  recordId: string | null;
  onClose: () => void;
  /**
   * A family member's view (docs/decisions.md#family-proxy-access): the record, its verification and
   * downloads only; no sharing switches, history, receipt or sharing.
   */
  readOnly?: boolean;
}

export function RecordDetailDialog({ recordId, onClose, readOnly = false }: Props) {
  // Another version opened from the history (or after an amendment) replaces the one asked for.
  const [other, setOther] = useState<{ from: string | null; id: string } | null>(null);
  const shownId = other && other.from === recordId ? other.id : recordId;
  const { data: record, isLoading, isError, error, refetch } = useRecord(shownId);
  return (
    <AppModal opened={!!recordId} onClose={onClose} size="xl" title={record?.title ?? 'Medical Record'}>
      {isLoading && <Loader role="status" aria-label="Loading record" />}
      {isError && <LoadFailed what="This record" error={error} onRetry={() => void refetch()} />}
      {!isLoading && !isError && !record && <Text c="dimmed">No record selected.</Text>}
      {record && (
        <RecordDetail
          key={record.id}
          record={record}
          readOnly={readOnly}
          onOpen={(id) => setOther({ from: recordId, id })}
        />
      )}
    </AppModal>
  );
}

function RecordDetail({
  record,
  onOpen,
  readOnly,
}: {
  record: MedicalRecord;
  onOpen: (recordId: string) => void;
  readOnly: boolean;
}) {
  const [specialists, setSpecialists] = useState(record.shareWithSpecialists);
  const [family, setFamily] = useState(record.shareWithFamily);
  const sharing = useUpdateSharing(record.id);
  const saving = sharing.isPending;

  async function updateConsent() {
    try {
      await sharing.mutateAsync({ shareWithSpecialists: specialists, shareWithFamily: family });
      notifySuccess('Consent Updated', 'The sharing preferences of this record were saved.');
    } catch {
      notifyError('Update Failed', 'Unable to update your sharing preferences. Please try again.');
    }
  }

  return (
    <Grid>
      <Grid.Col span={{ base: 12, md: 8 }}>
        <Stack>
          <Group gap="xs">
            <Text size="sm" c="dimmed">
              {formatDate(record.createdAt)}
              {record.doctorName ? ` · ${record.doctorName}` : ''}
            </Text>
            {record.status === 'draft' && <Badge color="gray">Draft</Badge>}
            <RecordStatusBadges record={record} />
          </Group>
          {record.status === 'draft' ? <DraftNotice /> : <VerificationBanner recordId={record.id} />}
          {!readOnly && <RecordVersions record={record} onOpen={onOpen} />}
          <RecordDetails record={record} />
          <AttachmentList attachments={record.attachments} />
        </Stack>
      </Grid.Col>
      <Grid.Col span={{ base: 12, md: 4 }}>
        <Stack>
          <Paper withBorder p="md">
            <Stack gap="xs">
              <Field label="Type" value={recordTypeLabel(record.recordType)} />
              <Field label="Department" value={departmentLabel(record.department)} />
              <Field label="Doctor" value={record.doctorName ?? '—'} />
              <Field label="Created" value={formatDateTime(record.createdAt)} />
            </Stack>
          </Paper>
          {!readOnly && (
            <Paper withBorder p="md">
              <Title order={3} size="h5" mb="xs">
                Sharing
              </Title>
              <Stack gap="xs">
                <Switch
                  label="Specialists"
                  description="Specialist links to this record open only while this is on and the patient’s “Share with Specialists” consent is on."
                  checked={specialists}
                  onChange={(e) => setSpecialists(e.currentTarget.checked)}
                />
                <Switch
                  label="Family"
                  description="Family members you invited can view and download this record while Family Access is on."
                  checked={family}
                  onChange={(e) => setFamily(e.currentTarget.checked)}
                />
                <Button size="xs" variant="light" loading={saving} onClick={() => void updateConsent()}>
                  Update Consent
                </Button>
              </Stack>
            </Paper>
          )}
          {!readOnly && <RecordSharing record={record} />}
          <Button
            leftSection={<IconDownload size={16} aria-hidden />}
            onClick={() => void downloadRecord(record)}
          >
            Download Record
          </Button>
          {!readOnly && record.status !== 'draft' && (
            <Button
              variant="light"
              leftSection={<IconReceipt size={16} aria-hidden />}
              onClick={() => void downloadReceipt(record)}
            >
              Download Receipt
            </Button>
          )}
          <Button
            variant="default"
            leftSection={<IconPrinter size={16} aria-hidden />}
            onClick={() => {
              if (!printRecord(record))
                notifyError('Print Failed', 'Allow pop-ups for this site to print the record.');
            }}
          >
            Print Record
          </Button>
        </Stack>
      </Grid.Col>
    </Grid>
  );
}
