// Profile page, "Change password" (issue 9): the signup's strength rules (shared schema and
// meter); every other session of the account is signed out.
import { Button, PasswordInput, Stack } from '@mantine/core';
import type { z } from 'zod';
import { passwordChangeFormSchema } from '../../../shared/account';
import { errorMessage } from '../../api/request';
import { PasswordStrength } from '../../components/PasswordStrength';
import { SubmitForm } from '../../components/SubmitForm';
import { useSchemaForm } from '../../components/useSchemaForm';
import { notifySuccess } from '../../notify';
import { NewPasswordInput } from '../providers/NewPasswordInput';
import { useChangePassword } from './api';
import { Panel } from '../../components/Panel';

export function PasswordChangeForm() {
  const change = useChangePassword();
  const form = useSchemaForm(passwordChangeFormSchema, { currentPassword: '', newPassword: '', confirm: '' });

  async function submit({ currentPassword, newPassword }: z.output<typeof passwordChangeFormSchema>) {
    try {
      const answer = await change.mutateAsync({ currentPassword, newPassword });
      notifySuccess('Password Changed', answer.message);
      form.reset();
    } catch (e) {
      form.setFieldError('currentPassword', errorMessage(e, 'The password could not be changed.'));
    }
  }

  const newPassword = form.getValues().newPassword;
  return (
    <Panel title="Change password">
      <SubmitForm onSubmit={form.onSubmit(submit)}>
        <Stack gap="sm" maw={400}>
          <PasswordInput
            label="Current password"
            autoComplete="current-password"
            required
            {...form.getInputProps('currentPassword')}
          />
          <NewPasswordInput
            label="New password"
            value={newPassword}
            error={form.errors.newPassword}
            onChange={(value) => form.setFieldValue('newPassword', value)}
          />
          {newPassword && <PasswordStrength password={newPassword} />}
          <PasswordInput
            label="Confirm new password"
            autoComplete="new-password"
            required
            {...form.getInputProps('confirm')}
          />
          <Button type="submit" loading={change.isPending} style={{ alignSelf: 'flex-start' }}>
            Change password
          </Button>
        </Stack>
      </SubmitForm>
    </Panel>
  );
}
