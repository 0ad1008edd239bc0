// Add Patient and Edit Patient (docs/spec.md#hospital-dashboard and #validation): empty values
// sent as null, the date of birth as a calendar date. Adding asks for the first and last name
// (issue 57: a half-filled form must not issue an MRN and a code), and only the submit button
// submits: Enter in a field (the date of birth's, say) does not. Adding shows the
// generated MRN for 10 seconds, and the dialog turns into the patient's activation code (shown once).
import { Alert, Button, List, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { AppModal } from '../../components/AppModal';
import { DateInput } from '@mantine/dates';
import { useState } from 'react';
import { createdPatientSchema } from '../../../shared/activation';
import { ADD_PATIENT_TOAST_MS } from '../../../shared/constants';
import {
  PATIENT_FIELDS,
  patientInputSchema,
  patientDisplayName,
  possibleDuplicateSchema,
  type Patient,
  type PatientInput,
  type PossibleDuplicate,
} from '../../../shared/patients';
import { ApiError, errorMessage, errorStatus } from '../../api/request';
import { GENDER_SELECT_OPTIONS } from '../../format';
import { notifyError, notifySuccess } from '../../notify';
import { useSavePatient, type PatientPayload } from './api';
import { ActivationCodeView, type ActivationDetails } from './ActivationCode';
import { useSchemaForm } from '../../components/useSchemaForm';
import { FormActions } from '../../components/FormActions';
import { enterDoesNotSubmit } from '../../components/SubmitForm';
import { LanguageSelect } from './LanguageSelect';

type Values = Record<keyof PatientInput, string>;

const empty = (): Values => Object.fromEntries(PATIENT_FIELDS.map((f) => [f, ''])) as Values;
const fromPatient = (p: Patient): Values =>
  Object.fromEntries(PATIENT_FIELDS.map((f) => [f, p[f] ?? ''])) as Values;

const TEXT_FIELDS: { name: keyof PatientInput; label: string; type?: string; autoComplete?: string }[] = [
  { name: 'firstName', label: 'First Name', autoComplete: 'off' },
  { name: 'lastName', label: 'Last Name', autoComplete: 'off' },
  { name: 'email', label: 'Email', type: 'email', autoComplete: 'off' },
  { name: 'phone', label: 'Phone', type: 'tel', autoComplete: 'off' },
  { name: 'insuranceProvider', label: 'Insurance Provider' },
  { name: 'insurancePolicy', label: 'Insurance Policy Number' },
  { name: 'primaryCarePhysician', label: 'Primary Care Physician' },
  { name: 'address', label: 'Address' },
  { name: 'emergencyContactName', label: 'Emergency Contact Name' },
  { name: 'emergencyContactPhone', label: 'Emergency Contact Phone', type: 'tel' },
];

const NAME_REQUIRED = { firstName: 'First name is required', lastName: 'Last name is required' };
/** Add Patient's form: the API's fields, with first and last name asked for. */
const addPatientSchema = patientInputSchema.superRefine((input, ctx) => {
  for (const name of ['firstName', 'lastName'] as const) {
    if (!input[name]) ctx.addIssue({ code: 'custom', path: [name], message: NAME_REQUIRED[name] });
  }
});

interface Props {
  /** 'new' to add, a patient to edit, null when closed. */
  patient: Patient | 'new' | null;
  onClose: () => void;
}

export function PatientFormDialog({ patient, onClose }: Props) {
  const editing = patient && patient !== 'new' ? patient : null;
  // After Add Patient: the new patient's activation code, until the hospital closes the dialog.
  const [added, setAdded] = useState<ActivationDetails | null>(null);
  const close = () => {
    setAdded(null);
    onClose();
  };
  return (
    <AppModal
      opened={patient !== null}
      onClose={close}
      title={added ? 'Patient Added Successfully' : editing ? 'Edit Patient' : 'Add Patient'}
      size="lg"
    >
      {added ? (
        <ActivationCodeView details={added} onDone={close} />
      ) : (
        patient !== null && (
          <PatientForm key={editing?.id ?? 'new'} editing={editing} onClose={close} onAdded={setAdded} />
        )
      )}
    </AppModal>
  );
}

function PatientForm({
  editing,
  onClose,
  onAdded,
}: {
  editing: Patient | null;
  onClose: () => void;
  onAdded: (details: ActivationDetails) => void;
}) {
  const save = useSavePatient();
  // Set when the server found patients this one may duplicate; the next submit confirms.
  const [duplicates, setDuplicates] = useState<PossibleDuplicate[] | null>(null);
  const form = useSchemaForm(
    editing ? patientInputSchema : addPatientSchema,
    editing ? fromPatient(editing) : empty(),
    {
      onValuesChange: () => setDuplicates(null), // a changed form is checked again
    },
  );
  // What the inputs hold (the schema's input type is wider: it also takes what it preprocesses).
  const values = form.getValues() as Values;

  async function submit(input: PatientInput) {
    const payload: PatientPayload = {
      ...input,
      ...(duplicates && !editing ? { confirmDuplicate: true } : {}),
    };
    try {
      const saved = await save.mutateAsync({ id: editing?.id, payload });
      if (editing) {
        notifySuccess('Patient Updated', 'The patient’s details were saved.');
        onClose();
        return;
      }
      notifySuccess(
        'Patient Added Successfully',
        `Medical Record Number: ${saved.patientId}. Give the patient this MRN and their activation code so they can create their account.`,
        { autoClose: ADD_PATIENT_TOAST_MS },
      );
      const created = createdPatientSchema.safeParse(saved);
      if (created.success) {
        onAdded({
          ...created.data,
          patientName: patientDisplayName(created.data),
          mrn: created.data.patientId,
        });
      } else {
        onClose();
      }
    } catch (error) {
      const found = !editing && duplicatesIn(error);
      if (found) {
        setDuplicates(found);
        return;
      }
      if (editing) {
        notifyError(
          'Update Failed',
          errorMessage(error, 'The patient could not be updated. Please try again.'),
        );
      } else if (errorStatus(error) === undefined) {
        notifyError('Error', 'Failed to add patient. Please try again.');
      } else {
        notifyError(
          'Failed to Add Patient',
          errorMessage(error, 'An error occurred while creating the patient.'),
        );
      }
    }
  }

  return (
    <form noValidate onKeyDown={enterDoesNotSubmit} onSubmit={form.onSubmit((input) => void submit(input))}>
      <Stack>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          {TEXT_FIELDS.slice(0, 2).map((f) => (
            <TextInput
              key={f.name}
              label={f.label}
              autoComplete={f.autoComplete}
              required={!editing}
              {...form.getInputProps(f.name)}
            />
          ))}
          <DateInput
            label="Date of Birth"
            placeholder="Pick a date"
            valueFormat="YYYY-MM-DD"
            maxDate={new Date()}
            clearable
            {...form.getInputProps('dateOfBirth')}
            value={values.dateOfBirth || null}
          />
          <Select
            label="Gender"
            placeholder="Select"
            clearable
            data={GENDER_SELECT_OPTIONS}
            {...form.getInputProps('gender')}
            value={values.gender || null}
          />
          <LanguageSelect {...form.getInputProps('preferredLanguage')} />
          {TEXT_FIELDS.slice(2).map((f) => (
            <TextInput
              key={f.name}
              label={f.label}
              type={f.type}
              autoComplete={f.autoComplete}
              {...form.getInputProps(f.name)}
            />
          ))}
        </SimpleGrid>
        {duplicates && (
          <Alert color="orange" title="Possible duplicate" role="alert">
            <Text size="sm">
              This hospital already has a patient with the same name and date of birth, or the same e-mail:
            </Text>
            <List size="sm" mt="xs">
              {duplicates.map((d) => (
                <List.Item key={d.id}>
                  {patientDisplayName({ ...d, user: null })} · MRN {d.patientId}
                  {d.dateOfBirth ? ` · born ${d.dateOfBirth}` : ''}
                  {d.email ? ` · ${d.email}` : ''}
                </List.Item>
              ))}
            </List>
            <Text size="sm" mt="xs">
              If this is a different person, choose “Add Anyway”. Otherwise cancel and use the existing
              patient.
            </Text>
          </Alert>
        )}
        <FormActions onCancel={onClose}>
          <Button type="submit" loading={save.isPending} color={duplicates ? 'orange' : undefined}>
            {editing ? 'Save Changes' : duplicates ? 'Add Anyway' : 'Add Patient'}
          </Button>
        </FormActions>
      </Stack>
    </form>
  );
}

/** The possible duplicates of a 409 answer to Add Patient, or null for any other error. */
function duplicatesIn(error: unknown): PossibleDuplicate[] | null {
  if (!(error instanceof ApiError) || error.status !== 409) return null;
  try {
    const parsed = possibleDuplicateSchema
      .array()
      .safeParse((JSON.parse(error.body) as { duplicates?: unknown }).duplicates);
    return parsed.success && parsed.data.length > 0 ? parsed.data : null;
  } catch {
    return null;
  }
}
