// The signed-out landing screen (docs/spec.md#screens-and-routes, "/"): two login choices and the
// provider link.
import { Anchor, Paper, Stack, Text, ThemeIcon, Title, UnstyledButton, Group } from '@mantine/core';
import { IconBuildingHospital, IconChevronRight, IconUser } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Logo } from '../../components/Logo';
import { PublicLayout } from '../../components/layout/PublicLayout';

function LoginChoice({
  to,
  icon,
  label,
  subtitle,
}: {
  to: string;
  icon: ReactNode;
  label: string;
  subtitle: string;
}) {
  return (
    <UnstyledButton component={Link} to={to} style={{ borderRadius: 'var(--mantine-radius-lg)' }}>
      <Paper withBorder shadow="xs" p="md" radius="lg">
        <Group wrap="nowrap">
          <ThemeIcon size={48} radius="md" variant="light">
            {icon}
          </ThemeIcon>
          <Stack gap={2} style={{ flex: 1 }}>
            <Text fw={600} fz="lg">
              {label}
            </Text>
            <Text size="sm" c="dimmed">
              {subtitle}
            </Text>
          </Stack>
          <IconChevronRight aria-hidden />
        </Group>
      </Paper>
    </UnstyledButton>
  );
}

export default function LoginOptionsPage() {
  return (
    <PublicLayout size="xs">
      <Stack align="center" gap="xs" mb="xl">
        <Logo size="lg" />
        <Title order={1} fz={22} ta="center" fw={600}>
          Empowering Health Through Blockchain
        </Title>
        <Text c="dimmed" size="sm">
          Secure • Blockchain Verified
        </Text>
      </Stack>
      <Stack gap="md">
        <LoginChoice
          to="/hospital-login"
          icon={<IconBuildingHospital size={28} aria-hidden />}
          label="Healthcare Provider Login"
          subtitle="Medical record management"
        />
        <LoginChoice
          to="/patient-login"
          icon={<IconUser size={28} aria-hidden />}
          label="Patient Login"
          subtitle="Your personal health records"
        />
      </Stack>
      <Text ta="center" mt="xl" size="sm">
        <Anchor component={Link} to="/provider-apply">
          Join MedLedger as a Healthcare Provider
        </Anchor>
      </Text>
      <Text ta="center" mt="xs" size="sm">
        <Anchor component={Link} to="/family-login">
          Family member login
        </Anchor>
      </Text>
      {/* Anyone holding a record or its hash can check it on the ledger (issue 57: no way there). */}
      <Text ta="center" mt="xs" size="sm">
        <Anchor component={Link} to="/verify">
          Verify a record
        </Anchor>
      </Text>
    </PublicLayout>
  );
}
