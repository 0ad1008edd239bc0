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
import { useState } from 'react';
import { MISSING_INFORMATION, type MedicalRecord } from '../../../shared/records';
import { errorMessage, errorStatus } from '../../api/request';
import { notifyError, notifySuccess } from '../../notify';
import { DEPARTMENT_OPTIONS, RECORD_TYPE_OPTIONS } from '../../format';
import { FilePicker } from './FilePicker';
import { PatientPicker } from './PatientPicker';
import { useUploadRecord } from './api';
import { SubmitForm } from '../../components/SubmitForm';

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
  const [patientId, setPatientId] = useState<string | null>(fixedPatient?.id ?? draft?.patientId ?? null);
  const [patientLabel, setPatientLabel] = useState<string | null>(
    fixedPatient?.label ?? (draft ? `${draft.patient.name} (${draft.patient.mrn})` : null),
  );
  const [recordType, setRecordType] = useState<string | null>(draft?.recordType ?? null);
  const [title, setTitle] = useState(draft?.title ?? '');
  const [doctorName, setDoctorName] = useState(draft?.doctorName ?? '');
  const [description, setDescription] = useState(draft?.description ?? '');
  const [department, setDepartment] = useState<string | null>(draft?.department ?? null);
  const [files, setFiles] = useState<File[]>([]);
  const [consentProvided, setConsentProvided] = useState(draft?.consentProvided ?? true);
  const [shareWithSpecialists, setShareWithSpecialists] = useState(draft?.shareWithSpecialists ?? false);
  const [shareWithFamily, setShareWithFamily] = useState(draft?.shareWithFamily ?? false);
  const [progress, setProgress] = useState<number | null>(null);
  const [tried, setTried] = useState(false);
  const upload = useUploadRecord(amending?.id, setProgress);

  const missing = { patient: !patientId, recordType: !recordType, title: !title.trim() };

  async function submit(asDraft: boolean) {
    setTried(true);
    if (missing.patient || missing.recordType || missing.title) {
      notifyError('Missing Information', MISSING_INFORMATION);
      return;
    }
    // Fields first, files last: the server checks the fields before it stores any file.
    const form = new FormData();
    form.append('patientId', patientId!);
    form.append('recordType', recordType!);
    form.append('title', title.trim());
    form.append('description', description.trim());
    form.append('doctorName', doctorName.trim());
    form.append('department', department ?? '');
    form.append('consentProvided', String(consentProvided));
    form.append('shareWithSpecialists', String(shareWithSpecialists));
    form.append('shareWithFamily', String(shareWithFamily));
    if (!amending) form.append('draft', String(asDraft));
    if (saved) form.append('draftId', saved.id);
    for (const file of files) form.append('files', file, file.name);

    setProgress(0);
    try {
      const result = await upload.mutateAsync(form);
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

  const busy = progress !== null;
  return (
    <SubmitForm
      aria-label={amending ? 'Amend medical record' : 'Upload medical record'}
      onSubmit={() => submit(false)}
    >
      <Stack>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          {fixedPatient ? (
            <TextInput label="Patient" value={fixedPatient.label} readOnly />
          ) : (
            <PatientPicker
              value={patientId}
              selectedLabel={patientLabel}
              error={tried && missing.patient ? 'Choose a patient' : undefined}
              onChange={(id, label) => {
                setPatientId(id);
                setPatientLabel(label);
              }}
            />
          )}
          <Select
            label="Record Type"
            placeholder="Select record type"
            required
            data={RECORD_TYPE_OPTIONS}
            value={recordType}
            onChange={setRecordType}
            error={tried && missing.recordType ? 'Choose a record type' : undefined}
          />
          <TextInput
            label="Title"
            placeholder="e.g. Blood test results"
            required
            value={title}
            maxLength={200}
            onChange={(e) => setTitle(e.currentTarget.value)}
            error={tried && missing.title ? 'Enter a title' : undefined}
          />
          <TextInput
            label="Doctor Name"
            value={doctorName}
            maxLength={200}
            onChange={(e) => setDoctorName(e.currentTarget.value)}
          />
          <Select
            label="Department"
            placeholder="Select department"
            clearable
            data={DEPARTMENT_OPTIONS}
            value={department}
            onChange={setDepartment}
          />
        </SimpleGrid>
        <Textarea
          label="Description"
          autosize
          minRows={3}
          maxLength={5000}
          value={description}
          onChange={(e) => setDescription(e.currentTarget.value)}
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
          <Checkbox
            label="Patient consent provided"
            checked={consentProvided}
            onChange={(e) => setConsentProvided(e.currentTarget.checked)}
          />
          <Checkbox
            label="Share with specialists"
            checked={shareWithSpecialists}
            onChange={(e) => setShareWithSpecialists(e.currentTarget.checked)}
          />
          <Checkbox
            label="Share with family members"
            checked={shareWithFamily}
            onChange={(e) => setShareWithFamily(e.currentTarget.checked)}
          />
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
            <Button variant="default" disabled={busy} onClick={() => void submit(true)}>
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
