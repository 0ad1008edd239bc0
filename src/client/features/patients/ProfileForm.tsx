// The Edit Profile modal's Profile tab: phone, primary care physician, insurance provider and
// policy number (docs/spec.md#validation), address, preferred language and emergency contact
// (issue 57): the only fields a patient may change.
import { Button, Stack, TextInput } from '@mantine/core';
import {
  PROFILE_FIELDS,
  profileUpdateSchema,
  type ProfileField,
  type ProfileUpdate,
} from '../../../shared/patient-profile';
import type { Patient } from '../../../shared/patients';
import { errorMessage } from '../../api/request';
import { notifyError, notifySuccess } from '../../notify';
import { useSaveProfile } from './api';
import { useSchemaForm } from '../../components/useSchemaForm';
import { FormActions } from '../../components/FormActions';
import { LanguageSelect } from './LanguageSelect';

const LABELS: Record<ProfileField, string> = {
  phone: 'Phone',
  primaryCarePhysician: 'Primary Care Physician',
  insuranceProvider: 'Insurance Provider',
  insurancePolicy: 'Insurance Policy Number',
  address: 'Address',
  preferredLanguage: 'Preferred Language',
  emergencyContactName: 'Emergency Contact Name',
  emergencyContactPhone: 'Emergency Contact Phone',
};
const ORDER: ProfileField[] = [
  'phone',
  'address',
  'preferredLanguage',
  'primaryCarePhysician',
  'insuranceProvider',
  'insurancePolicy',
  'emergencyContactName',
  'emergencyContactPhone',
];

type Values = Record<ProfileField, string>;

export function ProfileForm(props: { profile: Patient | null; userId: string; onDone: () => void }) {
  const form = useSchemaForm(
    profileUpdateSchema,
    Object.fromEntries(PROFILE_FIELDS.map((f) => [f, props.profile?.[f] ?? ''])) as Values,
  );
  const save = useSaveProfile(props.userId);

  async function submit(update: ProfileUpdate) {
    if (!props.profile) {
      notifyError('Error', 'Patient ID not found');
      return;
    }
    try {
      await save.mutateAsync({ patientRowId: props.profile.id, update });
      notifySuccess('Profile updated', 'Your profile changes were saved and recorded on the blockchain.');
      props.onDone();
    } catch (error) {
      notifyError('Error', errorMessage(error, 'Failed to update profile.'));
    }
  }

  return (
    <form noValidate onSubmit={form.onSubmit((update) => void submit(update))}>
      <Stack>
        {ORDER.map((field) =>
          field === 'preferredLanguage' ? (
            <LanguageSelect key={field} {...form.getInputProps(field)} />
          ) : (
            <TextInput
              key={field}
              label={LABELS[field]}
              type={field === 'phone' || field === 'emergencyContactPhone' ? 'tel' : 'text'}
              {...form.getInputProps(field)}
            />
          ),
        )}
        <FormActions onCancel={props.onDone} busy={save.isPending}>
          <Button type="submit" disabled={save.isPending}>
            {save.isPending ? 'Saving...' : 'Save Profile'}
          </Button>
        </FormActions>
      </Stack>
    </form>
  );
}
