// Shared header (docs/spec.md#screens-and-routes): logo -> /, portal label by role, staff role and
// hospital name (hospital users, large screens; the role under the name on medium ones), user name and avatar -> /profile/edit, Back (history), Logout,
// and the mobile menu toggle for hospital users.
import { Avatar, Badge, Burger, Button, Group, Text, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { IconArrowLeft, IconLogout } from '@tabler/icons-react';
import { Link, useNavigate } from 'react-router';
import { STAFF_ROLE_LABELS, type Role } from '../../../shared/constants';
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

/** A hospital staff member's role and hospital ("Clinician · St. Mary's"); null for other users. */
export function staffLine(user: PublicUser | null): string | null {
  if (user?.role !== 'hospital') return null;
  const parts = [user.staffRole ? STAFF_ROLE_LABELS[user.staffRole] : null, user.hospitalName];
  const line = parts.filter(Boolean).join(' · ');
  return line || null;
}

export function AppHeader() {
  const { user, logout } = useAuth();
  const staff = staffLine(user);
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
        {staff && (
          <Text fw={500} c="dimmed" visibleFrom="lg" data-testid="header-hospital-name">
            {staff}
          </Text>
        )}
        {user && (
          <UnstyledButton
            component={Link}
            to="/profile/edit"
            style={{ borderRadius: 'var(--mantine-radius-md)' }}
          >
            {/* The link's name comes from its content (the initials and the name are only visual). */}
            <VisuallyHidden>
              Profile of {displayName(user)}
              {staff ? ` (${staff})` : ''}
            </VisuallyHidden>
            <Group gap="xs" wrap="nowrap" aria-hidden>
              <Avatar color="teal" radius="xl" size="md" aria-hidden>
                {initials(user)}
              </Avatar>
              <div>
                <Text fw={500} visibleFrom="sm" data-testid="header-user-name">
                  {displayName(user)}
                </Text>
                {/* Below the large screens' role and hospital line, the role under the name. */}
                {user.role === 'hospital' && user.staffRole && (
                  <Text size="xs" c="dimmed" visibleFrom="sm" hiddenFrom="lg" data-testid="header-staff-role">
                    {STAFF_ROLE_LABELS[user.staffRole]}
                  </Text>
                )}
              </div>
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
