// Amendments and retractions in the record view (docs/decisions.md#records): the record's status
// (Amended, Superseded, Entered in error), its version history with who did what when, and for the
// hospital that uploaded it the two ways to correct a record without erasing it.
import { Alert, Button, Group, Stack, Text, Textarea } from '@mantine/core';
import { AppModal } from '../../components/AppModal';
import { IconAlertTriangle, IconEdit, IconHistory } from '@tabler/icons-react';
import { useState } from 'react';
import { enteredInErrorSchema, type MedicalRecord } from '../../../shared/records';
import { errorMessage } from '../../api/request';
import { useSchemaForm } from '../../components/useSchemaForm';
import { organizationIdOf, readsRecordContents } from '../staff/permissions';
import { useAuth } from '../../auth/context';
import { formatDateTime } from '../../format';
import { notifyError, notifySuccess } from '../../notify';
import { useMarkEnteredInError, useRecordHistory } from './api';
import { UploadRecordForm } from './UploadRecordForm';
import { FormActions } from '../../components/FormActions';
import { VersionHistory } from './VersionHistory';

interface Props {
  record: MedicalRecord;
  /** Shows another version in the same dialog. */
  onOpen: (recordId: string) => void;
}

export function RecordVersions({ record, onOpen }: Props) {
  const { user } = useAuth();
  const [amending, setAmending] = useState(false);
  const [retracting, setRetracting] = useState(false);
  const hasHistory = !!record.supersedesId || !!record.supersededById;
  const { data } = useRecordHistory(record.id, hasHistory);
  const mayCorrect =
    user?.role === 'hospital' &&
    organizationIdOf(user) === record.hospitalId &&
    readsRecordContents(user) &&
    record.status === 'final' &&
    record.documentStatus === 'current';

  return (
    <>
      {record.documentStatus === 'entered-in-error' && record.enteredInError && (
        <Alert
          color="red"
          icon={<IconAlertTriangle size={18} aria-hidden />}
          title="Entered in error"
          role="note"
        >
          Marked as entered in error on {formatDateTime(record.enteredInError.at)}
          {record.enteredInError.byName ? ` by ${record.enteredInError.byName}` : ''}:{' '}
          {record.enteredInError.reason}. It is kept for the record and no longer part of the patient&apos;s
          current records.
        </Alert>
      )}
      {record.documentStatus === 'superseded' && record.supersededById && (
        <Alert
          color="orange"
          icon={<IconHistory size={18} aria-hidden />}
          title="A corrected version exists"
          role="note"
        >
          <Group justify="space-between">
            <Text size="sm">This version was amended. The corrected version is the current one.</Text>
            <Button size="xs" variant="light" onClick={() => onOpen(record.supersededById!)}>
              Open current version
            </Button>
          </Group>
        </Alert>
      )}
      {hasHistory && data && (
        <VersionHistory
          versions={data.versions}
          shown={data.versions.findIndex((v) => v.id === record.id)}
          onOpen={(i) => onOpen(data.versions[i].id)}
        />
      )}
      {mayCorrect && (
        <Group>
          <Button
            variant="light"
            leftSection={<IconEdit size={16} aria-hidden />}
            onClick={() => setAmending(true)}
          >
            Amend Record
          </Button>
          <Button variant="light" color="red" onClick={() => setRetracting(true)}>
            Mark as Entered in Error
          </Button>
        </Group>
      )}
      <AppModal
        opened={amending}
        onClose={() => setAmending(false)}
        size="lg"
        title={`Amend "${record.title}"`}
      >
        <Text size="sm" c="dimmed" mb="sm">
          The record is not changed: the amendment is a new version entered in the ledger, and the current
          version is kept as superseded.
        </Text>
        <UploadRecordForm
          amending={record}
          onSaved={(saved) => {
            setAmending(false);
            onOpen(saved.id);
          }}
        />
      </AppModal>
      <EnteredInErrorDialog record={record} opened={retracting} onClose={() => setRetracting(false)} />
    </>
  );
}

function EnteredInErrorDialog({
  record,
  opened,
  onClose,
}: {
  record: MedicalRecord;
  opened: boolean;
  onClose: () => void;
}) {
  const mark = useMarkEnteredInError(record.id);
  const form = useSchemaForm(enteredInErrorSchema, { reason: '' });

  async function confirm(values: { reason: string }) {
    try {
      await mark.mutateAsync(values);
      notifySuccess(
        'Marked as Entered in Error',
        `"${record.title}" is kept and ledgered, and hidden from current records.`,
      );
      onClose();
    } catch (err) {
      notifyError('Not Saved', errorMessage(err, 'The record could not be marked. Please try again.'));
    }
  }

  return (
    <AppModal opened={opened} onClose={onClose} title="Mark as entered in error?">
      <Stack>
        <Text size="sm">
          Use this for a record uploaded to the wrong patient or in error. The record is kept and stays
          verifiable, is marked as entered in error in the ledger, and disappears from the current records of
          the patient. This cannot be undone.
        </Text>
        <Textarea
          label="Reason"
          required
          autosize
          minRows={2}
          maxLength={500}
          {...form.getInputProps('reason')}
        />
        <FormActions onCancel={onClose}>
          <Button
            color="red"
            loading={mark.isPending}
            onClick={() => form.onSubmit((values) => void confirm(values))()}
          >
            Mark as Entered in Error
          </Button>
        </FormActions>
      </Stack>
    </AppModal>
  );
}
