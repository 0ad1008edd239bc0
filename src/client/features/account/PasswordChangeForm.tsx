// Profile page, "Change password" (issue 9): the signup's strength rules (shared schema and
// meter); every other session of the account is signed out.
import { Button, Paper, PasswordInput, Stack, Text, Title } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { passwordChangeSchema } from '../../../shared/account';
import { MESSAGES } from '../../../shared/auth';
import { errorMessage } from '../../api/request';
import { PasswordStrength } from '../../components/PasswordStrength';
import { notifySuccess } from '../../notify';
import { NewPasswordInput } from '../providers/NewPasswordInput';
import { useChangePassword } from './api';

type Field = 'currentPassword' | 'newPassword' | 'confirm';

export function PasswordChangeForm() {
  const change = useChangePassword();
  const [currentPassword, setCurrent] = useState('');
  const [newPassword, setNew] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const parsed = passwordChangeSchema.safeParse({ currentPassword, newPassword });
    const next: Partial<Record<Field, string>> = {};
    if (!parsed.success) for (const i of parsed.error.issues) next[i.path[0] as Field] ??= i.message;
    if (newPassword !== confirm) next.confirm = MESSAGES.passwordMismatch;
    setErrors(next);
    if (!parsed.success || next.confirm) return;
    try {
      const answer = await change.mutateAsync(parsed.data);
      notifySuccess('Password Changed', answer.message);
      setCurrent('');
      setNew('');
      setConfirm('');
    } catch (e) {
      setErrors({ currentPassword: errorMessage(e, 'The password could not be changed.') });
    }
  }

  return (
    <Paper withBorder p="lg" radius="md" component="section" aria-labelledby="password-title">
      <Title order={2} fz="lg" mb="md" id="password-title">
        Change password
      </Title>
      <form noValidate onSubmit={(e) => void submit(e)}>
        <Stack gap="sm" maw={400}>
          <PasswordInput
            label="Current password"
            autoComplete="current-password"
            required
            value={currentPassword}
            error={errors.currentPassword}
            onChange={(e) => setCurrent(e.currentTarget.value)}
          />
          <Stack gap={4}>
            <NewPasswordInput label="New password" value={newPassword} onChange={setNew} />
            {errors.newPassword && (
              <Text c="red" size="sm" role="alert">
                {errors.newPassword}
              </Text>
            )}
          </Stack>
          {newPassword && <PasswordStrength password={newPassword} />}
          <PasswordInput
            label="Confirm new password"
            autoComplete="new-password"
            required
            value={confirm}
            error={errors.confirm}
            onChange={(e) => setConfirm(e.currentTarget.value)}
          />
          <Button type="submit" loading={change.isPending} style={{ alignSelf: 'flex-start' }}>
            Change password
          </Button>
        </Stack>
      </form>
    </Paper>
  );
}
