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
import { useAuth } from '../../auth/context';
import { DateInput } from '@mantine/dates';
import { PractitionerSelect } from '../staff/PractitionerSelect';
import { defaultPractitionerId } from '../staff/permissions';

const SWITCHES = [
  ['consentProvided', 'Patient consent provided'],
  ['shareWithSpecialists', 'Share with specialists'],
  ['shareWithFamily', 'Share with family members'],
] as const;
const SHARING_SWITCHES = new Set(['shareWithSpecialists', 'shareWithFamily']);
const FAILED = 'There was an error uploading the record. Please try again.';

type RecordFormValues = z.input<typeof recordFormSchema>;
type RecordFields = z.output<typeof recordFormSchema>;
type RecordForm = ReturnType<typeof useSchemaForm<typeof recordFormSchema>>;

interface Props {
  /** A patient chosen beforehand (the patient details dialog): no picker shown. */
  fixedPatient?: { id: string; label: string };
  /** A saved draft to continue. */
  draft?: MedicalRecord;
  /** An uploaded record to correct: the form makes its new version (POST .../amend). */
  amending?: MedicalRecord;
  onSaved?: (record: MedicalRecord) => void;
}

const patientLabel = (record: MedicalRecord) => `${record.patient.name} (${record.patient.mrn})`;

/** The form's first values: empty, or those of the draft or record it continues. */
function initialValues(
  fixedPatient: Props['fixedPatient'],
  draft: MedicalRecord | undefined,
  practitionerId: string | null,
): RecordFormValues {
  return {
    patientId: fixedPatient?.id ?? draft?.patientId ?? null,
    patientLabel: fixedPatient?.label ?? (draft ? patientLabel(draft) : null),
    recordType: draft?.recordType ?? null,
    title: draft?.title ?? '',
    // A record by a practitioner shows them in the select; a free-text doctor keeps the name.
    doctorName: draft?.practitionerId ? '' : (draft?.doctorName ?? ''),
    practitionerId: draft ? draft.practitionerId : practitionerId,
    description: draft?.description ?? '',
    department: draft?.department ?? null,
    serviceDate: draft?.serviceDate ?? null,
    consentProvided: draft?.consentProvided ?? true,
    shareWithSpecialists: draft?.shareWithSpecialists ?? false,
    shareWithFamily: draft?.shareWithFamily ?? false,
  };
}

/**
 * The multipart body: fields first, files last, as the server checks the fields before it stores
 * any file. An amendment sends a sharing switch only when it is changed here; otherwise the new
 * version keeps the current one's as the server has it (docs/decisions.md#records).
 */
function uploadBody(
  { patientLabel: _label, ...fields }: RecordFields,
  how: { asDraft: boolean; amending: boolean; draftId?: string; unchanged: (field: string) => boolean },
  files: File[],
): FormData {
  const body = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    if (how.amending && SHARING_SWITCHES.has(name) && how.unchanged(name)) continue;
    body.append(name, value === null ? '' : String(value));
  }
  if (!how.amending) body.append('draft', String(how.asDraft));
  if (how.draftId) body.append('draftId', how.draftId);
  for (const file of files) body.append('files', file, file.name);
  return body;
}

function notifySaved(result: MedicalRecord, kind: 'amendment' | 'draft' | 'upload') {
  if (kind === 'amendment') {
    notifySuccess('Record Amended', `The corrected version of "${result.title}" was entered in the ledger.`);
  } else if (kind === 'draft') {
    notifySuccess('Draft Saved', 'The draft is kept for your hospital only. Upload it when it is complete.');
  } else {
    notifySuccess(
      'Record Uploaded Successfully',
      `"${result.title}" was uploaded and entered in the ledger.`,
    );
  }
}

/** The server's message for a refused upload (4xx); a generic one for anything else. */
function notifyFailed(error: unknown) {
  const status = errorStatus(error);
  const refused = status !== undefined && status >= 400 && status < 500;
  notifyError('Upload Failed', refused ? errorMessage(error, FAILED) : FAILED);
}

/** Closing or reloading the tab mid-upload would drop the files on the way: the browser asks first. */
function useAskBeforeLeaving(busy: boolean) {
  useEffect(() => {
    if (!busy) return;
    const ask = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', ask);
    return () => window.removeEventListener('beforeunload', ask);
  }, [busy]);
}

export function UploadRecordForm({ fixedPatient: given, draft: saved, amending, onSaved }: Props) {
  // An amendment starts from the record's fields, for its own patient, like a draft does.
  const draft = saved ?? amending;
  const fixedPatient =
    given ?? (amending ? { id: amending.patientId, label: patientLabel(amending) } : undefined);
  const { user } = useAuth();
  const form = useSchemaForm(
    recordFormSchema,
    initialValues(fixedPatient, draft, defaultPractitionerId(user)),
  );
  const [files, setFiles] = useState<File[]>([]);
  const [progress, setProgress] = useState<number | null>(null);
  const upload = useUploadRecord(amending?.id, setProgress);
  const busy = progress !== null;
  useAskBeforeLeaving(busy);

  async function send(fields: RecordFields, asDraft: boolean) {
    const body = uploadBody(
      fields,
      { asDraft, amending: !!amending, draftId: saved?.id, unchanged: (field) => !form.isDirty(field) },
      files,
    );
    setProgress(0);
    try {
      const result = await upload.mutateAsync(body);
      notifySaved(result, amending ? 'amendment' : asDraft ? 'draft' : 'upload');
      onSaved?.(result);
    } catch (error) {
      notifyFailed(error);
    } finally {
      setProgress(null);
    }
  }
  const missing = () => notifyError('Missing Information', MISSING_INFORMATION);
  const submit = (asDraft: boolean) => form.onSubmit((values) => send(values, asDraft), missing);

  return (
    <SubmitForm
      aria-label={amending ? 'Amend medical record' : 'Upload medical record'}
      onSubmit={submit(false)}
    >
      <Stack>
        <RecordFieldInputs form={form} fixedPatient={fixedPatient} />
        {amending && (
          <Text size="sm" c="dimmed">
            Attach the corrected file(s). Without new files, the new version keeps the current files.
          </Text>
        )}
        <FilePicker files={files} onChange={setFiles} existing={saved?.attachments ?? []} disabled={busy} />
        <PrivacyAndConsent form={form} />
        {progress !== null && <UploadProgress percent={progress} />}
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

/** Patient (picked, or fixed beforehand), record type, title, doctor, department, date of service, description. */
function RecordFieldInputs({
  form,
  fixedPatient,
}: {
  form: RecordForm;
  fixedPatient: Props['fixedPatient'];
}) {
  const values = form.getValues();
  return (
    <>
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
        <PractitionerSelect
          value={values.practitionerId ?? null}
          onChange={(p) => form.setFieldValue('practitionerId', p?.id ?? null)}
        />
        {!values.practitionerId && (
          <TextInput label="Doctor Name" maxLength={200} {...form.getInputProps('doctorName')} />
        )}
        <Select
          label="Department"
          placeholder="Select department"
          clearable
          data={DEPARTMENT_OPTIONS}
          {...form.getInputProps('department')}
        />
        <DateInput
          label="Date of Service"
          description="When the visit, test or scan took place (if not today)"
          placeholder="Pick a date"
          valueFormat="YYYY-MM-DD"
          maxDate={new Date()}
          clearable
          {...form.getInputProps('serviceDate')}
          value={values.serviceDate || null}
        />
      </SimpleGrid>
      <Textarea
        label="Description"
        autosize
        minRows={3}
        maxLength={5000}
        {...form.getInputProps('description')}
      />
    </>
  );
}

function PrivacyAndConsent({ form }: { form: RecordForm }) {
  return (
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
  );
}

function UploadProgress({ percent }: { percent: number }) {
  return (
    <Progress.Root size="xl">
      <Progress.Section value={percent} animated striped aria-label="Upload progress">
        <Progress.Label>{percent}%</Progress.Label>
      </Progress.Section>
    </Progress.Root>
  );
}
