// The upload form (docs/spec.md#hospital-dashboard "Upload Records", docs/spec.md#validation):
// patient, record type, title, doctor, description, department, files by drag-and-drop or browse
// (each removable), privacy and consent checkboxes; Save as Draft and Upload Record, with a
// progress bar while uploading.
import {
  Button,
  Checkbox,
  Group,
  Progress,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Textarea,
} from '@mantine/core';
import { useEffect, useState } from 'react';
import type { z } from 'zod';
import { MISSING_INFORMATION, recordFormSchema, type MedicalRecord } from '../../../shared/records';
import { errorMessage, errorStatus } from '../../api/request';
import { notifyError, notifySuccess } from '../../notify';
import { DEPARTMENT_OPTIONS, RECORD_TYPE_OPTIONS } from '../../format';
import { FilePicker } from './FilePicker';
import { PatientPicker } from './PatientPicker';
import { useUploadRecord } from './api';
import { SubmitForm } from '../../components/SubmitForm';
import { useSchemaForm } from '../../components/useSchemaForm';

const SWITCHES = [
  ['consentProvided', 'Patient consent provided'],
  ['shareWithSpecialists', 'Share with specialists'],
  ['shareWithFamily', 'Share with family members'],
] as const;
const SHARING_SWITCHES = new Set(['shareWithSpecialists', 'shareWithFamily']);

interface Props {
  /** A patient chosen beforehand (the patient details dialog): no picker shown. */
  fixedPatient?: { id: string; label: string };
  /** A saved draft to continue. */
  draft?: MedicalRecord;
  /** An uploaded record to correct: the form makes its new version (POST .../amend). */
  amending?: MedicalRecord;
  onSaved?: (record: MedicalRecord) => void;
}

export function UploadRecordForm({ fixedPatient: given, draft: saved, amending, onSaved }: Props) {
  // An amendment starts from the record's fields, for its own patient, like a draft does.
  const draft = saved ?? amending;
  const fixedPatient =
    given ??
    (amending
      ? { id: amending.patientId, label: `${amending.patient.name} (${amending.patient.mrn})` }
      : undefined);
  const form = useSchemaForm(recordFormSchema, {
    patientId: fixedPatient?.id ?? draft?.patientId ?? null,
    patientLabel: fixedPatient?.label ?? (draft ? `${draft.patient.name} (${draft.patient.mrn})` : null),
    recordType: draft?.recordType ?? null,
    title: draft?.title ?? '',
    doctorName: draft?.doctorName ?? '',
    description: draft?.description ?? '',
    department: draft?.department ?? null,
    consentProvided: draft?.consentProvided ?? true,
    shareWithSpecialists: draft?.shareWithSpecialists ?? false,
    shareWithFamily: draft?.shareWithFamily ?? false,
  });
  const [files, setFiles] = useState<File[]>([]);
  const [progress, setProgress] = useState<number | null>(null);
  const upload = useUploadRecord(amending?.id, setProgress);

  async function send(
    { patientLabel: _label, ...fields }: z.output<typeof recordFormSchema>,
    asDraft: boolean,
  ) {
    // Fields first, files last: the server checks the fields before it stores any file.
    const body = new FormData();
    for (const [name, value] of Object.entries(fields)) {
      // An amendment sends a sharing switch only when it is changed here; otherwise the new version
      // keeps the current one's as the server has it (docs/decisions.md#records).
      if (amending && SHARING_SWITCHES.has(name) && !form.isDirty(name)) continue;
      body.append(name, value === null ? '' : String(value));
    }
    if (!amending) body.append('draft', String(asDraft));
    if (saved) body.append('draftId', saved.id);
    for (const file of files) body.append('files', file, file.name);

    setProgress(0);
    try {
      const result = await upload.mutateAsync(body);
      if (amending) {
        notifySuccess(
          'Record Amended',
          `The corrected version of "${result.title}" was entered in the ledger.`,
        );
      } else if (asDraft) {
        notifySuccess(
          'Draft Saved',
          'The draft is kept for your hospital only. Upload it when it is complete.',
        );
      } else {
        notifySuccess(
          'Record Uploaded Successfully',
          `"${result.title}" was uploaded and entered in the ledger.`,
        );
      }
      onSaved?.(result);
    } catch (error) {
      const status = errorStatus(error);
      const known = status !== undefined && status >= 400 && status < 500;
      notifyError(
        'Upload Failed',
        known
          ? errorMessage(error, 'There was an error uploading the record. Please try again.')
          : 'There was an error uploading the record. Please try again.',
      );
    } finally {
      setProgress(null);
    }
  }
  const missing = () => notifyError('Missing Information', MISSING_INFORMATION);
  const submit = (asDraft: boolean) => form.onSubmit((values) => send(values, asDraft), missing);
  const values = form.getValues();

  const busy = progress !== null;
  // Closing or reloading the tab mid-upload would drop the files on the way: the browser asks first.
  useEffect(() => {
    if (!busy) return;
    const ask = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', ask);
    return () => window.removeEventListener('beforeunload', ask);
  }, [busy]);
  return (
    <SubmitForm
      aria-label={amending ? 'Amend medical record' : 'Upload medical record'}
      onSubmit={submit(false)}
    >
      <Stack>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          {fixedPatient ? (
            <TextInput label="Patient" value={fixedPatient.label} readOnly />
          ) : (
            <PatientPicker
              value={values.patientId}
              selectedLabel={values.patientLabel}
              error={form.errors.patientId}
              onChange={(patientId, patientLabel) => form.setValues({ patientId, patientLabel })}
            />
          )}
          <Select
            label="Record Type"
            placeholder="Select record type"
            required
            data={RECORD_TYPE_OPTIONS}
            {...form.getInputProps('recordType')}
          />
          <TextInput
            label="Title"
            placeholder="e.g. Blood test results"
            required
            maxLength={200}
            {...form.getInputProps('title')}
          />
          <TextInput label="Doctor Name" maxLength={200} {...form.getInputProps('doctorName')} />
          <Select
            label="Department"
            placeholder="Select department"
            clearable
            data={DEPARTMENT_OPTIONS}
            {...form.getInputProps('department')}
          />
        </SimpleGrid>
        <Textarea
          label="Description"
          autosize
          minRows={3}
          maxLength={5000}
          {...form.getInputProps('description')}
        />

        {amending && (
          <Text size="sm" c="dimmed">
            Attach the corrected file(s). Without new files, the new version keeps the current files.
          </Text>
        )}
        <FilePicker files={files} onChange={setFiles} existing={saved?.attachments ?? []} disabled={busy} />

        <Stack gap="xs">
          <Text fw={500} size="sm">
            Privacy and consent
          </Text>
          {SWITCHES.map(([field, label]) => (
            <Checkbox key={field} label={label} {...form.getInputProps(field, { type: 'checkbox' })} />
          ))}
          <Checkbox
            label="Blockchain verification (required)"
            description="Every uploaded record is entered in the tamper-evident ledger."
            checked
            disabled
            readOnly
          />
        </Stack>

        {busy && (
          <Progress.Root size="xl">
            <Progress.Section value={progress} animated striped aria-label="Upload progress">
              <Progress.Label>{progress}%</Progress.Label>
            </Progress.Section>
          </Progress.Root>
        )}

        <Group justify="flex-end">
          {!amending && (
            <Button variant="default" disabled={busy} onClick={() => submit(true)()}>
              Save as Draft
            </Button>
          )}
          <Button type="submit" loading={busy}>
            {amending ? 'Save Amendment' : 'Upload Record'}
          </Button>
        </Group>
      </Stack>
    </SubmitForm>
  );
}
