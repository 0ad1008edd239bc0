// /reset-password?token=...: sets a new password from the e-mailed one-time link. Every session of
// the account ends on the server, so the user signs in again afterwards.
import { Alert, Anchor, Button, Paper, Stack, Text, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconCircleCheck } from '@tabler/icons-react';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { errorMessage } from '../../api/request';
import { HomeLogo } from '../../components/layout/AccountCard';
import { NewPasswordFields } from '../providers/NewPasswordInput';
import { PublicLayout } from '../../components/layout/PublicLayout';
import { notifyError, notifySuccess } from '../../notify';
import ForgotPasswordDialog from './ForgotPasswordDialog';
import { resetProblem } from './resetForm';
import { useConfirmReset } from './api';

export default function ResetPasswordPage() {
  const [params] = useSearchParams();
  const token = params.get('token')?.trim() ?? '';
  const form = useForm({ initialValues: { password: '', confirmPassword: '' } });
  const reset = useConfirmReset();
  const done = reset.isSuccess;
  const [forgotOpen, setForgotOpen] = useState(false);

  async function handleSubmit({ password, confirmPassword }: typeof form.values) {
    const problem = resetProblem(password, confirmPassword);
    if (problem) {
      notifyError(problem.title, problem.message);
      return;
    }
    try {
      const res = await reset.mutateAsync({ token, password });
      notifySuccess('Password Reset', res.message);
    } catch (error) {
      notifyError('Reset Failed', errorMessage(error, 'Something went wrong. Please try again.'));
    }
  }

  return (
    <PublicLayout size="xs">
      <HomeLogo />
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
          <form onSubmit={form.onSubmit((v) => void handleSubmit(v))}>
            <Stack gap="md">
              <Text c="dimmed" size="sm">
                After the change you will be signed out on every device.
              </Text>
              <NewPasswordFields
                label="New Password"
                values={form.values}
                onChange={(field, v) => form.setFieldValue(field, v)}
              />
              <Button type="submit" fullWidth disabled={reset.isPending}>
                {reset.isPending ? 'Saving...' : 'Set New Password'}
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
