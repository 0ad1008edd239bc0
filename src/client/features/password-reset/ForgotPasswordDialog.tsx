// Placeholder created with the login screens; the providers agent replaces this file's contents
// (keep the default export and the {opened, onClose} props). Opened by every "Forgot password?".
import { Button, Group, Modal, Text } from '@mantine/core';

export interface ForgotPasswordDialogProps {
  opened: boolean;
  onClose: () => void;
}

export default function ForgotPasswordDialog({ opened, onClose }: ForgotPasswordDialogProps) {
  return (
    <Modal opened={opened} onClose={onClose} title="Reset your password" centered>
      <Text size="sm">Password reset by e-mail is being built. Please contact your administrator.</Text>
      <Group justify="flex-end" mt="md">
        <Button variant="default" onClick={onClose}>
          Close
        </Button>
      </Group>
    </Modal>
  );
}
