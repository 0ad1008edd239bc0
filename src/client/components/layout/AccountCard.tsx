// The card of the public account pages (sign-in, sign-up, provider registration, new password):
// something above it (Back or the logo), a centred title and subtitle, the form, and a footer.
import { Anchor, Button, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Logo } from '../Logo';

/** "Back" to the home page, above the card. */
export function BackButton() {
  return (
    <Button
      component={Link}
      to="/"
      variant="subtle"
      leftSection={<IconArrowLeft size={16} aria-hidden />}
      w="fit-content"
      mb="sm"
    >
      Back
    </Button>
  );
}

/** The logo, a link home, above the card. */
export function HomeLogo() {
  return (
    <Anchor component={Link} to="/" underline="never" aria-label="MedLedger home" mb="md" w="fit-content">
      <Logo />
    </Anchor>
  );
}

/** "Already have an account? <link>" under a sign-up form. */
export function HaveAccountLink({ to, label }: { to: string; label: string }) {
  return (
    <Text ta="center" size="sm" mt="lg">
      Already have an account?{' '}
      <Anchor component={Link} to={to}>
        {label}
      </Anchor>
    </Text>
  );
}

export function AccountCard({
  title,
  subtitle,
  icon,
  children,
}: {
  title: string;
  subtitle: string;
  /** A portal's icon above the title (the sign-in pages). */
  icon?: ReactNode;
  children: ReactNode;
}) {
  return (
    <Paper withBorder shadow="md" p="xl" radius="lg">
      <Stack gap={icon ? 'xs' : 4} align="center" mb="lg">
        {icon && (
          <ThemeIcon size={56} radius="xl" variant="light">
            {icon}
          </ThemeIcon>
        )}
        <Title order={1} fz={26} ta="center">
          {title}
        </Title>
        <Text c="dimmed" ta="center">
          {subtitle}
        </Text>
      </Stack>
      {children}
    </Paper>
  );
}
