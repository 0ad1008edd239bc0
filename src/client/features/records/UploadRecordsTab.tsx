// Upload Records tab (docs/spec.md#hospital-dashboard "Upload Medical Records"): the upload form,
// and the saved drafts (visible to this hospital only) to continue, upload as they are, or discard.
import { Badge, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { modals } from '@mantine/modals';
import { useState } from 'react';
import type { MedicalRecord } from '../../../shared/records';
import { errorMessage } from '../../api/request';
import { notifyError, notifySuccess } from '../../notify';
import { useDrafts } from './api';
import { useDiscardDraft, useFinalizeDraft } from './api';
import { formatDateTime, recordTypeLabel } from '../../format';
import { UploadRecordForm } from './UploadRecordForm';
import { LoadFailed } from '../../components/LoadFailed';

export function UploadRecordsTab() {
  const drafts = useDrafts();
  const finalize = useFinalizeDraft();
  const discardDraft = useDiscardDraft();
  const [continuing, setContinuing] = useState<MedicalRecord | null>(null);
  // A new key empties the form after a save.
  const [formKey, setFormKey] = useState(0);

  async function uploadDraft(draft: MedicalRecord) {
    try {
      await finalize.mutateAsync(draft.id);
      notifySuccess(
        'Record Uploaded Successfully',
        `"${draft.title}" was uploaded and entered in the ledger.`,
      );
      if (continuing?.id === draft.id) setContinuing(null);
    } catch (error) {
      notifyError(
        'Upload Failed',
        errorMessage(error, 'There was an error uploading the record. Please try again.'),
      );
    }
  }

  function discard(draft: MedicalRecord) {
    modals.openConfirmModal({
      title: 'Discard draft?',
      children: <Text size="sm">The draft "{draft.title}" and its files will be deleted.</Text>,
      labels: { confirm: 'Discard', cancel: 'Keep draft' },
      confirmProps: { color: 'red' },
      onConfirm: () => {
        void (async () => {
          try {
            await discardDraft.mutateAsync(draft.id);
            notifySuccess('Draft Discarded', `"${draft.title}" was deleted.`);
            if (continuing?.id === draft.id) setContinuing(null);
          } catch (error) {
            notifyError('Error', errorMessage(error, 'The draft could not be discarded.'));
          }
        })();
      },
    });
  }

  return (
    <Stack>
      <Title order={2}>Upload Medical Records</Title>
      <Paper withBorder p="md">
        {continuing && (
          <Group justify="space-between" mb="sm">
            <Badge color="gray">Continuing draft: {continuing.title}</Badge>
            <Button size="xs" variant="subtle" onClick={() => setContinuing(null)}>
              Start a new record instead
            </Button>
          </Group>
        )}
        <UploadRecordForm
          key={continuing?.id ?? `new-${formKey}`}
          draft={continuing ?? undefined}
          onSaved={() => {
            setContinuing(null);
            setFormKey((k) => k + 1);
          }}
        />
      </Paper>

      <Paper withBorder p="md">
        <Title order={3} size="h4" mb="sm">
          Saved Drafts
        </Title>
        {drafts.isLoading && <Text c="dimmed">Loading drafts...</Text>}
        {drafts.isError && <LoadFailed what="Your drafts" onRetry={() => void drafts.refetch()} />}
        {drafts.data?.length === 0 && (
          <Text c="dimmed">No drafts. Use "Save as Draft" to keep a record you have not finished.</Text>
        )}
        <Stack gap="xs">
          {drafts.data?.map((d) => (
            <Group key={d.id} justify="space-between" wrap="wrap">
              <div>
                <Text fw={500}>{d.title}</Text>
                <Text size="xs" c="dimmed">
                  {d.patient.name} ({d.patient.mrn}) · {recordTypeLabel(d.recordType)} ·{' '}
                  {d.attachments.length} file
                  {d.attachments.length === 1 ? '' : 's'} · saved {formatDateTime(d.updatedAt)}
                </Text>
              </div>
              <Group gap="xs">
                <Button size="xs" variant="light" onClick={() => setContinuing(d)}>
                  Continue
                </Button>
                <Button size="xs" onClick={() => void uploadDraft(d)}>
                  Upload
                </Button>
                <Button size="xs" variant="subtle" color="red" onClick={() => discard(d)}>
                  Discard
                </Button>
              </Group>
            </Group>
          ))}
        </Stack>
      </Paper>
    </Stack>
  );
}
