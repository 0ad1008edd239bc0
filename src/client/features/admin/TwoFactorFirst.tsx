// The administrator pages' notice while two-factor sign-in is off (the server refuses their
// changes until it is on, docs/decisions.md): why it is needed here, and the way to set it up.
import { Alert, Button, Stack, Text } from '@mantine/core';
import { IconShieldLock } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useAuth } from '../../auth/context';

export function TwoFactorFirst({ why }: { why: string }) {
  const { user } = useAuth();
  if (!user || user.twoFactorEnabled) return null;
  return (
    <Alert
      variant="light"
      title="Turn on two-factor sign-in first"
      icon={<IconShieldLock aria-hidden />}
      role="note"
    >
      <Stack gap="xs" align="flex-start">
        <Text size="sm">{why}</Text>
        <Button component={Link} to="/profile/edit#two-factor">
          Set up two-factor sign-in
        </Button>
      </Stack>
    </Alert>
  );
}
