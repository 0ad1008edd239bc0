// Change a staff member's role (and department): the dialog is the confirmation, saying what the
// new role can do. The server refuses (409) to take the last active hospital admin's admin role.
import { Button, Select, Stack, Text, TextInput } from '@mantine/core';
import {
  STAFF_ROLE_LABELS,
  staffRoleChangeSchema,
  type StaffMember,
  type StaffRole,
  type StaffRoleChange,
} from '../../../shared/staff';
import { errorMessage } from '../../api/request';
import { AppModal } from '../../components/AppModal';
import { FormActions } from '../../components/FormActions';
import { SubmitForm } from '../../components/SubmitForm';
import { useSchemaForm } from '../../components/useSchemaForm';
import { notifyError, notifySuccess } from '../../notify';
import { useChangeStaffRole } from './api';
import { STAFF_ROLE_OPTIONS } from './InviteStaffDialog';

/** What each role may do, in the product's words. */
export const STAFF_ROLE_DESCRIPTIONS: Record<StaffRole, string> = {
  hospital_admin:
    'Everything a clinician can do, plus the staff page, saving the settings, billing and the audit trail.',
  clinician: 'Patients, appointments and records: open, download, upload and share.',
  front_desk: 'Patients and appointments; sees which records a patient has, not what is in them.',
};

export function ChangeRoleDialog({ member, onClose }: { member: StaffMember | null; onClose: () => void }) {
  return (
    <AppModal opened={member !== null} onClose={onClose} title="Change Role">
      {member && <ChangeRoleForm key={member.id} member={member} onClose={onClose} />}
    </AppModal>
  );
}

function ChangeRoleForm({ member, onClose }: { member: StaffMember; onClose: () => void }) {
  const change = useChangeStaffRole();
  const form = useSchemaForm(staffRoleChangeSchema, {
    staffRole: member.staffRole,
    department: member.department ?? '',
  });
  const role = form.getValues().staffRole;

  async function submit(input: StaffRoleChange) {
    try {
      const saved = await change.mutateAsync({ id: member.id, change: input });
      notifySuccess('Role Changed', `${saved.name} is now ${STAFF_ROLE_LABELS[saved.staffRole]}.`);
      onClose();
    } catch (error) {
      notifyError(
        'Role Not Changed',
        errorMessage(error, 'The role could not be changed. Please try again.'),
      );
    }
  }

  return (
    <SubmitForm onSubmit={form.onSubmit((input) => void submit(input))}>
      <Stack>
        <Text size="sm">
          {member.name} ({member.email}) is {STAFF_ROLE_LABELS[member.staffRole]}.
        </Text>
        <Select
          label="New role"
          required
          allowDeselect={false}
          data={STAFF_ROLE_OPTIONS}
          description={STAFF_ROLE_DESCRIPTIONS[role]}
          {...form.getInputProps('staffRole')}
        />
        <TextInput
          label="Department"
          description="Optional"
          autoComplete="off"
          {...form.getInputProps('department')}
        />
        <FormActions onCancel={onClose} busy={change.isPending}>
          <Button type="submit" loading={change.isPending}>
            Change Role
          </Button>
        </FormActions>
      </Stack>
    </SubmitForm>
  );
}
