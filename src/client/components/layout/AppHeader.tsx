// Shared header (docs/spec.md#screens-and-routes): logo -> /, portal label by role, hospital name
// (hospital users, large screens), user name and avatar -> /profile/edit, Back (history), Logout,
// and the mobile menu toggle for hospital users.
import { Avatar, Badge, Burger, Button, Group, Text, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { IconArrowLeft, IconLogout } from '@tabler/icons-react';
import { Link, useNavigate } from 'react-router';
import type { Role } from '../../../shared/constants';
import { displayName, type PublicUser } from '../../../shared/users';
import { useAuth } from '../../auth/context';
import { Logo } from '../Logo';
import { useMobileNav } from './MobileNav';
import { IconAction } from '../IconAction';

export const PORTAL_LABELS: Record<Role, string> = {
  hospital: 'Healthcare Portal',
  patient: 'Patient Portal',
  medledger_admin: 'MedLedger Admin',
  family: 'Family Portal',
};

export function initials(user: Pick<PublicUser, 'firstName' | 'lastName' | 'email'>): string {
  const letters = [user.firstName, user.lastName].map((p) => p?.trim()[0] ?? '').join('');
  return (letters || user.email[0] || '?').toUpperCase();
}

export function AppHeader() {
  const { user, logout } = useAuth();
  const navigate = useNavigate();
  const mobileNav = useMobileNav();
  const showBurger = user?.role === 'hospital' && mobileNav.available;

  return (
    <Group h="100%" px="md" justify="space-between" wrap="nowrap">
      <Group gap="sm" wrap="nowrap">
        {showBurger && (
          <Burger
            opened={mobileNav.opened}
            onClick={mobileNav.toggle}
            hiddenFrom="sm"
            size="sm"
            aria-label={mobileNav.opened ? 'Close navigation menu' : 'Open navigation menu'}
            aria-expanded={mobileNav.opened}
            aria-controls="app-navbar"
          />
        )}
        <UnstyledButton component={Link} to="/" aria-label="MedLedger home">
          <Logo size="sm" nameWhenWide />
        </UnstyledButton>
        {user && (
          <Badge variant="light" visibleFrom="xs">
            {PORTAL_LABELS[user.role]}
          </Badge>
        )}
      </Group>

      <Group gap="xs" wrap="nowrap">
        {user?.role === 'hospital' && user.hospitalName && (
          <Text fw={500} c="dimmed" visibleFrom="lg" data-testid="header-hospital-name">
            {user.hospitalName}
          </Text>
        )}
        {user && (
          <UnstyledButton
            component={Link}
            to="/profile/edit"
            style={{ borderRadius: 'var(--mantine-radius-md)' }}
          >
            {/* The link's name comes from its content (the initials and the name are only visual). */}
            <VisuallyHidden>Profile of {displayName(user)}</VisuallyHidden>
            <Group gap="xs" wrap="nowrap" aria-hidden>
              <Avatar color="teal" radius="xl" size="md" aria-hidden>
                {initials(user)}
              </Avatar>
              <Text fw={500} visibleFrom="sm" data-testid="header-user-name">
                {displayName(user)}
              </Text>
            </Group>
          </UnstyledButton>
        )}
        <Button
          variant="subtle"
          leftSection={<IconArrowLeft size={16} aria-hidden />}
          onClick={() => void navigate(-1)}
          visibleFrom="sm"
        >
          Back
        </Button>
        <IconAction
          icon={IconArrowLeft}
          label="Back"
          iconSize={18}
          size="lg"
          onClick={() => void navigate(-1)}
          hiddenFrom="sm"
        />
        {user && (
          <>
            <Button
              variant="light"
              color="red"
              leftSection={<IconLogout size={16} aria-hidden />}
              onClick={() => void logout()}
              visibleFrom="sm"
            >
              Logout
            </Button>
            <IconAction
              icon={IconLogout}
              label="Logout"
              iconSize={18}
              variant="light"
              color="red"
              size="lg"
              onClick={() => void logout()}
              hiddenFrom="sm"
            />
          </>
        )}
      </Group>
    </Group>
  );
}
