// The administrator pages while two-factor sign-in is off: the server answers none of their calls
// until it is on (docs/decisions.md#sign-in-security), so the page shows why and the way to set it
// up, and nothing else (its lists are not even asked for).
import { Alert, Button, Stack, Text, Title } from '@mantine/core';
import { IconShieldLock } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { useAuth } from '../../auth/context';
import { AppLayout } from '../../components/layout/AppLayout';
import { AdminNav } from './AdminNav';

export function TwoFactorFirst({
  title,
  why,
  children,
}: {
  title: string;
  why: string;
  children: ReactNode;
}) {
  const { user } = useAuth();
  if (!user || user.twoFactorEnabled) return children;
  return (
    <AppLayout>
      <Stack gap="xl">
        <AdminNav />
        <Title order={1}>{title}</Title>
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
      </Stack>
    </AppLayout>
  );
}
