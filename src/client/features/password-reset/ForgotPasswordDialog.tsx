// Opened by every "Forgot password?": asks for the e-mail and requests a one-time reset link. The
// answer is the same whether or not the address has an account, and so is what this dialog shows.
import { Alert, Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { IconMailCheck } from '@tabler/icons-react';
import { useState, type FormEvent } from 'react';
import { forgotPasswordSchema } from '../../../shared/providers';
import { apiJson, errorMessage } from '../../api/request';
import { notifyError } from '../../notify';

export interface ForgotPasswordDialogProps {
  opened: boolean;
  onClose: () => void;
}

export default function ForgotPasswordDialog({ opened, onClose }: ForgotPasswordDialogProps) {
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [sending, setSending] = useState(false);
  const [answer, setAnswer] = useState<string | null>(null);

  function close() {
    onClose();
    // Start afresh next time.
    setAnswer(null);
    setError(undefined);
    setEmail('');
  }

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const parsed = forgotPasswordSchema.safeParse({ email });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message);
      return;
    }
    setError(undefined);
    setSending(true);
    try {
      const res = await apiJson<{ message: string }>('POST', '/api/password-reset', parsed.data);
      setAnswer(res.message);
    } catch (err) {
      notifyError('Error', errorMessage(err, 'The reset link could not be requested. Please try again.'));
    }
    setSending(false);
  }

  return (
    <Modal opened={opened} onClose={close} title="Reset your password" centered>
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
        <form onSubmit={(e) => void handleSubmit(e)} noValidate>
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
              value={email}
              error={error}
              onChange={(e) => setEmail(e.currentTarget.value)}
            />
            <Group justify="flex-end">
              <Button variant="default" onClick={close}>
                Cancel
              </Button>
              <Button type="submit" disabled={sending}>
                {sending ? 'Sending...' : 'Send Reset Link'}
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}
