// The row under every dialog's form: Cancel, then the form's own submit button (children). `busy`
// disables Cancel while the form is being saved.
import { Button, Group } from '@mantine/core';
import type { ReactNode } from 'react';

export function FormActions({
  onCancel,
  busy,
  children,
}: {
  onCancel: () => void;
  busy?: boolean;
  children: ReactNode;
}) {
  return (
    <Group justify="flex-end">
      <Button variant="default" onClick={onCancel} disabled={busy}>
        Cancel
      </Button>
      {children}
    </Group>
  );
}
