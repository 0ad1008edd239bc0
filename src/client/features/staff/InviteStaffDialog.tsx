// Invite staff (docs/decisions.md#staff-accounts): e-mail, name, staff role and an optional
// department, checked with the call's own schema. The server e-mails a link to /join-staff that
// stays valid for STAFF_INVITE_HOURS; a 409 (an account or an invitation already waiting) is shown
// as the server words it.
import { Button, Select, Stack, Text, TextInput } from '@mantine/core';
import { STAFF_INVITE_HOURS } from '../../../shared/constants';
import {
  STAFF_ROLE_LABELS,
  STAFF_ROLES,
  staffInviteSchema,
  type StaffInviteInput,
} from '../../../shared/staff';
import { errorMessage } from '../../api/request';
import { AppModal } from '../../components/AppModal';
import { FormActions } from '../../components/FormActions';
import { NameFields } from '../../components/NameFields';
import { SubmitForm } from '../../components/SubmitForm';
import { useSchemaForm } from '../../components/useSchemaForm';
import { notifyError, notifySuccess } from '../../notify';
import { useInviteStaff } from './api';

export const STAFF_ROLE_OPTIONS = STAFF_ROLES.map((role) => ({
  value: role,
  label: STAFF_ROLE_LABELS[role],
}));

export function InviteStaffDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  return (
    <AppModal opened={opened} onClose={onClose} title="Invite Staff">
      {opened && <InviteStaffForm onClose={onClose} />}
    </AppModal>
  );
}

export function InviteStaffForm({ onClose }: { onClose: () => void }) {
  const invite = useInviteStaff();
  const form = useSchemaForm(staffInviteSchema, {
    email: '',
    firstName: '',
    lastName: '',
    staffRole: 'clinician',
    department: '',
  });

  async function submit(input: StaffInviteInput) {
    try {
      const sent = await invite.mutateAsync(input);
      notifySuccess('Invitation Sent', `${sent.email} was e-mailed a link to join your hospital's staff.`);
      onClose();
    } catch (error) {
      notifyError(
        'Invitation Not Sent',
        errorMessage(error, 'The invitation could not be sent. Please try again.'),
      );
    }
  }

  return (
    <SubmitForm onSubmit={form.onSubmit((input) => void submit(input))}>
      <Stack>
        <Text size="sm" c="dimmed">
          They get an e-mail with a link to create their own account, valid for {STAFF_INVITE_HOURS} hours.
        </Text>
        <TextInput label="Email" type="email" required autoComplete="off" {...form.getInputProps('email')} />
        <NameFields firstName={form.getInputProps('firstName')} lastName={form.getInputProps('lastName')} />
        <Select
          label="Role"
          required
          allowDeselect={false}
          data={STAFF_ROLE_OPTIONS}
          {...form.getInputProps('staffRole')}
        />
        <TextInput
          label="Department"
          description="Optional, e.g. Cardiology"
          autoComplete="off"
          {...form.getInputProps('department')}
        />
        <FormActions onCancel={onClose} busy={invite.isPending}>
          <Button type="submit" loading={invite.isPending}>
            Send Invitation
          </Button>
        </FormActions>
      </Stack>
    </SubmitForm>
  );
}
