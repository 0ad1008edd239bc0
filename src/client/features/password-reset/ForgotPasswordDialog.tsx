// Opened by every "Forgot password?": asks for the e-mail and requests a one-time reset link. The
// answer is the same whether or not the address has an account, and so is what this dialog shows.
import { Alert, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { AppModal } from '../../components/AppModal';
import { IconMailCheck } from '@tabler/icons-react';
import { useState } from 'react';
import { forgotPasswordSchema } from '../../../shared/providers';
import { errorMessage } from '../../api/request';
import { useSchemaForm } from '../../components/useSchemaForm';
import { notifyError } from '../../notify';
import { useRequestReset } from './api';
import { FormActions } from '../../components/FormActions';

export interface ForgotPasswordDialogProps {
  opened: boolean;
  onClose: () => void;
}

export default function ForgotPasswordDialog({ opened, onClose }: ForgotPasswordDialogProps) {
  // The message stays until the next submit.
  const form = useSchemaForm(forgotPasswordSchema, { email: '' }, { clearInputErrorOnChange: false });
  const request = useRequestReset();
  const [answer, setAnswer] = useState<string | null>(null);

  function close() {
    onClose();
    // Start afresh next time.
    setAnswer(null);
    form.reset();
  }

  async function handleSubmit(input: { email: string }) {
    try {
      const res = await request.mutateAsync(input);
      setAnswer(res.message);
    } catch (err) {
      notifyError('Error', errorMessage(err, 'The reset link could not be requested. Please try again.'));
    }
  }

  return (
    <AppModal opened={opened} onClose={close} title="Reset your password" centered>
      {answer ? (
        <Stack gap="md">
          <Alert color="teal" icon={<IconMailCheck aria-hidden />} title="Check your email" role="status">
            {answer}
          </Alert>
          <Group justify="flex-end">
            <Button onClick={close}>Done</Button>
          </Group>
        </Stack>
      ) : (
        <form onSubmit={form.onSubmit((v) => void handleSubmit(v))} noValidate>
          <Stack gap="md">
            <Text size="sm">
              Enter the email address of your account. We will send you a link to choose a new password.
            </Text>
            <TextInput
              label="Email Address"
              type="email"
              required
              autoComplete="email"
              data-autofocus
              {...form.getInputProps('email')}
            />
            <FormActions onCancel={close}>
              <Button type="submit" disabled={request.isPending}>
                {request.isPending ? 'Sending...' : 'Send Reset Link'}
              </Button>
            </FormActions>
          </Stack>
        </form>
      )}
    </AppModal>
  );
}
