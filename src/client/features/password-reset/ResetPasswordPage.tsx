// /reset-password?token=...: sets a new password from the e-mailed one-time link. Every session of
// the account ends on the server, so the user signs in again afterwards.
import { Alert, Anchor, Button, Paper, Stack, Text, Title } from '@mantine/core';
import { IconCircleCheck } from '@tabler/icons-react';
import { useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { apiJson, errorMessage } from '../../api/request';
import { Logo } from '../../components/Logo';
import { NewPasswordInput } from '../providers/NewPasswordInput';
import { PasswordStrength } from '../../components/PasswordStrength';
import { PublicLayout } from '../../components/layout/PublicLayout';
import { notifyError, notifySuccess } from '../../notify';
import ForgotPasswordDialog from './ForgotPasswordDialog';
import { resetProblem } from './resetForm';

export default function ResetPasswordPage() {
  const [params] = useSearchParams();
  const token = params.get('token')?.trim() ?? '';
  const [password, setPassword] = useState('');
  const [confirmPassword, setConfirmPassword] = useState('');
  const [saving, setSaving] = useState(false);
  const [done, setDone] = useState(false);
  const [forgotOpen, setForgotOpen] = useState(false);

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const problem = resetProblem(password, confirmPassword);
    if (problem) {
      notifyError(problem.title, problem.message);
      return;
    }
    setSaving(true);
    try {
      const res = await apiJson<{ message: string }>('POST', '/api/password-reset/confirm', {
        token,
        password,
      });
      setDone(true);
      notifySuccess('Password Reset', res.message);
    } catch (error) {
      notifyError('Reset Failed', errorMessage(error, 'Something went wrong. Please try again.'));
    }
    setSaving(false);
  }

  return (
    <PublicLayout size="xs">
      <Anchor component={Link} to="/" underline="never" aria-label="MedLedger home" mb="md" w="fit-content">
        <Logo />
      </Anchor>
      <Paper withBorder shadow="md" p="xl" radius="lg">
        <Title order={1} fz={26} mb="xs">
          Choose a New Password
        </Title>
        {!token ? (
          <Stack gap="md">
            <Alert color="red" title="Invalid Link" role="alert">
              This reset link is invalid. Please request a new one.
            </Alert>
            <Button variant="light" onClick={() => setForgotOpen(true)}>
              Request a new link
            </Button>
          </Stack>
        ) : done ? (
          <Stack gap="md">
            <Alert color="teal" icon={<IconCircleCheck aria-hidden />} title="Password changed" role="status">
              Your password has been reset and you have been signed out everywhere. Log in with your new
              password.
            </Alert>
            <Button component={Link} to="/">
              Go to login
            </Button>
          </Stack>
        ) : (
          <form onSubmit={(e) => void handleSubmit(e)}>
            <Stack gap="md">
              <Text c="dimmed" size="sm">
                After the change you will be signed out on every device.
              </Text>
              <NewPasswordInput label="New Password" value={password} onChange={(v) => setPassword(v)} />
              <PasswordStrength
                password={password}
                criteria={['length', 'uppercase', 'lowercase', 'number', 'symbol']}
              />
              <NewPasswordInput
                label="Confirm Password"
                value={confirmPassword}
                onChange={(v) => setConfirmPassword(v)}
              />
              <Button type="submit" fullWidth disabled={saving}>
                {saving ? 'Saving...' : 'Set New Password'}
              </Button>
              <Anchor component="button" type="button" size="sm" onClick={() => setForgotOpen(true)}>
                Link expired? Request a new one
              </Anchor>
            </Stack>
          </form>
        )}
      </Paper>
      <ForgotPasswordDialog opened={forgotOpen} onClose={() => setForgotOpen(false)} />
    </PublicLayout>
  );
}
